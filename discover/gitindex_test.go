package discover

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitRepo makes a repository in a temporary directory and runs git there.
func gitRepo(t *testing.T) (string, func(args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	return dir, run
}

// TestTrackedFilesAreNotIgnored: a file committed under an ignore pattern
// (git add -f), or inside a directory a nested .gitignore ignores whole, is
// scanned with a warning; an untracked file under the same pattern is not.
// Every index version git writes is read.
func TestTrackedFilesAreNotIgnored(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("index v"+version, func(t *testing.T) {
			dir, git := gitRepo(t)
			write := func(rel, text string) {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(".gitignore", "*.gen.cc\n")
			write("x.gen.cc", "int x;\n")
			write("y.gen.cc", "int y;\n")
			write("main.cc", "int m;\n")
			write("vendor/.gitignore", "*\n")
			write("vendor/lib/a.cc", "int a;\n")
			write("vendor/lib/b.cc", "int b;\n")
			git("add", "-f", ".gitignore", "main.cc", "x.gen.cc", "vendor/lib/a.cc")
			git("update-index", "--index-version", version)
			files, warns, err := Find([]string{dir}, Options{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Rel)
			}
			if want := []string{"main.cc", "vendor/lib/a.cc", "x.gen.cc"}; !slices.Equal(got, want) {
				t.Errorf("files %q, want %q", got, want)
			}
			var warned []string
			for _, w := range warns {
				if strings.Contains(w.Msg, "git tracks it") {
					warned = append(warned, w.Path)
					if !w.Loud || w.Skipped {
						t.Errorf("%s: a tracked file an ignore rule matches is a warning of its own, not a note or a skip: %+v", w.Path, w)
					}
				}
			}
			if want := []string{"vendor/lib/a.cc", "x.gen.cc"}; !slices.Equal(warned, want) {
				t.Errorf("warned of %q, want %q", warned, want)
			}
		})
	}
}

// TestParseIndexRejectsDamage: a truncated or foreign index is refused,
// never read past its end.
func TestParseIndexRejectsDamage(t *testing.T) {
	dir, git := gitRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "a.cc"), []byte("int a;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.cc")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if tr, err := parseIndex(data); err != nil || !tr.hasFile("a.cc") {
		t.Fatalf("the whole index: %v, %+v", err, tr)
	}
	for n := range 80 {
		if _, err := parseIndex(data[:n]); err == nil {
			t.Errorf("an index cut at %d bytes was read", n)
		}
	}
	if _, err := parseIndex([]byte("DIRC\x00\x00\x00\x09\x00\x00\x00\x01")); err == nil {
		t.Error("version 9 was read")
	}
}

func FuzzParseIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseIndex(data)
	})
}
