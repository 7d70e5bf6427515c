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

func TestRest(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"int, std::string", "std::string"},
		{"std::pair<int, int>, std::vector<float>, Cmp<A, B>", "std::vector<float>, Cmp<A, B>"},
		{"T", ""},
		{"", ""},
	} {
		if got := Rest(c.in); got != c.want {
			t.Errorf("Rest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWithoutArgs(t *testing.T) {
	for in, want := range map[string]string{
		"a::B<c::D<E>>::f":                 "a::B::f",
		"typename ns::Edit<T>::Kind":       "typename ns::Edit::Kind",
		"std::vector<std::pair<int, int>>": "std::vector",
		"plain::name":                      "plain::name",
	} {
		if got := WithoutArgs(in); got != want {
			t.Errorf("WithoutArgs(%q) = %q, want %q", in, got, want)
		}
	}
}
