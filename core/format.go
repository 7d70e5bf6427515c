package core

import (
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// Format strings. A call handed a string literal with conversion
// specifications (printf, fprintf, snprintf, a logging function or macro
// that forwards them) takes the arguments after it in the order the
// specifications name them. An argument a %p specification takes is
// printed by its value ("The value of the pointer is converted to a
// sequence of printing characters", C11 7.21.6.1p8): what it points to
// is not read, so handing it a pointer to memory that ended is no use.

// Printed says the expression at n, through parentheses and casts
// ((void*)p, static_cast<void*>(p)), is an argument a %p conversion of a
// call's format string takes (see PrintedValue).
func Printed(f *parser.File, n parser.NodeID) bool {
	for n != parser.None {
		par := f.Nodes[n].Parent
		switch f.Kind(par) {
		case parser.KindParenthesizedExpression, parser.KindCastExpression:
			n = par
			continue
		case parser.KindArgumentList:
			call := f.Nodes[par].Parent
			if name := f.Text(f.Field(call, parser.FieldFunction)); strings.Contains(name, "_cast<") {
				n = call
				continue
			}
			k := 0
			for a := range f.NamedChildren(par) {
				if a == n {
					return PrintedValue(f, call, k)
				}
				if f.Kind(a) != parser.KindComment {
					k++
				}
			}
		}
		return false
	}
	return false
}

// PrintedValue says argument k (0-based) of call expression call is
// taken by a %p conversion of a format string literal among its earlier
// arguments.
func PrintedValue(f *parser.File, call parser.NodeID, k int) bool {
	if f.Kind(call) != parser.KindCallExpression {
		return false
	}
	var args []parser.NodeID
	for a := range f.NamedChildren(f.Field(call, parser.FieldArguments)) {
		if f.Kind(a) != parser.KindComment {
			args = append(args, a)
		}
	}
	for i, a := range args {
		if i >= k {
			return false
		}
		if f.Kind(a) != parser.KindStringLiteral {
			continue
		}
		convs, ok := conversions(f.Text(a))
		if !ok || len(convs) == 0 {
			continue
		}
		j := k - i - 1
		return j < len(convs) && convs[j] == 'p'
	}
	return false
}

// conversions lists the conversion of each argument a printf format
// (its literal's text, quotes included) takes, in order: a '*' width or
// precision takes an int ('*'). ok is false when the text is not one
// format.
func conversions(lit string) (out []byte, ok bool) {
	s := lit
	if !strings.Contains(s, "%") {
		return nil, true
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		if i < len(s) && s[i] == '%' {
			continue
		}
		// flags, width, precision, length
		for i < len(s) && strings.IndexByte("-+ #0'", s[i]) >= 0 {
			i++
		}
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '*' || s[i] == '.') {
			if s[i] == '*' {
				out = append(out, '*')
			}
			i++
		}
		for i < len(s) && strings.IndexByte("hlLqjzt", s[i]) >= 0 {
			i++
		}
		if i >= len(s) || strings.IndexByte("diouxXeEfFgGaAcspn", s[i]) < 0 {
			// A conversion printf does not define (a macro's own, a
			// "%" PRIu64 split): the order is not known.
			return nil, false
		}
		out = append(out, s[i])
	}
	return out, true
}
