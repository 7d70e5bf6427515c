package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/holdfast-dev/holdfast/rules"
)

// TestSARIFEveryRuleSecurity: in the SARIF of a run with every rule, each
// rule that finds memory-safety bugs (use after free, a dangling pointer,
// use after scope, a race) is tagged security with its CWEs and has a
// security-severity; each rule without a CWE is tagged correctness and
// has none.
func TestSARIFEveryRuleSecurity(t *testing.T) {
	opt := Options{}
	for _, r := range rules.All() {
		opt.Rules = append(opt.Rules, r.Meta)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID         string `json:"id"`
						Properties struct {
							Tags             []string `json:"tags"`
							SecuritySeverity string   `json:"security-severity"`
						} `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(output(t, "sarif", nil, opt), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v", err)
	}
	got := log.Runs[0].Tool.Driver.Rules
	if len(got) != len(opt.Rules) {
		t.Fatalf("%d rule descriptors for %d rules", len(got), len(opt.Rules))
	}
	memory := []string{"memory-safety", "use-after-free", "data-race", "null-dereference"}
	for i, m := range opt.Rules {
		d := got[i]
		tags := d.Properties.Tags
		if slices.ContainsFunc(m.Tags, func(tag string) bool { return slices.Contains(memory, tag) }) && len(m.CWE) == 0 {
			t.Errorf("%s finds memory-safety bugs (%v) but has no CWE", m.ID, m.Tags)
		}
		if len(m.CWE) == 0 {
			if !slices.Contains(tags, "correctness") || slices.Contains(tags, "security") || d.Properties.SecuritySeverity != "" {
				t.Errorf("%s has no CWE: tags %v, security-severity %q", m.ID, tags, d.Properties.SecuritySeverity)
			}
			continue
		}
		if !slices.Contains(tags, "security") || slices.Contains(tags, "correctness") || d.Properties.SecuritySeverity == "" {
			t.Errorf("%s: tags %v, security-severity %q: want security and a security-severity", m.ID, tags, d.Properties.SecuritySeverity)
		}
		for _, c := range m.CWE {
			if !slices.Contains(tags, fmt.Sprintf("external/cwe/cwe-%d", c)) {
				t.Errorf("%s: tags %v lack CWE-%d", m.ID, tags, c)
			}
		}
	}
}
