package lifetime

import (
	"slices"
	"testing"
)

// TestEventsOfIndex: the per-variable index Build makes lists exactly the
// events whose Var or Other is the variable, in order, and Params the
// parameters in order, as a walk over every event and variable does.
func TestEventsOfIndex(t *testing.T) {
	src := `
void f(int* a, int* b, int n) {
  int* c = a;
  *c = 1;
  b = a;
  auto g = [&] { *b = n; };
  g();
  delete a;
}
`
	fns := buildExt(t, ".cc", src)
	if len(fns) < 2 {
		t.Fatalf("%d functions, want the function and its lambda", len(fns))
	}
	for _, fn := range fns {
		var params []VarID
		for i := range fn.Vars {
			if fn.Vars[i].Param {
				params = append(params, VarID(i))
			}
		}
		if !slices.Equal(fn.Params(), params) {
			t.Errorf("%s: Params() = %v, want %v", fn.Name, fn.Params(), params)
		}
		for v := range fn.Vars {
			var want []int32
			for i := range fn.Events {
				if e := &fn.Events[i]; e.Var == VarID(v) || e.Other == VarID(v) {
					want = append(want, int32(i))
				}
			}
			if got := fn.EventsOf(VarID(v)); !slices.Equal(got, want) {
				t.Errorf("%s: EventsOf(%s) = %v, want %v", fn.Name, fn.Vars[v].Name, got, want)
			}
		}
		if fn.EventsOf(NoVar) != nil {
			t.Errorf("%s: EventsOf(NoVar) is not empty", fn.Name)
		}
	}
}
