package cxxtype

import "testing"

func TestFirstArg(t *testing.T) {
	for in, want := range map[string]string{
		"int":                                "int",
		" std::unique_ptr<T>, Cmp<A, B> ":    "std::unique_ptr<T>",
		"std::pair<int, float>, Alloc":       "std::pair<int, float>",
		"std::function<void(int, int)>, Tag": "std::function<void(int, int)>",
	} {
		if got := FirstArg(in); got != want {
			t.Errorf("FirstArg(%q) = %q, want %q", in, got, want)
		}
	}
}
