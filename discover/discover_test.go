package discover

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// mkTree creates the files in tree below root. A key ending in "/" makes
// a directory; other keys make files holding the value.
func mkTree(t *testing.T, root string, tree map[string]string) {
	t.Helper()
	for name, content := range tree {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rels(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out
}

func find(t *testing.T, paths []string, opt Options) ([]File, []Warning) {
	t.Helper()
	files, warns, err := Find(paths, opt)
	if err != nil {
		t.Fatalf("Find: %v", err)
	}
	return files, warns
}

func wantRels(t *testing.T, files []File, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := rels(files); !slices.Equal(got, want) {
		t.Errorf("files:\n got %q\nwant %q", got, want)
	}
}

func wantWarnings(t *testing.T, warns []Warning, want ...Warning) {
	t.Helper()
	if !slices.Equal(warns, want) {
		t.Errorf("warnings:\n got %q\nwant %q", warns, want)
	}
}

// TestGitignoreSemantics exercises git's pattern syntax and nesting rules.
func TestGitignoreSemantics(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".gitignore": strings.Join([]string{
			"# a comment.cc",
			"*.gen.cc",
			"!keep.gen.cc",
			"build/",
			"!build/keep.cc", // cannot re-include below an ignored directory
			"dirs.cc/",       // directory-only: not the file of that name
			"/top_only.cc",   // anchored to this directory
			`\#hash.cc`,
			`\!bang.cc`,
			"docs/**/*.cc", // anchored because of the slash
			"**/deep/d.cc",
			"spaced.cc   ", // trailing spaces are dropped
			`tail\ .cc`,    // an escaped trailing space is kept
			"[ab]r.cc",
			"[!x-z]w.cc",
			"q?.cc",
			"lit/*",
			"!lit/ok.cc",
			"",
		}, "\n"),
		"a.cc":                    "",
		"x.gen.cc":                "",
		"keep.gen.cc":             "",
		"build/b.cc":              "",
		"build/keep.cc":           "",
		"sub/build/c.cc":          "",
		"dirs.cc":                 "",
		"x/dirs.cc/inner.cc":      "",
		"top_only.cc":             "",
		"sub/top_only.cc":         "",
		"#hash.cc":                "",
		"# a comment.cc":          "",
		"!bang.cc":                "",
		"docs/a.cc":               "",
		"docs/x/y/b.cc":           "",
		"other/docs/a.cc":         "",
		"deep/d.cc":               "",
		"p/q/deep/d.cc":           "",
		"spaced.cc":               "",
		"tail .cc":                "",
		"tail.cc":                 "",
		"ar.cc":                   "",
		"br.cc":                   "",
		"cr.cc":                   "",
		"aw.cc":                   "",
		"yw.cc":                   "",
		"q1.cc":                   "",
		"q12.cc":                  "",
		"lit/no.cc":               "",
		"lit/ok.cc":               "",
		"sub/.gitignore":          "!x.gen.cc\n*.h\nlocal/\n/only_here.cc\nCRLF.cc\r\n",
		"sub/x.gen.cc":            "",
		"sub/y.h":                 "",
		"y.h":                     "",
		"sub/local/l.cc":          "",
		"local/l.cc":              "",
		"sub/only_here.cc":        "",
		"sub/deeper/only_here.cc": "",
		"sub/CRLF.cc":             "",
		"sub/deeper/.gitignore":   "*.cc\n!only_here.cc\n",
		"sub/deeper/z.cc":         "",
	})
	files, warns := find(t, []string{root}, Options{Root: root})
	wantRels(t, files,
		"# a comment.cc",
		"a.cc",
		"cr.cc",
		"dirs.cc",
		"keep.gen.cc",
		"lit/ok.cc",
		"local/l.cc",
		"other/docs/a.cc",
		"q12.cc",
		"sub/deeper/only_here.cc",
		"sub/top_only.cc",
		"sub/x.gen.cc",
		"tail.cc",
		"y.h",
		"yw.cc",
	)
	wantWarnings(t, warns)
	compareWithGit(t, root, files)
}

