package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/discover"
)

// TestPreCommitHook runs the real pre-commit on the real hook definition
// (.pre-commit-hooks.yaml, language golang): a temporary repository's
// .pre-commit-config.yaml points at a git repository holding a copy of this
// working tree, pre-commit builds the hook with `go install ./...`, and
// `git commit` runs it on the staged files. It needs no network: the build
// uses this machine's Go module cache with GOPROXY=off.
func TestPreCommitHook(t *testing.T) {
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("pre-commit is not installed (Debian: apt-get install pre-commit; .ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("builds holdfast inside pre-commit's environment; skipped with -short")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bug := buggy(t)

	sh := func(dir string, env []string, name string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(dir string, env []string, name string, args ...string) string {
		t.Helper()
		out, err := sh(dir, env, name, args...)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return out
	}

	// The hook definition as users reference it parses.
	must(src, os.Environ(), preCommit, "validate-manifest", ".pre-commit-hooks.yaml")

	// Make sure every module the build needs is in the module cache, then
	// forbid the network for everything pre-commit does.
	must(src, os.Environ(), "go", "mod", "download")
	modcache := strings.TrimSpace(must(src, os.Environ(), "go", "env", "GOMODCACHE"))
	tmp := t.TempDir()
	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "cache"),
		"PRE_COMMIT_COLOR=never",
		"GOMODCACHE="+modcache,
		"GOPROXY=off",
		"GOFLAGS=-mod=readonly",
		"GOTOOLCHAIN=local",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CEILING_DIRECTORIES="+tmp,
	)

	// The hook repository: this working tree's tracked files, committed.
	hooks := filepath.Join(tmp, "holdfast")
	files := must(src, os.Environ(), "git", "ls-files", "-z", "--cached")
	for _, f := range strings.Split(files, "\x00") {
		if f != "" {
			copyFile(t, filepath.Join(src, f), filepath.Join(hooks, f))
		}
	}
	must(hooks, env, "git", "init", "-q")
	must(hooks, env, "git", "add", ".")
	must(hooks, env, "git", "commit", "-q", "--no-verify", "-m", "holdfast")
	rev := strings.TrimSpace(must(hooks, env, "git", "rev-parse", "HEAD"))

	// The user's repository.
	work := filepath.Join(tmp, "work")
	writeFile(t, filepath.Join(work, ".pre-commit-config.yaml"), "repos:\n- repo: "+hooks+"\n  rev: "+rev+"\n  hooks:\n  - id: holdfast\n")
	writeFile(t, filepath.Join(work, "README.md"), "not C++: never passed to the hook\n")
	must(work, env, "git", "init", "-q")
	must(work, env, preCommit, "install")
	must(work, env, "git", "add", ".pre-commit-config.yaml", "README.md")
	must(work, env, "git", "commit", "-q", "-m", "config") // no C++ staged: the hook is skipped

	// A staged buggy file fails the commit and the finding is shown.
	writeFile(t, filepath.Join(work, "backend", "send.cc"), bug)
	must(work, env, "git", "add", "backend/send.cc")
	out, err := sh(work, env, "git", "commit", "-m", "send tensors")
	t.Logf("git commit with a buggy file:\n%s", out)
	if err == nil {
		t.Fatal("the commit of a buggy file succeeded")
	}
	for _, want := range []string{"holdfast", "Failed", "exit code: 1",
		"backend/send.cc:50:24: error: 'pjrt_buffers' is handed on holding a pointer into the memory of 'buffer'", "[HF-B001]"} {
		if !strings.Contains(out, want) {
			t.Errorf("hook output lacks %q", want)
		}
	}
	if log := must(work, env, "git", "log", "--oneline"); strings.Count(log, "\n") != 1 {
		t.Errorf("a commit was made:\n%s", log)
	}

	// A clean file passes, with the buggy one unstaged and still on disk.
	must(work, env, "git", "rm", "-q", "--cached", "backend/send.cc")
	writeFile(t, filepath.Join(work, "backend", "ok.cc"), clean)
	writeFile(t, filepath.Join(work, "backend", "kernel.cu"), clean)
	must(work, env, "git", "add", "backend/ok.cc", "backend/kernel.cu")
	out, err = sh(work, env, "git", "commit", "-m", "ok")
	t.Logf("git commit with clean files:\n%s", out)
	if err != nil {
		t.Fatalf("the commit of clean files failed: %v", err)
	}
	if !strings.Contains(out, "holdfast") || !strings.Contains(out, "Passed") {
		t.Errorf("the hook did not run on the clean files")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	st, err := os.Lstat(from)
	if err != nil || !st.Mode().IsRegular() {
		return // deleted in the working tree, or not a regular file
	}
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestHookFilesCoverTheScan: the hook passes a staged file exactly when a
// scan would analyse it, every extension in any case.
func TestHookFilesCoverTheScan(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var pattern string
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "files: "); ok {
			pattern = p
		}
	}
	re, err := regexp.Compile(pattern)
	if pattern == "" || err != nil {
		t.Fatalf("no files: pattern in the hook (%v)", err)
	}
	for _, ext := range discover.DefaultExtensions() {
		for _, name := range []string{"src/a" + ext, "src/A" + strings.ToUpper(ext)} {
			if !re.MatchString(name) {
				t.Errorf("the hook does not pass %s", name)
			}
		}
	}
	for _, name := range []string{"setup.py", "README.md", "a.cc.orig", "a.mmx"} {
		if re.MatchString(name) {
			t.Errorf("the hook passes %s", name)
		}
	}
	// docs/pre-commit.md lists the extensions the hook passes: the ones a
	// scan covers, no more and no fewer.
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "pre-commit.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("case \\(`([^`]*)`\\)").FindSubmatch([]byte(strings.Join(strings.Fields(string(doc)), " ")))
	if m == nil {
		t.Fatal("docs/pre-commit.md does not list the extensions the hook passes")
	}
	listed := strings.Fields(string(m[1]))
	slices.Sort(listed)
	want := slices.Sorted(slices.Values(discover.DefaultExtensions()))
	if !slices.Equal(listed, want) {
		t.Errorf("docs/pre-commit.md lists %q, a scan covers %q", listed, want)
	}
}
