package core

import (
	"reflect"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// TestStateHashCoversFields fails when a field is added to what a path's
// state holds without being hashed (statehash.go): two different states
// would then be merged.
func TestStateHashCoversFields(t *testing.T) {
	for _, c := range []struct {
		v      any
		hashed int
	}{
		{object{}, 31}, {local{}, 20}, {value{}, 14}, {work{}, 13},
		{state{}, 15}, {escStore{}, 7}, {constraint{}, 4}, {copyLink{}, 6},
	} {
		if n := reflect.TypeOf(c.v).NumField(); n != c.hashed {
			t.Errorf("%T has %d fields, statehash.go hashes %d: hash the new ones", c.v, n, c.hashed)
		}
	}
}

// TestBoundKeepsEqualPaths: branches that leave the memory as it was do
// not fill the bound, so the rest of the function runs on one path and
// its fault is found; branches that set integers are merged into one
// path that forgets them, so a later branch on them is followed both
// ways; branches that differ only in objects nothing reaches any more
// are one path; branches that differ in memory still fill it.
func TestBoundKeepsEqualPaths(t *testing.T) {
	const src = `
#include <cstdlib>
bool ready(int);
void log(int);
void same(int* p) {
  if (ready(1)) log(1);
  if (ready(2)) log(2);
  if (ready(3)) log(3);
  if (ready(4)) log(4);
  if (ready(5)) log(5);
  free(p);
  p[0] = 1;
}
void known(int* p, int* a) {
  int n = 0;
  if (a[0]) n = n + 1;
  if (a[1]) n = n + 2;
  if (a[2]) n = n + 4;
  if (a[3]) n = n + 8;
  if (a[4]) n = n + 16;
  if (n == 0) free(p);
  p[0] = 1;
}
void unreached(int* p) {
  if (ready(1)) delete new int;
  if (ready(2)) delete new int;
  if (ready(3)) delete new int;
  if (ready(4)) delete new int;
  if (ready(5)) delete new int;
  free(p);
  p[0] = 1;
}
void different(int* a, int* b, int* c, int* d, int* e) {
  if (ready(1)) free(a);
  if (ready(2)) free(b);
  if (ready(3)) free(c);
  if (ready(4)) free(d);
  if (ready(5)) free(e);
}
`
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("bound.cc", ".cc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	api, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	sums := NewFileSummaries(f)
	sums.API = api
	got := map[string]Result{}
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.KindFunctionDefinition {
			continue
		}
		r := Execute(f, parser.NodeID(i), Options{MaxStates: 4, Summaries: sums, API: api})
		name := f.Text(f.Field(f.Field(parser.NodeID(i), parser.FieldDeclarator), parser.FieldDeclarator))
		got[name] = r
	}
	if r := got["same"]; r.Cut || r.Merged || len(r.Faults) != 1 || r.Faults[0].Kind != UseAfterFree {
		t.Errorf("same: cut %v, merged %v, faults %v; want neither, one use-after-free", r.Cut, r.Merged, r.Faults)
	}
	if r := got["known"]; r.Cut || !r.Merged || len(r.Faults) != 1 || r.Faults[0].Kind != UseAfterFree {
		t.Errorf("known: cut %v, merged %v, faults %v; want merged, not cut, one use-after-free", r.Cut, r.Merged, r.Faults)
	}
	if r := got["unreached"]; r.Cut || len(r.Faults) != 1 || r.Faults[0].Kind != UseAfterFree {
		t.Errorf("unreached: cut %v, faults %v; want not cut (the objects made on the branches are unreachable), one use-after-free", r.Cut, r.Faults)
	}
	if r := got["different"]; !r.Cut {
		t.Errorf("different: not cut; want cut (32 different paths, bound 4)")
	}
}
