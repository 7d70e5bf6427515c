package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildWithoutCgoSaysSo: holdfast needs cgo (tree-sitter is C), and a
// build without it must say that, not only that some package has no Go
// files.
func TestBuildWithoutCgoSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "holdfast"), ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("the build without cgo succeeded")
	}
	if !strings.Contains(string(out), "holdfast_needs_cgo__build_with_CGO_ENABLED_1_and_a_C_compiler") {
		t.Errorf("the build without cgo does not say that cgo is needed:\n%s", out)
	}
}
