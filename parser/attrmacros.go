package parser

import (
	"bytes"
)

// Unknown object-like macros the grammar cannot read are the commonest
// cause of parse errors in real code: attributes and calling conventions
// between a declaration's words (`TI_DLL_EXPORT void TI_API_CALL f(`,
// `int LIB_EXPORT g(`, `char* IREE_RESTRICT dest`, `void f() NO_TSA {`),
// statement prefixes (`IREE_UK_UNROLL for (...)`), and format macros
// pasted to string literals (`"got %" PRIu64 "\n"`). Without their
// definitions none of them can be expanded; all of them can be read as
// what they almost always are.

// attributeMacros rewrites, on the lines of f's parse errors (the line
// where an error starts, the one before it, and the line where it ends),
// without moving a byte:
//
//   - an ALL_CAPS name (letters, digits and underscores, with at least
//     three letters, not a keyword) directly followed by another word or by
//     `{`: blanked, as an attribute that expands to nothing would be;
//   - a __name__ word at the start of a statement, before another word:
//     blanked, an attribute macro before a declaration;
//   - an ALL_CAPS macro call filling its line above a declaration, outside
//     any body (`LAUNCH_BOUNDS(256)` above a kernel): blanked with its
//     arguments;
//   - an ALL_CAPS name alone on its line after the end of a statement or
//     a brace, followed by a statement or `}`: blanked, as a statement
//     macro written without a semicolon (a pair that opens and closes a
//     try block around a body);
//   - a word between a pointer's `*` or a reference's `&` and the
//     declared name (`std::string* absl_nonnull error`): blanked;
//   - a name directly after or before a string literal: turned into an
//     empty string literal of the same width ("     "), as a format macro
//     expands to one.
//
// A name followed by `(`, `::`, `<`, an operator or punctuation is left:
// it is a call, a scope, a template or part of an expression. Comments,
// literals and preprocessor lines are not touched. It returns nil when
// nothing was rewritten, else the new text and the ranges changed.
func attributeMacros(f *File) ([]byte, [][2]int) {
	src := f.Src
	spans := errorSpans(f)
	if len(spans) == 0 {
		return nil, nil
	}
	var lines [][2]int
	addLine := func(at int) {
		from := bytes.LastIndexByte(src[:at], '\n') + 1
		to := bytes.IndexByte(src[at:], '\n')
		if to < 0 {
			to = len(src)
		} else {
			to += at
		}
		lines = append(lines, [2]int{from, to})
	}
	for _, s := range spans {
		start := min(s[0], len(src))
		addLine(start)
		if prev := bytes.LastIndexByte(src[:start], '\n'); prev > 0 {
			addLine(prev - 1)
		}
		addLine(min(max(s[1]-1, start), len(src)))
	}
	lits := literals(src)
	// Anywhere in the file, a macro directly before a declaration
	// specifier keyword (HOST_DEVICE inline T f(), EXPORT static int x)
	// is an attribute: a type name never stands there. Its own line may
	// hold no error (the grammar takes the macro for a type), the error
	// coming lines later. So may a statement macro on a line of its own.
	for _, at := range specifierMacros(src, lits) {
		addLine(at)
	}
	lines = merge(lines)
	// Inside a body, a macro before a declaration may be a storage class
	// (#define SHARED __shared__, static, thread_local): only one before a
	// statement keyword or a block (a loop pragma) is blanked there.
	var bodies [][2]int
	for i := range f.Nodes {
		if f.Nodes[i].Kind == KindCompoundStatement {
			bodies = append(bodies, [2]int{int(f.Nodes[i].Start), int(f.Nodes[i].End)})
		}
	}
	bodies = merge(bodies)
	e := &editor{out: src}
	for _, l := range lines {
		if isDirectiveLine(src, l[0]) {
			continue
		}
		for i := l[0]; i < l[1]; {
			if end := inLiteral(lits, i); end > 0 {
				i = end
				continue
			}
			if !isIdent(src[i]) || i > 0 && isIdent(src[i-1]) || src[i] >= '0' && src[i] <= '9' {
				i++
				continue
			}
			j := i
			for j < len(src) && isIdent(src[j]) {
				j++
			}
			word := src[i:j]
			before, after := prevByte(src, i), nextByte(src, j)
			switch {
			case string(word) == "new":
				// new T*[n]: the grammar reads no pointer in a new
				// expression's array declarator; blanking the stars
				// keeps the allocation of an array (of T for T*).
				if from, to, ok := newPointerArray(src, j); ok {
					e.blank(from, to)
				}
			case after == '"' && !stringPrefix(word) || before == '"':
				if j-i >= 2 {
					e.replace(i, j, '"')
				}
			case allCaps(word) && !keywords[string(word)] && after == '(' && inLiteral(bodies, i) == 0 && prevByte(src, i) == 0 &&
				attributeCallLine(src, i, j):
				// LAUNCH_BOUNDS(256) on its own line above a declaration,
				// outside any body: an attribute macro with arguments.
				e.blank(i, lineEnd(src, j))
			case dunder(word) && isIdent(after) && !digit(after) && statementEnd(prevByteAcross(src, i)):
				// __align_macro__ T buf[n]; at the start of a statement:
				// an attribute macro before a declaration (the grammar
				// reads its own __attribute__ and CUDA's keywords).
				e.blank(i, j)
			case allCaps(word) && !keywords[string(word)] && ownLine(src, i, j) && !f.StorageMacro(string(word)) &&
				(isIdent(after) && !digit(after) || after == '}') && statementEnd(prevByteAcross(src, i)):
				// A statement macro on a line of its own with no
				// semicolon, between statements (HANDLE_ERRORS ...
				// END_HANDLE_ERRORS around a body, which open and close a
				// try block; BEGIN_ALLOW_THREADS ... END_ALLOW_THREADS):
				// blanked, so the statements between read as written.
				e.blank(i, j)
			case allCaps(word) && !keywords[string(word)] && (isIdent(after) && !digit(after) || after == '{') &&
				before != '.' && before != '>' && before != ':' && before != '#' &&
				(inLiteral(bodies, i) == 0 || after == '{' || statementKeyword(src, j)):
				e.blank(i, j)
			case (before == ')' || before == 0 && prevByteAcross(src, i) == ')') && (dunder(word) || allCaps(word) && !keywords[string(word)]) &&
				(after == '{' || arrowAt(src, j) || dunder(word) && isIdent(after) && !digit(after)):
				// [](T a) __attr__ -> R { ... }, f() ATTR -> R: an
				// attribute after a parameter list.
				e.blank(i, j)
			case allCaps(word) && !keywords[string(word)] && before == ']' && (after == '(' || after == '{'):
				// [x] LAMBDA_ATTR (T a) { ... }: an attribute after a
				// lambda's captures.
				e.blank(i, j)
			case allCaps(word) && !keywords[string(word)] && (before == ',' || before == '(') && isIdent(after) && !digit(after):
				// f(int a, UNUSED int b): an attribute before a
				// parameter's type (the rule above leaves those inside a
				// body, where a macro before a declaration may be a
				// storage class).
				e.blank(i, j)
			case allCaps(word) && !keywords[string(word)] && isIdent(before) && after == ':' && !scopeAt(src, j) && !labelWord(src, i):
				// for (auto x UNUSED : range): an attribute after the
				// declared name.
				e.blank(i, j)
			case (before == '*' || before == '&') && isIdent(after) && !digit(after) && !keywords[string(word)] && !cvQualifier(word):
				// T* nonnull name: no word can stand between a pointer
				// or reference and the declared name but a qualifier.
				e.blank(i, j)
			}
			i = j
		}
	}
	if !e.copied {
		return nil, nil
	}
	return e.out, merge(e.edits)
}

