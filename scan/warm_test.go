package scan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

// outcome is what a scan says, in a form two scans can be compared by:
// every finding with its place, message and verdict, every notice.
func outcome(res *Result) string {
	var b strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "%s %s:%d %s", f.Rule.ID, f.At.Start.File, f.At.Start.Line, f.Message)
		if f.Verification != nil {
			fmt.Fprintf(&b, " [%v %s]", f.Verification.Verdict, f.Verification.Reason)
		}
		b.WriteByte('\n')
	}
	for _, n := range res.Notices {
		fmt.Fprintf(&b, "notice %s %s:%d %s\n", n.Level, n.File, n.Line, n.Message)
	}
	return b.String()
}

// TestWarmScanOfTheTree: a scan of the whole tree takes the summaries of
// unchanged files from the cache the last one wrote, parses each file
// once, and says what a scan without the cache says; a changed file is
// summarised again, and its new summary is the one its callers see.
func TestWarmScanOfTheTree(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	write(t, dir, "src/buggy.cc", []byte(buggy))
	var models int
	opt := Options{Cache: summary.Open(t.TempDir()), CacheKey: "k", Funcs: func(*parser.File, []*lifetime.Func) { models++ }}
	cold := scanPaths(t, dir, opt, ".")
	if cold.Summarised.Cached != 0 || cold.Summarised.Own == 0 {
		t.Fatalf("first scan: summaries %+v, want all its own", cold.Summarised)
	}
	models = 0
	warm := scanPaths(t, dir, opt, ".")
	if warm.Summarised.Own != 0 || warm.Summarised.Cached != cold.Summarised.Own {
		t.Errorf("warm scan: summaries %+v, want all %d from the cache", warm.Summarised, cold.Summarised.Own)
	}
	if models != 3 {
		t.Errorf("warm scan: the model callback ran %d times for 3 files, want once each", models)
	}
	if a, b := outcome(cold), outcome(warm); a != b || len(cold.Findings) == 0 {
		t.Errorf("cold and warm scans differ:\ncold:\n%swarm:\n%s", a, b)
	}
	if got := ruleLines(warm, "src/user.cc", "HF-B002"); len(got) != 1 || got[0] != 6 {
		t.Errorf("warm scan: HF-B002 in src/user.cc at %v, want [6]", got)
	}

	// release_block frees only on one path now: the use after it is not
	// a finding, and only pool.cc's functions are summarised again.
	write(t, dir, "src/pool.cc", []byte(strings.Replace(poolSrc, "  free(b);\n}\nvoid maybe", "  if (b->size) free(b);\n}\nvoid maybe", 1)))
	changed := scanPaths(t, dir, opt, ".")
	if changed.Summarised.Own == 0 || changed.Summarised.Cached == 0 {
		t.Errorf("one file changed: summaries %+v, want some of each", changed.Summarised)
	}
	if got := ruleLines(changed, "src/user.cc", "HF-B002"); len(got) != 0 {
		t.Errorf("changed helper: HF-B002 at %v, want none", got)
	}
	fresh := scanPaths(t, dir, Options{}, ".")
	if a, b := outcome(fresh), outcome(changed); a != b {
		t.Errorf("after a change, the scan with the cache differs from one without:\nwithout:\n%swith:\n%s", a, b)
	}
}

// TestWarmScanKeepsTheBudget: a file's work budget is charged what its
// summary cost even when the summary comes from the cache, so a file cut
// short without the cache is cut short at the same step with it; a
// summary that cost more than a later scan's budget is made again.
func TestWarmScanKeepsTheBudget(t *testing.T) {
	dir := t.TempDir()
	// Functions before the helper: a budget can stop pool.cc's summary
	// before it reaches release_block, and still let user.cc's rules run.
	var pad strings.Builder
	for i := range 60 {
		fmt.Fprintf(&pad, "int pad%d(int x) { int y = x * %d; return y + x; }\n", i, i)
	}
	write(t, dir, "src/pool.cc", []byte(pad.String()+poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	write(t, dir, "src/buggy.cc", []byte(buggy))
	full := t.TempDir()
	scanPaths(t, dir, Options{Cache: summary.Open(full), CacheKey: "k"}, ".")
	var cut []int64
	helperLost := false
	for _, units := range []int64{1, 8, 20, 40, 80, 160, 320, 640, 1280, 2560, 5000, 20000} {
		bare := scanPaths(t, dir, Options{FileBudget: units}, ".")
		if strings.Contains(outcome(bare), "cut short") {
			cut = append(cut, units)
		}
		if !noticeFor(bare, "src/user.cc", "cut short") && len(ruleLines(bare, "src/user.cc", "HF-B002")) == 0 {
			helperLost = true
		}
		// The same budget both times.
		opt := Options{Cache: summary.Open(t.TempDir()), CacheKey: "k", FileBudget: units}
		cold, warm := scanPaths(t, dir, opt, "."), scanPaths(t, dir, opt, ".")
		if a, b, c := outcome(bare), outcome(cold), outcome(warm); a != b || b != c {
			t.Errorf("budget %d: scans differ:\nwithout a cache:\n%scold:\n%swarm:\n%s", units, a, b, c)
		}
		// The cache written under this budget, read under the default.
		if got, want := outcome(scanPaths(t, dir, Options{Cache: opt.Cache, CacheKey: "k"}, ".")), outcome(scanPaths(t, dir, Options{}, ".")); got != want {
			t.Errorf("default budget, the cache of a scan with budget %d:\n%swant\n%s", units, got, want)
		}
		// A cache written under the default budget, read under this one.
		if got := outcome(scanPaths(t, dir, Options{Cache: summary.Open(full), CacheKey: "k", FileBudget: units}, ".")); got != outcome(bare) {
			t.Errorf("budget %d, the cache of a scan with more:\n%swant\n%s", units, got, outcome(bare))
		}
	}
	// The budgets tried must include some that cut a file short and some
	// that do not, or the test shows nothing.
	if len(cut) == 0 || slices.Contains(cut, 20000) || !helperLost {
		t.Errorf("budgets that cut a file short: %v; want some, not the largest; one that loses the helper's summary but runs user.cc's rules: %v", cut, helperLost)
	}
}
