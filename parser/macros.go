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
func rewriteDeclMacros(src []byte, names []string) []byte {
	out := src
	copied := false
	for _, name := range names {
		if name == "" {
			continue
		}
		nb := []byte(name)
		for from := 0; ; {
			i := bytes.Index(out[from:], nb)
			if i < 0 {
				break
			}
			i += from
			from = i + len(nb)
			if i > 0 && isIdentByte(out[i-1]) || from < len(out) && isIdentByte(out[from]) {
				continue
			}
			open := from
			for open < len(out) && (out[open] == ' ' || out[open] == '\t') {
				open++
			}
			if open >= len(out) || out[open] != '(' {
				continue
			}
			commas, close := macroArgs(out, open)
			if close < 0 || len(commas) == 0 {
				continue
			}
			if !copied {
				out = bytes.Clone(out)
				copied = true
			}
			for j := i; j <= open; j++ {
				out[j] = ' '
			}
			out[commas[0]] = '='
			end := close
			if len(commas) > 1 {
				end = commas[1]
			}
			for j := end; j <= close; j++ {
				if out[j] != '\n' && out[j] != '\r' {
					out[j] = ' '
				}
			}
			from = close + 1
		}
	}
	return out
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
