package summary

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// randomTree makes n file summaries over a few names, so that names
// repeat across files (overloads, copies, methods of several classes),
// functions forward to functions of other files, some functions are filed
// under another file than their summary's, and classes and aliases are
// declared in several files, agreeing or not.
func randomTree(r *rand.Rand, n int) []*File {
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	classes := []string{"", "", "P", "Q"}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	var out []*File
	for i := range n {
		rel := fmt.Sprintf("f%d.cc", i)
		f := &File{}
		for range r.IntN(6) {
			fn := Func{Name: pick(names), Class: pick(classes), File: rel, Arity: r.IntN(3), Decl: r.IntN(5) == 0}
			if r.IntN(6) == 0 {
				fn.File = "other.h"
			}
			if r.IntN(3) == 0 {
				fn.Frees = []int{r.IntN(2)}
			}
			if r.IntN(4) == 0 {
				fn.Keeps = []int{0}
			}
			if r.IntN(3) == 0 {
				fn.Forwards = []Forward{{Param: r.IntN(2), Arg: r.IntN(2), Call: Call{Name: pick(names), Nargs: r.IntN(3)}}}
			}
			fn.ByValue, fn.RetParam = r.IntN(2) == 0, r.IntN(3)-1
			f.Funcs = append(f.Funcs, fn)
		}
		if r.IntN(3) == 0 {
			f.Classes = append(f.Classes, Class{Name: pick(classes[2:]), Members: Names{"m": pick([]string{"int*", "Box", "(#get/1)"}), "(=get/0)": pick([]string{"value", "ref"})}})
		}
		if r.IntN(3) == 0 {
			f.Aliases = Names{"T": pick([]string{"int*", "Box*"})}
		}
		for range r.IntN(3) {
			x := Exit{Name: pick(names), Macro: r.IntN(3) == 0, Def: r.IntN(2) == 0, NoReturn: r.IntN(3) == 0}
			if !x.NoReturn {
				x.Via = []string{pick(append(names, "abort"))}
			}
			f.Exits = append(f.Exits, x)
		}
		out = append(out, f)
	}
	return out
}

// filedUnder is the part of s filed under rel: what a cached entry
// speaks for.
func filedUnder(s *File, rel string) *File {
	out := *s
	out.Funcs = nil
	for _, f := range s.Funcs {
		if f.File == rel {
			out.Funcs = append(out.Funcs, f)
		}
	}
	return &out
}

