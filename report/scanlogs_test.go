package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/rules"
	"github.com/holdfast-dev/holdfast/scan"
	"github.com/holdfast-dev/holdfast/verify"
)

// scanLogs scans the shipped examples and every rule's testdata (each
// rule's directory as its own run, with verification) and returns the
// SARIF of each, so the validator judges what users actually get.
func scanLogs(t *testing.T) map[string][]byte {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{"examples"}
	ruleDirs, _ := filepath.Glob(filepath.Join(root, "rules", "testdata", "HF-*"))
	for _, d := range ruleDirs {
		rel, _ := filepath.Rel(root, d)
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	logs := map[string][]byte{}
	for _, dir := range dirs {
		res, err := scan.Run(context.Background(), scan.Options{
			Paths: []string{filepath.Join(root, dir)}, Root: root,
			Verify: func(f *diag.Finding) *diag.Verification { return verify.Verify(f, verify.Options{}) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) == 0 {
			t.Fatalf("%s: no findings to validate", dir)
		}
		opt := Options{
			Root: root, ToolVersion: fixtureVersion, AutomationID: "holdfast/", ShowAll: true,
			Source: func(p string) []byte {
				b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
				return b
			},
		}
		for _, r := range rules.All() {
			opt.Rules = append(opt.Rules, r.Meta)
		}
		logs["scan-"+filepath.Base(dir)+".sarif"] = output(t, "sarif", res.Findings, opt)
	}
	return logs
}
