package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report/ -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./report/ -update to accept):\n%s", name, lineDiff(string(want), string(got)))
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}

func output(t *testing.T, format string, fs []*diag.Finding, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, format, fs, opt); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	ext := map[string]string{"text": "txt", "json": "json", "sarif": "sarif", "github": "txt"}
	cases := []struct {
		name   string
		format string
		empty  bool
		change func(*Options)
	}{
		{name: "text", format: "text"},
		{name: "text-trace", format: "text", change: func(o *Options) { o.Trace = true }},
		{name: "text-all", format: "text", change: func(o *Options) { o.ShowAll = true }},
		{name: "text-color", format: "text", change: func(o *Options) { o.Color, o.Trace = true, true }},
		{name: "text-nosource", format: "text", change: func(o *Options) { o.Source, o.Trace = nil, true }},
		{name: "text-empty", format: "text", empty: true},
		{name: "json", format: "json"},
		{name: "json-all", format: "json", change: func(o *Options) { o.ShowAll = true }},
		{name: "json-empty", format: "json", empty: true},
		{name: "sarif", format: "sarif"},
		{name: "sarif-all", format: "sarif", change: func(o *Options) { o.ShowAll = true }},
		{name: "sarif-empty", format: "sarif", empty: true},
		{name: "github", format: "github"},
		{name: "github-all", format: "github", change: func(o *Options) { o.ShowAll = true }},
		{name: "github-empty", format: "github", empty: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := fixtureSources()
			opt := fixtureOptions(src)
			fs := fixtureFindings(src, opt.Rules)
			if c.empty {
				fs = nil
				opt.Notices = nil
			}
			if c.change != nil {
				c.change(&opt)
			}
			golden(t, c.name+".golden."+ext[c.format], output(t, c.format, fs, opt))
		})
	}
}

func TestEmptyRun(t *testing.T) {
	opt := fixtureOptions(fixtureSources())
	opt.Notices = nil
	for _, fs := range [][]*diag.Finding{nil, {}} {
		sarif := string(output(t, "sarif", fs, opt))
		if !strings.Contains(sarif, `"results": []`) {
			t.Errorf("empty SARIF run has no \"results\": []:\n%s", sarif)
		}
		js := string(output(t, "json", fs, opt))
		for _, want := range []string{`"findings": []`, `"notices": []`} {
			if !strings.Contains(js, want) {
				t.Errorf("empty JSON has no %s:\n%s", want, js)
			}
		}
		if strings.Contains(js, "null") || strings.Contains(sarif, "null") {
			t.Errorf("empty run prints null:\n%s\n%s", js, sarif)
		}
		if out := output(t, "text", fs, opt); len(out) != 0 {
			t.Errorf("clean run prints text %q, want nothing", out)
		}
		if out := output(t, "github", fs, opt); len(out) != 0 {
			t.Errorf("clean run prints annotations %q, want nothing", out)
		}
	}
}

// TestJSONNoNull checks that no list is null in a full run either.
func TestJSONNoNull(t *testing.T) {
	src := fixtureSources()
	opt := fixtureOptions(src)
	opt.ShowAll = true
	fs := fixtureFindings(src, opt.Rules)
	fs = append(fs, &diag.Finding{Rule: opt.Rules[0], At: spanOf(src, "torch_tpu/d2h.cc", 2, "buffer"), Message: "bare",
		Verification: &diag.Verification{Verdict: diag.NotModelled}})
	var v any
	if err := json.Unmarshal(output(t, "json", fs, opt), &v); err != nil {
		t.Fatal(err)
	}
	walk(v, "", func(path string, v any) {
		if v == nil && !strings.HasSuffix(path, ".verification") {
			t.Errorf("%s is null", path)
		}
	})
}

// walk calls fn on every value of a decoded JSON document with its path.
func walk(v any, path string, fn func(string, any)) {
	fn(path, v)
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			walk(v[k], path+"."+k, fn)
		}
	case []any:
		for i, e := range v {
			walk(e, fmt.Sprintf("%s[%d]", path, i), fn)
		}
	}
}