// TestTreeIndexAnswersAsNewIndex: an index that reads the cache's
// summaries as names are asked for answers every question as NewIndex
// over the same summaries does (the scanned files' first, then each
// cached one's functions filed under its path), in whatever order the
// questions come.
func TestTreeIndexAnswersAsNewIndex(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		files := randomTree(r, 12)
		own, rest := files[:3], files[3:]
		w := &wireTree{Key: "k"}
		for i, f := range rest {
			w.Files = append(w.Files, wireEntry{Rel: fmt.Sprintf("f%d.cc", i+3), Entry: Entry{Summary: f}})
		}
		back, err := decodeTree(encodeTree(w))
		if err != nil {
			t.Fatal(err)
		}
		var cached []Cached
		eager := slices.Clone(own)
		for _, we := range back.Files {
			cached = append(cached, Cached{Rel: we.Rel, Entry: &Entry{body: we.body}})
		}
		for i, f := range rest {
			eager = append(eager, filedUnder(f, fmt.Sprintf("f%d.cc", i+3)))
		}
		want := NewIndex(eager...)
		got := NewTreeIndex(own, cached)
		var calls []Call
		for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "P::a", "x"} {
			for nargs := -1; nargs < 3; nargs++ {
				calls = append(calls, Call{Name: name, Nargs: nargs}, Call{Name: name, Nargs: nargs, Member: true, Receiver: "P"}, Call{Name: name, Nargs: nargs, Member: true})
			}
		}
		r.Shuffle(len(calls), func(i, j int) { calls[i], calls[j] = calls[j], calls[i] })
		for _, c := range calls {
			if g, w := got.LookupCall(c), want.LookupCall(c); !reflect.DeepEqual(g, w) {
				t.Fatalf("seed %d: LookupCall(%+v) = %+v, NewIndex says %+v", seed, c, g, w)
			}
			gr, gok := got.Returns(c)
			wr, wok := want.Returns(c)
			if gok != wok || !reflect.DeepEqual(gr, wr) {
				t.Fatalf("seed %d: Returns(%+v) = %+v %v, NewIndex says %+v %v", seed, c, gr, gok, wr, wok)
			}
		}
		for _, class := range []string{"P", "ns::Q", "R"} {
			if g, w := got.Members(class), want.Members(class); !reflect.DeepEqual(g, w) {
				t.Fatalf("seed %d: Members(%s) = %v, NewIndex says %v", seed, class, g, w)
			}
		}
		if g, w := got.Alias("T"), want.Alias("T"); g != w {
			t.Fatalf("seed %d: Alias(T) = %q, NewIndex says %q", seed, g, w)
		}
		if got.Cut() != want.Cut() {
			t.Fatalf("seed %d: cut %v, NewIndex says %v", seed, got.Cut(), want.Cut())
		}
		for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "ns::a"} {
			if g, w := got.NoReturn(name), want.NoReturn(name); g != w {
				t.Fatalf("seed %d: NoReturn(%s) = %v, NewIndex says %v", seed, name, g, w)
			}
		}
	}
}

// TestTreeIndexReadsOnlyWhatIsAsked: a lookup decodes the cached
// summaries that define the name and those its functions hand arguments
// to, and no other.
func TestTreeIndexReadsOnlyWhatIsAsked(t *testing.T) {
	files := chain(6) // f5 forwards to f4 ... to f0, which frees
	files = append(files, &File{Funcs: []Func{{Name: "lonely", File: "lonely.cc", Arity: 1, Frees: []int{0}}}})
	w := &wireTree{Key: "k"}
	for _, f := range files {
		w.Files = append(w.Files, wireEntry{Rel: f.Funcs[0].File, Entry: Entry{Summary: f}})
	}
	back, err := decodeTree(encodeTree(w))
	if err != nil {
		t.Fatal(err)
	}
	var cached []Cached
	for _, we := range back.Files {
		cached = append(cached, Cached{Rel: we.Rel, Entry: &Entry{body: we.body}})
	}
	ix := NewTreeIndex(nil, cached)
	if ix.Len() != 7 || ix.FromCache() != 7 {
		t.Errorf("Len %d, FromCache %d: want 7 functions, all from the cache", ix.Len(), ix.FromCache())
	}
	if !ix.Lookup("f3", 1).FreesArg(0) {
		t.Error("f3 hands its argument down a chain that frees it: the composed summary must free it")
	}
	decoded := map[string]bool{}
	for _, c := range cached {
		decoded[c.Rel] = c.Entry.body.file != nil
	}
	want := map[string]bool{"f0.cc": true, "f1.cc": true, "f2.cc": true, "f3.cc": true, "f4.cc": false, "f5.cc": false, "lonely.cc": false}
	if !reflect.DeepEqual(decoded, want) {
		t.Errorf("decoded %v, want %v", decoded, want)
	}
}

