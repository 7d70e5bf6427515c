//go:build cgo

package parser

import "bytes"

// rewriteDeclMacros rewrites declaration macros such as
// `TF_ASSIGN_OR_RETURN(auto x, f(y));` in place, without moving a byte, so
// the C++ grammar reads the declaration they stand for:
// `                    auto x= f(y) ;`. The macro name and its opening
// parenthesis become spaces, the comma after the declaration becomes `=`,
// any further arguments (error decorations) and the closing parenthesis
// become spaces. src is copied on the first rewrite; untouched input is
// returned as is.
//
// A call is rewritten when its macro is listed (then its first argument may
// also be a plain name, `ASSIGN_OR_RETURN(x, f())`), or by its shape: an
// ALL_CAPS_WITH_UNDERSCORES name called as a statement (after `;`, `{`, `}`
// or a label, and followed by `;`) whose first argument is a declaration,
// `Type name`, and whose second is an expression. `CHECK_EQ(a, b);`,
// `RETURN_IF_ERROR(f(x));` and `FOO(int, x);` are not declarations.
// Comments, strings and preprocessor lines are skipped.
func rewriteDeclMacros(src []byte, listed map[string]bool) []byte {
	out := src
	copied := false
	var prev, prev2 byte = ';', 0 // the last two significant bytes; a file starts at a statement
	lineStart := true             // only blanks since the last newline
	for i := 0; ; {
		if i = codeAt(out, i, len(out), &lineStart); i < 0 || i >= len(out) {
			break // the end, or an unterminated comment
		}
		c := out[i]
		switch {
		case c == '"' || c == '\'':
			i = literalEnd(out, i)
			prev2, prev, lineStart = prev, c, false
			continue
		case !isIdentByte(c):
			prev2, prev, lineStart = prev, c, false
			i++
			continue
		}
		j := i
		for j < len(out) && isIdentByte(out[j]) {
			j++
		}
		atStmt := prev == ';' || prev == '{' || prev == '}' || prev == ':' && prev2 != ':'
		prev2, prev, lineStart = prev, 'a', false
		word := out[i:j]
		i = j
		if c >= '0' && c <= '9' {
			continue
		}
		open := j
		for open < len(out) && (out[open] == ' ' || out[open] == '\t') {
			open++
		}
		if open >= len(out) || out[open] != '(' {
			continue
		}
		isListed := listed[string(word)]
		if !isListed && (!atStmt || !isMacroName(word)) {
			continue
		}
		commas, close := macroArgs(out, open)
		if close < 0 || len(commas) == 0 {
			continue
		}
		if !isListed {
			second := out[commas[0]+1 : close]
			if len(commas) > 1 {
				second = out[commas[0]+1 : commas[1]]
			}
			if !endsStatement(out, close+1) || !declShape(out[open+1:commas[0]]) ||
				len(bytes.TrimSpace(second)) == 0 || declShape(second) {
				continue
			}
		}
		if !copied {
			out = bytes.Clone(out)
			copied = true
		}
		for k := j - len(word); k <= open; k++ {
			out[k] = ' '
		}
		out[commas[0]] = '='
		end := close
		if len(commas) > 1 {
			end = commas[1]
		}
		for k := end; k <= close; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
		i = close + 1
		prev2, prev = prev, ')'
	}
	return out
}

// isMacroName says whether w is written like a macro: capitals, digits and
// underscores, with at least one underscore.
func isMacroName(w []byte) bool {
	under := false
	for _, c := range w {
		switch {
		case c == '_':
			under = true
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return under
}

// endsStatement says whether the next significant byte from i is `;`.
func endsStatement(src []byte, i int) bool {
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\r', '\n':
		case ';':
			return true
		default:
			return false
		}
	}
	return false
}

// lineEnd returns the offset of the newline ending the line at i (or the
// end of src).
// skipTrivia skips what is not code at src[i] (before to): a blank, a line
// break, a preprocessor line when lineStart says only blanks precede it on
// its line, or a comment. ok says something was skipped; next is where the
// scan goes on (-1 for a block comment not closed before to), and
// lineStart is whether only blanks then precede next on its line.
func skipTrivia(src []byte, i, to int, lineStart bool) (next int, stillLineStart bool, ok bool) {
	c := src[i]
	switch {
	case c == '\n':
		return i + 1, true, true
	case isBlank(c):
		return i + 1, lineStart, true
	case c == '#' && lineStart:
		return directiveEnd(src, i), true, true
	case c == '/' && i+1 < to && src[i+1] == '/':
		return lineEnd(src, i), lineStart, true
	case c == '/' && i+1 < to && src[i+1] == '*':
		k := bytes.Index(src[i+2:to], []byte("*/"))
		if k < 0 {
			return -1, lineStart, true
		}
		return i + k + 4, lineStart, true
	}
	return i, lineStart, false
}

