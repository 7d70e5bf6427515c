package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestCheckOutputPath(t *testing.T) {
	root := t.TempDir()
	elsewhere := t.TempDir()
	for _, d := range []string{"reports", "a"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bashrc := filepath.Join(elsewhere, ".bashrc")
	writeFile(t, bashrc, "keep")
	writeFile(t, filepath.Join(root, "old.sarif"), "")
	for link, target := range map[string]string{"holdfast.sarif": bashrc, "link": elsewhere, "inner": "reports"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, ok := range map[string]bool{
		"":                                    true,
		"-":                                   true,
		"out.sarif":                           true,
		"old.sarif":                           true,
		"reports/out.sarif":                   true,
		"a/../b.json":                         true,
		"inner/x.json":                        true, // a link that stays inside the root
		"../out.sarif":                        true, // the user's choice, outside the tree
		"a/../../out.sarif":                   true,
		"..":                                  false, // a directory
		"/dev/null":                           true,
		"/dev/stdout":                         true,
		filepath.Join(root, "x"):              true,
		filepath.Join(elsewhere, "x.sarif"):   true,
		"holdfast.sarif":                      false, // a committed link to ~/.bashrc
		filepath.Join(root, "holdfast.sarif"): false,
		"link/x.sarif":                        false, // through a linked directory
		filepath.Join(root, "link/x.sarif"):   false,
		"pipe.json":                           false,
		"main.cc":                             false, // a scanned source
		"include/X.H":                         false,
		"missing/out.sarif":                   false,
	} {
		if _, err := checkOutputPath(path, root); (err == nil) != ok {
			t.Errorf("checkOutputPath(%q) = %v, want ok=%v", path, err, ok)
		}
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "keep" {
		t.Errorf("the link target was written: %q", b)
	}
}

// TestOutputIsCheckedFirst: a refused -o fails before the scan and leaves
// the link target alone, for scan and baseline alike; -o - writes to
// standard output for both, and no file named "-" appears.
func TestOutputIsCheckedFirst(t *testing.T) {
	bug := buggy(t)
	elsewhere := t.TempDir()
	bashrc := filepath.Join(elsewhere, ".bashrc")
	writeFile(t, bashrc, "keep")
	dir := tree(t, map[string]string{"send.cc": bug})
	if err := os.Symlink(bashrc, filepath.Join(dir, "holdfast.sarif")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"scan", "--format", "sarif", "-o", "holdfast.sarif"},
		{"baseline", "-o", "holdfast.sarif"},
		{"scan", "-o", "send.cc"},
	} {
		_, errs := expect(t, 2, args...)
		if strings.Contains(errs, "send.cc:") {
			t.Errorf("%v: the scan ran before the output was refused: %s", args, errs)
		}
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "keep" {
		t.Errorf("written through the link: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "send.cc")); string(b) != bug {
		t.Error("the source was overwritten")
	}
	out, _ := expect(t, 1, "scan", "--format", "json", "-o", "-")
	if !strings.Contains(out, `"findings"`) {
		t.Errorf("scan -o - wrote nothing to standard output: %q", out)
	}
	out, _ = expect(t, 0, "baseline", "-o", "-")
	if !strings.Contains(out, `"fingerprint"`) {
		t.Errorf("baseline -o - wrote nothing to standard output: %q", out)
	}
	if _, err := os.Lstat(filepath.Join(dir, "-")); err == nil {
		t.Error(`a file named "-" was created`)
	}
	// -o is the user's choice outside the tree: a character device, a
	// link to standard output, a path above the working directory.
	if _, errs := expect(t, 1, "scan", "-o", "/dev/null"); errs == "" {
		t.Error("scan -o /dev/null printed no summary")
	}
	above := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"-report.json")
	expect(t, 1, "scan", "--format", "json", "-o", "../"+filepath.Base(above))
	if b, err := os.ReadFile(above); err != nil || !strings.Contains(string(b), `"findings"`) {
		t.Errorf("scan -o ../x.json wrote %q (%v)", b, err)
	}
}