// TestTreeIndexUnreadableSummary: a cached summary whose bytes do not
// decode says nothing, and the index counts it.
func TestTreeIndexUnreadableSummary(t *testing.T) {
	w := &wireTree{Key: "k", Files: []wireEntry{{Rel: "a.cc", Entry: Entry{Summary: &File{Funcs: []Func{{Name: "f", File: "a.cc", Arity: 1, Frees: []int{0}}}}}}}}
	back, err := decodeTree(encodeTree(w))
	if err != nil {
		t.Fatal(err)
	}
	b := back.Files[0].body
	b.raw = b.raw[:len(b.raw)-1]
	ix := NewTreeIndex(nil, []Cached{{Rel: "a.cc", Entry: &Entry{body: b}}})
	if ix.Lookup("f", 1) != nil || ix.Unreadable() != 1 {
		t.Errorf("a cut summary: lookup %+v, unreadable %d; want nothing and 1", ix.Lookup("f", 1), ix.Unreadable())
	}
}

// TestUpdateKeepsUntouchedEntriesBytes: an update that replaces one
// entry of many keeps the others' bytes and extends the table, and what
// it writes reads back as the summaries it was given.
func TestUpdateKeepsUntouchedEntriesBytes(t *testing.T) {
	files := randomTree(rand.New(rand.NewPCG(1, 2)), 20)
	w := &wireTree{Key: "k"}
	for i, f := range files {
		w.Files = append(w.Files, wireEntry{Rel: fmt.Sprintf("f%d.cc", i), Entry: Entry{Summary: f}})
	}
	first, err := decodeTree(encodeTree(w))
	if err != nil {
		t.Fatal(err)
	}
	changed := &File{Funcs: []Func{{Name: "brand_new_name", File: "f0.cc", Arity: 1, Frees: []int{0}}}}
	first.Files[0].Entry = Entry{Summary: changed}
	if sharedTable(first) == nil {
		t.Fatal("19 of 20 entries read from one file: their table must be kept")
	}
	second, err := decodeAll(encodeTree(first))
	if err != nil {
		t.Fatal(err)
	}
	for i, we := range second.Files {
		want := files[i]
		if i == 0 {
			want = changed
		}
		if !reflect.DeepEqual(we.Summary, want) {
			t.Errorf("%s after the update: %+v, want %+v", we.Rel, we.Summary, want)
		}
	}
}

// TestUpdatesDoNotGrowTheTable: updates that keep the table add the
// strings of what they change after it; once those pass a quarter of
// what the table held when last written whole, the next update writes it
// whole again, so a cache updated by many small scans stays the size of
// what it holds.
func TestUpdatesDoNotGrowTheTable(t *testing.T) {
	files := randomTree(rand.New(rand.NewPCG(3, 4)), 40)
	w := &wireTree{Key: "k"}
	for i, f := range files {
		w.Files = append(w.Files, wireEntry{Rel: fmt.Sprintf("f%d.cc", i), Entry: Entry{Summary: f}})
	}
	data := encodeTree(w)
	kept, whole := 0, 0
	for round := range 60 {
		back, err := decodeTree(data)
		if err != nil {
			t.Fatal(err)
		}
		tbl := back.Files[0].body.tbl
		if len(tbl.strs) > tbl.base+tbl.base/4+8 {
			t.Fatalf("round %d: %d strings in the table, %d when last written whole", round, len(tbl.strs), tbl.base)
		}
		if sharedTable(back) != nil {
			kept++
		} else {
			whole++
		}
		back.Files[round%40].Entry = Entry{Summary: &File{Funcs: []Func{{Name: fmt.Sprintf("new%d", round), Class: fmt.Sprintf("C%d", round), File: back.Files[round%40].Rel, Type: fmt.Sprintf("T%d", round)}}}}
		data = encodeTree(back)
	}
	if kept == 0 || whole < 2 {
		t.Errorf("%d updates kept the table and %d wrote it whole: want both", kept, whole)
	}
	final, err := decodeAll(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := final.Files[59%40].Summary.Funcs[0].Name; got != "new59" {
		t.Errorf("the last update's entry reads back as %q", got)
	}
}

// encodeTree is writeTree into memory.
func encodeTree(w *wireTree) []byte {
	var b bytes.Buffer
	_ = writeTree(&b, w) // a bytes.Buffer does not fail
	return b.Bytes()
}