// compareWithGit checks files against "git ls-files --others
// --exclude-standard" for the tree at root, when git is installed, apart
// from the names in skipped, which git lists and Find skips with a
// Warning. A tree without its own .git is examined through a repository
// kept outside it.
func compareWithGit(t *testing.T, root string, files []File, skipped ...string) {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Log("git not installed; comparison skipped")
		return
	}
	env := append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"HOME="+t.TempDir(),
	)
	if _, err := os.Lstat(filepath.Join(root, ".git")); err != nil {
		gitDir := filepath.Join(t.TempDir(), "repo.git")
		init := exec.Command(gitPath, "init", "-q", "--bare", gitDir)
		init.Env = env
		if out, err := init.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		env = append(env, "GIT_DIR="+gitDir, "GIT_WORK_TREE="+root)
	}
	cmd := exec.Command(gitPath, "ls-files", "-z", "--others", "--exclude-standard")
	cmd.Dir = root
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	exts := DefaultExtensions()
	var want []string
	for _, name := range strings.Split(string(out), "\x00") {
		if slices.Contains(exts, strings.ToLower(filepath.Ext(name))) && !slices.Contains(skipped, name) {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	if got := rels(files); !slices.Equal(got, want) {
		t.Errorf("differs from git ls-files:\n got %q\n git %q", got, want)
	}
}

func TestInfoExcludeAndNestedRepository(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".git/info/exclude":        "secret/\n*.tmp.cc\n",
		".git/objects/o.c":         "",
		".git/HEAD":                "ref: refs/heads/main\n",
		".gitignore":               "!x.tmp.cc\n",
		"x.tmp.cc":                 "", // .gitignore outranks info/exclude
		"y.tmp.cc":                 "",
		"secret/s.cc":              "",
		".hidden/h.cc":             "",
		"src/main.cc":              "",
		"vendor/.git/HEAD":         "ref: refs/heads/main\n", // a nested repository
		"vendor/z.tmp.cc":          "",                       // outer rules stop at it
		"vendor/.gitignore":        "*.c\n",
		"vendor/v.c":               "",
		"vendor/w.cc":              "",
		"vendor/.git/info/exclude": "w.cc\n",
	})
	files, warns := find(t, []string{root}, Options{Root: root})
	wantRels(t, files, ".hidden/h.cc", "src/main.cc", "vendor/z.tmp.cc", "x.tmp.cc")
	wantWarnings(t, warns)
}

func TestNamedDirectoryInheritsAncestorRules(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".git/HEAD":          "ref: refs/heads/main\n",
		".git/info/exclude":  "*.tmp.cc\n",
		".gitignore":         "*.gen.cc\ngen/\n",
		"src/.gitignore":     "/lib/old.cc\n",
		"src/lib/a.cc":       "",
		"src/lib/a.gen.cc":   "",
		"src/lib/a.tmp.cc":   "",
		"src/lib/old.cc":     "",
		"src/lib/gen/g.cc":   "",
		"src/lib/x/old.cc":   "",
		"gen/explicit.cc":    "",
		"gen/inner/.gitkeep": "",
	})
	files, warns := find(t, []string{filepath.Join(root, "src", "lib")}, Options{Root: root})
	wantRels(t, files, "src/lib/a.cc", "src/lib/x/old.cc")
	wantWarnings(t, warns)

	// A named directory is walked even though an enclosing rule ignores it.
	files, warns = find(t, []string{filepath.Join(root, "gen")}, Options{Root: root})
	wantRels(t, files, "gen/explicit.cc")
	wantWarnings(t, warns)

	// Outside any repository, rules from Root down apply.
	plain := t.TempDir()
	mkTree(t, plain, map[string]string{
		".gitignore": "*.gen.cc\n",
		"d/a.cc":     "",
		"d/a.gen.cc": "",
	})
	files, warns = find(t, []string{filepath.Join(plain, "d")}, Options{Root: plain})
	wantRels(t, files, "d/a.cc")
	wantWarnings(t, warns)
}