// shift moves every position of f down by n lines, as if n lines had been
// added above it.
func shift(f *diag.Finding, n, bytes int) {
	mv := func(p *diag.Pos) {
		if p.Line > 0 {
			p.Line += n
			p.Offset += bytes
		}
	}
	mvSpan := func(s *diag.Span) { mv(&s.Start); mv(&s.End) }
	mvSpan(&f.At)
	for i := range f.Witness {
		mvSpan(&f.Witness[i].At)
	}
	if v := f.Verification; v != nil {
		for i := range v.Trace {
			if v.Trace[i].At != nil {
				s := *v.Trace[i].At
				mvSpan(&s)
				v.Trace[i].At = &s
			}
		}
	}
}

func TestFingerprintStableWhenLinesMove(t *testing.T) {
	fingerprints := func(prefix string) (map[string]string, map[string]int) {
		src := fixtureSources()
		opt := fixtureOptions(src)
		fs := fixtureFindings(src, opt.Rules)
		for _, f := range fs {
			if f != nil && prefix != "" {
				shift(f, strings.Count(prefix, "\n"), len(prefix))
			}
		}
		for k, v := range src {
			src[k] = prefix + v
		}
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID              string            `json:"ruleId"`
					PartialFingerprints map[string]string `json:"partialFingerprints"`
					Locations           []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
							Region           struct{ StartLine int } `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(output(t, "sarif", fs, opt), &log); err != nil {
			t.Fatal(err)
		}
		fps, lines := map[string]string{}, map[string]int{}
		for _, r := range log.Runs[0].Results {
			key := r.RuleID + " " + r.Locations[0].PhysicalLocation.ArtifactLocation.URI
			fps[key] = r.PartialFingerprints[fingerprintKey]
			lines[key] = r.Locations[0].PhysicalLocation.Region.StartLine
		}
		var js struct {
			Findings []struct {
				RuleID, File, Fingerprint string
			}
		}
		if err := json.Unmarshal(output(t, "json", fs, opt), &js); err != nil {
			t.Fatal(err)
		}
		for _, f := range js.Findings {
			key := f.RuleID + " " + artifact(f.File).URI
			if fps[key] != f.Fingerprint {
				t.Errorf("%s: JSON fingerprint %s, SARIF %s", key, f.Fingerprint, fps[key])
			}
		}
		return fps, lines
	}
	before, linesBefore := fingerprints("")
	after, linesAfter := fingerprints("// a licence header\n// added above\n\n")
	if len(before) == 0 {
		t.Fatal("no results")
	}
	for k, fp := range before {
		if fp == "" {
			t.Errorf("%s: no %s", k, fingerprintKey)
		}
		if after[k] != fp {
			t.Errorf("%s: fingerprint changed when lines moved: %s -> %s", k, fp, after[k])
		}
		if linesAfter[k] != linesBefore[k]+3 {
			t.Errorf("%s: start line %d -> %d, want it moved by 3", k, linesBefore[k], linesAfter[k])
		}
	}
}

func TestSARIFCut(t *testing.T) {
	src := fixtureSources()
	opt := fixtureOptions(src)
	opt.Notices = nil
	r := opt.Rules[1]
	const n = MaxSARIFResults + 7
	fs := make([]*diag.Finding, 0, n)
	for i := range n {
		sev := diag.Note
		if i >= n-5 {
			sev = diag.Error // last in sorted order, yet kept
		}
		fs = append(fs, &diag.Finding{
			Rule:     r,
			Severity: sev,
			At:       diag.Span{Start: diag.Pos{File: "gen.cc", Offset: i * 10, Line: i + 1, Col: 1}, End: diag.Pos{File: "gen.cc", Offset: i*10 + 3, Line: i + 1, Col: 4}},
			Message:  fmt.Sprintf("finding %d", i),
		})
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Level   string `json:"level"`
				Message struct{ Text string }
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Level   string
					Message struct{ Text string }
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(output(t, "sarif", fs, opt), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) != MaxSARIFResults {
		t.Fatalf("%d results, want %d", len(run.Results), MaxSARIFResults)
	}
	errors := 0
	for _, r := range run.Results {
		if r.Level == "error" {
			errors++
		}
	}
	if errors != 5 {
		t.Errorf("%d error results kept, want all 5", errors)
	}
	if got := run.Results[len(run.Results)-1].Message.Text; got != fmt.Sprintf("finding %d.", n-1) {
		t.Errorf("last result %q, want the last finding in sorted order", got)
	}
	notes := run.Invocations[0].ToolExecutionNotifications
	if len(notes) != 1 || notes[0].Level != "warning" || !strings.Contains(notes[0].Message.Text, "7 of 25007 results were dropped") {
		t.Errorf("notifications %+v, want one warning that 7 of 25007 results were dropped", notes)
	}
	if !run.Invocations[0].ExecutionSuccessful {
		t.Error("executionSuccessful is false")
	}

	// A smaller cap drops suppressed results first.
	opt.MaxSARIFResults = 2
	few := []*diag.Finding{fs[0], fs[1], fs[2]}
	sup := *fs[0]
	sup.Suppressed = "reviewed"
	few[0] = &sup
	out := string(output(t, "sarif", few, opt))
	if strings.Contains(out, `"suppressions"`) || !strings.Contains(out, "1 of 3 results were dropped") {
		t.Errorf("cap of 2 kept the suppressed result or did not say so:\n%s", out)
	}
}

func TestGitHubEscaping(t *testing.T) {
	r := &diag.Rule{ID: "HF-X001", Name: "a,b:c", Severity: diag.Warning}
	f := &diag.Finding{
		Rule:    r,
		At:      diag.Span{Start: diag.Pos{File: "dir,x/a:b%.cc", Line: 3, Col: 2}, End: diag.Pos{File: "dir,x/a:b%.cc", Line: 3, Col: 5}},
		Message: "100% bad\r\nsecond line: a, b",
	}
	var buf bytes.Buffer
	if err := GitHub(&buf, []*diag.Finding{f}, Options{Notices: []Notice{{Level: "note", File: "n,o:te.cc", Message: "50%\ndone"}}}); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=dir%2Cx/a%3Ab%25.cc,line=3,endLine=3,col=2,endColumn=5,title=HF-X001 a%2Cb%3Ac::100%25 bad%0Asecond line: a, b\n" +
		"::notice file=n%2Co%3Ate.cc,title=holdfast::50%25%0Adone\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := escapeData("a%0A\n"); got != "a%250A%0A" {
		t.Errorf("escapeData: %q", got)
	}
}

// TestNotReproducedHidden checks that a not-reproduced finding is left out
// of every format without ShowAll, and shown as a note with it.
func TestNotReproducedHidden(t *testing.T) {
	src := fixtureSources()
	for _, format := range Formats() {
		for _, all := range []bool{false, true} {
			opt := fixtureOptions(src)
			opt.ShowAll = all
			out := string(output(t, format, fixtureFindings(src, opt.Rules), opt))
			has := strings.Contains(out, "escapes while 'buffer' is its only owner")
			if has != all {
				t.Errorf("%s, ShowAll=%v: not-reproduced finding present=%v", format, all, has)
			}
		}
	}
	opt := fixtureOptions(src)
	opt.ShowAll = true
	text := string(output(t, "text", fixtureFindings(src, opt.Rules), opt))
	if !strings.Contains(text, "torch_tpu/d2h.cc:3:12: note: future of 'ToLiteral'") {
		t.Errorf("ShowAll does not print the not-reproduced finding as a note:\n%s", text)
	}
	sarif := string(output(t, "sarif", fixtureFindings(src, opt.Rules), opt))
	if !strings.Contains(sarif, `"verification": "not-reproduced"`) {
		t.Errorf("SARIF lacks properties.verification not-reproduced:\n%s", sarif)
	}
}

// TestSuppressedAlwaysInSARIF checks that suppressed findings are never
// dropped from SARIF or JSON, and hidden in text unless ShowAll.
func TestSuppressedAlwaysInSARIF(t *testing.T) {
	src := fixtureSources()
	opt := fixtureOptions(src)
	fs := fixtureFindings(src, opt.Rules)
	sarif := string(output(t, "sarif", fs, opt))
	if !strings.Contains(sarif, `"kind": "inSource"`) || !strings.Contains(sarif, `"justification": "layout is checked by the caller"`) {
		t.Errorf("SARIF lacks the inSource suppression:\n%s", sarif)
	}
	if js := string(output(t, "json", fs, opt)); !strings.Contains(js, `"suppressed": "layout is checked by the caller"`) {
		t.Errorf("JSON lacks the suppressed finding")
	}
	text := string(output(t, "text", fs, opt))
	if strings.Contains(text, "contiguous") {
		t.Errorf("text shows the suppressed finding:\n%s", text)
	}
	if s, err := Summarize(fs, opt); err != nil || s.NotShown != "1 unconfirmed and 1 suppressed not shown (--all shows them)" {
		t.Errorf("Summarize = %+v, %v: does not count the suppressed finding", s, err)
	}
	// With ShowAll the text shows them, as notes, and the summary counts
	// them so.
	opt.ShowAll = true
	if s, err := Summarize(fs, opt); err != nil || s.NotShown != "" || !strings.Contains(s.Findings, "note") {
		t.Errorf("Summarize with ShowAll = %+v, %v: want every finding counted as shown", s, err)
	}
}

func TestDeterministic(t *testing.T) {
	src := fixtureSources()
	for _, format := range Formats() {
		opt := fixtureOptions(src)
		opt.ShowAll = true
		fs := fixtureFindings(src, opt.Rules)
		orig := slices.Clone(fs)
		first := output(t, format, fs, opt)
		if !slices.Equal(fs, orig) {
			t.Errorf("%s: the printer reordered its input", format)
		}
		slices.Reverse(fs)
		opt.Notices = slices.Clone(opt.Notices)
		slices.Reverse(opt.Notices)
		opt.Rules = slices.Clone(opt.Rules)
		slices.Reverse(opt.Rules)
		for range 3 {
			if again := output(t, format, fs, opt); !bytes.Equal(first, again) {
				t.Errorf("%s: two prints differ:\n%s", format, lineDiff(string(first), string(again)))
				break
			}
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, "xml", nil, Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown output format "xml"`) {
		t.Errorf("Write(xml) = %v", err)
	}
}

