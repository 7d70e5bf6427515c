package parser

// rewriteBraceCaptures rewrites lambda init-captures written with braces,
// [seq{op.id}](...), into the '=' form tree-sitter's C++ grammar reads,
// [seq=op.id ](...), without moving a byte: the grammar turns the brace
// form into ERROR nodes and loses the lambda. It returns src itself when
// there is nothing to rewrite, and a copy otherwise.
func rewriteBraceCaptures(src []byte) []byte {
	out := src
	copied := false
	lineStart := true
	var prev byte = ';'
	for i := 0; ; {
		if i = codeAt(out, i, len(out), &lineStart); i < 0 || i >= len(out) {
			break
		}
		lineStart = false
		c := out[i]
		if c == '"' || c == '\'' {
			i = literalEnd(out, i)
			prev = c
			continue
		}
		if c == '[' && introducesLambda(prev) {
			if edits := braceCaptures(out, i); len(edits) > 0 {
				if !copied {
					out = append([]byte(nil), out...)
					copied = true
				}
				for _, e := range edits {
					out[e.open], out[e.close] = '=', ' '
				}
			}
		}
		prev = c
		i++
	}
	return out
}

// introducesLambda says whether '[' after the significant byte prev can
// open a lambda's capture list rather than a subscript.
func introducesLambda(prev byte) bool {
	switch prev {
	case '(', ',', '=', '{', '}', ';', ':', '?', '!', '&', '|', 'n': // 'n': return
		return true
	}
	return false
}

type braceEdit struct{ open, close int }

// braceCaptures returns the brace pairs of the init-captures of the
// capture list opening at src[open], or nil when it is not a capture list
// followed by a lambda's parameters or body.
func braceCaptures(src []byte, open int) []braceEdit {
	var edits []braceEdit
	i := open + 1
	for i < len(src) {
		for i < len(src) && isBlank(src[i]) {
			i++
		}
		// an item: [&|=|this|*this|&name|name|name = ...|name{...}|name...]
		start := i
		for i < len(src) && (isIdentByte(src[i]) || src[i] == '&' || src[i] == '*' || src[i] == '.') {
			i++
		}
		name := i > start && isIdentByte(src[i-1])
		for i < len(src) && isBlank(src[i]) {
			i++
		}
		if i >= len(src) {
			return nil
		}
		switch src[i] {
		case '{':
			if !name {
				return nil
			}
			end := matching(src, i, '{', '}')
			if end < 0 {
				return nil
			}
			edits = append(edits, braceEdit{i, end})
			i = end + 1
		case '=':
			end := itemEnd(src, i+1)
			if end < 0 {
				return nil
			}
			i = end
		}
		for i < len(src) && isBlank(src[i]) {
			i++
		}
		if i >= len(src) {
			return nil
		}
		switch src[i] {
		case ',':
			i++
			continue
		case ']':
			j := i + 1
			for j < len(src) && isBlank(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '(' || src[j] == '{' || src[j] == 'm' || src[j] == '-') {
				return edits
			}
		}
		return nil
	}
	return nil
}

// matching returns the index of the bracket that closes the one at
// src[i], skipping nested brackets, strings and characters; -1 if none.
func matching(src []byte, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(src); j++ {
		switch c := src[j]; {
		case c == '"' || c == '\'':
			j = literalEnd(src, j) - 1
		case c == open:
			depth++
		case c == close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// itemEnd returns the index of the ',' or ']' that ends the capture item
// whose initialiser starts at src[i], at bracket depth 0; -1 if none.
func itemEnd(src []byte, i int) int {
	depth := 0
	for j := i; j < len(src); j++ {
		switch c := src[j]; {
		case c == '"' || c == '\'':
			j = literalEnd(src, j) - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == '}':
			depth--
		case c == ']':
			if depth == 0 {
				return j
			}
			depth--
		case c == ',' && depth == 0:
			return j
		}
	}
	return -1
}