func TestExclude(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"third_party/a.cc":   "",
		"x/third_party/b.cc": "",
		"foo_test.cc":        "",
		"d/foo_test.cc":      "",
		"d/foo.cc":           "",
		"build/b.cc":         "",
		"x/build/c.cc":       "",
		"buildx/c.cc":        "",
		"src/main.cc":        "",
		"src/gen/g.cc":       "",
	})
	opt := Options{Root: root, Exclude: []string{"third_party/**", "**/*_test.cc", "build", "./src/gen/"}}
	files, warns := find(t, []string{root}, opt)
	wantRels(t, files, "buildx/c.cc", "d/foo.cc", "src/main.cc")
	wantWarnings(t, warns)

	// Excludes apply to named paths as well, silently.
	files, warns = find(t, []string{
		filepath.Join(root, "third_party", "a.cc"),
		filepath.Join(root, "x", "build"),
		filepath.Join(root, "d"),
	}, opt)
	wantRels(t, files, "d/foo.cc")
	wantWarnings(t, warns)

	if _, _, err := Find([]string{root}, Options{Root: root, Exclude: []string{"[oops"}}); err == nil || !strings.Contains(err.Error(), `"[oops"`) {
		t.Errorf("invalid pattern: err = %v, want one naming the pattern", err)
	}
}

func TestNamedFiles(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".gitignore":     "*.cc\n*.H\nnotes.txt\n",
		"ignored.cc":     "int x;",
		"UPPER.CC":       "",
		"Header.H":       "",
		"notes.txt":      "",
		"Makefile":       "",
		"walked/LOW.Cpp": "",
		"walked/mix.Mm":  "",
	})
	files, warns := find(t, []string{
		filepath.Join(root, "ignored.cc"),
		filepath.Join(root, "UPPER.CC"),
		filepath.Join(root, "Header.H"),
		filepath.Join(root, "notes.txt"),
		filepath.Join(root, "Makefile"),
		filepath.Join(root, "walked"),
	}, Options{Root: root})
	want := []File{
		{Path: filepath.Join(root, "Header.H"), Rel: "Header.H", Ext: ".h"},
		{Path: filepath.Join(root, "UPPER.CC"), Rel: "UPPER.CC", Ext: ".cc"},
		{Path: filepath.Join(root, "ignored.cc"), Rel: "ignored.cc", Ext: ".cc", Size: 6},
		{Path: filepath.Join(root, "walked", "LOW.Cpp"), Rel: "walked/LOW.Cpp", Ext: ".cpp"},
		{Path: filepath.Join(root, "walked", "mix.Mm"), Rel: "walked/mix.Mm", Ext: ".mm"},
	}
	// A walked file carries the status the walk read; a named one none
	// (it may have been reached through a link).
	for i := range files {
		if walked := strings.HasPrefix(files[i].Rel, "walked/"); (files[i].Info != nil) != walked {
			t.Errorf("%s: Info = %v, want it only for walked files", files[i].Rel, files[i].Info)
		}
		files[i].Info = nil
	}
	if !slices.Equal(files, want) {
		t.Errorf("files:\n got %+v\nwant %+v", files, want)
	}
	wantWarnings(t, warns,
		Warning{"Makefile", "skipped: no file extension, so not a source file to scan", false, false},
		Warning{"notes.txt", `skipped: extension ".txt" is not one of the scanned extensions`, false, false},
	)

	// Custom extensions, with or without the dot, in any case.
	files, _ = find(t, []string{root}, Options{Root: root, Extensions: []string{"CPP", ".txt"}})
	wantRels(t, files, "walked/LOW.Cpp")
	if _, _, err := Find([]string{root}, Options{Root: root, Extensions: []string{".tar.gz"}}); err == nil {
		t.Error("extension with two dots: want an error")
	}
}

