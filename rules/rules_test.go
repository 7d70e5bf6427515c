package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/verify"
)

// TestRules runs every rule over its testdata directory. Each line that
// must be reported ends in a comment `// want "regexp"` (several quoted
// expressions for several findings); a finding on a line without a
// matching want, and a want without a finding, both fail the test.
//
// Every finding is also replayed on the simulated device. A want may name
// the verdict the replay must give, right after its expression:
// `// want "regexp" confirmed` (or latent, not-reproduced, not-modelled). A want
// without a verdict accepts any.
func TestRules(t *testing.T) {
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]map[diag.Verdict]int{}
	for _, r := range All() {
		verdicts[r.Meta.ID] = map[diag.Verdict]int{}
		t.Run(r.Meta.ID, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join("testdata", r.Meta.ID, "*"))
			if len(files) == 0 {
				t.Fatalf("rule %s has no testdata", r.Meta.ID)
			}
			for _, path := range files {
				t.Run(filepath.Base(path), func(t *testing.T) { checkFile(t, m, r, path, verdicts[r.Meta.ID]) })
			}
		})
	}
	// Both verdicts must be earned: every rule whose class the device
	// replays has a marked case that it confirms and a marked case where
	// the rule fires but the replay shows no fault.
	for _, r := range All() {
		if why, ok := notReplayed[r.Meta.ID]; ok {
			if n := verdicts[r.Meta.ID][diag.Confirmed]; n != 0 {
				t.Errorf("%s is listed as not replayed (%s) but has %d confirmed cases", r.Meta.ID, why, n)
			}
			continue
		}
		if why, ok := latentOnly[r.Meta.ID]; ok {
			if n := verdicts[r.Meta.ID][diag.Confirmed]; n != 0 {
				t.Errorf("%s is listed as latent only (%s) but has %d confirmed cases", r.Meta.ID, why, n)
			}
			if verdicts[r.Meta.ID][diag.Latent] == 0 {
				t.Errorf("%s: no testdata case marked latent", r.Meta.ID)
			}
			continue
		}
		for _, v := range []diag.Verdict{diag.Confirmed, diag.NotReproduced} {
			if _, ok := noCleanPath[r.Meta.ID]; ok && v == diag.NotReproduced {
				continue
			}
			if verdicts[r.Meta.ID][v] == 0 {
				t.Errorf("%s: no testdata case marked %s", r.Meta.ID, v)
			}
		}
	}
}

// notReplayed lists the rules whose findings the simulated device does not
// replay, and why; their cases are marked not-modelled.
var notReplayed = map[string]string{
	"HF-A003": "it reports an API declaration (a hold parameter with a default), not a path of events; the callers that leave the hold out are HF-A002's findings, which replay",
	"HF-E003": "a note on a dependency on destruction order elsewhere: the function has no event where the allocator dies, so there is no fault path to replay",
	"HF-E005": "which thread allocated a block is outside the function, and the device models one allocator, not one per thread",
	"HF-C002": "a wrong argument, not a path of lifetime events: what the call reads past the single value is whatever the stack holds",
}

// latentOnly lists the rules every finding of which assumes something of
// code holdfast cannot see, and why; their cases are latent, never
// confirmed, and the correct twins are cases the rule does not report.
var latentOnly = map[string]string{
	"HF-G004": "whether the callee runs the completion before the caller's use is the callee's business",
	"HF-B005": "whether callers pass short-lived descriptors is their business",
	"HF-B006": "when the caller releases what it passed is the caller's business",
	"HF-G005": "when the pool's owner is released is its owners' business",
}

// noCleanPath lists the replayed rules whose findings have no event that
// could make the path clean, and why; they need no not-reproduced case.
var noCleanPath = map[string]string{
	"HF-H002": "found by executing the function's paths with the device's queues: a path that does not fault gives no finding, so there is no unconfirmed case",
	"HF-N002": "found by executing the function's paths: a path that does not fault gives no finding, so there is no unconfirmed case",
	"HF-N001": "found by executing the function's paths: a path that does not fault gives no finding, so there is no unconfirmed case",
	"HF-B003": "the temporary dies at the end of its statement, before any later event of the path: nothing on the path can keep it or wait for it",
	"HF-B004": "a removed element is destroyed by the removal itself, and a moved one by the growth: nothing on the path can keep the old element",
}

