package discover

import (
	"strings"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/internal/fuzzlimit"
)

// This is git's wildmatch (wildmatch.c) as holdfast used to run it: a
// backtracking matcher whose time is exponential in the number of stars
// ("*a*a*a*a*a*a*a*a?b.cc" against a 66-byte name takes minutes). It is
// kept only as the reference the compiled matcher is compared with.

// Results of refDowild, as in git's wildmatch.c.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// refWildmatch matches text against a git wildmatch pattern with the
// WM_PATHNAME flag: "*", "?" and bracket expressions never match "/",
// while "**" between slashes (or at either end) matches across them.
func refWildmatch(pattern, text string) bool {
	return refDowild(pattern, text) == wmMatch
}

func refDowild(p, text string) int {
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
					if pi < len(p) && p[pi] == '/' && refDowild(p[pi+1:], text[ti:]) == wmMatch {
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
				m := refDowild(p[pi:], text[ti:])
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

// TestGlobIsLinear: a pattern with many stars against a long name that
// almost matches took git's algorithm minutes; the compiled glob answers
// at once. The minute below guards against a hang and asserts no speed.
func TestGlobIsLinear(t *testing.T) {
	pattern := "*a*a*a*a*a*a*a*a?b.cc"
	name := strings.Repeat("a", 100) + ".cc"
	done := make(chan bool, 1)
	go func() {
		r, _ := parseIgnoreLine(pattern)
		done <- r.matches(name, name, false)
	}()
	select {
	case got := <-done:
		if got {
			t.Errorf("%q matched %q", pattern, name)
		}
	case <-time.After(time.Minute):
		t.Fatal("matching did not finish")
	}
}

// FuzzGlob compares the compiled glob with git's algorithm on short
// patterns and names (short, so the reference itself stays quick).
func FuzzGlob(f *testing.F) {
	for _, s := range []string{"*", "*.o", "tmp*", "name", "**", "a/**/b", "**/x", "[a-c]?", `\*x`, "[[:alpha:]]*", "a**b", "x/**", "[!/]", "[]a-]", "**\\/x"} {
		f.Add(s, "a/b/x")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if len(pattern) > 24 || len(text) > 24 {
			return
		}
		fuzzlimit.Run(fuzzlimit.PerInput, func() {
			if got, want := wildmatch(pattern, text), refWildmatch(pattern, text); got != want {
				t.Errorf("wildmatch(%q, %q) = %v, git says %v", pattern, text, got, want)
			}
		})
	})
}

// TestFastGlobs checks the patterns matched without an expression (a
// name, "*" and a suffix, a prefix and "*") against git's algorithm.
func TestFastGlobs(t *testing.T) {
	patterns := []string{"build", "*.o", "tmp*", "*", "a/b", "*/x", "x/*", "*.tar.gz", "é*", "*é"}
	texts := []string{"build", "builds", "a.o", "x/a.o", ".o", "o", "tmp", "tmpfile", "tmp/x", "a/b", "a/x", "q/x",
		"x/", "x/y", "x/y/z", "f.tar.gz", "d/f.tar.gz", "é", "éa", "aé", "a/é", ""}
	for _, p := range patterns {
		g := compileGlob(p)
		if p != "*" && g.fast == slow {
			t.Errorf("%q: no fast path", p)
		}
		for _, s := range texts {
			if got, want := g.match(s), refWildmatch(p, s); got != want {
				t.Errorf("wildmatch(%q, %q) = %v, git says %v", p, s, got, want)
			}
		}
	}
}
