package summary

import (
	"os"
	"path/filepath"
	"slices"
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
	tree := c.Load(root, "k1")
	if len(tree.Files) != 0 {
		t.Fatalf("a missing cache must load empty, got %d files", len(tree.Files))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "pool.cc")
	if err := os.WriteFile(path, []byte("void f();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	tree.Files["pool.cc"] = &Entry{Hash: HashContent([]byte("void f();\n")), Size: info.Size(), ModTime: info.ModTime().UnixNano(),
		Summary: &File{Funcs: []Func{{Name: "f", File: "pool.cc"}}}}
	if err := c.Save(root, tree); err != nil {
		t.Fatal(err)
	}
	back := c.Load(root, "k1")
	if e := back.Fresh("pool.cc", info); e == nil || e.Summary.Funcs[0].Name != "f" {
		t.Fatalf("round trip lost the entry: %+v", back.Files)
	}
	if len(c.Load(root, "k2").Files) != 0 {
		t.Error("a cache written under another key must not be read")
	}
	if len(c.Load("/src/other", "k1").Files) != 0 {
		t.Error("another tree's cache must not be read")
	}
	// A touched file is not fresh.
	later := info.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	info2, _ := os.Stat(path)
	if back.Fresh("pool.cc", info2) != nil {
		t.Error("a file modified since it was cached must not be fresh")
	}
	// A corrupt cache loads empty.
	if err := os.WriteFile(c.path(root), []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(c.Load(root, "k1").Files) != 0 {
		t.Error("a corrupt cache must load empty")
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
