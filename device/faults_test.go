package device

import (
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/gosrc"
)

// TestFaultKindsAreExplained: every FaultKind the device declares is in
// diag.Faults, which the text output and docs/verification.md explain.
func TestFaultKindsAreExplained(t *testing.T) {
	kinds, err := gosrc.StringConsts("machine.go", "FaultKind")
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) == 0 {
		t.Fatal("machine.go declares no FaultKind")
	}
	for _, name := range kinds {
		if diag.FaultMeaning(name) == "" {
			t.Errorf("fault %s is not in diag.Faults", name)
		}
	}
}
