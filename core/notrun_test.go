package core

import (
	"slices"
	"testing"
)

// TestNotRunParams: the parameters a macro's expansion names only where
// it returns or inside a lambda it makes.
func TestNotRunParams(t *testing.T) {
	for _, c := range []struct {
		value  string
		params []string
		want   []int
	}{
		{"{ int e = cmd; if (e) { if (strict) { cleanup return e; } warn(e); } }", []string{"strict", "cmd", "cleanup"}, []int{2}},
		{"{ int e = cmd; if (e) { cleanup; warn(e); } }", []string{"cmd", "cleanup"}, nil},
		{"auto d = scope_exit([&] { f; })", []string{"f"}, []int{0}},
		{"auto d = scope_exit([&]() mutable -> void { f; })", []string{"f"}, []int{0}},
		{"auto d = scope_exit([&] { f; }); g;", []string{"f", "g"}, []int{0}},
		{"do { f; } while (0)", []string{"f"}, nil},
		{"if (!(c)) { log(m); throw Error(m); }", []string{"c", "m"}, []int{1}},
		{"{ f; return 0; }", []string{"f"}, []int{0}},
	} {
		if got := notRunParams(c.value, c.params); !slices.Equal(got, c.want) {
			t.Errorf("notRunParams(%q) = %v, want %v", c.value, got, c.want)
		}
	}
}
