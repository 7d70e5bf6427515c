package diag

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/internal/gosrc"
)

// TestVerdictsListsEveryConstant: Verdicts, which the docs' tests compare
// with docs/verification.md and report/SCHEMA.md, holds every Verdict
// constant the package declares, once.
func TestVerdictsListsEveryConstant(t *testing.T) {
	consts, err := gosrc.StringConsts("diag.go", "Verdict")
	if err != nil {
		t.Fatal(err)
	}
	var declared []Verdict
	for _, s := range consts {
		declared = append(declared, Verdict(s))
	}
	got := Verdicts()
	if len(declared) == 0 || !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(declared))) {
		t.Errorf("Verdicts() = %v; diag.go declares %v", got, declared)
	}
}

// TestFaults: every fault has a distinct upper-case name and a plain
// meaning (lower case, no trailing period).
func TestFaults(t *testing.T) {
	seen := map[string]bool{}
	name := regexp.MustCompile(`^[A-Z][A-Z_]*[A-Z]$`)
	for _, f := range Faults() {
		if seen[f.Name] || !name.MatchString(f.Name) {
			t.Errorf("fault name %q is repeated or not upper case", f.Name)
		}
		seen[f.Name] = true
		if f.Means == "" || f.Means[len(f.Means)-1] == '.' || strings.ToLower(f.Means[:1]) != f.Means[:1] {
			t.Errorf("%s: meaning %q", f.Name, f.Means)
		}
		if FaultMeaning(f.Name) != f.Means {
			t.Errorf("FaultMeaning(%s) = %q", f.Name, FaultMeaning(f.Name))
		}
	}
	if FaultMeaning("NO_SUCH_FAULT") != "" {
		t.Error("an unknown fault has a meaning")
	}
}