// specifiers are the declaration specifier keywords an attribute macro
// stands before ([dcl.spec]; CUDA's execution space specifiers).
var specifiers = map[string]bool{"inline": true, "static": true, "virtual": true, "explicit": true,
	"constexpr": true, "consteval": true, "__forceinline": true, "__inline__": true,
	"__forceinline__": true, "__host__": true, "__device__": true, "__global__": true}

// specifierMacros lists the offsets of ALL_CAPS names directly followed
// by a declaration specifier keyword, and of those alone on their line
// between statements (see ownLine), outside literals: a statement macro's
// own line may hold no error when the error it causes is reported around
// a whole function.
func specifierMacros(src []byte, lits [][2]int) []int {
	var out []int
	for i := 0; i < len(src); {
		if end := inLiteral(lits, i); end > 0 {
			i = end
			continue
		}
		if !isIdent(src[i]) || i > 0 && isIdent(src[i-1]) || digit(src[i]) {
			i++
			continue
		}
		j := i
		for j < len(src) && isIdent(src[j]) {
			j++
		}
		if allCaps(src[i:j]) && !keywords[string(src[i:j])] {
			if after := nextByte(src, j); ownLine(src, i, j) && statementEnd(prevByteAcross(src, i)) && (isIdent(after) && !digit(after) || after == '}') {
				out = append(out, i)
				i = j
				continue
			}
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			l := k
			for l < len(src) && isIdent(src[l]) {
				l++
			}
			if l > k && specifiers[string(src[k:l])] {
				out = append(out, i)
			}
		}
		i = j
	}
	return out
}

