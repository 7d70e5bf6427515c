package discover

import (
	"strings"
	"testing"
)

// TestNeededRunIsInEveryMatch: the plain run a rule requires before it
// runs its expression is in every subject the expression matches, so the
// shortcut never changes an answer; and it skips what it should.
func TestNeededRunIsInEveryMatch(t *testing.T) {
	patterns := []string{"*/**/*.so*", "**/core.[1-9]*", "*.mex*", "[!x-z]w.cc", "*/**/.coverage.*", "**/.nfs*", `a\*b*`, "x[ab]yz*q", "d*/**/*.h"}
	subjects := []string{"lib.so", "a/lib.so.1", "a/b/c/lib.so", "core.12", "x/core.3", "core.x", "f.mex64", "aw.cc", "xw.cc",
		"a/.coverage.1", "b/.nfs0001", "a*b", "a*bc", "xayzq", "xbyz12q", "d1/e/f.h", "d/f.h", "lib.s", "cor.1"}
	for _, p := range patterns {
		r, ok := parseIgnoreLine(p)
		if !ok || r.kind != kindGlob {
			t.Fatalf("%q: not a glob rule", p)
		}
		for _, s := range subjects {
			if r.glob.match(s) && !strings.Contains(s, r.need) {
				t.Errorf("%q matches %q, which lacks the run %q it requires", p, s, r.need)
			}
		}
	}
	for p, want := range map[string]string{"*/**/*.so*": ".so", "**/core.[1-9]*": "core.", "[!x-z]w.cc": "w.cc", `a\*b*`: "", "*/**/.coverage.*": ".coverage."} {
		if r, _ := parseIgnoreLine(p); r.need != want {
			t.Errorf("%q requires %q, want %q", p, r.need, want)
		}
	}
}
