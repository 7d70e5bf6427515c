package fuzzlimit

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestHangCrashes runs itself in a child process whose input never ends:
// the child must die with the limit's message rather than hang.
func TestHangCrashes(t *testing.T) {
	if os.Getenv("FUZZLIMIT_CHILD") == "1" {
		Run(10*time.Millisecond, func() { select {} })
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHangCrashes$")
	cmd.Env = append(os.Environ(), "FUZZLIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "fuzz input still running after 10ms") {
		t.Errorf("child: %v\n%s", err, out)
	}
	Run(time.Minute, func() {}) // a quick input passes
}