// newPointerArray finds the stars of new T*[n] after the word new ending
// at j: the type (names, ::, a template's arguments), then stars, then [.
// It returns the stars' range.
func newPointerArray(src []byte, j int) (from, to int, ok bool) {
	i := j
	skip := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	skip()
	start := i
typ:
	for i < len(src) {
		switch {
		case isIdent(src[i]):
			i++
		case src[i] == ':' && i+1 < len(src) && src[i+1] == ':':
			i += 2
		case src[i] == '<':
			depth := 0
			for ; i < len(src) && src[i] != '\n'; i++ {
				if src[i] == '<' {
					depth++
				} else if src[i] == '>' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if depth != 0 {
				return 0, 0, false
			}
			i++
		case src[i] == ' ' || src[i] == '\t':
			// unsigned char, const T: more words of the type.
			skip()
			if i < len(src) && !isIdent(src[i]) && src[i] != ':' && src[i] != '<' {
				break typ
			}
		default:
			break typ
		}
	}
	if i == start || i >= len(src) || src[i] != '*' {
		return 0, 0, false
	}
	from = i
	for i < len(src) && (src[i] == '*' || src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] != '[' {
		return 0, 0, false
	}
	return from, i, true
}

// isDirectiveLine says the line starting at from is a preprocessor line.
func isDirectiveLine(src []byte, from int) bool {
	for i := from; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t':
			continue
		case '#':
			return true
		}
		return false
	}
	return false
}

// prevByte is the last byte before i that is not a space or tab (0 at the
// start of the line).
func prevByte(src []byte, i int) byte {
	for i--; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t':
			continue
		case '\n':
			return 0
		}
		return src[i]
	}
	return 0
}

// ownLine says the word src[i:j] is the only code on its line (a
// comment may follow it).
func ownLine(src []byte, i, j int) bool {
	if prevByte(src, i) != 0 {
		return false
	}
	for ; j < len(src); j++ {
		switch src[j] {
		case ' ', '\t', '\r':
			continue
		case '\n':
			return true
		case '/':
			return j+1 < len(src) && (src[j+1] == '/' || src[j+1] == '*')
		}
		return false
	}
	return true
}

// attributeCallLine says the macro call whose name is src[i:j] fills the
// rest of its line, follows the end of a declaration, a brace or a
// template head, and is followed by a declaration (a word).
func attributeCallLine(src []byte, i, j int) bool {
	open := skipBlanks(src, j)
	if open >= len(src) || src[open] != '(' {
		return false
	}
	end := matching(src, open, '(', ')')
	if end < 0 || len(bytes.TrimSpace(src[end+1:lineEnd(src, end+1)])) > 0 {
		return false
	}
	if c := prevByteAcross(src, i); c != 0 && !statementEnd(c) && c != '>' {
		return false
	}
	next := nextByte(src, end+1)
	return isIdent(next) && !digit(next)
}

