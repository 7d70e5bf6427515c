package summary

import (
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLookupJoinsInTheProgramsFavour(t *testing.T) {
	a := &File{Funcs: []Func{
		{Name: "release", File: "a.cc", Arity: 1, Frees: []int{0}, Keeps: []int{}, Encodes: map[int]string{0: "copy_gpu"}},
		{Name: "post", File: "a.cc", Arity: 1, Defers: map[int]string{0: "stores it"}},
	}}
	b := &File{Funcs: []Func{
		{Name: "release", File: "b.cc", Arity: 1, Frees: []int{0}, Keeps: []int{0}, Waits: true},
		{Name: "release", File: "b.cc", Arity: 2, MayFree: true},
	}}
	ix := NewIndex(a, b)
	if ix.Len() != 4 {
		t.Fatalf("Len = %d, want 4", ix.Len())
	}
	r := ix.Lookup("ns::Pool::release", 1)
	switch {
	case r == nil:
		t.Fatal("release/1 not found")
	case !r.FreesArg(0):
		t.Error("both definitions free argument 0: the join must too")
	case !r.KeepsArg(0) || !r.Waits:
		t.Error("one definition keeps and waits: the join must say it may")
	case len(r.Encodes) != 0:
		t.Error("only one definition encodes: the join must not")
	}
	if r := ix.Lookup("release", 2); r == nil || !r.MayFree {
		t.Errorf("release/2 = %+v, want the two-parameter one", r)
	}
	if r := ix.Lookup("release", -1); r == nil || r.MayFree || r.FreesArg(0) {
		t.Errorf("release/any = %+v, want the join of all three, which frees nothing", r)
	}
	if r := ix.Lookup("post", 1); r == nil || r.Defers[0] != "stores it" {
		t.Errorf("post/1 = %+v", r)
	}
	if ix.Lookup("absent", 0) != nil || (*Index)(nil).Lookup("release", 1) != nil {
		t.Error("a name no file defines must have no facts")
	}
	// The join does not change what the index holds.
	if got := ix.Lookup("release", 1); !slices.Equal(a.Funcs[0].Keeps, []int{}) || got == &a.Funcs[0] {
		t.Error("the join wrote into a file's summary")
	}
}

func TestCacheRoundTrip(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "nested", "cache"))
	root := "/src/project"
	tree, err := c.Load(root, "k1")
	if err != nil || len(tree.Files) != 0 {
		t.Fatalf("a missing cache must load empty without error, got %d files, %v", len(tree.Files), err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "pool.cc")
	if err := os.WriteFile(path, []byte("void f();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := StampOf(info)
	if !ok {
		t.Skip("this system gives no inode or status-change time: nothing cached is trusted")
	}
	sum := &File{Funcs: []Func{{Name: "f", File: "pool.cc", Defers: ArgNotes{0: "stores it"}}}, Aliases: Names{"Ptr": "Block*"}}
	put := map[string]*Entry{
		"pool.cc":        {Hash: HashContent([]byte("void f();\n")), Stamp: st, Summary: sum},
		"../../etc/x.h":  {Stamp: st, Summary: sum},
		"/abs/y.h":       {Stamp: st, Summary: sum},
		"src/./z.h":      {Stamp: st, Summary: sum},
		"src\\windows.h": {Stamp: st, Summary: sum},
	}
	if err := c.Update(root, "k1", put, nil); err != nil {
		t.Fatal(err)
	}
	back, err := c.Load(root, "k1")
	if err != nil {
		t.Fatal(err)
	}
	e := back.Fresh("pool.cc", info)
	if e == nil {
		t.Fatalf("round trip lost the entry: %+v", back.Files)
	}
	if f, err := e.File(); err != nil || f.Funcs[0].Name != "f" || f.Funcs[0].Defers[0] != "stores it" || f.Aliases["Ptr"] != "Block*" {
		t.Fatalf("round trip lost the entry's summary: %+v, %v", f, err)
	}
	if len(back.Files) != 1 {
		t.Errorf("entries for paths outside the root or not clean must not be kept: %v", slices.Collect(maps.Keys(back.Files)))
	}
	if k2, _ := c.Load(root, "k2"); len(k2.Files) != 0 {
		t.Error("a cache written under another key must not be read")
	}
	if other, _ := c.Load("/src/other", "k1"); len(other.Files) != 0 {
		t.Error("another tree's cache must not be read")
	}
	// Another key keeps its own file: two builds do not undo each other.
	if err := c.Update(root, "k2", map[string]*Entry{"b.cc": {Stamp: st, Summary: sum}}, nil); err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Load(root, "k1"); len(again.Files) != 1 {
		t.Error("writing another key's cache dropped this one's")
	}
	// Updates merge; keep drops what it refuses.
	if err := c.Update(root, "k1", map[string]*Entry{"other.cc": {Stamp: st, Summary: sum}}, nil); err != nil {
		t.Fatal(err)
	}
	if merged, _ := c.Load(root, "k1"); len(merged.Files) != 2 {
		t.Errorf("an update must merge with the entries already there, got %d", len(merged.Files))
	}
	if err := c.Update(root, "k1", nil, func(rel string) bool { return rel == "pool.cc" }); err != nil {
		t.Fatal(err)
	}
	if kept, _ := c.Load(root, "k1"); len(kept.Files) != 1 || kept.Files["pool.cc"] == nil {
		t.Errorf("keep must drop the files it refuses: %v", slices.Collect(maps.Keys(kept.Files)))
	}
	// A touched file is not fresh.
	later := info.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	info2, _ := os.Lstat(path)
	if back.Fresh("pool.cc", info2) != nil {
		t.Error("a file modified since it was cached must not be fresh")
	}
	// Content rewritten with the same size, and the old modification
	// time set back (cp -p, rsync -a, tar do it): not fresh either.
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(path, []byte("void g();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	info3, _ := os.Lstat(path)
	if info3.Size() != info.Size() || !info3.ModTime().Equal(info.ModTime()) {
		t.Fatal("the test could not restore size and modification time")
	}
	if back.Fresh("pool.cc", info3) != nil {
		t.Error("a file rewritten with its size and modification time restored must not be fresh")
	}
	// A corrupt cache loads empty, and says so.
	if err := os.WriteFile(c.path(root, "k1"), []byte("not a cache"), 0o600); err != nil {
		t.Fatal(err)
	}
	if bad, err := c.Load(root, "k1"); len(bad.Files) != 0 || err == nil {
		t.Errorf("a corrupt cache must load empty with an error, got %d files, %v", len(bad.Files), err)
	}
}

// A cache file is read as input from strangers: a count in it never
// sizes an allocation before the bytes that back it are there, and no
// cut or changed byte makes the reader panic.
func TestCacheCountsAreChecked(t *testing.T) {
	w := &wireTree{Key: "k", Files: []wireEntry{{Rel: "a.cc", Entry: Entry{Hash: "h", Stamp: Stamp{1, 2, 3, 4}, Summary: &File{
		Funcs: []Func{{Name: "f", Class: "C", File: "a.cc", Arity: 2, Frees: []int{0}, FreesDeref: []int{1}, MayFree: true,
			Encodes: ArgNotes{1: "copy"}, Defers: ArgNotes{0: "stores it"}, Keeps: []int{1}, Reaches: []int{0, 1},
			KeepsRefs: ArgNotes{0: "m"}, MayKeepRefs: ArgNotes{1: "n"}, Waits: true, ByValue: true, Storage: true,
			Queues:   []Queued{{Reads: []int{0}, Writes: []int{1}, Queue: -1, What: "memcpyAsync", PinnedOnly: true}},
			Forwards: []Forward{{Param: 1, Arg: 0, Call: Call{Name: "ns::release", Nargs: 2, Member: true, Receiver: "Pool", Within: "C"}}}},
			{Name: "g", File: "a.cc", Arity: 1, ByValue: true, RetParam: 1, Decl: true},
			{Name: "h", File: "a.cc", Arity: 2, Refers: 2, RefersPtr: true, ReferType: "Box", ReferDeref: true, Bound: []int{0, 1}, RefersView: true}},
		Classes: []Class{{Name: "C", Members: Names{"m": "int*", "": "x"}}},
		Aliases: Names{"P": "int*"},
	}}}}}
	b := encodeTree(w)
	back, err := decodeAll(b)
	if err != nil || !reflect.DeepEqual(back, w) {
		t.Fatalf("round trip: %v\n got %+v\nwant %+v", err, back, w)
	}
	for i := range b {
		if _, err := decodeAll(b[:i]); err == nil {
			t.Errorf("cut after %d of %d bytes: read without error", i, len(b))
		}
		flipped := slices.Clone(b)
		flipped[i] ^= 0xff
		_, _ = decodeAll(flipped) // an error or a tree, never a panic
	}
	// A header claiming 300 million entries, functions or strings with a
	// few bytes behind it is refused before anything is allocated.
	huge := binary.AppendUvarint(nil, 300_000_000)
	head := append([]byte(magic), binary.AppendUvarint(nil, FormatVersion)...)
	head = appendString(head, "k")
	for _, body := range [][]byte{
		append(slices.Clone(huge), 1, 2, 3),                        // the string table
		append(append([]byte{0}, huge...), 1, 2, 3),                // the entries
		append([]byte{0, 1, 0, 0, 0, 0, 0, 0}, append(huge, 1)...), // one entry's functions
	} {
		var n runtime.MemStats
		runtime.ReadMemStats(&n)
		before := n.TotalAlloc
		if _, err := decodeAll(append(slices.Clone(head), body...)); err == nil {
			t.Errorf("a count larger than the data must be refused: % x", body)
		}
		runtime.ReadMemStats(&n)
		if n.TotalAlloc-before > 1<<20 {
			t.Errorf("refusing a count of %d allocated %d bytes", 300_000_000, n.TotalAlloc-before)
		}
	}
	// Many functions with nothing in them take a few bytes each in the
	// file and hundreds once decoded: the decoder refuses a file that
	// would take more than decodeRatio times its size.
	empty := &wireTree{Key: "k", Files: []wireEntry{{Rel: "a.cc", Entry: Entry{Summary: &File{Funcs: make([]Func, 100_000)}}}}}
	dense := encodeTree(empty)
	var n runtime.MemStats
	runtime.ReadMemStats(&n)
	before := n.TotalAlloc
	if _, err := decodeAll(dense); err == nil {
		t.Errorf("%d empty functions in %d bytes decoded", 100_000, len(dense))
	}
	runtime.ReadMemStats(&n)
	if got := n.TotalAlloc - before; got > uint64(decodeRatio*len(dense)) {
		t.Errorf("refusing %d bytes of empty functions allocated %d bytes", len(dense), got)
	}
	if _, err := decodeAll([]byte("\x0fgob-encoded stream")); err == nil {
		t.Error("a file in another format must be refused")
	}
}

func TestCheckDir(t *testing.T) {
	base := t.TempDir()
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if CheckDir(open) == nil {
		t.Error("a folder others can write must be refused")
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if CheckDir(file) == nil {
		t.Error("a file must be refused")
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(base, link); err != nil {
		t.Fatal(err)
	}
	if CheckDir(link) == nil {
		t.Error("a link must be refused")
	}
	if err := CheckDir(filepath.Join(base, "new")); err != nil {
		t.Errorf("a folder still to be created is fine: %v", err)
	}
	if err := CheckDir(base); err != nil {
		t.Errorf("the user's own folder is fine: %v", err)
	}
}

func TestLookupCallMatchesTheClass(t *testing.T) {
	ix := NewIndex(&File{Funcs: []Func{
		{Name: "record_free", Class: "CachingAllocator", Arity: 1},
		{Name: "record_free", Class: "Planner", Arity: 1, Reaches: []int{0}, Frees: []int{0}},
		{Name: "free_block", Arity: 1, Frees: []int{0}},
		{Name: "Map", Class: "Registry", Arity: 1, Defers: map[int]string{0: "stores it in a member"}},
	}})
	if r := ix.LookupCall(Call{Name: "CachingAllocator::record_free", Nargs: 1}); r == nil || r.ReachesArg(0) || r.FreesArg(0) {
		t.Errorf("a call qualified by its class must match that class only: %+v", r)
	}
	if r := ix.LookupCall(Call{Name: "record_free", Nargs: 1, Member: true, Receiver: "Planner"}); r == nil || !r.FreesArg(0) {
		t.Errorf("a method of a known receiver class: %+v", r)
	}
	if r := ix.LookupCall(Call{Name: "record_free", Nargs: 1}); r != nil {
		t.Errorf("an unqualified call outside both classes names neither method: %+v", r)
	}
	if r := ix.LookupCall(Call{Name: "record_free", Nargs: 1, Within: "Planner"}); r == nil || !r.FreesArg(0) {
		t.Errorf("an unqualified call inside the class names its own method: %+v", r)
	}
	if r := ix.LookupCall(Call{Name: "free_block", Nargs: 1, Member: true, Receiver: "Pool"}); r != nil {
		t.Errorf("a free function is not a method of Pool: %+v", r)
	}
	// The receiver's class is not known: the call may run a method no
	// file defines, so nothing that would make a finding is said.
	if r := ix.LookupCall(Call{Name: "Map", Nargs: 1, Member: true}); r == nil || len(r.Defers) != 0 {
		t.Errorf("unknown receiver: %+v, want the method with its bug-making facts dropped", r)
	}
	if r := ix.LookupCall(Call{Name: "Map", Nargs: 1, Member: true, Receiver: "Builder"}); r != nil {
		t.Errorf("Builder::Map is no function of the tree: %+v", r)
	}
}

// Old temporary files of killed scans and tree caches beyond Keep are
// removed when a cache is written.
func TestCacheIsPruned(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir)
	old := time.Now().Add(-2 * time.Hour)
	stale := filepath.Join(dir, ".tree-123")
	fresh := filepath.Join(dir, ".tree-456")
	older := filepath.Join(dir, "tree-v3-0123.gob") // an older release's format
	for _, p := range []string{stale, fresh, older} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{stale, older} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	sum := &File{}
	for i := range Keep + 3 {
		if err := c.Update("/r", fmt.Sprint(i), map[string]*Entry{"a.cc": {Summary: sum}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a temporary file a killed scan left two hours ago must be removed")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a live scan's temporary file must stay")
	}
	if _, err := os.Stat(older); err == nil {
		t.Error("the oldest cache, of an older format, must be removed first")
	}
	trees, _ := filepath.Glob(filepath.Join(dir, "tree-v*.sum"))
	if len(trees) != Keep {
		t.Errorf("%d tree caches kept, want %d", len(trees), Keep)
	}
}

// TestCacheIsPrunedByAgeAndSize: a tree cache not written for KeepDays
// days goes, and so do the oldest once the kept ones pass KeepBytes; the
// one just written stays whatever its size.
func TestCacheIsPrunedByAgeAndSize(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir)
	put := func(name string, size int64, age time.Duration) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
		when := time.Now().Add(-age)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := put("tree-v12-stale.sum", 10, (KeepDays+1)*24*time.Hour)
	recent := put("tree-v12-recent.sum", 10, time.Hour)
	big := put("tree-v12-big.sum", KeepBytes, 2*time.Hour) // sparse: no disk used
	if err := c.Update("/r", "k", map[string]*Entry{"a.cc": {Summary: &File{}}}, nil); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{stale: false, recent: true, big: false} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s kept: %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	if trees, _ := filepath.Glob(filepath.Join(dir, "tree-v*.sum")); len(trees) != 2 {
		t.Errorf("tree caches left: %q, want the one just written and the recent one", trees)
	}
}

// TestManyDefinitionsOfOneName: identical definitions of one name collapse
// into one; a name defined in more different ways than a call could tell
// apart is unknown rather than joined.
func TestManyDefinitionsOfOneName(t *testing.T) {
	var same, different []Func
	for i := range 5000 {
		same = append(same, Func{Name: "rb", File: fmt.Sprintf("gen%d.cc", i), Arity: 1, Frees: []int{0}})
		different = append(different, Func{Name: "wb", File: "w.cc", Arity: 1, Frees: []int{0}, Reaches: []int{i}})
	}
	ix := NewIndex(&File{Funcs: same}, &File{Funcs: different})
	if r := ix.Lookup("rb", 1); r == nil || !r.FreesArg(0) {
		t.Errorf("rb/1 = %+v: 5000 identical definitions must answer as one", r)
	}
	if ix.Len() != 1+5000 {
		t.Errorf("Len = %d, want the 5000 copies of rb collapsed into 1", ix.Len())
	}
	if r := ix.Lookup("wb", 1); r != nil {
		t.Errorf("wb/1 = %+v, want unknown: 5000 different definitions", r)
	}
	few := NewIndex(&File{Funcs: different[:3]})
	if r := few.Lookup("wb", 1); r == nil || !r.FreesArg(0) {
		t.Errorf("wb/1 of 3 definitions = %+v, want their join", r)
	}
}

// TestClassFactsThatDisagree: what a method returns, or keeps of its
// arguments, said differently by two files (overloads defined apart) is
// not known; said alike, it stands; facts-only entries add to a definition.
func TestClassFactsThatDisagree(t *testing.T) {
	def := &File{Classes: []Class{{Name: "Value", Members: Names{"t_": "Tensor", "(str)": "method", "(=str)": "value", "(<Set/1)": "0&:ref_"}}}}
	inl := &File{Classes: []Class{{Name: "Value", Members: Names{"(str)": "method", "(=str)": "no", "(<Set/1)": "0:ptr_", "(=name)": "storage"}}}}
	for _, order := range [][]*File{{def, inl}, {inl, def}} {
		m := NewIndex(order...).Members("Value")
		if m["(=str)"] != "no" || m["(<Set/1)"] != "!" {
			t.Errorf("disputed facts: (=str)=%q (<Set/1)=%q, want no and !", m["(=str)"], m["(<Set/1)"])
		}
		if m["(=name)"] != "storage" || m["t_"] != "Tensor" {
			t.Errorf("undisputed facts lost: %v", m)
		}
	}
}

// A header that declares two constructors of one arity, merged with the
// source that defines them (one keeps its argument): which one a call
// reaches is not known, so neither's keeping is taken.
func TestOverloadsDeclaredApart(t *testing.T) {
	header := &File{Classes: []Class{{Name: "Shape", Members: Names{"tensor_": "Tensor*", "(#Shape/2)": "2"}}}}
	source := &File{Classes: []Class{{Name: "Shape", Members: Names{"(<Shape/2)": "0&:tensor_", "(<Wrap/1)": "0:tensor_"}}}}
	for _, order := range [][]*File{{header, source}, {source, header}} {
		m := NewIndex(order...).Members("Shape")
		if m["(<Shape/2)"] != "!" || m["(<Wrap/1)"] != "0:tensor_" {
			t.Errorf("(<Shape/2)=%q (<Wrap/1)=%q, want ! and 0:tensor_", m["(<Shape/2)"], m["(<Wrap/1)"])
		}
	}
}

// An update from a tree read earlier merges with what another scan wrote
// since, and writes nothing when it would change nothing.
func TestUpdateFrom(t *testing.T) {
	c := Open(t.TempDir())
	root := "/src/project"
	path := filepath.Join(t.TempDir(), "a.cc")
	if err := os.WriteFile(path, []byte("void f();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Lstat(path)
	st, ok := StampOf(info)
	if !ok {
		t.Skip("this system gives no inode or status-change time")
	}
	sum := &File{Funcs: []Func{{Name: "f", File: "a.cc"}}}
	entry := func(h string) *Entry { return &Entry{Hash: h, Stamp: st, Summary: sum} }
	if err := c.Update(root, "k", map[string]*Entry{"a.cc": entry("1")}, nil); err != nil {
		t.Fatal(err)
	}
	base, err := c.Load(root, "k")
	if err != nil {
		t.Fatal(err)
	}
	stat := func() os.FileInfo {
		info, err := os.Lstat(c.path(root, "k"))
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	before, _ := StampOf(stat())
	// The same entry again: the file is left as it is.
	if err := c.UpdateFrom(base, root, "k", map[string]*Entry{"a.cc": entry("1")}, nil); err != nil {
		t.Fatal(err)
	}
	if after, _ := StampOf(stat()); after != before {
		t.Error("an update that changes nothing rewrote the cache")
	}
	// Another scan adds b.cc after base was read: an update from base
	// keeps it.
	if err := c.Update(root, "k", map[string]*Entry{"b.cc": entry("2")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.UpdateFrom(base, root, "k", map[string]*Entry{"a.cc": entry("3")}, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := c.Load(root, "k")
	if len(got.Files) != 2 || got.Files["a.cc"].Hash != "3" || got.Files["b.cc"] == nil {
		t.Errorf("update from a stale tree: %v, want a.cc (hash 3) and b.cc", slices.Collect(maps.Keys(got.Files)))
	}
	// From a fresh read, a changed entry is written and the rest kept.
	if err := c.UpdateFrom(got, root, "k", map[string]*Entry{"a.cc": entry("4")}, nil); err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Load(root, "k"); len(again.Files) != 2 || again.Files["a.cc"].Hash != "4" {
		t.Errorf("update from a current tree: %+v", again.Files)
	}
}

// appendFacts, which lets one definition stand for its copies, must tell
// apart two functions that differ in any field but where they are
// defined: a field added to Func and left out of it would merge
// functions that do different things.
func TestSameFactsSeesEveryField(t *testing.T) {
	base := Func{Name: "f", File: "a.cc", Arity: 1}
	ft := reflect.TypeFor[Func]()
	for i := range ft.NumField() {
		f := ft.Field(i)
		other := base
		v := reflect.ValueOf(&other).Elem().Field(i)
		switch f.Type.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int:
			v.SetInt(v.Int() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			switch f.Type.Elem() {
			case reflect.TypeFor[int]():
				v.Set(reflect.ValueOf([]int{0}))
			case reflect.TypeFor[string]():
				v.Set(reflect.ValueOf([]string{"0.buf"}))
			case reflect.TypeFor[Queued]():
				v.Set(reflect.ValueOf([]Queued{{Queue: 1, What: "q"}}))
			case reflect.TypeFor[Forward]():
				v.Set(reflect.ValueOf([]Forward{{Param: 1, Call: Call{Name: "g"}}}))
			default:
				t.Fatalf("field %s: a list of %s this test cannot fill", f.Name, f.Type.Elem())
			}
		case reflect.Map:
			v.Set(reflect.ValueOf(ArgNotes{0: "n"}))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", f.Name, f.Type.Kind())
		}
		if got := string(appendFacts(nil, &base)) == string(appendFacts(nil, &other)); got != (f.Name == "File") {
			t.Errorf("facts equal with %s changed = %v", f.Name, got)
		}
	}
}

// A function only declared says what it returns, and nothing else: a
// lookup of what it does finds nothing, and a definition elsewhere
// answers for it.
func TestDeclarationsSayOnlyWhatTheyReturn(t *testing.T) {
	h := &File{Funcs: []Func{
		{Name: "Name", File: "m.h", Arity: 1, ByValue: true, Storage: true, Decl: true},
		{Name: "Get", File: "m.h", Arity: 2, ByValue: true, RetParam: 1, Decl: true},
		{Name: "Ref", File: "m.h", Arity: 1, ByValue: true, Decl: true},
		{Name: "Ref", File: "n.h", Arity: 1, Decl: true}, // an overload returning a reference
		{Name: "Both", File: "m.h", Arity: 0, ByValue: true, Decl: true},
		{Name: "Make", File: "m.h", Arity: 0, ByValue: true, Type: "std::unique_ptr<A>", Decl: true},
		{Name: "Make", File: "n.h", Arity: 0, ByValue: true, Type: "std::unique_ptr<A>", Decl: true},
		{Name: "Pick", File: "m.h", Arity: 0, ByValue: true, Type: "A", Decl: true},
		{Name: "Pick", File: "n.h", Arity: 0, ByValue: true, Type: "B", Decl: true},
	}}
	cc := &File{Funcs: []Func{{Name: "Both", File: "b.cc", Arity: 0, Frees: []int{}}}}
	ix := NewIndex(h, cc)
	if f := ix.Lookup("Name", 1); f != nil {
		t.Errorf("Lookup(Name) = %+v: a declaration says nothing of what a function does", f)
	}
	if r, ok := ix.Returns(Call{Name: "ns::Name", Nargs: 1}); !ok || !r.ByValue || !r.Storage || r.RetParam != 0 {
		t.Errorf("Returns(Name) = %+v %v, want a value that owns a buffer", r, ok)
	}
	if r, ok := ix.Returns(Call{Name: "Get", Nargs: 2}); !ok || !r.ByValue || r.RetParam != 1 {
		t.Errorf("Returns(Get) = %+v %v, want its first template parameter", r, ok)
	}
	if r, ok := ix.Returns(Call{Name: "Ref", Nargs: 1}); !ok || r.ByValue {
		t.Errorf("Returns(Ref) = %+v %v: one overload returns a reference, so the call is no known value", r, ok)
	}
	if r, ok := ix.Returns(Call{Name: "Make", Nargs: 0}); !ok || r.Type != "std::unique_ptr<A>" {
		t.Errorf("Returns(Make) = %+v %v, want the type both declarations name", r, ok)
	}
	if r, ok := ix.Returns(Call{Name: "Pick", Nargs: 0}); !ok || r.Type != "" {
		t.Errorf("Returns(Pick) = %+v %v: declarations that name different types name none", r, ok)
	}
	if _, ok := ix.Returns(Call{Name: "Get", Nargs: 3}); ok {
		t.Error("no declaration of Get takes 3 arguments")
	}
	if f := ix.Lookup("Both", 0); f == nil || f.Decl {
		t.Errorf("Lookup(Both) = %+v, want the definition", f)
	}
}

// Functions of one name with the same facts are kept once, in the order
// first seen, whether a name has a few distinct facts or many.
func TestIndexKeepsOneOfEachFacts(t *testing.T) {
	for _, distinct := range []int{1, 3, 20} {
		var fs []Func
		for i := range 60 {
			fs = append(fs, Func{Name: "Run", File: fmt.Sprintf("f%d.cc", i), Arity: i % distinct})
		}
		got := NewIndex(&File{Funcs: fs}).byName["Run"]
		if len(got) != distinct {
			t.Fatalf("%d distinct facts: kept %d", distinct, len(got))
		}
		for i, fn := range got {
			if fn.Arity != i {
				t.Errorf("%d distinct facts: kept[%d] has arity %d, want the first of each in order", distinct, i, fn.Arity)
			}
		}
	}
}

// TestDocsNameTheFormat keeps docs/untrusted.md's name of the cache file
// in step with FormatVersion.
func TestDocsNameTheFormat(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "untrusted.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("`tree-v%d-<root>-<key>.sum` (%d is the format's", FormatVersion, FormatVersion)
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/untrusted.md does not say %q", want)
	}
}

// TestDocsNameTheLimits keeps docs/untrusted.md's figures for the cache
// in step with the code: how many tree caches a folder keeps (Keep) and
// the largest cache file read (MaxBytes).
func TestDocsNameTheLimits(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "untrusted.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ")
	figure := func(re string) string {
		if m := regexp.MustCompile(re).FindStringSubmatch(doc); m != nil {
			return m[1]
		}
		return "nothing"
	}
	if got := figure(`the (\d+) most recently written tree caches are kept`); got != strconv.Itoa(Keep) {
		t.Errorf("docs/untrusted.md says %s tree caches are kept; Keep is %d", got, Keep)
	}
	if got := figure(`tree caches not written for (\d+) days`); got != strconv.Itoa(KeepDays) {
		t.Errorf("docs/untrusted.md says caches older than %s days are removed; KeepDays is %d", got, KeepDays)
	}
	if got := figure(`more than (\d+) MiB of tree caches`); got != strconv.Itoa(KeepBytes>>20) {
		t.Errorf("docs/untrusted.md says %s MiB of tree caches are kept; KeepBytes is %d", got, KeepBytes)
	}
	if got := figure(`A cache file is read only if [^.]*? of at most (\d+) MiB`); got != strconv.Itoa(MaxBytes>>20) || MaxBytes%(1<<20) != 0 {
		t.Errorf("docs/untrusted.md says a cache file of at most %s MiB is read; MaxBytes is %d bytes", got, MaxBytes)
	}
}

// chain returns files where f0 frees its argument and each fi hands its
// argument to f(i-1), which no file declares beside its definition.
func chain(n int) []*File {
	var out []*File
	for i := range n {
		fn := Func{Name: fmt.Sprintf("f%d", i), File: fmt.Sprintf("f%d.cc", i), Arity: 1}
		if i == 0 {
			fn.Frees = []int{0}
		} else {
			fn.Forwards = []Forward{{Param: 0, Arg: 0, Call: Call{Name: fmt.Sprintf("f%d", i-1), Nargs: 1}}}
		}
		out = append(out, &File{Funcs: []Func{fn}})
	}
	return out
}

// TestForwardsCompose: the index follows hand-offs across files to a
// fixpoint, whatever order the files come in; a cycle of hand-offs ends;
// past MaxComposeRounds it stops and says so; and the files' own
// summaries, which the cache keeps, are left as their files say.
func TestForwardsCompose(t *testing.T) {
	files := chain(12)
	for _, order := range []string{"callees first", "callers first"} {
		if order == "callers first" {
			slices.Reverse(files)
		}
		ix := NewIndex(files...)
		for i := range 12 {
			if !ix.Lookup(fmt.Sprintf("f%d", i), 1).FreesArg(0) {
				t.Errorf("%s: f%d does not free its argument", order, i)
			}
		}
		if ix.Cut() {
			t.Errorf("%s: a chain of 12 was cut", order)
		}
	}
	for _, f := range files {
		if f.Funcs[0].Name != "f0" && len(f.Funcs[0].Frees) != 0 {
			t.Errorf("%s: the file's own summary was written: frees %v", f.Funcs[0].Name, f.Funcs[0].Frees)
		}
	}
	loop := []*File{
		{Funcs: []Func{{Name: "a", Arity: 1, Forwards: []Forward{{Call: Call{Name: "b", Nargs: 1}}}}}},
		{Funcs: []Func{{Name: "b", Arity: 1, Forwards: []Forward{{Call: Call{Name: "a", Nargs: 1}}}}}},
	}
	if ix := NewIndex(loop...); ix.Lookup("a", 1).FreesArg(0) || ix.Cut() {
		t.Error("a cycle of hand-offs that frees nothing freed, or was cut")
	}
	long := chain(MaxComposeRounds + 3)
	ix := NewIndex(long...)
	if !ix.Cut() || ix.Lookup(fmt.Sprintf("f%d", MaxComposeRounds+2), 1).FreesArg(0) || !ix.Lookup(fmt.Sprintf("f%d", MaxComposeRounds), 1).FreesArg(0) {
		t.Errorf("a chain of %d: cut %v; want cut, with the first %d links composed", MaxComposeRounds+3, ix.Cut(), MaxComposeRounds)
	}
}

// TestLookupFollowsNameLookup matches calls to the functions C++'s name
// lookup lets them name: a function of a namespace from that namespace,
// one inside it, or where a using line opens it; by a qualifier that ends
// with its namespace; never a function local to another source file.
func TestLookupFollowsNameLookup(t *testing.T) {
	ix := NewIndex(&File{Funcs: []Func{
		{Name: "release", Namespace: "rt::detail", Arity: 1, Frees: []int{0}},
		{Name: "drop", Arity: 1, Frees: []int{0}},
		{Name: "discard", Arity: 1, Frees: []int{0}, Local: true},
	}})
	for _, tc := range []struct {
		call  Call
		frees bool
	}{
		{Call{Name: "release", Nargs: 1}, true}, // scope not known
		{Call{Name: "release", Nargs: 1, Scoped: true}, false},
		{Call{Name: "release", Nargs: 1, Scoped: true, Scope: "rt::detail"}, true},
		{Call{Name: "release", Nargs: 1, Scoped: true, Scope: "rt::detail::more"}, true},
		{Call{Name: "release", Nargs: 1, Scoped: true, Scope: "rt"}, false},
		{Call{Name: "release", Nargs: 1, Scoped: true, Scope: "rt::detailed"}, false},
		{Call{Name: "release", Nargs: 1, Scoped: true, Namespaces: []string{"detail"}}, true},
		{Call{Name: "release", Nargs: 1, Scoped: true, Namespaces: []string{"rt"}}, false},
		{Call{Name: "release", Nargs: 1, Scoped: true, Names: []string{"rt::detail::release"}}, true},
		{Call{Name: "release", Nargs: 1, Scoped: true, Names: []string{"rt::detail::other"}}, false},
		{Call{Name: "detail::release", Nargs: 1, Scoped: true}, true},
		{Call{Name: "::rt::detail::release", Nargs: 1, Scoped: true}, true},
		{Call{Name: "other::release", Nargs: 1, Scoped: true}, false},
		{Call{Name: "drop", Nargs: 1, Scoped: true, Scope: "a::b"}, true},
		{Call{Name: "discard", Nargs: 1, Scoped: true}, false},
		{Call{Name: "discard", Nargs: 1}, false},
	} {
		if got := ix.LookupCall(tc.call).FreesArg(0); got != tc.frees {
			t.Errorf("%+v: frees %v, want %v", tc.call, got, tc.frees)
		}
	}
}

// decodeAll is decodeTree with every entry's summary decoded, as a tree
// of entries a scan made: the first error, of the tree or of a summary.
func decodeAll(b []byte) (*wireTree, error) {
	w, err := decodeTree(b)
	if err != nil {
		return nil, err
	}
	for i := range w.Files {
		e := &w.Files[i].Entry
		f, err := e.File()
		if err != nil {
			return nil, err
		}
		e.Summary, e.body = f, nil
	}
	return w, nil
}

// A qualified call is answered only by declarations in a namespace of
// that name, or in none holdfast read: std::get is not another
// namespace's get.
func TestQualifiedReturnsKeepTheirNamespace(t *testing.T) {
	h := &File{Funcs: []Func{
		{Name: "get", File: "log.h", Namespace: "logs", Arity: 1, ByValue: true, Decl: true},
		{Name: "make", File: "m.h", Namespace: "lib::detail", Arity: 1, ByValue: true, Decl: true},
	}}
	ix := NewIndex(h)
	if r, ok := ix.Returns(Call{Name: "std::get", Nargs: 1}); ok {
		t.Errorf("Returns(std::get) = %+v: only logs::get is declared", r)
	}
	if _, ok := ix.Returns(Call{Name: "logs::get", Nargs: 1}); !ok {
		t.Error("Returns(logs::get) not found")
	}
	if _, ok := ix.Returns(Call{Name: "detail::make", Nargs: 1}); !ok {
		t.Error("Returns(detail::make) not found: lib::detail ends in detail")
	}
}

// Classes of one name in different namespaces: a lookup finds the one of
// the innermost namespace around its scope that has one, with the
// entries whose namespace is not known; from elsewhere, all of them.
func TestMembersInNamespaces(t *testing.T) {
	a := &File{Classes: []Class{{Name: "Impl", Namespace: "top::a", Members: Names{"lib_": "const Lib&", "(body)": "yes"}}}}
	aSrc := &File{Classes: []Class{{Name: "Impl", Namespace: "top::a", Members: Names{"(<Impl/1)": "0&:lib_"}}}}
	b := &File{Classes: []Class{{Name: "Impl", Namespace: "top::b", Members: Names{"lib_": "Lib", "uses_": "int", "(body)": "yes"}}}}
	open := &File{Classes: []Class{{Name: "Impl", Namespace: "?", Members: Names{"(run)": "method"}}}}
	ix := NewIndex(a, b, aSrc, open)
	cases := []struct {
		class, scope string
		want         Names
	}{
		{"Impl", "top::a", Names{"lib_": "const Lib&", "(body)": "yes", "(<Impl/1)": "0&:lib_", "(run)": "method"}},
		{"Impl", "top::a::Impl", Names{"lib_": "const Lib&", "(body)": "yes", "(<Impl/1)": "0&:lib_", "(run)": "method"}},
		{"Impl", "top::b", Names{"lib_": "Lib", "uses_": "int", "(body)": "yes", "(run)": "method"}},
		{"b::Impl", "top::a", Names{"lib_": "Lib", "uses_": "int", "(body)": "yes", "(run)": "method"}},
		{"top::a::Impl", "elsewhere", Names{"lib_": "const Lib&", "(body)": "yes", "(<Impl/1)": "0&:lib_", "(run)": "method"}},
		{"Impl", "elsewhere", Names(ix.Members("Impl"))},
	}
	for _, c := range cases {
		if got := ix.MembersIn(c.class, c.scope); !maps.Equal(got, map[string]string(c.want)) {
			t.Errorf("MembersIn(%q, %q) = %v, want %v", c.class, c.scope, got, c.want)
		}
	}
	if m := ix.Members("Impl"); m["(<Impl/1)"] == "0&:lib_" && m["lib_"] == "const Lib&" {
		t.Errorf("Members merged across namespaces kept a's facts whole: %v", m)
	}
}
