package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// otherTools are flags the docs give to other programs: git, and the
// measuring scripts of bench/ (report.py --show-fresh, run.sh --only and
// --rows), each checked below against the script that takes it.
var otherTools = map[string]bool{"quiet": true, "unified": true, "no-ext-diff": true, "no-textconv": true,
	"show-fresh": true, "only": true, "rows": true}

// TestBenchFlagsExist: the bench scripts' flags the docs name are theirs.
func TestBenchFlagsExist(t *testing.T) {
	for flag, script := range map[string]string{
		"show-fresh": "bench/precision/report.py",
		"only":       "bench/realbugs/run.sh",
		"rows":       "bench/realbugs/run.sh",
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", script))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`--` + flag + `\b`).Match(b) {
			t.Errorf("%s takes no --%s", script, flag)
		}
	}
}

// TestDocumentedFlagsExist: every --flag the README, docs/ and
// report/SCHEMA.md mention is a flag of some holdfast command (or of git,
// listed in otherTools), so the docs cannot name a flag that does not exist.
func TestDocumentedFlagsExist(t *testing.T) {
	known := map[string]bool{"help": true}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.InitDefaultVersionFlag()
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) { known[f.Name] = true })
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root, _ := newRoot(defaultEnv(io.Discard, io.Discard))
	walk(root)

	docs, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	docs = append(docs, filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "report", "SCHEMA.md"))
	flagRE := regexp.MustCompile("(?:^|[\\s`(\\[\"])--([a-z][a-z0-9-]*)")
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range flagRE.FindAllStringSubmatch(string(b), -1) {
			if !known[m[1]] && !otherTools[m[1]] {
				t.Errorf("%s mentions --%s, which no holdfast command has", path, m[1])
			}
		}
	}
}