// statementEnd says c, the last byte of code before a word, ends a
// statement or opens or closes a block: the word starts a statement.
func statementEnd(c byte) bool { return c == ';' || c == '{' || c == '}' }

// prevByteAcross is the last byte before i that is not white space, on
// this line or an earlier one (0 at the start of the text).
func prevByteAcross(src []byte, i int) byte {
	for i--; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return src[i]
	}
	return 0
}

// nextByte is the first byte from i that is not white space: a macro on
// a line of its own applies to the next line's code.
func nextByte(src []byte, i int) byte {
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return src[i]
	}
	return 0
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

// allCaps says word is an ALL_CAPS name with at least three letters.
func allCaps(word []byte) bool {
	letters := 0
	for _, c := range word {
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c == '_' || digit(c):
		default:
			return false
		}
	}
	return letters >= 3
}

// dunder says word is a reserved name of the form __name__ that the
// grammar does not read itself: an implementation's or a project's
// attribute macro (__ubsan_ignore_undefined__, __forceinline__).
func dunder(word []byte) bool {
	if len(word) <= 4 || !bytes.HasPrefix(word, []byte("__")) || !bytes.HasSuffix(word, []byte("__")) {
		return false
	}
	switch string(word) {
	case "__attribute__", "__declspec__", "__restrict__", "__asm__", "__volatile__", "__extension__",
		"__typeof__", "__alignof__", "__inline__", "__const__", "__signed__", "__FILE__", "__LINE__",
		"__FUNCTION__", "__PRETTY_FUNCTION__", "__DATE__", "__TIME__", "__COUNTER__":
		return false
	}
	return true
}

// arrowAt says the text from i (after white space) starts with ->.
func arrowAt(src []byte, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i+1 < len(src) && src[i] == '-' && src[i+1] == '>'
}

// scopeAt says the text from i (after white space) starts with ::.
func scopeAt(src []byte, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i+1 < len(src) && src[i] == ':' && src[i+1] == ':'
}

// labelWord says the word before offset i is one after which a name and
// a colon are a label, a case or an access specifier, not a declaration.
func labelWord(src []byte, i int) bool {
	j := i
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && isIdent(src[k-1]) {
		k--
	}
	switch string(src[k:j]) {
	case "case", "default", "public", "private", "protected", "goto":
		return true
	}
	return false
}

// stringPrefix says word is the encoding prefix of a string literal (u8"",
// L"", R"(...)").
func stringPrefix(word []byte) bool {
	switch string(word) {
	case "L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R":
		return true
	}
	return false
}

// cvQualifier says word is a qualifier the grammar reads after a pointer
// (T* const p, T* volatile p, T* __restrict p).
func cvQualifier(word []byte) bool {
	switch string(word) {
	case "const", "volatile", "restrict", "__restrict", "__restrict__", "_Nonnull", "_Nullable":
		return true
	}
	return false
}

// keywords are ALL_CAPS words the grammar reads itself.
var keywords = map[string]bool{"NULL": true, "TRUE": true, "FALSE": true, "EOF": true}

// statementKeyword says the next word after offset i starts a statement
// that is not a declaration: a loop, a branch, a return.
func statementKeyword(src []byte, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	j := i
	for j < len(src) && isIdent(src[j]) {
		j++
	}
	switch string(src[i:j]) {
	case "for", "while", "do", "if", "switch", "return":
		return true
	}
	return false
}

// blankedWords lists the words of old that now holds as blanks (see
// attributeMacros), in order.
func blankedWords(old, now []byte) []Word {
	var out []Word
	for i := 0; i < len(old) && i < len(now); {
		if !isIdent(old[i]) || now[i] != ' ' || i > 0 && isIdent(old[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(old) && j < len(now) && isIdent(old[j]) && now[j] == ' ' {
			j++
		}
		out = append(out, Word{At: uint32(i), Name: string(old[i:j])})
		i = j
	}
	return out
}
