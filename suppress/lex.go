package suppress

// comment is one comment of a source file, as byte offsets of its text
// including the delimiters, with the 1-based lines and column it spans.
type comment struct {
	start, end         int
	line, endLine, col int
	block              bool // /* ... */ rather than //
}

// lexed is what directive parsing needs from a file: its comments, and for
// each line whether it holds code (anything that is neither a comment nor
// white space) and whether it holds a comment.
type lexed struct {
	comments []comment
	code     []bool // by 1-based line
	hasCmt   []bool // by 1-based line
}

// commentOnly reports whether a line holds a comment and no code.
func (l *lexed) commentOnly(line int) bool {
	return line < len(l.code) && l.hasCmt[line] && !l.code[line]
}

// lex finds the comments of C, C++, CUDA and Objective-C++ source. It knows
// enough of the language not to take a // or /* inside a string, a
// character literal or a raw string for a comment: escapes, backslash-newline
// splices, digit separators (1'000) and raw strings (R"x(...)x", with any
// encoding prefix). Objective-C's @"..." is an ordinary string after the @.
// Unterminated strings and character literals end at the end of their line,
// as compilers recover, so one stray quote (say in an #error line) cannot
// swallow the rest of the file.
func lex(src []byte) *lexed {
	lines := 2
	for _, c := range src {
		if c == '\n' {
			lines++
		}
	}
	l := &lexed{code: make([]bool, lines), hasCmt: make([]bool, lines)}
	n := len(src)
	line, lineStart := 1, 0
	i := 0
	newline := func(at int) {
		line++
		lineStart = at + 1
	}
	// splice reports whether a backslash at i starts a line splice, and
	// returns the offset of the splice's newline.
	splice := func(i int) (int, bool) {
		if i+1 < n && src[i+1] == '\n' {
			return i + 1, true
		}
		if i+2 < n && src[i+1] == '\r' && src[i+2] == '\n' {
			return i + 2, true
		}
		return 0, false
	}
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			newline(i)
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '\\':
			if nl, ok := splice(i); ok {
				newline(nl)
				i = nl + 1
				continue
			}
			l.code[line] = true
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			cm := comment{start: i, line: line, col: i - lineStart + 1}
			l.hasCmt[line] = true
			i += 2
			for i < n && src[i] != '\n' {
				if src[i] == '\\' {
					if nl, ok := splice(i); ok {
						newline(nl)
						l.hasCmt[line] = true
						i = nl + 1
						continue
					}
				}
				i++
			}
			cm.end, cm.endLine = i, line
			l.comments = append(l.comments, cm)
		case c == '/' && i+1 < n && src[i+1] == '*':
			cm := comment{start: i, line: line, col: i - lineStart + 1, block: true}
			l.hasCmt[line] = true
			i += 2
			for i < n && (src[i] != '*' || i+1 >= n || src[i+1] != '/') {
				if src[i] == '\n' {
					newline(i)
					l.hasCmt[line] = true
				}
				i++
			}
			i = min(i+2, n)
			cm.end, cm.endLine = i, line
			l.comments = append(l.comments, cm)
		case c == '"' || c == '\'':
			l.code[line] = true
			i++
			for i < n && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					if nl, ok := splice(i); ok {
						newline(nl)
						l.code[line] = true
						i = nl + 1
						continue
					}
					i++
					if i < n && src[i] == '\n' {
						break
					}
				}
				i++
			}
			if i < n && src[i] == c {
				i++
			}
		case isIdent(c):
			l.code[line] = true
			j := i
			for j < n && (isIdent(src[j]) || isDigit(src[j])) {
				j++
			}
			if j < n && src[j] == '"' && isRawPrefix(string(src[i:j])) {
				if end, ok := rawString(src, j); ok {
					for k := j; k < end; k++ {
						if src[k] == '\n' {
							newline(k)
							l.code[line] = true
						}
					}
					i = end
					continue
				}
			}
			i = j
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(src[i+1])):
			// A preprocessing number, so that the ' of a digit separator
			// does not open a character literal.
			l.code[line] = true
			i = number(src, i)
		default:
			l.code[line] = true
			i++
		}
	}
	return l
}

// number returns the end of the preprocessing number that starts at i:
// digits, letters, dots, a sign after an exponent letter and digit
// separators.
func number(src []byte, i int) int {
	n := len(src)
	for i++; i < n; i++ {
		d := src[i]
		switch {
		case (d == '+' || d == '-') && isExponent(src[i-1]):
		case d == '\'' && i+1 < n && (isIdent(src[i+1]) || isDigit(src[i+1])):
			i++
		case isIdent(d) || isDigit(d) || d == '.':
		default:
			return i
		}
	}
	return n
}

// isExponent reports an exponent letter, after which a sign belongs to the
// number.
func isExponent(c byte) bool {
	return c == 'e' || c == 'E' || c == 'p' || c == 'P'
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isRawPrefix reports the encoding prefixes of a raw string literal.
func isRawPrefix(s string) bool {
	switch s {
	case "R", "u8R", "uR", "UR", "LR":
		return true
	}
	return false
}

// rawString reads the raw string literal whose opening quote is at q and
// returns the offset just past it. ok is false when the delimiter is not a
// valid one (then the literal is read as an ordinary string).
func rawString(src []byte, q int) (end int, ok bool) {
	n := len(src)
	i := q + 1
	for i < n && i-q-1 <= 16 && src[i] != '(' {
		switch src[i] {
		case ' ', ')', '\\', '\t', '\v', '\f', '\n', '\r', '"':
			return 0, false
		}
		i++
	}
	if i >= n || src[i] != '(' {
		return 0, false
	}
	closing := append([]byte{')'}, src[q+1:i]...)
	closing = append(closing, '"')
	for j := i + 1; j+len(closing) <= n; j++ {
		if src[j] == ')' && string(src[j:j+len(closing)]) == string(closing) {
			return j + len(closing), true
		}
	}
	return n, true
}
