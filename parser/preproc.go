package parser

import (
	"bytes"
	"cmp"
	"slices"
)

// The C++ grammar parses a conditional directive's branches as code, every
// branch of it. This file rewrites conditionals in place, without moving a
// byte, so the grammar sees code the compiler could see: branches that can
// never be compiled (`#if 0`) are blanked, and where the branches of a
// conditional split a statement or a brace, only its first branch is kept.

type dirKind uint8

const (
	dirIf dirKind = iota // #if, #ifdef, #ifndef
	dirElif
	dirElse
	dirEndif
)

// directive is one conditional preprocessor line.
type directive struct {
	hash  int // offset of '#'
	start int // offset of the line's first byte
	end   int // offset of the newline ending it, continuation lines included
	kw    int // offset of the keyword after '#'
	kind  dirKind
	cond  []byte // #if and #elif: the condition, as written
}

// cond is one #if ... #endif: indexes into the directive list, the #if
// first, the #endif last.
type cond []int

// conditionals lists the conditional directives of src and how they nest.
// Chains are ordered by their #if; an unterminated chain is left out.
func conditionals(src []byte) ([]directive, []cond) {
	var dirs []directive
	var chains []cond
	var stack []open
	lits := literals(src)
	for from := 0; ; {
		h := bytes.IndexByte(src[from:], '#')
		if h < 0 {
			break
		}
		h += from
		from = h + 1
		if end := inLiteral(lits, h); end > 0 {
			// A "#if 0" inside a comment or a (raw) string is text.
			from = end
			continue
		}
		start := h
		for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
			start--
		}
		if start > 0 && src[start-1] != '\n' && src[start-1] != '\r' {
			continue
		}
		kw := h + 1
		for kw < len(src) && (src[kw] == ' ' || src[kw] == '\t') {
			kw++
		}
		e := kw
		for e < len(src) && src[e] >= 'a' && src[e] <= 'z' {
			e++
		}
		d := directive{hash: h, start: start, end: directiveEnd(src, h), kw: kw}
		switch string(src[kw:e]) {
		case "if", "ifdef", "ifndef":
			d.kind = dirIf
		case "elif", "elifdef", "elifndef":
			d.kind = dirElif
		case "else":
			d.kind = dirElse
		case "endif":
			d.kind = dirEndif
		default:
			from = d.end
			continue
		}
		if string(src[kw:e]) == "if" || string(src[kw:e]) == "elif" {
			d.cond = src[e:d.end]
		}
		from = d.end
		dirs = append(dirs, d)
		i := len(dirs) - 1
		switch d.kind {
		case dirIf:
			stack = append(stack, open{slot: len(chains), c: cond{i}})
			chains = append(chains, nil) // filled at its #endif, so chains stay in #if order
		case dirElif, dirElse:
			if n := len(stack); n > 0 {
				stack[n-1].c = append(stack[n-1].c, i)
			}
		case dirEndif:
			if n := len(stack); n > 0 {
				top := stack[n-1]
				stack = stack[:n-1]
				chains[top.slot] = append(top.c, i)
			}
		}
	}
	out := chains[:0]
	for _, c := range chains {
		if c != nil {
			out = append(out, c)
		}
	}
	return dirs, out
}

// literals lists the comments and string and character literals of src
// (raw strings included) as [start, end) byte ranges, in order.
func literals(src []byte) [][2]int {
	var out [][2]int
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			e := i + 2
			for e < len(src) && src[e] != '\n' {
				if src[e] == '\\' && e+1 < len(src) {
					e++ // a continued line comment
				}
				e++
			}
			out = append(out, [2]int{i, e})
			i = e
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			e := bytes.Index(src[i+2:], []byte("*/"))
			if e < 0 {
				e = len(src)
			} else {
				e += i + 4
			}
			out = append(out, [2]int{i, e})
			i = e
		case c == '"' && i > 0 && src[i-1] == 'R' && (i < 2 || !isIdent(src[i-2]) || src[i-2] == 'u' || src[i-2] == 'U' || src[i-2] == 'L' || src[i-2] == '8'):
			// R"delim( ... )delim"
			open := bytes.IndexByte(src[i:], '(')
			if open < 0 || open > 17 {
				i++
				continue
			}
			closer := append(append([]byte(")"), src[i+1:i+open]...), '"')
			e := bytes.Index(src[i+open:], closer)
			if e < 0 {
				e = len(src)
			} else {
				e += i + open + len(closer)
			}
			out = append(out, [2]int{i, e})
			i = e
		case c == '"' || c == '\'' && (i == 0 || !isIdent(src[i-1])):
			// A quote after a digit or letter is a digit separator
			// (1'000) or part of a prefix handled above.
			e := i + 1
			for e < len(src) && src[e] != c && src[e] != '\n' {
				if src[e] == '\\' {
					e++
				}
				e++
			}
			e = min(e+1, len(src))
			out = append(out, [2]int{i, e})
			i = e
		default:
			i++
		}
	}
	return out
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// inLiteral returns the end of the literal range holding offset at, or 0.
func inLiteral(lits [][2]int, at int) int {
	i, _ := slices.BinarySearchFunc(lits, at, func(r [2]int, at int) int { return cmp.Compare(r[1], at+1) })
	if i < len(lits) && lits[i][0] <= at && at < lits[i][1] {
		return lits[i][1]
	}
	return 0
}

