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

// scanLogs scans the shipped examples and every rule's testdata (with
// verification) and returns the SARIF of each of the two scans, so the
// validator judges what users actually get.
func scanLogs(t *testing.T) map[string][]byte {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// Two logs: the examples, and every rule's testdata in one scan (one
	// log per rule would cost the slow validator two runs each).
	sets := map[string][]string{"examples": {filepath.Join(root, "examples")}}
	ruleDirs, _ := filepath.Glob(filepath.Join(root, "rules", "testdata", "HF-*"))
	sets["rules-testdata"] = ruleDirs
	logs := map[string][]byte{}
	for name, paths := range sets {
		res, err := scan.Run(context.Background(), scan.Options{
			Paths: paths, Root: root,
			Verify: func(f *diag.Finding) *diag.Verification { return verify.Verify(f, verify.Options{}) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) == 0 {
			t.Fatalf("%s: no findings to validate", name)
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
		logs["scan-"+name+".sarif"] = output(t, "sarif", res.Findings, opt)
	}
	return logs
}
