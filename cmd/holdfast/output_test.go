package main

import (
	"path/filepath"
	"testing"
)

func TestCheckOutputPath(t *testing.T) {
	root := t.TempDir()
	for path, ok := range map[string]bool{
		"":                       true,
		"-":                      true,
		"out.sarif":              true,
		"reports/out.sarif":      true,
		"a/../b.json":            true,
		"../out.sarif":           false,
		"a/../../out.sarif":      false,
		"..":                     false,
		filepath.Join(root, "x"): true,
		"/tmp/elsewhere.sarif":   true,
	} {
		if err := checkOutputPath(path, root); (err == nil) != ok {
			t.Errorf("checkOutputPath(%q) = %v, want ok=%v", path, err, ok)
		}
	}
}
