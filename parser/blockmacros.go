package parser

import (
	"bytes"
	"regexp"
)

// blockMacros rewrites scope-guard macros written as statements,
//
//	defer { free(p); };
//	SCOPE_EXIT { fclose(f); };
//
// into the lambda expressions they expand to, without moving a byte:
//
//	[&]   { free(p); };
//
// A name followed by a braced block that holds statements (a ';' at the
// block's own depth), then by ';', is no C++ the grammar reads: a braced
// list holds no statements, and a block after a name ends no
// declaration. Such a name is a macro whose expansion ends by opening a
// lambda (auto guard = OnExit() + [&]() — folly's SCOPE_EXIT, absl's
// and the Go-style defer macros), and the block is that lambda's body:
// it runs when the guard the statement declares is destroyed, not where
// it is written. Read as a compound literal, its first statement ran
// there and the rest broke the function apart.
//
// Only names at the start of a statement (after ';', '{', '}' or a
// label) are rewritten, never keywords (do, else, try, struct, ...), nor
// a name the file defines as an object-like macro whose replacement
// opens no lambda. It returns nil when nothing was rewritten, else the
// new text and the ranges changed; the caller keeps the parse with fewer
// errors.
func blockMacros(f *File) ([]byte, [][2]int) {
	src := f.Src
	var out []byte
	var edits [][2]int
	lineStart := true
	var prev byte = ';'
	// Each candidate's block is scanned to its closing brace: a budget of
	// a few passes over the file keeps nested candidates linear.
	budget := 4*len(src) + 4096
	defs := map[string]bool{} // names the file defines as no guard
	for i := 0; budget > 0; {
		if i = codeAt(src, i, len(src), &lineStart); i < 0 || i >= len(src) {
			break
		}
		lineStart = false
		c := src[i]
		if c == '"' || c == '\'' {
			i = literalEnd(src, i)
			prev = c
			continue
		}
		if !isIdentByte(c) || c >= '0' && c <= '9' {
			prev = c
			i++
			continue
		}
		start := i
		for i < len(src) && isIdentByte(src[i]) {
			i++
		}
		name := string(src[start:i])
		if prev != ';' && prev != '{' && prev != '}' && prev != ':' || len(name) < 3 || blockKeywords[name] {
			prev = src[i-1]
			continue
		}
		prev = src[i-1]
		open := skipBlanks(src, i)
		if open >= len(src) || src[open] != '{' {
			continue
		}
		end := matching(src, open, '{', '}')
		if end < 0 {
			budget -= len(src) - open
			continue
		}
		budget -= end - open
		if semi := skipBlanks(src, end+1); semi >= len(src) || src[semi] != ';' || !holdsStatement(src[open+1:end]) {
			continue
		}
		notGuard, seen := defs[name]
		if !seen {
			def, ok := objectMacro(src, name)
			notGuard = ok && !bytes.Contains(def, []byte("["))
			defs[name] = notGuard
		}
		if notGuard {
			continue
		}
		if out == nil {
			out = append([]byte(nil), src...)
		}
		copy(out[start:], "[&]")
		for k := start + 3; k < i; k++ {
			out[k] = ' '
		}
		edits = append(edits, [2]int{start, i})
	}
	if out == nil {
		return nil, nil
	}
	return out, edits
}

// blockKeywords are the words a braced block may follow at the start of
// a statement.
var blockKeywords = map[string]bool{
	"do": true, "else": true, "try": true, "struct": true, "class": true, "union": true, "enum": true,
	"namespace": true, "extern": true, "__try": true, "__finally": true, "__except": true, "asm": true, "__asm": true,
	"__asm__": true, "default": true, "return": true, "case": true, "public": true, "private": true, "protected": true,
	"typedef": true, "using": true, "co_return": true, "co_yield": true, "throw": true, "template": true,
}

// holdsStatement says block (the text between a pair of braces) holds a
// ';' outside any nested bracket, string or character literal: a
// statement, which no braced initialiser list holds.
func holdsStatement(block []byte) bool {
	depth := 0
	for j := 0; j < len(block); j++ {
		switch c := block[j]; {
		case c == '"' || c == '\'':
			j = literalEnd(block, j) - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ';' && depth == 0:
			return true
		}
	}
	return false
}

// objectMacro finds '#define name ...' (an object-like macro) in src and
// returns its replacement text.
func objectMacro(src []byte, name string) ([]byte, bool) {
	for i := 0; i < len(src); {
		k := bytes.Index(src[i:], []byte("#define"))
		if k < 0 {
			return nil, false
		}
		j := skipSpaces(src, i+k+len("#define"))
		i = i + k + len("#define")
		e := j
		for e < len(src) && isIdentByte(src[e]) {
			e++
		}
		if string(src[j:e]) != name || e < len(src) && src[e] == '(' {
			continue
		}
		return src[e:directiveEnd(src, e)], true
	}
	return nil, false
}

// skipSpaces returns the index of the first byte at or after i that is
// not a space or a tab.
func skipSpaces(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// classHeadDirective matches a class head whose words are split by
// preprocessor conditionals: the class key and its first words on one
// line, then lines of directives and of the macros they guard, then the
// class's name (and bases) and its opening brace.
var classHeadDirective = regexp.MustCompile(`(?m)^[ \t]*(?:class|struct)[ \t]+[A-Za-z_]\w*[ \t]*\n((?:[ \t]*#[^\n]*\n|[ \t]*[A-Za-z_][\w.]*(?:\([^()\n]*\))?[ \t]*\n)+)[ \t]*[A-Za-z_]\w*[ \t]*(?::[^;{}]*)?\{`)

// classHeadConditionals blanks the preprocessor lines inside a class
// head, and the macro lines they guard:
//
//	class EXPORT
//	#ifdef WITH_PROTOCOLS
//	CONFORMS_TO(Proto)
//	#endif
//	    Future {
//
// The grammar reads no directive inside a declaration: the head ends at
// the first one, and the class's body becomes an expression. What the
// blanked lines add to the head is attributes (the class's name and
// bases stand outside them); the export macro left before the name is
// then read as the attribute it is (see attributeMacros). It returns nil
// when nothing was blanked, else the new text and the ranges changed;
// the caller keeps the parse with fewer errors.
func classHeadConditionals(f *File) ([]byte, [][2]int) {
	var out []byte
	var edits [][2]int
	for _, m := range classHeadDirective.FindAllSubmatchIndex(f.Src, -1) {
		from, to := m[2], m[3]
		if !bytes.Contains(f.Src[from:to], []byte("#")) {
			continue
		}
		if out == nil {
			out = append([]byte(nil), f.Src...)
		}
		for k := from; k < to; k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
		edits = append(edits, [2]int{from, to})
	}
	if out == nil {
		return nil, nil
	}
	return out, edits
}