func TestFindingWithoutRule(t *testing.T) {
	for _, format := range Formats() {
		err := Write(&bytes.Buffer{}, format, []*diag.Finding{{Message: "m"}}, Options{Root: "/r"})
		if err == nil {
			t.Errorf("%s: no error for a finding without a rule", format)
		}
	}
}

func TestSARIFRelativeRoot(t *testing.T) {
	if err := SARIF(&bytes.Buffer{}, nil, Options{Root: "relative/dir"}); err == nil {
		t.Error("no error for a relative root")
	}
}

func TestRootURI(t *testing.T) {
	for root, want := range map[string]string{
		"/work/src/backend":  "file:///work/src/backend/",
		"/work/src/backend/": "file:///work/src/backend/",
		"/":                  "file:///",
		"/a b/ü":             "file:///a%20b/%C3%BC/",
	} {
		got, err := rootURI(root)
		if err != nil || got != want {
			t.Errorf("rootURI(%q) = %q, %v; want %q", root, got, err, want)
		}
	}
	for file, want := range map[string]string{
		"src/a.cc":       "src/a.cc",
		"src/mixed ü.mm": "src/mixed%20%C3%BC.mm",
		"c:x.cc":         "./c:x.cc",
		"a#b?.cc":        "a%23b%3F.cc",
	} {
		if got := artifact(file).URI; got != want {
			t.Errorf("artifact(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestColumns(t *testing.T) {
	src := fixtureSources()
	const file = "src/mixed ü.mm"
	s := newSources(sourceFunc(src))
	col := colOf(src, file, 2, "owner.get()")
	// Before it: a tab, "ö" and "ß" (2 bytes, 1 unit each) and "🚀" (4
	// bytes, 2 units): 4 fewer UTF-16 units than bytes.
	if got, want := s.utf16Col(file, 2, col), col-4; got != want {
		t.Errorf("utf16Col = %d, want %d (byte column %d)", got, want, col)
	}
	if got := s.utf16Col("missing.cc", 2, col); got != col {
		t.Errorf("utf16Col without source = %d, want the byte column %d", got, col)
	}
	if got := s.utf16Col(file, 2, 1000); got != 1000-4 {
		t.Errorf("utf16Col past the end = %d", got)
	}
	if got := utf16Len([]byte("a\xffb"), 3); got != 3 {
		t.Errorf("utf16Len with an invalid byte = %d, want 3", got)
	}

	// The caret sits under "owner.get()" on screen: a tab to column 8,
	// the emoji two columns wide.
	opt := fixtureOptions(src)
	opt.Trace = true
	fs := fixtureFindings(src, opt.Rules)
	text := string(output(t, "text", fs, opt))
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "src/mixed ü.mm:2:") {
			code, caret := lines[i+1], lines[i+2]
			at := strings.Index(caret, "^")
			if at < 0 || !strings.HasPrefix(string([]rune(code)[displayToRune(code, at):]), "owner.get()") {
				t.Errorf("caret not under the finding:\n%s\n%s", code, caret)
			}
			if !strings.HasPrefix(code, "    2 |         label_") {
				t.Errorf("tab not expanded: %q", code)
			}
			return
		}
	}
	t.Errorf("no finding in src/mixed ü.mm:\n%s", text)
}

// displayToRune finds the rune index of line at display column col.
func displayToRune(line string, col int) int {
	w := 0
	for i, r := range []rune(line) {
		if w >= col {
			return i
		}
		w += runeWidth(r)
	}
	return len([]rune(line))
}

func TestRender(t *testing.T) {
	shown, cols := render([]byte("\ta\x01é\tb"))
	if shown != "        a\uFFFDé     b" {
		t.Errorf("render = %q", shown)
	}
	if want := []int{0, 8, 9, 10, 10, 11, 16, 17}; !slices.Equal(cols, want) {
		t.Errorf("cols = %v, want %v", cols, want)
	}
}

func TestSummary(t *testing.T) {
	r := &diag.Rule{ID: "HF-X001", Severity: diag.Warning}
	mk := func(sev diag.Severity, v diag.Verdict) *diag.Finding {
		f := &diag.Finding{Rule: r, Severity: sev}
		if v != "" {
			f.Verification = &diag.Verification{Verdict: v}
		}
		return f
	}
	for _, c := range []struct {
		sel     selection
		notices int
		want    string
	}{
		{want: "0 findings"},
		{sel: selection{shown: []*diag.Finding{mk(diag.Warning, "")}}, want: "1 finding (1 warning)"},
		{sel: selection{shown: []*diag.Finding{mk(diag.Error, diag.Confirmed), mk(diag.Warning, diag.Confirmed), mk(diag.Warning, "")}},
			want: "3 findings (1 error, 2 warnings), 2 confirmed"},
		{sel: selection{notReproduced: 2}, want: "0 findings; 2 unconfirmed not shown (--all shows them)"},
		{notices: 1, want: "0 findings; 1 notice"},
	} {
		s := summary(c.sel, c.notices)
		head := s.Findings
		if s.Confirmed != "" {
			head += ", " + s.Confirmed
		}
		got := strings.Join(slices.DeleteFunc([]string{head, s.NotShown, s.Notices}, func(p string) bool { return p == "" }), "; ")
		if got != c.want {
			t.Errorf("summary = %q, want %q", got, c.want)
		}
	}
}

// TestTextNoControlCharacters checks that text from the scanned code, such
// as a suppression's reason, cannot send escape sequences to a terminal.
func TestTextNoControlCharacters(t *testing.T) {
	r := &diag.Rule{ID: "HF-X001", Name: "x", Severity: diag.Warning}
	f := &diag.Finding{
		Rule:       r,
		At:         diag.Span{Start: diag.Pos{File: "a\x1b[2J.cc", Line: 1, Col: 1}},
		Message:    "bad\x1b[31m red\nnext",
		Suppressed: "because\x07",
		Verification: &diag.Verification{Verdict: diag.Confirmed, Reason: "r\x1b]0;title\x07",
			Trace: []diag.TraceStep{{Thread: "host\x1b", Text: "t\x9b", Fault: "F\x1b"}}},
	}
	out := string(output(t, "text", []*diag.Finding{f}, Options{ShowAll: true, Notices: []Notice{{File: "n\x1b.cc", Message: "m\x1b"}}}))
	for i, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			t.Fatalf("control character %U at byte %d of\n%q", r, i, out)
		}
	}
	if !strings.Contains(out, `bad\x1b[31m red next`) || !strings.Contains(out, `a\x1b[2J.cc:1:1:`) {
		t.Errorf("message not sanitised as expected:\n%s", out)
	}
}