// open is a chain whose #endif has not been seen yet.
type open struct {
	slot int
	c    cond
}

// constCond reads a condition that is a literal: 0 or false is false, 1 or
// true is true; ok is false for anything else.
func constCond(c []byte) (value, ok bool) {
	c = stripComments(c)
	c = bytes.TrimSpace(c)
	for len(c) >= 2 && c[0] == '(' && c[len(c)-1] == ')' {
		c = bytes.TrimSpace(c[1 : len(c)-1])
	}
	switch string(c) {
	case "0", "false":
		return false, true
	case "1", "true":
		return true, true
	}
	return false, false
}

// stripComments cuts a trailing // comment and drops /* */ comments.
func stripComments(c []byte) []byte {
	if !bytes.Contains(c, []byte("/")) {
		return c
	}
	var out []byte
	for i := 0; i < len(c); i++ {
		switch {
		case c[i] == '/' && i+1 < len(c) && c[i+1] == '/':
			return out
		case c[i] == '/' && i+1 < len(c) && c[i+1] == '*':
			j := bytes.Index(c[i+2:], []byte("*/"))
			if j < 0 {
				return out
			}
			i += j + 3
			out = append(out, ' ')
		default:
			out = append(out, c[i])
		}
	}
	return out
}

// editor blanks and rewrites src, copying it on the first change.
type editor struct {
	out    []byte
	copied bool
	edits  [][2]int // the blanked ranges, in the order blanked
}

// write makes e.out writable.
func (e *editor) write() {
	if !e.copied {
		e.out = bytes.Clone(e.out)
		e.copied = true
	}
}

// blank turns [from, to) into spaces, keeping line breaks.
func (e *editor) blank(from, to int) {
	e.write()
	e.edits = append(e.edits, [2]int{from, to})
	for i := from; i < to; i++ {
		if e.out[i] != '\n' && e.out[i] != '\r' {
			e.out[i] = ' '
		}
	}
}

// replace turns [from, to) into a string literal of the same width: a
// quote, spaces, a quote.
func (e *editor) replace(from, to int, quote byte) {
	e.blank(from, to)
	e.out[from], e.out[to-1] = quote, quote
}

// live says whether directive d has not been blanked by an enclosing edit.
func (e *editor) live(d directive) bool { return e.out[d.hash] == '#' }

// blankDeadBranches blanks the branches of `#if 0` / `#if false` (and of
// `#elif 0`), and the branches after a `#if 1` / `#if true` one. The
// directives are kept consistent: when a chain's first branch is dead, the
// next live `#elif` becomes `#if` in place (`#elif x` -> `#if   x`), and a
// live `#else` loses its line together with the `#endif`.
func blankDeadBranches(src []byte, dirs []directive, chains []cond) []byte {
	e := &editor{out: src}
	for _, c := range chains {
		if !e.live(dirs[c[0]]) {
			continue
		}
		opened := false // a live directive opens the chain
		taken := false  // a branch with a true condition was kept
		for k := 0; k+1 < len(c); k++ {
			d, next := dirs[c[k]], dirs[c[k+1]]
			v, known := false, false
			if d.cond != nil {
				v, known = constCond(d.cond)
			}
			switch {
			case taken || known && !v:
				e.blank(d.start, next.start)
			case !opened && d.kind == dirElif:
				// elif, elifdef, elifndef -> if, ifdef, ifndef, same width.
				e.write()
				n := len(keyword(e.out, d.kw))
				copy(e.out[d.kw:], e.out[d.kw+2:d.kw+n])
				e.out[d.kw+n-2], e.out[d.kw+n-1] = ' ', ' '
				opened = true
			case !opened && d.kind == dirElse:
				e.blank(d.start, d.end)
			default:
				opened = true
			}
			if known && v && !taken {
				taken = true
			}
		}
		if !opened {
			end := dirs[c[len(c)-1]]
			e.blank(end.start, end.end)
		}
	}
	return e.out
}

