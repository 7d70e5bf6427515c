package scan

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/rules"
)

const threeFuncs = "void first() {}\nvoid second() {}\nvoid third() {}\n"

// reportEach is a rule that reports every function of a file by name,
// calling at first on each function.
func reportEach(at func(fn *lifetime.Func)) *rules.Rule {
	return &rules.Rule{
		Meta: &diag.Rule{ID: "HF-T001", Name: "every-function", Severity: diag.Warning},
		Check: func(p *rules.Pass, fn *lifetime.Func) {
			at(fn)
			n := p.File.Nodes[fn.Node]
			p.Report(fn, n.Start, n.End, "function "+fn.Name, "", nil)
		},
	}
}

func functions(fs []*diag.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Function)
	}
	return out
}

// TestBudgetKeepsFindingsMadeBeforeIt: a file whose rules run out of the
// time budget keeps the findings made before, with a warning that its
// analysis was cut short, instead of losing them all. The rule here
// never finishes the second function; the budget is what ends it.
func TestBudgetKeepsFindingsMadeBeforeIt(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "slow.cc", []byte(threeFuncs))
	release := make(chan struct{})
	defer close(release)
	r := reportEach(func(fn *lifetime.Func) {
		if fn.Name == "second" {
			<-release
		}
	})
	opt := Options{FileTimeout: time.Second, Jobs: 1, Rules: []*rules.Rule{r}}
	res := within(t, func() *Result { return runDir(t, dir, opt) })
	if got := functions(res.Findings); len(got) != 1 || got[0] != "first" {
		t.Errorf("findings in %v, want the one in first", got)
	}
	if !noticeFor(res, "slow.cc", "analysis cut short by the wall-clock limit of 1s (--file-timeout; the result depends on the machine): findings may be missing") || res.Skipped != 1 {
		t.Errorf("no warning that the analysis was cut short: %+v", res.Notices)
	}
}

// TestBudgetKeepsReplayedFindings: a file that runs out of the budget
// while its findings are replayed keeps them all, the replayed ones with
// their verdicts, and the warning says how many were not replayed.
func TestBudgetKeepsReplayedFindings(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "slow.cc", []byte(threeFuncs))
	release := make(chan struct{})
	defer close(release)
	verify := func(f *diag.Finding) *diag.Verification {
		if f.Function != "first" {
			<-release
		}
		return &diag.Verification{Verdict: diag.Confirmed}
	}
	opt := Options{FileTimeout: time.Second, Jobs: 1, Verify: verify, Rules: []*rules.Rule{reportEach(func(*lifetime.Func) {})}}
	res := within(t, func() *Result { return runDir(t, dir, opt) })
	got := functions(res.Findings)
	if len(got) != 3 || got[0] != "first" || got[1] != "second" || got[2] != "third" {
		t.Fatalf("findings in %v, want first, second and third", got)
	}
	if v := res.Findings[0].Verification; v == nil || v.Verdict != diag.Confirmed {
		t.Errorf("the replayed finding lost its verdict: %+v", v)
	}
	for _, f := range res.Findings[1:] {
		if f.Verification != nil {
			t.Errorf("%s: verdict %+v for a finding not replayed", f.Function, f.Verification)
		}
	}
	if !noticeFor(res, "slow.cc", "replay cut short by the wall-clock limit of 1s (--file-timeout; the result depends on the machine): 2 of 3 findings not replayed") || res.Skipped != 1 {
		t.Errorf("no warning that the replay was cut short: %+v", res.Notices)
	}
}

// TestWorkBudgetDoesNotDependOnJobs: the work budget counts units of
// work, not time, so a file near it gives the same findings and the same
// warning at -j1 and -j8, however loaded the machine. The sweep of
// budgets passes through every point of the file's analysis: budgets
// that keep some of its findings and warn, and one that keeps them all
// without a word.
func TestWorkBudgetDoesNotDependOnJobs(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	for i := range 8 {
		src.WriteString(strings.Replace(buggy, "Send(", fmt.Sprintf("Send%d(", i), 1))
	}
	for i := range 6 {
		write(t, dir, fmt.Sprintf("f%d.cc", i), []byte(src.String()))
	}
	outcome := func(res *Result) string {
		var b strings.Builder
		for _, f := range res.Findings {
			fmt.Fprintf(&b, "%s:%d %s %s\n", f.At.Start.File, f.At.Start.Line, f.Rule.ID, f.Function)
		}
		for _, n := range res.Notices {
			fmt.Fprintf(&b, "%s: %s: %s\n", n.File, n.Level, n.Message)
		}
		return b.String()
	}
	var partial, whole bool
	units := []int64{1, 1 << 20}
	for u := int64(500); u <= 1500; u += 20 {
		units = append(units, u)
	}
	for _, units := range units {
		first := outcome(runDir(t, dir, Options{FileBudget: units, Jobs: 1}))
		if got := outcome(runDir(t, dir, Options{FileBudget: units, Jobs: 8})); got != first {
			t.Fatalf("budget %d: -j8 differs from -j1:\n%s\nvs\n%s", units, got, first)
		}
		cut := strings.Contains(first, fmt.Sprintf("analysis cut short by the work budget of %d units (--file-budget): findings may be missing", units))
		n := strings.Count(first, "Send")
		switch {
		case cut && n > 0 && n < 6*8:
			partial = true
		case !cut && n == 6*8:
			whole = true
		case !cut:
			t.Errorf("budget %d: %d findings, want %d, and no warning:\n%s", units, n, 6*8, first)
		}
	}
	if !partial || !whole {
		t.Errorf("the sweep missed a point: a budget that keeps some findings (%v), one that keeps them all (%v)", partial, whole)
	}
}
