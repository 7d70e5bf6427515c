// Package cxxtype reads C++ type text where the syntax tree leaves it as
// text (template argument lists).
package cxxtype

import "strings"

// Rest is what follows the first top-level argument of a template
// argument list, its comma left out: "K, std::vector<V>, Cmp" gives
// "std::vector<V>, Cmp" ("" when there is one argument).
func Rest(args string) string {
	first := FirstArg(args)
	rest := strings.TrimSpace(strings.TrimSpace(args)[len(first):])
	return strings.TrimSpace(strings.TrimPrefix(rest, ","))
}

// FirstArg is the first top-level argument of a template argument list:
// "std::unique_ptr<T>, Cmp<A, B>" gives "std::unique_ptr<T>".
func FirstArg(args string) string {
	depth := 0
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				return strings.TrimSpace(args[:i])
			}
		}
	}
	return strings.TrimSpace(args)
}

// WithoutArgs drops the bracketed template argument lists of a name or
// type, nested ones included: "a::B<c::D<E>>::f" gives "a::B::f".
func WithoutArgs(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
