package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/holdfast-dev/holdfast/diag"
)

// otherTools are flags the docs give to other programs: git, and the
// measuring scripts of bench/ (report.py --show-fresh, run.sh --only and
// --rows, --half), each checked below against the script that takes it.
var otherTools = map[string]bool{"quiet": true, "unified": true, "no-ext-diff": true, "no-textconv": true,
	"show-fresh": true, "only": true, "rows": true, "half": true}

// TestBenchFlagsExist: the bench scripts' flags the docs name are theirs.
func TestBenchFlagsExist(t *testing.T) {
	for flag, script := range map[string]string{
		"show-fresh": "bench/precision/report.py",
		"only":       "bench/realbugs/run.sh",
		"rows":       "bench/realbugs/run.sh",
		"half":       "bench/realbugs/run.sh",
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

// TestCIWorkflowDoc: the workflow docs/ci.md gives is valid YAML, turns
// setup-go's module cache off (a C++ repository has no go.mod, and the
// cache would only warn) and prints the holdfast version into the log.
func TestCIWorkflowDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/ci.md has no yaml block")
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]any    `yaml:"with"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(m[1], &wf); err != nil {
		t.Fatalf("the workflow is not valid YAML: %v", err)
	}
	var setupGo, version bool
	for _, job := range wf.Jobs {
		for _, st := range job.Steps {
			if strings.HasPrefix(st.Uses, "actions/setup-go@") {
				setupGo = st.With["cache"] == false
			}
			if regexp.MustCompile(`(?m)^\s*holdfast version\s*$`).MatchString(st.Run) {
				version = true
			}
		}
	}
	if !setupGo {
		t.Error("setup-go keeps its module cache on")
	}
	if !version {
		t.Error("no step prints holdfast version")
	}
}

// TestREADMEGoVersion: every Go version the README asks for is the one
// go.mod requires (the oldest go command that fetches it, "Go 1.21+",
// aside).
func TestREADMEGoVersion(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	named := regexp.MustCompile(`\bGo \(?(1\.[0-9]+(?:\.[0-9]+)?)(\+?)`).FindAllStringSubmatch(text, -1)
	if len(named) == 0 {
		t.Fatal("README.md names no Go version")
	}
	for _, v := range named {
		if v[2] == "" && v[1] != string(m[1]) {
			t.Errorf("README.md asks for Go %s; go.mod requires %s", v[1], m[1])
		}
	}
}

// docSection returns the lines of the section of a Markdown file under
// the "## title" heading, up to the next heading of that level.
func docSection(t *testing.T, path, title string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = line == "## "+title
			continue
		}
		if in {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no section %q", path, title)
	}
	return out
}

// TestVerificationDocListsFaults: docs/verification.md's table of faults
// is diag.Faults, the table the text output and 'holdfast explain' read,
// name for name and meaning for meaning.
func TestVerificationDocListsFaults(t *testing.T) {
	row := regexp.MustCompile("^\\| `([A-Z_]+)` \\| (.*) \\|$")
	var doc []diag.FaultInfo
	for _, line := range docSection(t, "docs/verification.md", "Faults") {
		if m := row.FindStringSubmatch(line); m != nil {
			doc = append(doc, diag.FaultInfo{Name: m[1], Means: m[2]})
		}
	}
	if want := diag.Faults(); !slices.Equal(doc, want) {
		var b strings.Builder
		for _, f := range want {
			fmt.Fprintf(&b, "| `%s` | %s |\n", f.Name, f.Means)
		}
		t.Errorf("docs/verification.md lists the faults\n%v\nwant its table to be:\n%s", doc, b.String())
	}
}

// TestExplainFaults: 'holdfast explain --help' lists every fault with its
// meaning, and 'holdfast explain FAULT' says what one means.
func TestExplainFaults(t *testing.T) {
	var out strings.Builder
	root, _ := newRoot(defaultEnv(&out, io.Discard))
	root.SetArgs([]string{"explain", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	listed := regexp.MustCompile(`(?m)^  ([A-Z][A-Z_]+)  +(.*)$`).FindAllStringSubmatch(out.String(), -1)
	var got []diag.FaultInfo
	for _, m := range listed {
		got = append(got, diag.FaultInfo{Name: m[1], Means: m[2]})
	}
	if !slices.Equal(got, diag.Faults()) {
		t.Errorf("explain --help lists %v, want diag.Faults()", got)
	}
	for _, arg := range []string{"HOST_UAF", "host_uaf"} {
		out.Reset()
		root, _ := newRoot(defaultEnv(&out, io.Discard))
		root.SetArgs([]string{"explain", arg})
		if err := root.Execute(); err != nil || out.String() != "HOST_UAF: "+diag.FaultMeaning("HOST_UAF")+"\n" {
			t.Errorf("explain %s: %q, %v", arg, out.String(), err)
		}
	}
}

// TestVerificationDocVerdicts: docs/verification.md's table of verdicts
// names every verdict the code has, and says "never fails the run" of
// exactly those that failing() does not count, whatever their severity.
func TestVerificationDocVerdicts(t *testing.T) {
	row := regexp.MustCompile(`^\| \*\*([a-z ]+)\*\* \| .* \| ([^|]*) \|$`)
	shown := map[diag.Verdict]string{}
	var order []diag.Verdict
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "verification.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			v := diag.Verdict(strings.ReplaceAll(m[1], " ", "-"))
			shown[v] = m[2]
			order = append(order, v)
		}
	}
	if !slices.Equal(order, diag.Verdicts()) {
		t.Errorf("docs/verification.md lists the verdicts %v, want %v", order, diag.Verdicts())
	}
	for _, v := range diag.Verdicts() {
		fails := failing([]*diag.Finding{{Severity: diag.Error, Verification: &diag.Verification{Verdict: v}}}, diag.Note)
		never := strings.Contains(shown[v], "never fails the run")
		if never == fails {
			t.Errorf("docs/verification.md says of %s findings %q, but failing() = %v", v, shown[v], fails)
		}
		if fails && !strings.Contains(shown[v], "--fail-on") {
			t.Errorf("docs/verification.md does not say %s findings fail the run at --fail-on: %q", v, shown[v])
		}
	}
	// --no-verify: no verdict, and the finding counts.
	if !failing([]*diag.Finding{{Severity: diag.Warning}}, diag.Warning) {
		t.Error("a finding without a verdict does not fail the run, as docs/verification.md says it does with --no-verify")
	}
}

// TestBaselineDocFlags: the flags docs/ci.md says baseline shares with
// scan are exactly the flags baseline takes besides its -o, and each is
// a flag of scan with the same meaning.
func TestBaselineDocFlags(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	m := regexp.MustCompile("`baseline` takes the paths `scan` takes and the flags that say what is scanned and how[^:]*: ([^.]*)\\.").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("docs/ci.md does not list the flags baseline shares with scan")
	}
	var doc []string
	for _, f := range regexp.MustCompile("`--([a-z-]+)`").FindAllStringSubmatch(m[1], -1) {
		doc = append(doc, f[1])
	}
	root, _ := newRoot(defaultEnv(io.Discard, io.Discard))
	cmds := map[string]*cobra.Command{}
	for _, c := range root.Commands() {
		cmds[c.Name()] = c
	}
	var takes []string
	cmds["baseline"].Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "output" {
			return
		}
		takes = append(takes, f.Name)
		if sf := cmds["scan"].Flags().Lookup(f.Name); sf == nil || sf.Usage != f.Usage || sf.DefValue != f.DefValue {
			t.Errorf("baseline --%s is not scan's --%s", f.Name, f.Name)
		}
	})
	slices.Sort(doc)
	slices.Sort(takes)
	if !slices.Equal(doc, takes) {
		t.Errorf("docs/ci.md says baseline takes %v; it takes %v", doc, takes)
	}
}

// TestExplainPrintsNoLinks: 'holdfast explain' prints a rule's page
// without Markdown links, which lead nowhere in a terminal (code examples
// aside, where "](" is C++).
func TestExplainPrintsNoLinks(t *testing.T) {
	for _, id := range []string{"HF-B001", "HF-G001"} {
		var out strings.Builder
		root, _ := newRoot(defaultEnv(&out, io.Discard))
		root.SetArgs([]string{"explain", id})
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		in := false
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(line, "```") {
				in = !in
			}
			if !in && strings.Contains(line, "](") {
				t.Errorf("explain %s prints a link: %s", id, line)
			}
		}
	}
}
