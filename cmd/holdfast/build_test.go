package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestDocsURLAtLink: built as docs/ci.md says, with -X main.docsURL=...,
// holdfast names its docs in SARIF (informationUri, each rule's helpUri);
// built without, it names no page.
func TestDocsURLAtLink(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`go install -ldflags "-X (main\.docsURL)=(https://[^"]+)" \./cmd/holdfast`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/ci.md does not say how to build with a docs URL")
	}
	base := string(m[2])
	bin := filepath.Join(t.TempDir(), "holdfast")
	if out, err := exec.Command("go", "build", "-ldflags", "-X "+string(m[1])+"="+base, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tree(t, map[string]string{"src/send.cc": buggy(t)})
	args := []string{"scan", "--no-cache", "--format", "sarif", "--fail-on", "never", "src"}
	linked, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"informationUri": "` + base + `/README.md"`, `"helpUri": "` + base + `/docs/rules/HF-B001.md"`} {
		if !strings.Contains(string(linked), want) {
			t.Errorf("SARIF of the linked build lacks %s", want)
		}
	}
	plain, _ := expect(t, 0, args...)
	if strings.Contains(plain, "informationUri") || strings.Contains(plain, "helpUri") {
		t.Error("SARIF of a build without a docs URL names a page")
	}
}
