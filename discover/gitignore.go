package discover

import (
	"bytes"
	"fmt"
	"regexp"
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
	// metacharacter, which every match must begin and end with, and the
	// compiled pattern.
	head, tail string
	// need is the longest run of plain characters between the pattern's
	// metacharacters and slashes: every match contains it, so a subject
	// without it is not matched, without running the expression ("" when
	// the pattern escapes a character, or has no such run).
	need string
	glob glob
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
		r.need = longestPlainRun(line)
		r.glob = compileGlob(line)
	}
	return r, true
}

// longestPlainRun returns the longest run of p outside its wildcards,
// bracket expressions and slashes (a "**/" may match no slash), or ""
// when p escapes a character or has a malformed bracket.
func longestPlainRun(p string) string {
	best, start := "", 0
	flush := func(end int) {
		if end-start > len(best) {
			best = p[start:end]
		}
	}
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			return ""
		case '*', '?', '/':
			flush(i)
			start = i + 1
		case '[':
			flush(i)
			_, end, ok := bracket(p, i)
			if !ok {
				return ""
			}
			i = end
			start = i + 1
		}
	}
	flush(len(p))
	return best
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
		!strings.HasPrefix(subject, r.head) || !strings.HasSuffix(subject, r.tail) ||
		!strings.Contains(subject, r.need) {
		return false
	}
	return r.glob.match(subject)
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

// glob is a git wildmatch pattern (with WM_PATHNAME: "*", "?" and bracket
// expressions never match "/", while "**" between slashes or at either end
// matches across them) compiled to a regular expression. Go's regexp runs
// in time linear in the text, so no pattern can make matching blow up the
// way git's backtracking wildmatch can. Matching is by bytes, as in git:
// the expression is over runes 0-255 standing for bytes, and text that is
// not ASCII is widened the same way before matching.
type glob struct {
	re *regexp.Regexp // nil: the pattern matches nothing (malformed, or too large)
	// Most patterns are a name ("build"), "*" and a suffix ("*.o") or a
	// prefix and "*" ("tmp*"): those are matched without the expression,
	// by the same rules (a "*" matches no "/").
	fast      fastGlob
	lit, star string // the literal; the suffix or prefix beside the "*"
}

type fastGlob uint8

const (
	slow fastGlob = iota
	literal
	starSuffix // "*" then lit
	prefixStar // lit then "*"
)

// wildmatch reports whether text matches a git wildmatch pattern. Tests use
// it; rules compile their pattern once.
func wildmatch(pattern, text string) bool {
	return compileGlob(pattern).match(text)
}

func (g glob) match(text string) bool {
	switch g.fast {
	case literal:
		return text == g.lit
	case starSuffix:
		return strings.HasSuffix(text, g.star) && !strings.Contains(text[:len(text)-len(g.star)], "/")
	case prefixStar:
		return strings.HasPrefix(text, g.star) && !strings.Contains(text[len(g.star):], "/")
	}
	if g.re == nil {
		return false
	}
	return g.re.MatchString(widen(text))
}

// fastPath says how g matches p without its expression, if it can.
func (g glob) fastPath(p string) glob {
	special := func(s string) bool { return strings.ContainsAny(s, `*?[\`) }
	switch {
	case !special(p):
		g.fast, g.lit = literal, p
	case len(p) > 1 && p[0] == '*' && !special(p[1:]):
		g.fast, g.star = starSuffix, p[1:]
	case len(p) > 1 && p[len(p)-1] == '*' && !special(p[:len(p)-1]):
		g.fast, g.star = prefixStar, p[:len(p)-1]
	}
	return g
}

// widen maps each byte of s to the rune of the same value.
func widen(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// compileGlob translates a wildmatch pattern with git's semantics,
// including its corner cases: a "**" not bounded by slashes is a "*", a
// "**/" may match no directory at all, a trailing "\\" or a malformed
// bracket expression makes the pattern match nothing.
func compileGlob(p string) glob {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			i++
			if i >= len(p) {
				return glob{}
			}
			lit(&b, p[i])
		case '?':
			b.WriteString(`[^/]`)
		case '*':
			start := i
			for i+1 < len(p) && p[i+1] == '*' {
				i++
			}
			next := i + 1
			if i == start || (start > 0 && p[start-1] != '/') ||
				(next < len(p) && p[next] != '/' && (p[next] != '\\' || at(p, next+1) != '/')) {
				b.WriteString(`[^/]*`)
				continue
			}
			switch {
			case next == len(p):
				b.WriteString(`.*`)
			case p[next] == '/':
				b.WriteString(`(?:.*/)?`)
				i++
			default: // "**\\/": the slash is required
				b.WriteString(`.*`)
			}
		case '[':
			set, end, ok := bracket(p, i)
			if !ok {
				return glob{}
			}
			set['/'] = false
			if !writeSet(&b, &set) {
				return glob{}
			}
			i = end
		default:
			lit(&b, c)
		}
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		// Only a pattern too large for the regexp package gets here; git
		// would take forever on it anyway. It matches nothing.
		return glob{}
	}
	return glob{re: re}.fastPath(p)
}

// lit writes byte c as a literal rune.
func lit(b *strings.Builder, c byte) {
	fmt.Fprintf(b, `\x{%x}`, c)
}

// writeSet writes a character class of the bytes in set; false when the
// set is empty, so nothing can match.
func writeSet(b *strings.Builder, set *[256]bool) bool {
	b.WriteByte('[')
	any := false
	for lo := 0; lo < 256; lo++ {
		if !set[lo] {
			continue
		}
		hi := lo
		for hi+1 < 256 && set[hi+1] {
			hi++
		}
		fmt.Fprintf(b, `\x{%x}-\x{%x}`, lo, hi)
		any = true
		lo = hi
	}
	b.WriteByte(']')
	return any
}

// at returns s[i], or 0 past the end, mirroring C string access.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// bracket evaluates the bracket expression starting at p[open] == '[' the
// way git's wildmatch does, for every byte: the set of bytes it matches
// and the index of its closing "]". ok is false for an expression git
// aborts on (unterminated, an unknown character class).
func bracket(p string, open int) (set [256]bool, end int, ok bool) {
	for t := range 256 {
		in, e, good := bracketHas(p, open, byte(t))
		if !good {
			return set, 0, false
		}
		set[t], end = in, e
	}
	return set, end, true
}

// bracketHas is git's bracket matching for one text byte tch.
func bracketHas(p string, pi int, tch byte) (in bool, end int, ok bool) {
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
			return false, 0, false
		}
		switch {
		case c == '\\':
			pi++
			c = at(p, pi)
			if c == 0 {
				return false, 0, false
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
					return false, 0, false
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
				return false, 0, false
			}
			if j == s || p[j-1] != ':' {
				// No ":]": the "[" is an ordinary member.
				pi = s - 2
				if tch == '[' {
					matched = true
				}
				break
			}
			member, known := inClass(p[s:j-1], tch)
			if !known {
				return false, 0, false
			}
			if member {
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
	return matched != negated, pi, true
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
