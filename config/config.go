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
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/bytesize"
	"github.com/holdfast-dev/holdfast/internal/safeio"
)

// FileName is the configuration file looked for from the current directory
// up to the root of its git repository.
const FileName = ".holdfast.yaml"

// Config is the contents of a configuration file.
type Config struct {
	// Exclude lists globs of paths not to scan, like --exclude, relative to
	// the directory of the file.
	Exclude []string `yaml:"exclude"`
	// FailOn is the lowest severity that makes the exit status 1.
	FailOn string `yaml:"fail-on"`
	// MaxFileSize skips bigger files (bytes, or with a unit as the flag
	// takes it: 512K, 8M); 0 means the default.
	MaxFileSize Size `yaml:"max-file-size"`
	// IncludeGenerated analyses generated sources, which are skipped by
	// default.
	IncludeGenerated bool  `yaml:"include-generated"`
	Rules            Rules `yaml:"rules"`
	// API adds names to the built-in API models.
	API *apimodel.Pack `yaml:"api"`
	// Path is where the configuration was read from ("" for none).
	Path string `yaml:"-"`
	// Refused says why the default configuration file was not read (it
	// is not a regular file, is too large, or links outside the root);
	// the configuration is then empty and the caller should warn.
	Refused string `yaml:"-"`
	// Misnamed is the path of a configuration file under a name holdfast
	// does not read (.holdfast.yml) found where .holdfast.yaml was looked
	// for and not found. It was not read; the caller should say so. It
	// is no source, so nothing was left unanalysed.
	Misnamed string `yaml:"-"`

	// doc is the parsed YAML, kept to give the line of a key in errors.
	doc *yaml.Node
}

// MaxSize is the largest configuration file read, in bytes.
const MaxSize = 1 << 20

// Rules selects and adjusts rules.
type Rules struct {
	Disable  []string          `yaml:"disable"`
	Severity map[string]string `yaml:"severity"`
}

// Parse decodes a configuration. Every error names the file and, when the
// error is a syntax error or is about a key or value in it, the line
// ("name:3: ..."); unknown keys are errors, so a typo is not ignored.
func Parse(name string, src []byte) (*Config, error) {
	c := Config{Path: name}
	if len(bytes.TrimSpace(src)) > 0 {
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			return nil, fmt.Errorf("%s:%d: %s", name, syntaxLine(src, err), problem(err))
		}
		c.doc = &doc
		dec := yaml.NewDecoder(bytes.NewReader(src))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil {
			return nil, decodeError(name, &doc, err)
		}
		var extra yaml.Node
		if err := dec.Decode(&extra); err == nil {
			return nil, fmt.Errorf("%s:%d: only one YAML document is allowed", name, extra.Line)
		}
	}
	if err := c.validate(); err != nil {
		var ke *keyError
		if errors.As(err, &ke) {
			return nil, fmt.Errorf("%s: %s: %s", c.Where(ke.path...), strings.Join(ke.path, "."), ke.msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &c, nil
}

// Size is a size in bytes, written in the file as --max-file-size takes
// it: a number of bytes, or a number with a unit (512K, 8MB, 1G).
type Size int64

// UnmarshalYAML reads a size. A bad one is a type error on its line, so
// that it is reported as the others are.
func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	bad := func(msg string) error {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s", n.Line, msg)}}
	}
	if n.Kind != yaml.ScalarNode {
		what := "a mapping"
		if n.Kind == yaml.SequenceNode {
			what = "a list"
		}
		return bad("max-file-size: " + what + " is not a size")
	}
	if n.Tag == "!!int" {
		var i int64
		if err := n.Decode(&i); err == nil {
			*s = Size(i)
			return nil
		}
	}
	v, err := bytesize.Parse(n.Value)
	if err != nil {
		return bad("max-file-size: " + err.Error())
	}
	*s = Size(v)
	return nil
}

// keyError is a bad value under a key path such as rules.severity.HF-B001.
type keyError struct {
	path []string
	msg  string
}

func (e *keyError) Error() string { return strings.Join(e.path, ".") + ": " + e.msg }

func errAt(msg string, path ...string) error { return &keyError{path: path, msg: msg} }

func (c *Config) validate() error {
	if c.FailOn != "" && c.FailOn != "never" {
		if _, ok := diag.ParseSeverity(c.FailOn); !ok {
			return errAt(fmt.Sprintf("%q is not one of note, warning, error, never", c.FailOn), "fail-on")
		}
	}
	if c.MaxFileSize < 0 {
		return errAt("must not be negative", "max-file-size")
	}
	for _, id := range slices.Sorted(mapKeys(c.Rules.Severity)) {
		if _, ok := diag.ParseSeverity(c.Rules.Severity[id]); !ok {
			return errAt(fmt.Sprintf("%q is not one of note, warning, error", c.Rules.Severity[id]), "rules", "severity", id)
		}
	}
	if c.API != nil {
		if c.API.Name == "" {
			c.API.Name = "config"
		}
		for _, key := range []string{"calls", "future_calls"} {
			calls := c.API.Calls
			if key == "future_calls" {
				calls = c.API.FutureCalls
			}
			for _, call := range slices.Sorted(mapKeys(calls)) {
				for _, r := range calls[call] {
					if _, ok := apimodel.ParseRole(r); !ok {
						return errAt(fmt.Sprintf("unknown role %q (known: %s)", r, strings.Join(apimodel.RoleNames(), ", ")), "api", key, call)
					}
				}
			}
		}
		if err := c.API.Validate(); err != nil {
			return errAt(err.Error(), "api")
		}
	}
	return nil
}

// Where is "file:line" for the key at path (a mapping key, or an item of a
// list given by its value), or the file alone when the key is not in it.
// Path may name a key deeper than the file has: the deepest key found
// gives the line.
func (c *Config) Where(path ...string) string {
	if c.doc == nil || len(c.doc.Content) == 0 {
		return c.Path
	}
	n := c.doc.Content[0]
	line := 0
	for _, p := range path {
		next, at := child(n, p)
		if next == nil {
			break
		}
		n, line = next, at
	}
	if line == 0 {
		return c.Path
	}
	return c.Path + ":" + strconv.Itoa(line)
}

// child finds key in a mapping node (returning its value and the key's
// line) or the item equal to key in a sequence node.
func child(n *yaml.Node, key string) (*yaml.Node, int) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1], n.Content[i].Line
			}
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			if item.Kind == yaml.ScalarNode && item.Value == key {
				return item, item.Line
			}
		}
	}
	return nil, 0
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// problem is a YAML syntax error's message without its "yaml: line N: ".
func problem(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := otherLineRE.FindStringSubmatch(msg); m != nil {
		return m[2]
	}
	return msg
}

