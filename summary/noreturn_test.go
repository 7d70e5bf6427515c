package summary

import "testing"

// TestNoReturns: a name never returns when its macros all say so, else
// when a declaration says so or every definition does; a cycle returns.
func TestNoReturns(t *testing.T) {
	files := []*File{
		{Funcs: []Func{{Name: "log", File: "a.c"}, {Name: "die", File: "a.c"}, {Name: "half", File: "a.c"}}, Exits: []Exit{
			{Name: "NORET", Macro: true, NoReturn: true},
			{Name: "fatal_format", Via: []string{"NORET"}},
			{Name: "fatal", Macro: true, Via: []string{"fatal_format"}},
			{Name: "warn", Macro: true, Via: []string{"log"}},
			{Name: "die", Def: true, Via: []string{"abort"}},
			{Name: "loop", Def: true, Via: []string{"loop"}},
			{Name: "maybe", Macro: true, Via: []string{"die"}},
			{Name: "half", Def: true, Via: []string{"std::exit"}},
		}},
		{Funcs: []Func{{Name: "half", File: "b.c"}}, Exits: []Exit{
			{Name: "maybe", Macro: true},
		}},
	}
	ix := NewIndex(files...)
	for name, want := range map[string]bool{
		"fatal_format": true, // declared with an attribute macro
		"fatal":        true, // a macro that ends in it
		"ns::fatal":    true,
		"warn":         false,
		"die":          true,  // its one definition ends in abort
		"loop":         false, // ends in itself
		"maybe":        false, // one definition of the macro returns
		"half":         false, // one of two definitions says nothing
		"log":          false,
		"NORET":        true,
	} {
		if got := ix.NoReturn(name); got != want {
			t.Errorf("NoReturn(%s) = %v, want %v", name, got, want)
		}
	}
}