// codeAt returns the offset of the first byte of code at or after i,
// before to: blanks, comments and preprocessor lines are skipped. It is
// to at the end and -1 inside an unterminated comment. lineStart says i
// starts a line (only blanks before it since the last newline), and is
// kept up to date.
func codeAt(src []byte, i, to int, lineStart *bool) int {
	for i < to {
		next, ls, ok := skipTrivia(src, i, to, *lineStart)
		if !ok {
			return i
		}
		if next < 0 {
			return -1
		}
		i, *lineStart = next, ls
	}
	return to
}

func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// directiveEnd returns the offset of the newline ending the preprocessor
// line at i, following backslash continuations.
func directiveEnd(src []byte, i int) int {
	for {
		e := lineEnd(src, i)
		k := e
		if k > i && src[k-1] == '\r' {
			k--
		}
		if e >= len(src) || k == i || src[k-1] != '\\' {
			return e
		}
		i = e + 1
	}
}

// literalEnd returns the offset just past the string or character literal
// opening at src[i], a raw string R"d(...)d" included. An unterminated
// literal ends at its line's end.
func literalEnd(src []byte, i int) int {
	q := src[i]
	if q == '"' && i > 0 && src[i-1] == 'R' {
		if k := bytes.IndexByte(src[i+1:min(len(src), i+18)], '('); k >= 0 {
			delim := src[i+1 : i+1+k]
			closing := append(append([]byte{')'}, delim...), '"')
			if e := bytes.Index(src[i+2+k:], closing); e >= 0 {
				return i + 2 + k + e + len(closing)
			}
			return len(src)
		}
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

// declShape says whether arg reads as `Type name`: optional specifiers
// (const, typename, struct, ...), one type (builtin words such as
// `unsigned long` or `auto`, or a possibly qualified, possibly templated
// name), pointer and reference declarators, and a name or a structured
// binding `auto [a, b]`. `a * b` and `a & b` with blanks on both sides of the
// operator and a bare name before it are read as expressions.
func declShape(arg []byte) bool {
	s := shapeScanner{src: arg}
	for {
		save := s.i
		w := s.ident()
		if w == nil || !declSpecifiers[string(w)] {
			s.i = save
			break
		}
	}
	builtins := 0
	auto := false
	for {
		save := s.i
		w := s.ident()
		if w == nil || !builtinTypes[string(w)] {
			s.i = save
			break
		}
		builtins++
		auto = string(w) == "auto"
	}
	bare := false // the type is a single unqualified, untemplated name
	if builtins == 0 {
		s.blanks()
		s.punct("::")
		w := s.ident()
		if w == nil || exprKeywords[string(w)] || declSpecifiers[string(w)] {
			return false
		}
		bare = true
		for {
			if s.angles() {
				bare = false
				continue
			}
			if s.punct("::") {
				if w := s.ident(); w == nil || exprKeywords[string(w)] {
					return false
				}
				bare = false
				continue
			}
			break
		}
	}
	declarators := 0
	spacedOperator := false
	for {
		save := s.i
		if w := s.ident(); w != nil {
			if w := string(w); w == "const" || w == "volatile" {
				continue
			}
			s.i = save
			break
		}
		s.blanks()
		before := s.i > 0 && isBlank(s.src[s.i-1])
		switch {
		case s.punct("&&"), s.punct("&"), s.punct("*"):
			declarators++
			if before && s.i < len(s.src) && isBlank(s.src[s.i]) {
				spacedOperator = true
			}
			continue
		}
		break
	}
	if bare && declarators == 1 && spacedOperator {
		return false
	}
	s.blanks()
	if auto && builtins == 1 && s.punct("[") {
		for {
			if w := s.ident(); w == nil || exprKeywords[string(w)] {
				return false
			}
			if s.punct("]") {
				break
			}
			if !s.punct(",") {
				return false
			}
		}
	} else if w := s.ident(); w == nil || exprKeywords[string(w)] || declSpecifiers[string(w)] || builtinTypes[string(w)] {
		return false
	}
	s.blanks()
	return s.i == len(s.src)
}

// shapeScanner reads the tokens of one macro argument.
type shapeScanner struct {
	src []byte
	i   int
}

// blanks skips blanks and comments.
func (s *shapeScanner) blanks() {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case isBlank(c):
			s.i++
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '/':
			s.i = lineEnd(s.src, s.i)
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '*':
			j := bytes.Index(s.src[s.i+2:], []byte("*/"))
			if j < 0 {
				s.i = len(s.src)
				return
			}
			s.i += j + 4
		default:
			return
		}
	}
}

