package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// helpParagraph is the paragraph of a command's help that starts with
// head, on one line.
func helpParagraph(t *testing.T, help, head string) string {
	t.Helper()
	for _, p := range strings.Split(help, "\n\n") {
		if strings.HasPrefix(p, head) {
			return strings.Join(strings.Fields(p), " ")
		}
	}
	t.Fatalf("help has no paragraph starting %q:\n%s", head, help)
	return ""
}

// TestScanHelpExitStatus: every cause of exit status 3 that scan --help
// lists gives exit status 3, and a tree with no source, which the help
// says exits 0, does; so the help cannot drift from the code. A cause
// added to the help without a case here fails the test.
func TestScanHelpExitStatus(t *testing.T) {
	bug := buggy(t)
	help, _ := expect(t, 0, "scan", "--help")
	para := helpParagraph(t, help, "Exit status:")
	m := regexp.MustCompile(`3 when nothing failed but some source could not be analysed \(([^)]*)\)([^,(]*)`).FindStringSubmatch(para)
	if m == nil {
		t.Fatalf("no list of the causes of exit status 3 in %q", para)
	}
	list, _, _ := strings.Cut(m[1], ";")
	causes := regexp.MustCompile(`, or |, `).Split(list, -1)
	if extra := strings.TrimSpace(m[2]); extra != "" {
		causes = append(causes, extra)
	}
	// Each cause, as a tree and the arguments of a scan of it.
	cases := map[string]func(t *testing.T, dir string) []string{
		"too large": func(t *testing.T, dir string) []string {
			writeFile(t, filepath.Join(dir, "a.cc"), clean)
			return []string{"--max-file-size", "10"}
		},
		"unreadable": func(t *testing.T, dir string) []string {
			if err := os.Symlink(filepath.Join(dir, "missing.cc"), filepath.Join(dir, "a.cc")); err != nil {
				t.Fatal(err)
			}
			return nil
		},
		"binary": func(t *testing.T, dir string) []string {
			writeFile(t, filepath.Join(dir, "a.cc"), "\x00\x01")
			return nil
		},
		"not a regular file": func(t *testing.T, dir string) []string {
			if err := syscall.Mkfifo(filepath.Join(dir, "a.cc"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"a.cc"}
		},
		"over the per-file work budget": func(t *testing.T, dir string) []string {
			writeFile(t, filepath.Join(dir, "a.cc"), bug)
			return []string{"--file-budget", "1"}
		},
		"stopped by the per-file wall-clock limit": func(t *testing.T, dir string) []string {
			writeFile(t, filepath.Join(dir, "a.cc"), bug)
			return []string{"--file-timeout", "1ns"}
		},
		"nested too deeply": func(t *testing.T, dir string) []string {
			writeFile(t, filepath.Join(dir, "a.cc"), "void g() {"+strings.Repeat("if (x) { ", 3000)+strings.Repeat("}", 3000)+"}\n")
			return nil
		},
		"or the .holdfast.yaml found was not read": func(t *testing.T, dir string) []string {
			writeFile(t, filepath.Join(dir, "a.cc"), clean)
			outside := filepath.Join(t.TempDir(), "c.yaml")
			writeFile(t, outside, "fail-on: never\n")
			if err := os.Symlink(outside, filepath.Join(dir, ".holdfast.yaml")); err != nil {
				t.Fatal(err)
			}
			return nil
		},
	}
	for _, cause := range causes {
		setup := cases[cause]
		if setup == nil {
			t.Errorf("scan --help gives %q as a cause of exit status 3, and this test has no case for it", cause)
			continue
		}
		dir := tree(t, nil)
		args := setup(t, dir)
		if code, out, errs := holdfast(t, append([]string{"scan", "--no-cache"}, args...)...); code != 3 {
			t.Errorf("%s: exit %d, want 3\nstdout:\n%s\nstderr:\n%s", cause, code, out, errs)
		}
	}

	// No source: a note and exit status 0, as the help says.
	if strings.Contains(m[1]+m[2], "source found") || !strings.Contains(para, "0 when nothing at or above --fail-on was found (a tree with no source to analyse included") {
		t.Errorf("the help does not say that a tree with no source exits 0: %q", para)
	}
	tree(t, map[string]string{"README.md": "no C++\n"})
	expect(t, 0, "scan")
}

// TestScanHelpOutput: -o writes where the user says, out of the current
// directory and into character devices, as scan --help says; only what a
// repository could plant is refused.
func TestScanHelpOutput(t *testing.T) {
	help, _ := expect(t, 0, "scan", "--help")
	para := helpParagraph(t, help, "-o FILE")
	if strings.Contains(para, "leading out of the current directory") || !strings.Contains(para, "character devices (/dev/null) included") {
		t.Errorf("-o paragraph: %q", para)
	}
	dir := tree(t, map[string]string{"src/ok.cc": clean})
	t.Chdir(filepath.Join(dir, "src"))
	expect(t, 0, "scan", "-o", "../report.json")
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
		t.Errorf("-o ../report.json: %v", err)
	}
	expect(t, 0, "scan", "-o", os.DevNull)
	if err := os.Symlink(filepath.Join(dir, "report.json"), "planted.json"); err != nil {
		t.Fatal(err)
	}
	if _, errs := expect(t, 2, "scan", "-o", "planted.json"); !strings.Contains(errs, "symbolic link") {
		t.Errorf("a link in the tree: %q", errs)
	}
	if _, errs := expect(t, 2, "scan", "-o", "ok.cc"); !strings.Contains(errs, "extension of a scanned source") {
		t.Errorf("a source file: %q", errs)
	}
}