// want is one expected finding: its message pattern and, if given, the
// verdict its replay must give.
type want struct {
	re      *regexp.Regexp
	verdict diag.Verdict
}

var wantRE = regexp.MustCompile(`//\s*want((?:\s+"(?:[^"\\]|\\.)*"(?:\s+(?:confirmed|latent|not-reproduced|not-modelled))?)+)`)
var quotedRE = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"(?:\s+(confirmed|latent|not-reproduced|not-modelled))?`)

func checkFile(t *testing.T, m *apimodel.Model, r *Rule, path string, verdicts map[diag.Verdict]int) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	findings := analyse(t, m, r, path, src)
	wants := map[int][]want{}
	for i, line := range strings.Split(string(src), "\n") {
		mm := wantRE.FindStringSubmatch(line)
		if mm == nil {
			continue
		}
		for _, q := range quotedRE.FindAllStringSubmatch(mm[1], -1) {
			wants[i+1] = append(wants[i+1], want{regexp.MustCompile(strings.ReplaceAll(q[1], `\"`, `"`)), diag.Verdict(q[2])})
		}
	}
	for _, f := range findings {
		line := f.At.Start.Line
		i := slices.IndexFunc(wants[line], func(w want) bool { return w.re.MatchString(f.Message) })
		if i < 0 {
			t.Errorf("%s:%d: unexpected finding: %s\n%s", path, line, f.Message, witness(f))
			continue
		}
		w := wants[line][i]
		wants[line] = slices.Delete(wants[line], i, i+1)
		v := verify.Verify(f, verify.Options{})
		if w.verdict != "" {
			if v.Verdict != w.verdict {
				t.Errorf("%s:%d: replay gave %s, want %s: %s\n%s", path, line, v.Verdict, w.verdict, v.Reason, witness(f))
				continue
			}
			verdicts[v.Verdict]++
		}
	}
	for line, ws := range wants {
		for _, w := range ws {
			t.Errorf("%s:%d: no finding matching %q", path, line, w.re)
		}
	}
}

func analyse(t *testing.T, m *apimodel.Model, r *Rule, path string, src []byte) []*diag.Finding {
	t.Helper()
	f, funcs := model(t, m, path, src)
	return Run(f, m, funcs, []*Rule{r}, nil)
}

