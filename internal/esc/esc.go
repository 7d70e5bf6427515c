// Package esc makes text that comes from a scanned repository (file names,
// configuration keys, directive reasons, source text quoted in messages)
// safe to print on a terminal or in a CI log, where a line break could
// start a workflow command ("::add-mask::") and an escape sequence or a
// bidirectional override could rewrite what a reader sees.
//
// Every output path of holdfast escapes through this package: the text and
// GitHub formats and standard error with Name and Text, JSON and SARIF
// with JSON, which keeps each value exact.
package esc

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Unsafe reports whether r is escaped: C0 and C1 control characters and
// DEL (line breaks, tabs and ESC among them), the Unicode line and
// paragraph separators, and the bidirectional formatting characters that
// can reorder a line as displayed.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Name returns s with every unsafe character, and every byte that is not
// UTF-8, written as a Go escape: "\n", "\t", "\x1b", "\u202e". It is for
// names and keys, where the exact value matters: a file name with a line
// break prints as one line that shows the break. A backslash is left as
// it is.
func Name(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Text is Name for prose, such as a message quoting source code: tabs and
// line breaks become spaces first and, when there was a break, runs of
// white space collapse to one, so code spread over lines reads as one
// line; anything unsafe left is escaped as Name does.
func Text(s string) string {
	if !needs(s) {
		return s
	}
	if strings.ContainsAny(s, "\r\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	s = strings.ReplaceAll(s, "\t", " ")
	return Name(s)
}

// JSON rewrites the output of encoding/json so that no unsafe character
// appears raw: encoding/json escapes C0 controls but passes DEL, C1
// controls and bidirectional overrides through. They can only occur
// inside strings, so writing them as \uXXXX keeps every value the same.
// Raw line breaks and tabs are the encoder's indentation and stay.
func JSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if size == 1 && r != utf8.RuneError && (!Unsafe(r) || r == '\n' || r == '\r' || r == '\t') {
			i++
			continue
		}
		if r != utf8.RuneError && Unsafe(r) {
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// needs reports whether s has anything Name would change.
func needs(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || Unsafe(r) {
			return true
		}
		i += size
	}
	return false
}
