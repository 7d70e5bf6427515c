package scan

import (
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
	opt := Options{ParseTimeout: time.Second, Jobs: 1, Rules: []*rules.Rule{r}}
	res := within(t, func() *Result { return runDir(t, dir, opt) })
	if got := functions(res.Findings); len(got) != 1 || got[0] != "first" {
		t.Errorf("findings in %v, want the one in first", got)
	}
	if !noticeFor(res, "slow.cc", "analysis cut short by the time budget of 1s (--file-budget): findings may be missing") || res.Skipped != 1 {
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
	opt := Options{ParseTimeout: time.Second, Jobs: 1, Verify: verify, Rules: []*rules.Rule{reportEach(func(*lifetime.Func) {})}}
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
	if !noticeFor(res, "slow.cc", "replay cut short by the time budget of 1s (--file-budget): 2 of 3 findings not replayed") || res.Skipped != 1 {
		t.Errorf("no warning that the replay was cut short: %+v", res.Notices)
	}
}