// ident reads an identifier after blanks, or returns nil without moving.
func (s *shapeScanner) ident() []byte {
	save := s.i
	s.blanks()
	j := s.i
	if j >= len(s.src) || !isIdentByte(s.src[j]) || s.src[j] >= '0' && s.src[j] <= '9' {
		s.i = save
		return nil
	}
	for j < len(s.src) && isIdentByte(s.src[j]) {
		j++
	}
	w := s.src[s.i:j]
	s.i = j
	return w
}

// punct reads p after blanks, or returns false without moving.
func (s *shapeScanner) punct(p string) bool {
	save := s.i
	s.blanks()
	if bytes.HasPrefix(s.src[s.i:], []byte(p)) {
		s.i += len(p)
		return true
	}
	s.i = save
	return false
}

// angles reads a balanced template argument list `<...>` written right
// after its name: `a < b` is a comparison, and so is `a < p->n`.
func (s *shapeScanner) angles() bool {
	save := s.i
	if s.i >= len(s.src) || s.src[s.i] != '<' {
		return false
	}
	s.i++
	depth := 1
	for ; s.i < len(s.src); s.i++ {
		switch s.src[s.i] {
		case '<':
			depth++
		case '>':
			if s.src[s.i-1] == '-' {
				s.i = save
				return false
			}
			depth--
			if depth == 0 {
				s.i++
				return true
			}
		case ';', '{', '}':
			s.i = save
			return false
		}
	}
	s.i = save
	return false
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// declSpecifiers may precede a declaration's type.
var declSpecifiers = map[string]bool{
	"const": true, "volatile": true, "constexpr": true, "static": true, "thread_local": true,
	"typename": true, "struct": true, "class": true, "enum": true, "union": true, "register": true,
}

// builtinTypes are the words of builtin types (and auto), which combine:
// `unsigned long long`.
var builtinTypes = map[string]bool{
	"auto": true, "void": true, "bool": true, "char": true, "wchar_t": true, "char8_t": true,
	"char16_t": true, "char32_t": true, "short": true, "int": true, "long": true, "signed": true,
	"unsigned": true, "float": true, "double": true,
}

// exprKeywords cannot name a type or a variable: `return x` is no
// declaration.
var exprKeywords = map[string]bool{
	"return": true, "new": true, "delete": true, "throw": true, "sizeof": true, "alignof": true,
	"case": true, "goto": true, "co_await": true, "co_return": true, "co_yield": true, "else": true,
	"do": true, "if": true, "for": true, "while": true, "switch": true, "operator": true,
	"this": true, "true": true, "false": true, "nullptr": true, "not": true, "and": true, "or": true,
	"xor": true, "bitand": true, "bitor": true, "compl": true, "not_eq": true, "and_eq": true,
	"or_eq": true, "xor_eq": true, "decltype": true, "typeid": true, "template": true,
	"using": true, "typedef": true, "namespace": true, "static_cast": true, "const_cast": true,
	"dynamic_cast": true, "reinterpret_cast": true, "noexcept": true, "default": true, "break": true,
	"continue": true,
}

// macroArgs finds the top-level commas of the argument list opening at
// src[open] == '(' and its closing parenthesis. The first argument is a
// declaration, so a comma inside unbalanced template brackets there does
// not split it. Strings and character literals are skipped. It returns a
// negative close when the list is unterminated or spans more than a few
// lines' worth of bytes.
func macroArgs(src []byte, open int) (commas []int, close int) {
	depth, angle := 0, 0
	const limit = 4096
	for j := open; j < len(src) && j-open < limit; j++ {
		switch c := src[j]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return commas, j
			}
		case '<':
			if len(commas) == 0 {
				angle++
			}
		case '>':
			if len(commas) == 0 && angle > 0 {
				angle--
			}
		case ',':
			if depth == 1 && (angle == 0 || len(commas) > 0) {
				commas = append(commas, j)
			}
		case '"', '\'':
			for j++; j < len(src) && src[j] != c && src[j] != '\n'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
		case ';':
			return nil, -1
		}
	}
	return nil, -1
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