func TestSymlinks(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"real/target.cc": "abc",
		"sub/s.cc":       "",
		".gitignore":     "ignored_link\n",
	})
	outside := filepath.Join(t.TempDir(), "private.cc")
	if err := os.WriteFile(outside, []byte("int x;"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"escape.cc":    outside,
		"sub/up":       "..",             // a loop
		"link.cc":      "real/target.cc", // a link to a file
		"dangling.cc":  "nowhere.cc",
		"dangling.txt": "nowhere.txt",
		"dirlink":      "real",
		"ignored_link": "real",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	files, warns := find(t, []string{root}, Options{Root: root})
	wantRels(t, files, "link.cc", "real/target.cc", "sub/s.cc")
	if files[0].Path != filepath.Join(root, "link.cc") || files[0].Size != 3 {
		t.Errorf("link: got %+v, want its own path and the target's size", files[0])
	}
	wantWarnings(t, warns,
		Warning{"dangling.cc", "skipped: broken symbolic link: no such file or directory", true, false},
		Warning{"dirlink", "skipped: symbolic link to a directory is not followed", false, false},
		Warning{"escape.cc", "skipped: symbolic link to a file outside the scanned root is not followed", true, false},
		Warning{"sub/up", "skipped: symbolic link to a directory is not followed", false, false},
	)
	compareWithGit(t, root, files, "dangling.cc", "escape.cc")

	// A link named explicitly is followed.
	files, _ = find(t, []string{filepath.Join(root, "dirlink")}, Options{Root: root})
	wantRels(t, files, "dirlink/target.cc")
}

func TestUnreadableDirectory(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"a.cc": "", "locked/b.cc": ""})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if _, err := os.ReadDir(locked); err == nil {
		t.Skip("a directory with mode 000 is still readable (running as root?)")
	}
	files, warns := find(t, []string{root}, Options{Root: root})
	wantRels(t, files, "a.cc")
	wantWarnings(t, warns, Warning{"locked", "cannot read directory, so its contents are not scanned: permission denied", true, false})
}

// TestFilesystemFailures simulates failures that file permissions cannot
// produce when the tests run as root.
func TestFilesystemFailures(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"a.cc":        "",
		"gone.cc":     "",
		"locked/b.cc": "",
		"ok/c.cc":     "",
	})
	w, err := newWalker(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	w.readDir = func(dir string) ([]fs.DirEntry, error) {
		if filepath.Base(dir) == "locked" {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrPermission}
		}
		entries, err := os.ReadDir(dir)
		// The file vanishes between listing and stat.
		os.Remove(filepath.Join(dir, "gone.cc"))
		return entries, err
	}
	files, warns, err := w.run([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	wantRels(t, files, "a.cc", "ok/c.cc")
	wantWarnings(t, warns,
		Warning{"gone.cc", "skipped: no such file or directory", true, false},
		Warning{"locked", "cannot read directory, so its contents are not scanned: permission denied", true, false},
	)
}

func TestMissingPaths(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{"a.cc": ""})
	missing := filepath.Join(root, "missing")
	files, warns, err := Find([]string{missing, root}, Options{Root: root})
	if err != nil {
		t.Fatalf("one path exists: err = %v, want nil", err)
	}
	wantRels(t, files, "a.cc")
	wantWarnings(t, warns, Warning{"missing", "no such file or directory", true, false})

	other := filepath.Join(root, "other.cc")
	files, warns, err = Find([]string{missing, other}, Options{Root: root})
	if err == nil || !errors.Is(err, fs.ErrNotExist) ||
		!strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), other) {
		t.Errorf("no path exists: err = %v, want ErrNotExist naming both paths", err)
	}
	wantRels(t, files)
	wantWarnings(t, warns,
		Warning{"missing", "no such file or directory", true, false},
		Warning{"other.cc", "no such file or directory", true, false},
	)

	files, warns, err = Find(nil, Options{Root: root})
	if err != nil || len(files) != 0 || len(warns) != 0 {
		t.Errorf("no paths: got %v, %v, %v; want nothing", files, warns, err)
	}
}