// TestSARIFFileOutsideRoot: a finding in a file outside the scan root (its
// path is absolute) gets an absolute file URI with no base, so consumers do
// not resolve it against %SRCROOT%.
func TestSARIFFileOutsideRoot(t *testing.T) {
	src := fixtureSources()
	opt := fixtureOptions(src)
	fs := fixtureFindings(src, opt.Rules)
	f := *fs[0]
	f.At.Start.File, f.At.End.File = "/elsewhere/x y.cc", "/elsewhere/x y.cc"
	out := string(output(t, "sarif", []*diag.Finding{&f}, opt))
	if !strings.Contains(out, `"uri": "file:///elsewhere/x%20y.cc"`) {
		t.Errorf("absolute path not written as a file URI:\n%s", out)
	}
	if strings.Contains(out, `"uri": "/elsewhere`) {
		t.Errorf("absolute path written relative to %%SRCROOT%%:\n%s", out)
	}
}

// TestHostileTextEveryFormat: a file name, message, reason and notice from
// the scanned tree holding a line break followed by a workflow command, an
// escape sequence and a bidirectional override reach no format raw: no line
// of any output starts a workflow command the printer did not write, no
// unsafe character is left, and JSON keeps the exact values.
func TestHostileTextEveryFormat(t *testing.T) {
	const evil = "a\n::add-mask::x\n\x1b]8;;http://e\x07\u202egnp.cc"
	r := &diag.Rule{ID: "HF-X001", Name: "x", Severity: diag.Warning}
	f := &diag.Finding{
		Rule:         r,
		At:           diag.Span{Start: diag.Pos{File: evil, Line: 1, Col: 1}},
		Message:      "m " + evil,
		Suppressed:   "why " + evil,
		Witness:      []diag.Step{{Kind: diag.StepUse, Value: evil, At: diag.Span{Start: diag.Pos{File: evil, Line: 1}}}},
		Verification: &diag.Verification{Verdict: diag.Confirmed, Reason: evil},
	}
	opt := Options{Root: "/r", ShowAll: true, Notices: []Notice{{File: evil, Line: 2, Message: evil}}}
	for _, format := range Formats() {
		out := string(output(t, format, []*diag.Finding{f}, opt))
		for _, line := range strings.Split(out, "\n") {
			trimmed := strings.TrimLeft(line, " ")
			if strings.HasPrefix(trimmed, "::") && (format != "github" || strings.HasPrefix(trimmed, "::add-mask")) {
				t.Errorf("%s: a line starts a workflow command: %q", format, line)
			}
		}
		for _, c := range out {
			if c != '\n' && esc.Unsafe(c) {
				t.Errorf("%s: %U left raw", format, c)
				break
			}
		}
		if format == "json" {
			var v struct {
				Findings []struct{ File string }
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Findings) != 1 || v.Findings[0].File != evil {
				t.Errorf("json: file not kept exactly: %+v, %v", v, err)
			}
		}
	}
}

