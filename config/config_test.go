package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/internal/fuzzlimit"
)

func TestParse(t *testing.T) {
	c, err := Parse("h.yaml", []byte(`
exclude: ["third_party/**"]
fail-on: error
rules:
  disable: [HF-C001]
  severity: {HF-B001: warning}
api:
  owners: [BufferHandle]
  calls:
    Get: [borrow]
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.FailOn != "error" || c.Exclude[0] != "third_party/**" || c.Rules.Disable[0] != "HF-C001" ||
		c.Rules.Severity["HF-B001"] != "warning" || c.API.Owners[0] != "BufferHandle" || c.API.Name != "config" {
		t.Errorf("parsed %+v", c)
	}
}

// TestParseErrors: every error names the file and the line, and speaks of
// the file's keys and values, never of the Go types they are decoded into.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"exclud: [x]\n", `h.yaml:1: unknown key "exclud" (known: exclude, fail-on, max-file-size, include-generated, rules, api)`},
		{"rules:\n  disabled: [x]\n", `h.yaml:2: unknown key "disabled" (known: disable, severity)`},
		{"api:\n  ownerz: [x]\n", `h.yaml:2: unknown key "ownerz" (known: name, description, owners,`},
		{"fail-on: loud\n", `h.yaml:1: fail-on: "loud" is not one of note, warning, error, never`},
		{"exclude: []\nrules:\n  severity: {HF-B001: fatal}\n", `h.yaml:3: rules.severity.HF-B001: "fatal" is not one of note, warning, error`},
		{"api:\n  calls:\n    Get: [borow]\n", `h.yaml:3: api.calls.Get: unknown role "borow" (known: borrow, async,`},
		{"exclude: [a\n", "h.yaml:1: did not find expected ',' or ']'"},
		// Syntax errors name the line the problem is on, the first one
		// included.
		{"a: b: c\n", "h.yaml:1: mapping values are not allowed in this context"},
		{"*x\n", "h.yaml:1: unknown anchor 'x' referenced"},
		{"exclude: []\nfail-on: *x\n", "h.yaml:2: unknown anchor 'x' referenced"},
		{"- a\nb: c\n", "h.yaml:2: did not find expected '-' indicator"},
		{"rules:\n  disable: []\n severity: {}\n", "h.yaml:3: did not find expected key"},
		{"a: 1\n---\nb: 2\n", `h.yaml:1: unknown key "a"`},
		{"exclude: []\n---\nexclude: []\n", "h.yaml:2: only one YAML document is allowed"},
		{"\nmax-file-size: -1\n", "h.yaml:2: max-file-size: must not be negative"},
		{"max-file-size: big\n", `h.yaml:1: max-file-size: "big" is not a size`},
		{"\nmax-file-size: 1.5MB\n", `h.yaml:2: max-file-size: "1.5MB" is not a size`},
		{"max-file-size: [1M]\n", `h.yaml:1: max-file-size: a list is not a size`},
		{"exclude: third_party\n", `h.yaml:1: exclude: "third_party" is not a list`},
		{"rules: [HF-B001]\n", `h.yaml:1: rules: a list is not a mapping of keys to values`},
	} {
		_, err := Parse("h.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error starting %q", tc.src, err, tc.want)
			continue
		}
		for _, goWord := range []string{"config.", "apimodel.", "int64", "[]string", "map[", "unmarshal"} {
			if strings.Contains(err.Error(), goWord) {
				t.Errorf("Parse(%q) = %v: speaks of Go (%s)", tc.src, err, goWord)
			}
		}
	}
}

// TestMaxFileSizeUnits: max-file-size takes a size as --max-file-size
// does, with or without a unit.
func TestMaxFileSizeUnits(t *testing.T) {
	for in, want := range map[string]Size{
		"1MB": 1 << 20, "512k": 512 << 10, "8M": 8 << 20, "\"2 KiB\"": 2 << 10, "1048576": 1 << 20, "0": 0,
	} {
		c, err := Parse("h.yaml", []byte("max-file-size: "+in+"\n"))
		if err != nil || c.MaxFileSize != want {
			t.Errorf("max-file-size: %s = %+v, %v; want %d", in, c, err, want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load("", dir)
	if err != nil || c.Path != "" {
		t.Fatalf("no config file: %+v, %v", c, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml"), dir); err == nil {
		t.Error("an explicit missing config must be an error")
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("fail-on: note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load("", dir)
	if err != nil || c.FailOn != "note" {
		t.Fatalf("root config: %+v, %v", c, err)
	}
}

// TestLoadRefusesHostileDefaults: the default .holdfast.yaml belongs to the
// scanned repository. A link to /dev/zero (7 GB read in 10 s), a FIFO (a
// read that never ends), a file over MaxSize or a link out of the tree is
// not read: the configuration is empty and Refused says why. The same
// named with --config is an error.
func TestLoadRefusesHostileDefaults(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("fail-on: note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(string) error{
		"/dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"too large": func(p string) error { return os.WriteFile(p, []byte("#"+strings.Repeat(" ", MaxSize)), 0o644) },
		"outside":   func(p string) error { return os.Symlink(outside, p) },
	}
	for name, create := range cases {
		dir := t.TempDir()
		path := filepath.Join(dir, FileName)
		if err := create(path); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var c *Config
		var err error
		go func() { c, err = Load("", dir); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: Load did not return", name)
		}
		if err != nil || c.Refused == "" || c.FailOn != "" {
			t.Errorf("%s: Load = %+v, %v; want an empty config with Refused set", name, c, err)
		}
		if name == "outside" || name == "fifo" {
			continue
		}
		if _, err := Load(path, dir); err == nil {
			t.Errorf("%s: --config read it", name)
		}
	}
	// A link inside the tree is read.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shared.yaml"), []byte("fail-on: note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("shared.yaml", filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if c, err := Load("", dir); err != nil || c.FailOn != "note" {
		t.Errorf("link inside the tree: %+v, %v", c, err)
	}
}

// TestLoadLooksUpward: without --config, the nearest .holdfast.yaml from
// the current directory up to the repository root is read; nothing above
// the repository, and outside a repository only the directory itself.
func TestLoadLooksUpward(t *testing.T) {
	top := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(top, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".holdfast.yaml", "fail-on: never\n")       // above the repository
	write("repo/.git/HEAD", "ref: refs/heads/main\n") // the repository root
	write("repo/.holdfast.yaml", "fail-on: error\nexclude: [src/gen/**, third_party/**]\n")
	write("repo/src/deep/x.cc", "")
	write("repo/tools/.holdfast.yaml", "fail-on: note\n") // a nearer one wins
	write("loose/sub/x.cc", "")                           // no repository

	for _, tc := range []struct{ dir, want string }{
		{"repo/src/deep", "error"},
		{"repo", "error"},
		{"repo/tools", "note"},
		{"loose/sub", ""},
		{".", "never"},
	} {
		c, err := Load("", filepath.Join(top, tc.dir))
		if err != nil {
			t.Fatal(err)
		}
		if c.FailOn != tc.want {
			t.Errorf("from %s: fail-on %q (file %q), want %q", tc.dir, c.FailOn, c.Path, tc.want)
		}
	}

	// The file's excludes are relative to its directory.
	c, err := Load("", filepath.Join(top, "repo", "src"))
	if err != nil {
		t.Fatal(err)
	}
	got := c.ExcludeFrom(filepath.Join(top, "repo", "src"))
	if strings.Join(got, " ") != "gen/** third_party/**" {
		t.Errorf("excludes from repo/src = %q", got)
	}
	if got := c.ExcludeFrom(filepath.Join(top, "repo")); strings.Join(got, " ") != "src/gen/** third_party/**" {
		t.Errorf("excludes from repo = %q", got)
	}
	if got, want := c.Where("exclude", "third_party/**"), filepath.Join(top, "repo", ".holdfast.yaml")+":2"; got != want {
		t.Errorf("Where = %q, want %q", got, want)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("exclude: [a]\nfail-on: warning\n"))
	f.Add([]byte("api:\n  calls:\n    Get: [borrow]\n"))
	f.Add([]byte("rules: {disable: [x], severity: {a: note}}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzlimit.Run(fuzzlimit.PerInput, func() {
			c, err := Parse("f.yaml", src)
			if err == nil && c == nil {
				t.Error("nil config without error")
			}
		})
	})
}

// TestLoadMisnamed: a .holdfast.yml where .holdfast.yaml is looked for is
// not read; Load says where it is, and refuses nothing.
func TestLoadMisnamed(t *testing.T) {
	dir := t.TempDir()
	misnamed := filepath.Join(dir, ".holdfast.yml")
	if err := os.WriteFile(misnamed, []byte("fail-on: never\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load("", dir)
	if err != nil || c.Misnamed != misnamed || c.Refused != "" || c.FailOn != "" {
		t.Errorf("Load = %+v, %v; want an empty configuration naming %s", c, err, misnamed)
	}
}