func TestMaxFileSize(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"small.cc": strings.Repeat("x", 10),
		"exact.cc": strings.Repeat("x", 50),
		"big.cc":   strings.Repeat("x", 100),
	})
	files, warns := find(t, []string{root, filepath.Join(root, "big.cc")}, Options{Root: root, MaxFileSize: 50})
	wantRels(t, files, "exact.cc", "small.cc")
	wantWarnings(t, warns, Warning{"big.cc", "skipped: size 100 bytes exceeds the limit of 50 bytes", true, false})
}

func TestDuplicatesAndOrder(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		"b.cc":     "",
		"a/z.h":    "",
		"a/b/c.cu": "",
		"a-b.cc":   "",
		"A.cc":     "",
	})
	t.Chdir(root)
	paths := []string{"a", ".", "a/b", "./a/b/c.cu", filepath.Join(root, "b.cc"), "a/../b.cc"}
	files, warns := find(t, paths, Options{})
	wantRels(t, files, "A.cc", "a-b.cc", "a/b/c.cu", "a/z.h", "b.cc")
	wantWarnings(t, warns)
	if files[2].Path != filepath.Join("a", "b", "c.cu") {
		t.Errorf("path of a/b/c.cu = %q, want the first naming", files[2].Path)
	}
	reversed := slices.Clone(paths)
	slices.Reverse(reversed)
	for range 3 {
		again, _ := find(t, reversed, Options{})
		if !slices.Equal(rels(again), rels(files)) {
			t.Fatalf("order depends on the arguments: %q vs %q", rels(again), rels(files))
		}
	}
}

func TestOutsideRoot(t *testing.T) {
	base := t.TempDir()
	mkTree(t, base, map[string]string{
		"root/in.cc":           "",
		"elsewhere/out.cc":     "",
		"elsewhere/.gitignore": "*.hpp\n",
		"elsewhere/x.h":        "",
		"elsewhere/y.hpp":      "",
	})
	root := filepath.Join(base, "root")
	files, warns := find(t, []string{root, filepath.Join(base, "elsewhere")}, Options{Root: root, Exclude: []string{"elsewhere/*.h"}})
	out := filepath.ToSlash(filepath.Join(base, "elsewhere", "out.cc"))
	wantRels(t, files, out, "in.cc")
	wantWarnings(t, warns)
}

