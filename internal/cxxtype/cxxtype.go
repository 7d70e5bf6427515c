// Package cxxtype reads C++ type text where the syntax tree leaves it as
// text (template argument lists).
package cxxtype

import "strings"

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