// syntaxLine finds the line of a syntax error in src. The YAML library's
// message gives none when the problem is on the first line or is an
// unknown anchor, and for some problems gives the line where the
// enclosing block starts instead. The line is the first one whose text,
// with the lines above it, has the same problem: the parser reads in
// order, so the text up to the problem fails as the whole file does, and
// the text before it does not (or fails otherwise, having ended early).
func syntaxLine(src []byte, err error) int {
	want := problem(err)
	ends := []int{} // ends[i] is the offset after line i+1
	for i, b := range src {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(src) {
		ends = append(ends, len(src))
	}
	same := func(k int) bool { // the first k lines fail as src does
		var n yaml.Node
		err := yaml.Unmarshal(src[:ends[k-1]], &n)
		return err != nil && problem(err) == want
	}
	// The smallest k in [1, len(ends)] for which same(k) holds.
	lo, hi := 1, len(ends)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if same(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// syntaxError is a YAML syntax error as "name:line: message".
func syntaxError(name string, err error) error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s:%s: %s", name, m[1], m[2])
	}
	return fmt.Errorf("%s: %s", name, strings.TrimPrefix(msg, "yaml: "))
}

var (
	unknownFieldRE = regexp.MustCompile(`^line (\d+): field (.+) not found in type (\S+)$`)
	wrongTypeRE    = regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")
	otherLineRE    = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// decodeError turns the decoder's errors, which speak of Go types
// ("field x not found in type config.Config"), into the file's terms: the
// line, the key and what is expected there. The first error is reported.
func decodeError(name string, doc *yaml.Node, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) == 0 {
		return syntaxError(name, err)
	}
	e := te.Errors[0]
	if m := unknownFieldRE.FindStringSubmatch(e); m != nil {
		msg := fmt.Sprintf("%s:%s: unknown key %q", name, m[1], m[2])
		if known := knownKeys[m[3]]; known != nil {
			msg += " (known: " + strings.Join(known, ", ") + ")"
		}
		return errors.New(msg)
	}
	if m := wrongTypeRE.FindStringSubmatch(e); m != nil {
		line, _ := strconv.Atoi(m[1])
		key, val := valueAt(doc, line)
		got := strconv.Quote(m[3]) // the decoder shortens long values
		switch {
		case m[2] == "map":
			got = "a mapping"
		case m[2] == "seq":
			got = "a list"
		case val != nil:
			got = strconv.Quote(val.Value)
		}
		where := name + ":" + m[1] + ": "
		if key != "" {
			where += key + ": "
		}
		return fmt.Errorf("%s%s is not %s", where, got, describeType(m[4]))
	}
	if m := otherLineRE.FindStringSubmatch(e); m != nil {
		return fmt.Errorf("%s:%s: %s", name, m[1], m[2])
	}
	return fmt.Errorf("%s: %s", name, e)
}

// valueAt finds the first mapping value (or list item) that starts on
// line, with the key it is under.
func valueAt(n *yaml.Node, line int) (string, *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Line == line && c.Kind == yaml.ScalarNode && n.Kind == yaml.SequenceNode {
				return "", c
			}
			if k, v := valueAt(c, line); v != nil {
				return k, v
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Line == line {
				return k.Value, v
			}
			if kk, vv := valueAt(v, line); vv != nil {
				return kk, vv
			}
		}
	}
	return "", nil
}

