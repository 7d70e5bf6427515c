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

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"exclud: [x]\n", "h.yaml: yaml: unmarshal errors:\n  line 1: field exclud not found"},
		{"fail-on: loud\n", `h.yaml: fail-on: "loud"`},
		{"rules:\n  severity: {HF-B001: fatal}\n", `rules.severity.HF-B001: "fatal"`},
		{"api:\n  calls:\n    Get: [borow]\n", `api: call "Get": unknown role "borow"`},
		{"exclude: [a\n", "h.yaml: yaml: line 1"},
		{"a: 1\n---\nb: 2\n", "field a not found"},
		{"exclude: []\n---\nexclude: []\n", "h.yaml:2:1: only one YAML document"},
		{"max-file-size: -1\n", "max-file-size: must not be negative"},
	} {
		_, err := Parse("h.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.src, err, tc.want)
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