// model parses src as the file at path and builds its lifetime model.
func model(t *testing.T, m *apimodel.Model, path string, src []byte) (*parser.File, []*lifetime.Func) {
	t.Helper()
	p, err := parser.New(parser.Options{DeclMacros: m.DeclMacros()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse(filepath.ToSlash(path), filepath.Ext(path), src)
	if err != nil {
		t.Fatal(err)
	}
	return f, lifetime.Build(f, m)
}

func witness(f *diag.Finding) string {
	var b strings.Builder
	for _, s := range f.Witness {
		fmt.Fprintf(&b, "    %d: %s %s\n", s.At.Start.Line, s.Kind, s.Message)
	}
	return b.String()
}

// TestRuleMetadata checks that every rule documents itself fully.
func TestRuleMetadata(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range All() {
		m := r.Meta
		for _, n := range append([]string{m.ID, m.Name}, m.Former...) {
			if ids[n] {
				t.Errorf("%s: the ID or name %s is taken", m.ID, n)
			}
			ids[n] = true
		}
		if !regexp.MustCompile(`^HF-[A-HN]\d{3}$`).MatchString(m.ID) || m.Class != m.ID[3:4] {
			t.Errorf("%s: id must be HF-<class><3 digits> matching class %q", m.ID, m.Class)
		}
		if m.Summary == "" || m.Help == "" || m.Example.Bad == "" || m.Example.Good == "" || m.Fix == "" || m.Hint == "" || m.Severity == 0 || m.Precision == "" {
			t.Errorf("%s: incomplete metadata", m.ID)
		}
		if strings.ToLower(m.Summary[:1]) != m.Summary[:1] || strings.HasSuffix(m.Summary, ".") {
			t.Errorf("%s: summary should be lower-case with no trailing period", m.ID)
		}
		if m.Hint != "" && (strings.ToLower(m.Hint[:1]) != m.Hint[:1] || strings.HasSuffix(m.Hint, ".")) {
			t.Errorf("%s: hint should be lower-case with no trailing period", m.ID)
		}
		if _, err := os.Stat(filepath.Join("..", "docs", "rules", m.ID+".md")); err != nil {
			t.Errorf("%s: no docs/rules/%s.md", m.ID, m.ID)
		}
	}
}

// memorySafetyTags mark a rule that finds memory-safety bugs: memory used
// after its owner let it go, a dangling pointer, a race.
var memorySafetyTags = []string{"memory-safety", "use-after-free", "data-race", "null-dereference", "concurrency"}

// TestSecurityMetadata: every memory-safety rule has a CWE, so SARIF tags
// it security with a security-severity; no rule tags itself security or
// correctness, which follow from the CWE; and the docs can name every CWE.
func TestSecurityMetadata(t *testing.T) {
	for _, r := range All() {
		m := r.Meta
		if slices.ContainsFunc(m.Tags, func(tag string) bool { return slices.Contains(memorySafetyTags, tag) }) && !m.Security() {
			t.Errorf("%s is tagged %v but has no CWE", m.ID, m.Tags)
		}
		if slices.Contains(m.Tags, "security") || slices.Contains(m.Tags, "correctness") {
			t.Errorf("%s: tags %v: security or correctness follows from the CWE", m.ID, m.Tags)
		}
		for _, c := range m.CWE {
			if cweNames[c] == "" {
				t.Errorf("%s: CWE-%d has no name in cweNames", m.ID, c)
			}
		}
	}
}

// TestRulesStayQuietWithoutTheirShapes guards the bail-outs: a file with
// none of the shapes gives no findings from any rule.
func TestRulesStayQuietWithoutTheirShapes(t *testing.T) {
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("int add(int a, int b) { int c = a + b; return c; }\nstruct S { void f() { std::vector<int> v; v.push_back(1); } };\n")
	for _, r := range All() {
		if fs := analyse(t, m, r, "plain.cc", src); len(fs) != 0 {
			t.Errorf("%s reported on plain code: %s", r.Meta.ID, fs[0].Message)
		}
	}
}

var update = flag.Bool("update", false, "rewrite docs/rules/*.md from the rules' metadata")

// TestDocsAreGenerated keeps docs/rules/<ID>.md identical to what
// `holdfast explain` prints; run `go test ./rules -update` after editing a
// rule's metadata.
func TestDocsAreGenerated(t *testing.T) {
	var metas []*diag.Rule
	for _, r := range All() {
		metas = append(metas, r.Meta)
	}
	index := filepath.Join("..", "docs", "rules", "README.md")
	if *update {
		if err := os.WriteFile(index, []byte(Index(metas)), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if got, err := os.ReadFile(index); err != nil || string(got) != Index(metas) {
		t.Errorf("%s is stale or missing (%v): run go test ./rules -update", index, err)
	}
	generatedPart(t, filepath.Join("..", "docs", "ci.md"), Security(metas))
	for _, r := range All() {
		path := filepath.Join("..", "docs", "rules", r.Meta.ID+".md")
		want := Doc(r.Meta)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (run go test ./rules -update)", err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s is stale: run go test ./rules -update", path)
		}
	}
}

// generatedPart keeps the text between the markers of a generated part of
// a hand-written doc equal to want, or rewrites it with -update.
func generatedPart(t *testing.T, path, want string) {
	t.Helper()
	const begin, end = "<!-- generated from the rules' metadata", "<!-- end of generated text -->"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, begin)
	if i < 0 {
		t.Fatalf("%s has no generated part (%q)", path, begin)
	}
	i += strings.Index(doc[i:], "\n") + 1
	j := strings.Index(doc[i:], end)
	if j < 0 {
		t.Fatalf("%s: the generated part has no end (%q)", path, end)
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc[:i]+want+doc[i+j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if doc[i:i+j] != want {
		t.Errorf("%s: the generated part is stale: run go test ./rules -run TestDocsAreGenerated -update", path)
	}
}

// TestAllInIDOrder: All lists the rules in ID order, as its comment and
// 'holdfast rules' promise.
func TestAllInIDOrder(t *testing.T) {
	rs := All()
	for i := 1; i < len(rs); i++ {
		if rs[i-1].Meta.ID >= rs[i].Meta.ID {
			t.Errorf("%s comes before %s", rs[i-1].Meta.ID, rs[i].Meta.ID)
		}
	}
}

// A finding in a gtest test names the test as runners do, Suite.Name,
// whichever rule reports it; other functions keep their own name.
func TestFindingNamesTheTest(t *testing.T) {
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(`void Transmit(std::vector<float*>& v);
TEST(CopyTest, RoundTrip) {
  std::vector<float*> raw;
  for (int i = 0; i < 3; ++i) {
    std::unique_ptr<float> b = Take();
    raw.push_back(b.get());
  }
  Transmit(raw);
}
void Send() {
  std::vector<float*> raw;
  for (int i = 0; i < 3; ++i) {
    std::unique_ptr<float> b = Take();
    raw.push_back(b.get());
  }
  Transmit(raw);
}
TEST_F(CopyFixture, Batched) {
  std::vector<float*> raw;
  for (int i = 0; i < 3; ++i) {
    std::unique_ptr<float> b = Take();
    raw.push_back(b.get());
  }
  Transmit(raw);
}
TEST_P(CopyParam, Sized) {
  std::vector<float*> raw;
  for (int i = 0; i < 3; ++i) {
    std::unique_ptr<float> b = Take();
    raw.push_back(b.get());
  }
  Transmit(raw);
}
`)
	fs := analyse(t, m, ByID("HF-B001"), "copy_test.cc", src)
	var names []string
	for _, f := range fs {
		names = append(names, f.Function)
	}
	if want := []string{"CopyTest.RoundTrip", "Send", "CopyFixture.Batched", "CopyParam.Sized"}; !slices.Equal(names, want) {
		t.Errorf("functions %q, want %q: a test as Suite.Name", names, want)
	}
}

// TestRenamedRule: HF-G001 reports locals captured by reference as well
// as this, so its name says so; the name it had still finds it.
func TestRenamedRule(t *testing.T) {
	for _, name := range []string{"HF-G001", "callback-outlives-capture", "callback-captures-this"} {
		if r := ByID(name); r == nil || r.Meta.ID != "HF-G001" {
			t.Errorf("ByID(%q) = %v, want HF-G001", name, r)
		}
	}
	if m := ByID("HF-G001").Meta; m.Name != "callback-outlives-capture" || !strings.Contains(Doc(m), "Formerly: `callback-captures-this`") {
		t.Errorf("HF-G001 is named %q; its page does not give the former name", m.Name)
	}
}

// TestHelpKnowsTheTree: since whole-tree summaries, a rule sees what the
// functions of the other scanned files do with what they are handed
// (scan's TestSummariesCrossFiles), so no rule's summary or help may say
// that it sees only its own file or does not see through calls.
func TestHelpKnowsTheTree(t *testing.T) {
	denials := []string{"does not see through calls", "of the same file", "function the file defines",
		"functions defined in other files are not", "another such function of the file", "another function of the file"}
	for _, r := range All() {
		text := strings.Join(strings.Fields(r.Meta.Summary+" "+r.Meta.Help), " ")
		for _, d := range denials {
			if strings.Contains(text, d) {
				t.Errorf("%s says %q", r.Meta.ID, d)
			}
		}
	}
}

// outsideCode is a Markdown text without its fenced code blocks.
func outsideCode(md string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestExplainHasNoLinks: what 'holdfast explain' prints in a terminal has
// no Markdown link (a path relative to docs/rules leads nowhere there),
// names the class by what goes wrong in it, and is otherwise the rule's
// page; the page's relative links lead to files that exist.
func TestExplainHasNoLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, r := range All() {
		m := r.Meta
		text := Explain(m)
		if strings.Contains(outsideCode(text), "](") {
			t.Errorf("%s: explain prints a Markdown link:\n%s", m.ID, text)
		}
		if !strings.Contains(text, "- Class: "+m.Class+" ("+classTitle(m.Class)+")") || classTitle(m.Class) == "" {
			t.Errorf("%s: explain does not say what class %s is", m.ID, m.Class)
		}
		for _, l := range link.FindAllStringSubmatch(outsideCode(Doc(m)), -1) {
			if strings.Contains(l[1], "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join("..", "docs", "rules", l[1])); err != nil {
				t.Errorf("%s: the page links to %s, which does not exist", m.ID, l[1])
			}
		}
	}
}