// joinElseGroups blanks the directive lines of a conditional with one
// branch (#if ... #endif, no #elif or #else) whose code starts with
// `else`: an arm of an if statement the group continues (`} #ifndef X
// else if (c) {...} #endif`). Left in, the grammar reads `else if (c)`
// as a declaration and the arm as a block run after the if; without
// them the chain is whole, as it is compiled when the group is.
func joinElseGroups(src []byte, dirs []directive, chains []cond) []byte {
	e := &editor{out: src}
	for _, c := range chains {
		if len(c) != 2 || dirs[c[0]].kind != dirIf || !e.live(dirs[c[0]]) {
			continue
		}
		first, end := dirs[c[0]], dirs[c[1]]
		at := skipComments(e.out, first.end)
		if at+4 > end.start || !bytes.HasPrefix(e.out[at:], []byte("else")) || at+4 < len(e.out) && isIdent(e.out[at+4]) {
			continue
		}
		e.blank(first.start, first.end)
		e.blank(end.start, end.end)
	}
	return e.out
}

// skipComments is the first offset from i that is neither white space
// nor inside a comment.
func skipComments(src []byte, i int) int {
	for {
		i = skipBlanks(src, i)
		switch {
		case bytes.HasPrefix(src[i:], []byte("//")):
			nl := bytes.IndexByte(src[i:], '\n')
			if nl < 0 {
				return len(src)
			}
			i += nl
		case bytes.HasPrefix(src[i:], []byte("/*")):
			close := bytes.Index(src[i+2:], []byte("*/"))
			if close < 0 {
				return len(src)
			}
			i += close + 4
		default:
			return i
		}
	}
}

// keyword returns the directive keyword at src[kw:].
func keyword(src []byte, kw int) []byte {
	e := kw
	for e < len(src) && src[e] >= 'a' && src[e] <= 'z' {
		e++
	}
	return src[kw:e]
}

// firstBranches keeps only the first branch of each conditional that has
// a parse error (an ERROR node, or a MISSING one) below its first directive
// line and a branch that splits a statement or a bracket (see splits): the
// chain's directive lines and its other branches are blanked, so the
// grammar reads one branch's code whole. It returns nil when no
// conditional qualifies, else the new text and the ranges changed, sorted
// and disjoint.
func firstBranches(f *File, dirs []directive, chains []cond) ([]byte, [][2]int) {
	spans := errorSpans(f)
	if len(spans) == 0 {
		return nil, nil
	}
	overlaps := func(from, to int) bool {
		i, _ := slices.BinarySearchFunc(spans, from, func(s [2]int, from int) int {
			return cmp.Compare(s[1], from+1)
		})
		return i < len(spans) && spans[i][0] < to
	}
	e := &editor{out: f.Src}
	var live []int
	for _, c := range chains {
		live = live[:0]
		for _, k := range c {
			if e.live(dirs[k]) {
				live = append(live, k)
			}
		}
		if len(live) == 0 || !overlaps(dirs[live[0]].end+1, dirs[live[len(live)-1]].end) || !splits(f.Src, dirs, live) {
			continue
		}
		for _, k := range live {
			e.blank(dirs[k].start, dirs[k].end)
		}
		if len(live) > 2 {
			e.blank(dirs[live[1]].start, dirs[live[len(live)-1]].start)
		}
	}
	if !e.copied {
		return nil, nil
	}
	return e.out, merge(e.edits)
}

// errorSpans returns the sorted, merged byte spans of the ERROR nodes and
// the positions of the MISSING ones.
func errorSpans(f *File) [][2]int {
	var spans [][2]int
	for i := range f.Nodes {
		n := &f.Nodes[i]
		switch {
		case n.Error:
			spans = append(spans, [2]int{int(n.Start), int(n.End)})
		case n.Missing && !n.Benign:
			spans = append(spans, [2]int{int(n.Start), int(n.Start) + 1})
		}
	}
	return merge(spans)
}

// merge sorts byte ranges and joins those that overlap or touch.
func merge(spans [][2]int) [][2]int {
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	out := spans[:0]
	for _, s := range spans {
		if k := len(out) - 1; k >= 0 && s[0] <= out[k][1] {
			out[k][1] = max(out[k][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// splits says whether a branch of the chain (its live directives, in
// order) is not a whole run of statements or declarations: its brackets do
// not balance, or it does not end at `;`, `{`, `}`, `,` or `:`.
func splits(src []byte, dirs []directive, live []int) bool {
	for i := 0; i+1 < len(live); i++ {
		depth := 0
		last := byte(';')
		from, to := dirs[live[i]].end, dirs[live[i+1]].start
		lineStart := true
		for j := from; ; {
			if j = codeAt(src, j, to, &lineStart); j < 0 {
				return true // an unterminated comment
			}
			if j >= to {
				break
			}
			c := src[j]
			switch {
			case c == '"' || c == '\'':
				j = literalEnd(src, j)
			case c == '(' || c == '[' || c == '{':
				depth++
				j++
			case c == ')' || c == ']' || c == '}':
				depth--
				j++
			default:
				j++
			}
			last, lineStart = c, false
		}
		if depth != 0 || last != ';' && last != '{' && last != '}' && last != ',' && last != ':' {
			return true
		}
	}
	return false
}