// TestSemanticVersion: SARIF's semanticVersion is left out for a build
// that recorded no version ("devel" is not a semantic version).
func TestSemanticVersion(t *testing.T) {
	for v, want := range map[string]string{"0.1.0": "0.1.0", "0.0.0-20261201122253-d26192a1b2c3+dirty": "0.0.0-20261201122253-d26192a1b2c3+dirty", "devel": "", "": ""} {
		if got := semanticVersion(v); got != want {
			t.Errorf("semanticVersion(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestLongLineSnippets: a finding on a 2 MB line prints a window of it in
// text, not the line (3 MB once rendered), and SARIF leaves out snippets
// it would otherwise copy whole.
func TestLongLineSnippets(t *testing.T) {
	line := strings.Repeat("int a = 1; ", 200000) + "Use(p); " + strings.Repeat("int b = 2; ", 200000)
	col := strings.Index(line, "Use(p)") + 1
	r := &diag.Rule{ID: "HF-X001", Name: "x", Severity: diag.Warning}
	f := &diag.Finding{Rule: r, Message: "m",
		At: diag.Span{Start: diag.Pos{File: "min.cc", Line: 1, Col: col}, End: diag.Pos{File: "min.cc", Line: 1, Col: col + 6}}}
	opt := Options{Root: "/r", Trace: true, Source: func(string) []byte { return []byte(line + "\n") }}
	text := string(output(t, "text", []*diag.Finding{f}, opt))
	if len(text) > 2000 {
		t.Errorf("text: %d bytes for one finding", len(text))
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], "| ...") || !strings.HasSuffix(lines[1], "...") {
		t.Fatalf("text: the source line is not cut around the caret:\n%s", text)
	}
	if caret := strings.Index(lines[2], "^"); caret < 0 || lines[1][caret:caret+6] != "Use(p)" {
		t.Errorf("text: the caret is not under the span:\n%s\n%s", lines[1], lines[2])
	}
	if sarif := output(t, "sarif", []*diag.Finding{f}, opt); len(sarif) > 100000 {
		t.Errorf("sarif: %d bytes for one finding", len(sarif))
	}
}

// TestSARIFRuleSecurity: code scanning ranks and files alerts by a rule's
// tags and security-severity, and links its help page when the build says
// where the docs are.
func TestSARIFRuleSecurity(t *testing.T) {
	const docs = "https://docs.example.org/holdfast/blob/v1.2.0/"
	uaf := descriptor(&diag.Rule{ID: "HF-B001", Severity: diag.Error, Tags: []string{"lifetime"}, CWE: []int{416, 825}}, docs)
	if got, want := uaf.Properties.Tags, []string{"security", "external/cwe/cwe-416", "external/cwe/cwe-825", "lifetime"}; !slices.Equal(got, want) {
		t.Errorf("tags %v, want %v", got, want)
	}
	if uaf.Properties.SecuritySeverity != "8.0" {
		t.Errorf("security-severity of an error %q, want 8.0 (high)", uaf.Properties.SecuritySeverity)
	}
	if want := "https://docs.example.org/holdfast/blob/v1.2.0/docs/rules/HF-B001.md"; uaf.HelpURI != want {
		t.Errorf("helpUri %q, want %q", uaf.HelpURI, want)
	}
	if d := descriptor(&diag.Rule{ID: "HF-B001"}, ""); d.HelpURI != "" {
		t.Errorf("no docs URL, but helpUri %q", d.HelpURI)
	}
	lost := descriptor(&diag.Rule{ID: "HF-F001", Severity: diag.Error}, docs)
	if !slices.Equal(lost.Properties.Tags, []string{"correctness"}) || lost.Properties.SecuritySeverity != "" {
		t.Errorf("a rule without a CWE: tags %v, security-severity %q", lost.Properties.Tags, lost.Properties.SecuritySeverity)
	}
}

// TestSARIFReplayStepsHaveLocations: every step of the replay's thread
// flow has a physical location, so code scanning shows the whole flow.
func TestSARIFReplayStepsHaveLocations(t *testing.T) {
	src := fixtureSources()
	opt := fixtureOptions(src)
	var log struct {
		Runs []struct {
			Results []struct {
				CodeFlows []struct {
					ThreadFlows []struct {
						ID        string `json:"id"`
						Locations []struct {
							Location struct {
								PhysicalLocation *json.RawMessage `json:"physicalLocation"`
								Message          struct {
									Text string `json:"text"`
								} `json:"message"`
							} `json:"location"`
						} `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(output(t, "sarif", fixtureFindings(src, opt.Rules), opt), &log); err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, r := range log.Runs[0].Results {
		for _, cf := range r.CodeFlows {
			for _, tf := range cf.ThreadFlows {
				if tf.ID != "replay" {
					continue
				}
				for _, l := range tf.Locations {
					steps++
					if l.Location.PhysicalLocation == nil {
						t.Errorf("replay step %q has no location", l.Location.Message.Text)
					}
				}
			}
		}
	}
	if steps == 0 {
		t.Fatal("the fixture has no replay steps")
	}
}

// The hint line under a finding gives the rule's short Hint when it has
// one, and its full Fix otherwise: the Fix stays for explain and SARIF.
func TestTextHintIsShort(t *testing.T) {
	src := fixtureSources()
	rules := fixtureRules()
	fs := fixtureFindings(src, rules)
	rule := *fs[0].Rule
	rule.Fix = "a long piece of advice that belongs in 'holdfast explain' and the docs"
	rule.Hint = "a short one"
	fs[0].Rule = &rule
	out := string(output(t, "text", fs[:1], fixtureOptions(src)))
	want := "  hint: a short one ('holdfast explain " + rule.ID + "' says more)\n"
	if !strings.Contains(out, want) || strings.Contains(out, rule.Fix) {
		t.Errorf("text output does not end in the short hint %q:\n%s", want, out)
	}
	rule.Hint = ""
	out = string(output(t, "text", fs[:1], fixtureOptions(src)))
	if !strings.Contains(out, "  hint: "+rule.Fix+" ('holdfast explain") {
		t.Errorf("a rule without a Hint should show its Fix:\n%s", out)
	}
}

// TestFaultExplained: the text and GitHub formats say what a fault name
// means, once per finding and from diag.Faults; JSON and SARIF keep the
// name alone.
func TestFaultExplained(t *testing.T) {
	src := fixtureSources()
	opt := fixtureOptions(src)
	fs := fixtureFindings(src, opt.Rules)
	want := "(DEV_UAF_REUSED: " + diag.FaultMeaning("DEV_UAF_REUSED") + ")"
	for _, format := range []string{"text", "github"} {
		for _, trace := range []bool{false, true} {
			opt.Trace = trace
			out := string(output(t, format, fs, opt))
			if n := strings.Count(out, diag.FaultMeaning("DEV_UAF_REUSED")); n != 1 || !strings.Contains(out, want) {
				t.Errorf("%s (trace %v): %q appears %d times, want once:\n%s", format, trace, want, n, out)
			}
		}
	}
	opt.Trace = false
	for _, format := range []string{"json", "sarif"} {
		out := string(output(t, format, fs, opt))
		if strings.Contains(out, diag.FaultMeaning("DEV_UAF_REUSED")) || !strings.Contains(out, `"DEV_UAF_REUSED"`) {
			t.Errorf("%s does not carry the fault name alone", format)
		}
	}
}

// TestDocsURL: SARIF names no page unless Options.DocsURL says where the
// docs are published (nothing is by default); then informationUri is its
// README and each rule's helpUri its page. JSON keeps the key, empty.
func TestDocsURL(t *testing.T) {
	src := fixtureSources()
	opt := fixtureOptions(src)
	fs := fixtureFindings(src, opt.Rules)
	sarif := string(output(t, "sarif", fs, opt))
	if strings.Contains(sarif, "informationUri") || strings.Contains(sarif, "helpUri") || strings.Contains(sarif, "https://github.com") {
		t.Errorf("SARIF without a docs URL names a page:\n%s", sarif)
	}
	if js := string(output(t, "json", fs, opt)); !strings.Contains(js, `"informationUri": ""`) {
		t.Errorf("JSON without a docs URL: want an empty informationUri")
	}
	opt.DocsURL = "https://git.example.org/team/holdfast/blob/v1.2.0"
	sarif = string(output(t, "sarif", fs, opt))
	for _, want := range []string{
		`"informationUri": "https://git.example.org/team/holdfast/blob/v1.2.0/README.md"`,
		`"helpUri": "https://git.example.org/team/holdfast/blob/v1.2.0/docs/rules/HF-B001.md"`,
	} {
		if !strings.Contains(sarif, want) {
			t.Errorf("SARIF with a docs URL lacks %s", want)
		}
	}
	if js := string(output(t, "json", fs, opt)); !strings.Contains(js, `"informationUri": "https://git.example.org/team/holdfast/blob/v1.2.0/README.md"`) {
		t.Errorf("JSON with a docs URL lacks its informationUri")
	}
}
