package scan

import (
	"testing"

	"github.com/holdfast-dev/holdfast/config"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/rules"
)

// TestConfigFormerRuleName: a configuration written before a rule was
// renamed keeps working: rules.disable and rules.severity accept the old
// name.
func TestConfigFormerRuleName(t *testing.T) {
	cfg := &config.Config{Rules: config.Rules{Disable: []string{"callback-captures-this"}}}
	rs, err := selectRules(nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Meta.ID == "HF-G001" {
			t.Error("rules.disable: [callback-captures-this] left HF-G001 on")
		}
	}
	if len(rs) != len(rules.All())-1 {
		t.Errorf("%d rules left of %d", len(rs), len(rules.All()))
	}
	cfg = &config.Config{Rules: config.Rules{Severity: map[string]string{"callback-captures-this": "note"}}}
	if _, err := selectRules(nil, cfg); err != nil {
		t.Fatal(err)
	}
	f := &diag.Finding{Rule: rules.ByID("HF-G001").Meta, Severity: diag.Error}
	applySeverity([]*diag.Finding{f}, cfg)
	if f.Severity != diag.Note {
		t.Errorf("rules.severity by the former name: severity %s, want note", f.Severity)
	}
}
