package bench

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestRunOnAnyTree: bench/run.sh DIR measures any source tree, not only
// PyTorch's (it used to take its small scan from aten/src/ATen/native).
func TestRunOnAnyTree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds holdfast and times it")
	}
	for _, tool := range []string{"bash", "/usr/bin/time"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	// Reading the script makes it an input of the test, so a change to it
	// invalidates go test's cached result.
	if _, err := os.ReadFile("run.sh"); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "run.sh", "../examples")
	cmd.Env = append(os.Environ(), "RUNS=1", "NO_ASTGREP=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bench/run.sh ../examples: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("bench/run.sh ../examples wrote to standard error:\n%s", stderr.String())
	}
	for _, want := range []string{"holdfast scan, no cache     median", "holdfast scan, warm cache   median", "5 files median", "missing from it (edited)", "1/1 of the files:", "== all trees", "examples: ", " files, ratio "} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, stdout.String())
		}
	}
}