// knownKeys lists the keys of each mapping the file has, by the Go type
// the decoder names.
var knownKeys = map[string][]string{
	"config.Config":     yamlKeys(reflect.TypeFor[Config]()),
	"config.Rules":      yamlKeys(reflect.TypeFor[Rules]()),
	"apimodel.Pack":     yamlKeys(reflect.TypeFor[apimodel.Pack]()),
	"apimodel.LayoutOp": yamlKeys(reflect.TypeFor[apimodel.LayoutOp]()),
}

func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// describeType says in words what a Go type expects in YAML.
func describeType(goType string) string {
	switch {
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["), strings.Contains(goType, "."):
		return "a mapping of keys to values"
	}
	return "the expected kind of value"
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

// Load reads the configuration at path. With path "", it looks for
// .holdfast.yaml in dir and then in each directory above it up to the root
// of the git repository dir is in (the first directory with a .git entry),
// and reads the nearest; outside a repository only dir itself is looked
// at. Without a file it returns an empty configuration.
//
// Only a regular file of at most MaxSize bytes is read. The default file
// belongs to the scanned repository, so when it is something else, or a
// link to a file outside its own directory's tree, Load returns an empty
// configuration with Refused set instead of an error; a file named by path
// is the caller's choice, and any problem with it is an error.
func Load(path, dir string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		path = find(dir)
		if path == "" {
			if misnamed := findName(dir, ".holdfast.yml"); misnamed != "" {
				return &Config{Misnamed: misnamed}, nil
			}
			return &Config{}, nil
		}
		if why := outsideRoot(path, filepath.Dir(path)); why != "" {
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
	return "not read: a symbolic link to a file outside the directory it configures"
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// find returns the nearest .holdfast.yaml from dir up to its repository's
// root, or "".
func find(dir string) string { return findName(dir, FileName) }

// findName returns the nearest file called name from dir up to its
// repository's root, or "".
func findName(dir, name string) string {
	var dirs []string
	inRepo := false
	for d := dir; ; {
		dirs = append(dirs, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			inRepo = true
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if !inRepo {
		dirs = dirs[:1]
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// ExcludeFrom returns the exclude globs for a scan whose paths are relative
// to root. The file's globs are relative to its own directory: when root
// lies below it, a glob that starts with root's path from there loses that
// prefix ("src/gen/**" from the repository root is "gen/**" in src).
// Globs also match every path suffix, so the others apply unchanged.
func (c *Config) ExcludeFrom(root string) []string {
	if c.Path == "" || len(c.Exclude) == 0 {
		return c.Exclude
	}
	dir, err1 := filepath.Abs(filepath.Dir(c.Path))
	root, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil {
		return c.Exclude
	}
	rel, err := filepath.Rel(dir, root)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return c.Exclude
	}
	prefix := filepath.ToSlash(rel) + "/"
	out := make([]string, 0, len(c.Exclude))
	for _, x := range c.Exclude {
		p := strings.TrimPrefix(x, "./")
		if rest, ok := strings.CutPrefix(p, prefix); ok && rest != "" {
			p = rest
		}
		out = append(out, p)
	}
	return out
}
