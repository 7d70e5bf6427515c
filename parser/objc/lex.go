package objc

import "bytes"

// kind classifies a token.
type kind uint8

const (
	kWord   kind = iota + 1 // identifier or keyword (bytes >= 0x80 count as letters)
	kNumber                 // preprocessing number, digit separators included
	kString                 // string literal, any prefix, raw strings included
	kChar                   // character literal
	kPunct                  // punctuation: "::", "->", "..." or a single byte
)

// token is a half-open byte range [start, end) of the source.
// Comments, whitespace and preprocessor lines produce no tokens.
type token struct {
	start, end int
	kind       kind
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isAlnum(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// isBlankByte reports whether c is horizontal whitespace, a byte that can be
// overwritten without moving a line break.
func isBlankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// isNewline reports whether c is part of a line break; such bytes are never
// overwritten.
func isNewline(c byte) bool { return c == '\n' || c == '\r' }

// lex splits src into tokens in one forward pass. It never fails: anything
// unterminated runs to the end of its line or of the input.
func lex(src []byte) []token {
	n := len(src)
	toks := make([]token, 0, n/5+1)
	i := 0
	lineStart := true // only whitespace or comments since the last line break
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\\' && i+1 < n && src[i+1] == '\n':
			i += 2
			continue
		case c == '\\' && i+2 < n && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			i = skipLineComment(src, i)
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = skipBlockComment(src, i)
			continue
		case c == '#' && lineStart:
			i = skipDirective(src, i)
			continue
		}
		lineStart = false
		start := i
		var k kind
		switch {
		case c == '"':
			i, k = skipQuoted(src, i, '"'), kString
		case c == '\'':
			i, k = skipQuoted(src, i, '\''), kChar
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(src[i+1])):
			i, k = skipNumber(src, i), kNumber
		case isWordByte(c):
			i++
			for i < n && isWordByte(src[i]) {
				i++
			}
			k = kWord
			if i < n && (src[i] == '"' || src[i] == '\'') {
				i, k = literalAfterPrefix(src, start, i)
			}
		default:
			k = kPunct
			switch {
			case c == ':' && i+1 < n && src[i+1] == ':':
				i += 2
			case c == '-' && i+1 < n && src[i+1] == '>':
				i += 2
			case c == '.' && i+2 < n && src[i+1] == '.' && src[i+2] == '.':
				i += 3
			default:
				i++
			}
		}
		toks = append(toks, token{start: start, end: i, kind: k})
	}
	return toks
}

// literalAfterPrefix handles a word at [start, q) directly followed by a quote
// at q: an encoding prefix (L, u, U, u8) or a raw-string prefix (R, LR, uR,
// UR, u8R) makes one literal token; any other word stays a word.
func literalAfterPrefix(src []byte, start, q int) (int, kind) {
	w := string(src[start:q])
	switch w {
	case "R", "LR", "uR", "UR", "u8R":
		if src[q] == '"' {
			return skipRawString(src, q), kString
		}
	case "L", "u", "U", "u8":
		if src[q] == '"' {
			return skipQuoted(src, q, '"'), kString
		}
		return skipQuoted(src, q, '\''), kChar
	}
	return q, kWord
}

// skipLineComment returns the index of the line break ending the // comment
// at i (backslash-continued lines included), or len(src).
func skipLineComment(src []byte, i int) int {
	n := len(src)
	for {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return n
		}
		e := i + j
		b := e - 1
		if b >= 0 && src[b] == '\r' {
			b--
		}
		if b > i && src[b] == '\\' {
			i = e + 1
			continue
		}
		return e
	}
}

// skipBlockComment returns the index after the /* comment at i, or len(src).
func skipBlockComment(src []byte, i int) int {
	j := bytes.Index(src[i+2:], []byte("*/"))
	if j < 0 {
		return len(src)
	}
	return i + 2 + j + 2
}

