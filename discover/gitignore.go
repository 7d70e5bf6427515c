package discover

import (
	"bytes"
	"strings"
)

// ignoreRule is one pattern line of a .gitignore or info/exclude file.
type ignoreRule struct {
	pattern  string // wildmatch pattern; a leading "/" is already removed
	negate   bool   // the line began with "!"
	dirOnly  bool   // the line ended with "/"
	anchored bool   // the pattern contains a "/", so it matches the whole relative path
	kind     ruleKind
	literal  string // for kindLiteral: the text; for kindSuffix: the text after "*"
	// For kindGlob, the literal text before the first and after the last
	// metacharacter, which every match must begin and end with.
	head, tail string
}

// ruleKind selects a fast path for common pattern shapes, as git does.
type ruleKind uint8

const (
	kindGlob    ruleKind = iota // general wildmatch
	kindLiteral                 // no wildcard characters: plain comparison
	kindSuffix                  // "*" followed by a literal: suffix comparison
)

// ignoreLevel holds the rules of one ignore file, together with the
// directory they are relative to.
type ignoreLevel struct {
	// prefix is the slash path of the rules' directory relative to the
	// ignore base (the repository top level), with a trailing "/"; empty
	// at the base itself.
	prefix string
	rules  []ignoreRule
}

// parseIgnore reads the lines of an ignore file with git's syntax: blank
// lines and "#" comments are skipped, trailing unescaped spaces are
// removed, "!" negates, a trailing "/" restricts the rule to directories,
// and "\" escapes a leading "#" or "!" (and any other character).
func parseIgnore(data []byte) []ignoreRule {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var rules []ignoreRule
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if r, ok := parseIgnoreLine(string(line)); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

// parseIgnoreLine parses one line; ok is false for blank lines and comments.
func parseIgnoreLine(line string) (r ignoreRule, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return r, false
	}
	line = trimTrailingSpaces(line)
	if line != "" && line[0] == '!' {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = line[:len(line)-1]
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return r, false
	}
	r.pattern = line
	switch {
	case !hasGlobSpecial(line):
		r.kind, r.literal = kindLiteral, line
	case !r.anchored && line[0] == '*' && !hasGlobSpecial(line[1:]):
		r.kind, r.literal = kindSuffix, line[1:]
	default:
		// A "]" is counted as a metacharacter too, which can only shorten
		// the tail.
		// A "/" after "**" may match nothing ("**/x" matches "x"), so
		// it is left out of the tail.
		r.head = line[:strings.IndexAny(line, `*?[\`)]
		t := strings.LastIndexAny(line, `*?[]\`) + 1
		if t >= 2 && line[t-2:t] == "**" && t < len(line) && line[t] == '/' {
			t++
		}
		r.tail = line[t:]
	}
	return r, true
}

// trimTrailingSpaces removes trailing spaces that are not escaped with a
// backslash, as git does.
func trimTrailingSpaces(s string) string {
	end := len(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			continue
		case '\\':
			i++
		}
		end = i + 1
	}
	if end > len(s) {
		end = len(s)
	}
	return s[:end]
}

// hasGlobSpecial reports whether s contains a wildmatch metacharacter.
func hasGlobSpecial(s string) bool {
	return strings.ContainsAny(s, `*?[\`)
}

// matches reports whether the rule applies to path, given relative to the
// rule's directory, whose last element is name.
func (r *ignoreRule) matches(path, name string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	subject := name
	if r.anchored {
		subject = path
	}
	switch r.kind {
	case kindLiteral:
		return subject == r.literal
	case kindSuffix:
		return strings.HasSuffix(subject, r.literal)
	}
	if len(subject) < len(r.head)+len(r.tail) ||
		!strings.HasPrefix(subject, r.head) || !strings.HasSuffix(subject, r.tail) {
		return false
	}
	return wildmatch(r.pattern, subject)
}

// ignored reports whether the entry at path (slash path relative to the
// ignore base) is ignored by the stack of levels. Deeper levels take
// precedence over shallower ones and, within a level, the last matching
// rule wins, as in git.
func ignored(levels []ignoreLevel, path, name string, isDir bool) bool {
	for i := len(levels) - 1; i >= 0; i-- {
		lv := &levels[i]
		sub := path[len(lv.prefix):]
		for j := len(lv.rules) - 1; j >= 0; j-- {
			if r := &lv.rules[j]; r.matches(sub, name, isDir) {
				return !r.negate
			}
		}
	}
	return false
}

// Results of dowild, as in git's wildmatch.c.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch matches text against a git wildmatch pattern with the
// WM_PATHNAME flag: "*", "?" and bracket expressions never match "/",
// while "**" between slashes (or at either end) matches across them.
func wildmatch(pattern, text string) bool {
	return dowild(pattern, text) == wmMatch
}

// at returns s[i], or 0 past the end, mirroring C string access.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func dowild(p, text string) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := p[pi]
		if ti >= len(text) && pch != '*' {
			return wmAbortAll
		}
		tch := at(text, ti)
		switch pch {
		case '\\':
			pi++
			if pi >= len(p) || tch != p[pi] {
				return wmNoMatch
			}
		case '?':
			if tch == '/' {
				return wmNoMatch
			}
		case '*':
			matchSlash := false
			pi++
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && at(p, pi+1) == '/')) {
					if pi < len(p) && p[pi] == '/' && dowild(p[pi+1:], text[ti:]) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if pi == len(p) {
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				slash := strings.IndexByte(text[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash
				continue
			}
			for ti < len(text) {
				if c := p[pi]; !isGlobSpecial(c) {
					for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != c {
						ti++
					}
					if ti >= len(text) || text[ti] != c {
						return wmNoMatch
					}
				}
				m := dowild(p[pi:], text[ti:])
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			pi++
			c := at(p, pi)
			if c == '^' {
				c = '!'
			}
			negated := c == '!'
			if negated {
				pi++
				c = at(p, pi)
			}
			var prev byte
			matched := false
			for {
				if c == 0 {
					return wmAbortAll
				}
				switch {
				case c == '\\':
					pi++
					c = at(p, pi)
					if c == 0 {
						return wmAbortAll
					}
					if tch == c {
						matched = true
					}
				case c == '-' && prev != 0 && at(p, pi+1) != 0 && at(p, pi+1) != ']':
					pi++
					c = at(p, pi)
					if c == '\\' {
						pi++
						c = at(p, pi)
						if c == 0 {
							return wmAbortAll
						}
					}
					if tch <= c && tch >= prev {
						matched = true
					}
					c = 0
				case c == '[' && at(p, pi+1) == ':':
					s := pi + 2
					j := s
					for j < len(p) && p[j] != ']' {
						j++
					}
					if j >= len(p) {
						return wmAbortAll
					}
					if j == s || p[j-1] != ':' {
						// No ":]": the "[" is an ordinary member.
						pi = s - 2
						if tch == '[' {
							matched = true
						}
						break
					}
					in, ok := inClass(p[s:j-1], tch)
					if !ok {
						return wmAbortAll
					}
					if in {
						matched = true
					}
					pi = j
					c = 0
				default:
					if tch == c {
						matched = true
					}
				}
				prev = c
				pi++
				c = at(p, pi)
				if c == ']' {
					break
				}
			}
			if matched == negated || tch == '/' {
				return wmNoMatch
			}
		default:
			if tch != pch {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// inClass reports whether c belongs to the POSIX character class name;
// ok is false for an unknown class.
func inClass(name string, c byte) (in, ok bool) {
	isUpper := 'A' <= c && c <= 'Z'
	isLower := 'a' <= c && c <= 'z'
	isDigit := '0' <= c && c <= '9'
	isAlpha := isUpper || isLower
	isPrint := 0x20 <= c && c < 0x7f
	switch name {
	case "alnum":
		return isAlpha || isDigit, true
	case "alpha":
		return isAlpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return isPrint && c != ' ', true
	case "lower":
		return isLower, true
	case "print":
		return isPrint, true
	case "punct":
		return isPrint && c != ' ' && !isAlpha && !isDigit, true
	case "space":
		return c == ' ' || ('\t' <= c && c <= '\r'), true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