func TestWildmatch(t *testing.T) {
	// Cases from git's t3070-wildmatch.sh, with WM_PATHNAME semantics.
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{"foo", "foo", true},
		{"bar", "foo", false},
		{"", "", true},
		{"???", "foo", true},
		{"??", "foo", false},
		{"*", "foo", true},
		{"f*", "foo", true},
		{"*f", "foo", false},
		{"*foo*", "foo", true},
		{"*ob*a*r*", "foobar", true},
		{"*ab", "aaaaaaabababab", true},
		{`foo\*`, "foo*", true},
		{`foo\*bar`, "foobar", false},
		{`f\\oo`, `f\oo`, true},
		{"*[al]?", "ball", true},
		{"[ten]", "ten", false},
		{"**[!te]", "ten", true},
		{"**[!ten]", "ten", false},
		{"t[a-g]n", "ten", true},
		{"t[!a-g]n", "ten", false},
		{"t[!a-g]n", "ton", true},
		{"t[^a-g]n", "ton", true},
		{"a[]]b", "a]b", true},
		{"a[]-]b", "a-b", true},
		{"a[]-]b", "a]b", true},
		{"a[]-]b", "aab", false},
		{"a[]a-]b", "aab", true},
		{"]", "]", true},
		{"foo*bar", "foo/baz/bar", false},
		{"foo**bar", "foo/baz/bar", false},
		{"foo**bar", "foobazbar", true},
		{"foo/**/bar", "foo/baz/bar", true},
		{"foo/**/**/bar", "foo/baz/bar", true},
		{"foo/**/bar", "foo/b/a/z/bar", true},
		{"foo/**/bar", "foo/bar", true},
		{"foo/**", "foo/bar/baz", true},
		{"foo/**", "foo", false},
		{"foo?bar", "foo/bar", false},
		{"foo[/]bar", "foo/bar", false},
		{"foo[^a-z]bar", "foo/bar", false},
		{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar", true},
		{"**/foo", "foo", true},
		{"**/foo", "XXX/foo", true},
		{"**/foo", "bar/baz/foo", true},
		{"*/foo", "bar/baz/foo", false},
		{"**/bar*", "foo/bar/baz", false},
		{"**/bar/*", "deep/foo/bar/baz", true},
		{"**/bar/*", "deep/foo/bar/baz/", false},
		{"**/bar/**", "deep/foo/bar/baz/", true},
		{"**/bar/*", "deep/foo/bar", false},
		{"**/bar/**", "deep/foo/bar/", true},
		{"**/bar**", "foo/bar/baz", false},
		{"*/bar/**", "deep/foo/bar/baz/x", false},
		{"**/bar/*/*", "deep/foo/bar/baz/x", true},
		{"**/**/**", "a/b/c", true},
		{"a/**/**/**", "a", false},
		{"*.c", "sub/x.c", false},
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true},
		{"[[:digit:][:upper:][:space:]]", "a", false},
		{"[[:digit:][:upper:][:space:]]", "A", true},
		{"[[:xdigit:]]", "f", true},
		{"[[:punct:]]", ",", true},
		{"[a-c[:digit:]x-z]", "5", true},
		{"[[:nope:]]", "a", false},
		{"[[:alpha:]", "a", false},
		{"[a-", "a", false},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true},
		{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1", false},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.text); got != tt.want || refWildmatch(tt.pattern, tt.text) != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}

func BenchmarkFindCorpus(b *testing.B) {
	corpus := os.Getenv("HOLDFAST_CORPUS")
	if corpus == "" {
		b.Skip("HOLDFAST_CORPUS is not set")
	}
	var n int
	for b.Loop() {
		files, _, err := Find([]string{corpus}, Options{Root: corpus})
		if err != nil {
			b.Fatal(err)
		}
		n = len(files)
	}
	b.ReportMetric(float64(n), "files")
}

// TestCorpusMatchesGit compares Find with git over $HOLDFAST_CORPUS.
func TestCorpusMatchesGit(t *testing.T) {
	corpus := os.Getenv("HOLDFAST_CORPUS")
	if corpus == "" {
		t.Skip("HOLDFAST_CORPUS is not set")
	}
	files, _ := find(t, []string{corpus}, Options{Root: corpus})
	compareWithGit(t, corpus, files)
}

// TestIgnoreFilesAreBounded: ignore files belong to the scanned tree. A
// .gitignore linked to /dev/zero (read while locating a named directory's
// rules, 3.8 GB before) is not read, as git does not read a linked one;
// info/exclude linked to /dev/zero and a .gitignore over the cap are
// refused with a Skipped warning.
func TestIgnoreFilesAreBounded(t *testing.T) {
	root := t.TempDir()
	mkTree(t, root, map[string]string{
		".git/HEAD":   "ref: refs/heads/main\n",
		"src/a.cc":    "",
		"big/.keep":   "",
		"big/b.cc":    "",
		"other/c.cc":  "",
		"other/.keep": "",
	})
	if err := os.Symlink("/dev/zero", filepath.Join(root, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(root, ".git", "info", "exclude")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "big", ".gitignore"), []byte("#"+strings.Repeat(" ", maxIgnoreFileSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var files []File
	var warns []Warning
	go func() {
		files, warns = find(t, []string{filepath.Join(root, "src"), filepath.Join(root, "big")}, Options{Root: root})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Find did not return")
	}
	wantRels(t, files, "big/b.cc", "src/a.cc")
	skipped := map[string]bool{}
	for _, w := range warns {
		if w.Skipped {
			skipped[w.Path] = true
		}
	}
	if !skipped[".git/info/exclude"] || !skipped["big/.gitignore"] || len(skipped) != 2 {
		t.Errorf("want Skipped warnings for .git/info/exclude and big/.gitignore; got %q", warns)
	}
}
