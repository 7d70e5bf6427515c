// Package config reads holdfast's configuration file, .holdfast.yaml. It
// is data only: nothing in it is executed, included or fetched.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/safeio"
)

// FileName is the configuration file looked for at the scan root.
const FileName = ".holdfast.yaml"

// Config is the contents of a configuration file.
type Config struct {
	// Exclude lists globs of paths not to scan, like --exclude.
	Exclude []string `yaml:"exclude"`
	// FailOn is the lowest severity that makes the exit status 1.
	FailOn string `yaml:"fail-on"`
	// MaxFileSize skips bigger files (bytes); 0 means the default.
	MaxFileSize int64 `yaml:"max-file-size"`
	Rules       Rules `yaml:"rules"`
	// API adds names to the built-in API models.
	API *apimodel.Pack `yaml:"api"`
	// Path is where the configuration was read from ("" for none).
	Path string `yaml:"-"`
	// Refused says why the default configuration file was not read (it
	// is not a regular file, is too large, or links outside the root);
	// the configuration is then empty and the caller should warn.
	Refused string `yaml:"-"`
}

// MaxSize is the largest configuration file read, in bytes.
const MaxSize = 1 << 20

// Rules selects and adjusts rules.
type Rules struct {
	Disable  []string          `yaml:"disable"`
	Severity map[string]string `yaml:"severity"`
}

// Parse decodes a configuration. Errors name the file and, for YAML
// errors, the line; unknown keys are errors, so a typo is not ignored.
func Parse(name string, src []byte) (*Config, error) {
	var c Config
	if len(bytes.TrimSpace(src)) > 0 {
		dec := yaml.NewDecoder(bytes.NewReader(src))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var extra yaml.Node
		if err := dec.Decode(&extra); err == nil {
			return nil, fmt.Errorf("%s:%d:%d: only one YAML document is allowed", name, extra.Line, extra.Column)
		}
	}
	c.Path = name
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &c, nil
}

func (c *Config) validate() error {
	if c.FailOn != "" && c.FailOn != "never" {
		if _, ok := diag.ParseSeverity(c.FailOn); !ok {
			return fmt.Errorf("fail-on: %q is not one of note, warning, error, never", c.FailOn)
		}
	}
	if c.MaxFileSize < 0 {
		return errors.New("max-file-size: must not be negative")
	}
	for _, id := range slices.Sorted(mapKeys(c.Rules.Severity)) {
		if _, ok := diag.ParseSeverity(c.Rules.Severity[id]); !ok {
			return fmt.Errorf("rules.severity.%s: %q is not one of note, warning, error", id, c.Rules.Severity[id])
		}
	}
	if c.API != nil {
		if c.API.Name == "" {
			c.API.Name = "config"
		}
		if err := c.API.Validate(); err != nil {
			return fmt.Errorf("api: %w", err)
		}
	}
	return nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Load reads the configuration at path; with path "", it reads
// root/.holdfast.yaml if it exists and returns an empty one otherwise.
//
// Only a regular file of at most MaxSize bytes is read. The default file
// belongs to the scanned repository, so when it is something else, or a
// link to a file outside root, Load returns an empty configuration with
// Refused set instead of an error; a file named by path is the caller's
// choice, and any problem with it is an error.
func Load(path, root string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join(root, FileName)
		if why := outsideRoot(path, root); why != "" {
			return &Config{Refused: why}, nil
		}
	}
	src, err := safeio.ReadFile(path, MaxSize, safeio.Options{})
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return &Config{}, nil
		}
		var tl *safeio.TooLargeError
		if !explicit && (errors.Is(err, safeio.ErrNotRegular) || errors.As(err, &tl)) {
			return &Config{Refused: "not read: " + unwrapPath(err).Error()}, nil
		}
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return Parse(path, src)
}

// outsideRoot explains why the default configuration at path is not read
// when it is a symbolic link that resolves outside root, and is "" when
// it is not (a missing file included).
func outsideRoot(path, root string) string {
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return ""
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	if r, err := filepath.Rel(realRoot, target); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return ""
	}
	return "not read: a symbolic link to a file outside the scan root"
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