// skipDirective returns the index of the line break ending the preprocessor
// directive at i, following backslash continuations and comments.
func skipDirective(src []byte, i int) int {
	n := len(src)
	j := i + 1
	for j < n {
		c := src[j]
		switch {
		case c == '\n':
			return j
		case c == '\\' && j+1 < n && src[j+1] == '\n':
			j += 2
		case c == '\\' && j+2 < n && src[j+1] == '\r' && src[j+2] == '\n':
			j += 3
		case c == '/' && j+1 < n && src[j+1] == '*':
			j = skipBlockComment(src, j)
		case c == '/' && j+1 < n && src[j+1] == '/':
			return skipLineComment(src, j)
		case c == '"' || c == '\'':
			j = skipQuoted(src, j, c)
		default:
			j++
		}
	}
	return n
}

// skipQuoted returns the index after the literal opened by quote q at i. An
// unterminated literal ends before the line break (or at the end of input).
func skipQuoted(src []byte, i int, q byte) int {
	n := len(src)
	j := i + 1
	for j < n {
		c := src[j]
		switch {
		case c == '\\':
			if j+2 < n && src[j+1] == '\r' && src[j+2] == '\n' {
				j += 3
			} else {
				j += 2
			}
		case c == q:
			return j + 1
		case c == '\n':
			return j
		default:
			j++
		}
	}
	return n
}

// skipRawString returns the index after the raw string whose opening quote is
// at q. A malformed delimiter falls back to an ordinary string; a missing
// terminator runs to the end of input.
func skipRawString(src []byte, q int) int {
	n := len(src)
	p := q + 1
	for p < n && p-q-1 <= 16 {
		c := src[p]
		if c == '(' {
			break
		}
		if c == ')' || c == '\\' || c == '"' || c <= ' ' || c >= 0x7f {
			return skipQuoted(src, q, '"')
		}
		p++
	}
	if p >= n || src[p] != '(' {
		return skipQuoted(src, q, '"')
	}
	closing := make([]byte, 0, p-q+1)
	closing = append(closing, ')')
	closing = append(closing, src[q+1:p]...)
	closing = append(closing, '"')
	j := bytes.Index(src[p+1:], closing)
	if j < 0 {
		return n
	}
	return p + 1 + j + len(closing)
}

// skipNumber returns the index after the preprocessing number at i.
func skipNumber(src []byte, i int) int {
	n := len(src)
	j := i + 1
	for j < n {
		c := src[j]
		switch {
		case (c == '+' || c == '-') && (src[j-1] == 'e' || src[j-1] == 'E' || src[j-1] == 'p' || src[j-1] == 'P'):
			j++
		case isAlnum(c) || c == '_' || c == '.':
			j++
		case c == '\'' && j+1 < n && isAlnum(src[j+1]):
			j += 2
		default:
			return j
		}
	}
	return n
}

// matchBrackets pairs (), [] and {} tokens. match[i] is the index of the
// partner of bracket token i, or -1 for unmatched brackets and non-brackets.
// A closer with no opener of its kind open is ignored; a closer that skips
// over openers of other kinds leaves those unmatched.
func matchBrackets(src []byte, toks []token) []int {
	match := make([]int, len(toks))
	var stack []int
	var open [3]int
	for i, t := range toks {
		match[i] = -1
		if t.kind != kPunct || t.end-t.start != 1 {
			continue
		}
		c := src[t.start]
		switch c {
		case '(', '[', '{':
			stack = append(stack, i)
			open[bracketKind(c)]++
		case ')', ']', '}':
			b := bracketKind(c)
			if open[b] == 0 {
				continue
			}
			for len(stack) > 0 {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				tb := bracketKind(src[toks[top].start])
				open[tb]--
				if tb == b {
					match[top] = i
					match[i] = top
					break
				}
			}
		}
	}
	return match
}

func bracketKind(c byte) int {
	switch c {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
}
