package changes

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
)

const diffText = `diff --git a/src/a.cc b/src/a.cc
index 1111111..2222222 100644
--- a/src/a.cc
+++ b/src/a.cc
@@ -3 +3 @@ void f() {
-  old();
+  fixed();
@@ -10,0 +11,2 @@ void g() {
+++ looks like a header but is an added line
+@@ -1 +1 @@ so is this
@@ -20,2 +21,0 @@
-  Wait();
-  done();
diff --git a/gone.cc b/gone.cc
deleted file mode 100644
--- a/gone.cc
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
diff --git "a/we\"ird.cc" "b/we\"ird.cc"
--- "a/we\"ird.cc"
+++ "b/we\"ird.cc"
@@ -1 +1,2 @@
-a
+b
\ No newline at end of file
+c
`

func TestParse(t *testing.T) {
	l, err := Parse("/repo", strings.NewReader(diffText))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		line int
		want bool
	}{
		{"src/a.cc", 3, true},
		{"src/a.cc", 4, false},
		{"src/a.cc", 11, true},
		{"src/a.cc", 12, true},
		{"src/a.cc", 13, false},
		{"src/a.cc", 20, false},
		{"src/a.cc", 21, true}, // either side of the deleted Wait()
		{"src/a.cc", 22, true},
		{"src/a.cc", 23, false},
		{"looks like a header but is an added line", 1, false},
		{"gone.cc", 1, false},
		{`we"ird.cc`, 1, true},
		{`we"ird.cc`, 2, true},
	} {
		if got := l.Changed(c.file, c.line); got != c.want {
			t.Errorf("Changed(%q, %d) = %v, want %v", c.file, c.line, got, c.want)
		}
	}
}

// TestFileChanged: a file has changed when the diff touches a line of it,
// a deletion included; paths are relative to the given root.
func TestFileChanged(t *testing.T) {
	l, err := Parse("/repo", strings.NewReader(diffText))
	if err != nil {
		t.Fatal(err)
	}
	changed := l.FileChanged("/repo/src")
	for file, want := range map[string]bool{"a.cc": true, "/repo/src/a.cc": true, "b.cc": false, "../gone.cc": false, `../we"ird.cc`: true, "/elsewhere/a.cc": false} {
		if got := changed(file); got != want {
			t.Errorf("FileChanged(%q) = %v, want %v", file, got, want)
		}
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func finding(file string, line int, steps ...int) *diag.Finding {
	f := &diag.Finding{Rule: &diag.Rule{ID: "HF-B001"}, At: diag.Span{Start: diag.Pos{File: file, Line: line}}}
	for _, s := range steps {
		f.Witness = append(f.Witness, diag.Step{At: diag.Span{Start: diag.Pos{File: file, Line: s}}})
	}
	return f
}

func TestSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(repo))
	gitIn(t, repo, "init", "-q")
	write(t, filepath.Join(repo, "src/a.cc"), "1\n2\n3\n4\n5\n6\n")
	write(t, filepath.Join(repo, ".gitignore"), "build/\n")
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-q", "-m", "base")
	write(t, filepath.Join(repo, "src/a.cc"), "0\n1\n2\n3\nfour\n5\n6\n") // line 1 added, old 4 (now 5) changed
	write(t, filepath.Join(repo, "src/new.cc"), "x\n")
	write(t, filepath.Join(repo, "build/gen.cc"), "x\n")

	// Run from a subdirectory: finding paths are relative to it.
	l, err := Since(filepath.Join(repo, "src"), "HEAD", nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := []*diag.Finding{
		finding("a.cc", 5),               // changed line
		finding("a.cc", 3),               // unchanged
		finding("a.cc", 7, 2, 5, 7),      // a witness step on a changed line
		finding("new.cc", 1),             // untracked: all new
		finding("../build/gen.cc", 1),    // ignored and untracked: not new
		finding("../../elsewhere.cc", 1), // outside the repository
	}
	var got []string
	for _, f := range l.Filter(fs, filepath.Join(repo, "src")) {
		got = append(got, f.At.Start.File+":"+strconv.Itoa(f.At.Start.Line))
	}
	if strings.Join(got, " ") != "a.cc:5 a.cc:7 new.cc:1" {
		t.Errorf("kept %v, want a.cc:5 a.cc:7 new.cc:1", got)
	}

	if _, err := Since(repo, "no-such-rev", nil); err == nil || !strings.Contains(err.Error(), `unknown revision "no-such-rev"`) {
		t.Errorf("unknown revision: %v", err)
	}
	if _, err := Since(repo, "--output=x", nil); err == nil {
		t.Error("an option as revision was accepted")
	}
	outside := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(outside))
	if _, err := Since(outside, "HEAD", nil); err == nil || !strings.Contains(err.Error(), "needs a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
}

// TestNamesAndScope: a name with a space (git ends its "+++" line with a
// tab) or a line break is read exactly, and only the files asked about are
// diffed: a changed file outside the list is not in the result.
func TestNamesAndScope(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(repo))
	gitIn(t, repo, "init", "-q")
	names := []string{"with space.cc", "tab\there.cc", "new\nline.cc", "data.json"}
	for _, n := range names {
		write(t, filepath.Join(repo, n), "1\n2\n")
	}
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-q", "-m", "base")
	for _, n := range names {
		write(t, filepath.Join(repo, n), "1\ntwo\n")
	}
	l, err := Since(repo, "HEAD", names[:3])
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names[:3] {
		if !l.Changed(n, 2) || l.Changed(n, 1) {
			t.Errorf("%q: line 2 changed = %v, line 1 = %v; want true, false", n, l.Changed(n, 2), l.Changed(n, 1))
		}
	}
	if len(l.changed) != 3 {
		t.Errorf("diffed %d files, want the 3 asked about: %v", len(l.changed), l.changed)
	}
}

// TestLongDiffLine: a diff line longer than any buffer (minified JSON, 70
// MiB here, streamed, never held) is skipped, and the diff after it is
// still read.
func TestLongDiffLine(t *testing.T) {
	head := "diff --git a/min.json b/min.json\n--- a/min.json\n+++ b/min.json\n@@ -1 +1 @@\n-{}\n+"
	tail := "\ndiff --git a/a.cc b/a.cc\n--- a/a.cc\n+++ b/a.cc\n@@ -3 +3 @@\n-x\n+y\n"
	long := io.LimitReader(repeat('x'), 70<<20)
	l, err := Parse("/repo", io.MultiReader(strings.NewReader(head), long, strings.NewReader(tail)))
	if err != nil {
		t.Fatal(err)
	}
	if !l.Changed("a.cc", 3) || !l.Changed("min.json", 1) {
		t.Errorf("changes after the long line lost: %v", l.changed)
	}
}

// repeat is an endless reader of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
