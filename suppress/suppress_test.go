package suppress

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
)

var (
	ruleB = &diag.Rule{ID: "HF-B001", Name: "raw-pointer-escapes-owner"}
	ruleC = &diag.Rule{ID: "HF-C001", Name: "hold-container-never-filled"}
	rules = []*diag.Rule{ruleB, ruleC}
)

func finding(r *diag.Rule, file string, line int) *diag.Finding {
	return &diag.Finding{Rule: r, At: diag.Span{Start: diag.Pos{File: file, Line: line, Col: 3}}, Message: fmt.Sprint("m", line)}
}

func TestLexComments(t *testing.T) {
	src := strings.Join([]string{
		`int a = 1'000'000; // one`,                   // 1: digit separators
		`const char* s = "// not a comment";`,         // 2
		`char q = '"'; /* two */ int b;`,              // 3
		`auto r = R"x(// not /* either )" )x"; // th`, // 4: raw string
		`auto u = u8R"(x)"; NSString* o = @"//no";`,   // 5
		`// four \`,                // 6: spliced
		`   still four`,            // 7
		`/* five`,                  // 8
		`   five */ x();`,          // 9
		`#error don't // six`,      // 10: stray quote ends at the line's end
		`"unterminated // seven`,   // 11
		`float f = 1e+5; // eight`, // 12
	}, "\n")
	lx := lex([]byte(src))
	var got []string
	for _, c := range lx.comments {
		got = append(got, fmt.Sprintf("%d-%d:%d %s", c.line, c.endLine, c.col, src[c.start:c.end]))
	}
	want := []string{
		"1-1:20 // one",
		"3-3:15 /* two */",
		"4-4:39 // th",
		"6-7:1 // four \\\n   still four",
		"8-9:1 /* five\n   five */",
		"12-12:17 // eight",
	}
	if !slices.Equal(got, want) {
		t.Errorf("comments:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Lines 10 and 11 hold no comment: the stray quotes make them strings,
	// as a compiler sees them.
	for line, want := range map[int]bool{6: true, 7: true, 8: true, 9: false, 1: false} {
		if got := lx.commentOnly(line); got != want {
			t.Errorf("commentOnly(%d) = %v, want %v", line, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	src := strings.Join([]string{
		`// holdfast:ignore HF-B001 the pool keeps it alive`,             // 1
		`x(); // holdfast:ignore HF-B001,hold-container-never-filled ok`, // 2
		`/* holdfast:ignore-file HF-C001, HF-B001 generated code */`,     // 3
		`// holdfast:ignore HF-B001`,                                     // 4: no reason
		`// holdfast:ignore`,                                             // 5: nothing
		`// holdfast:ignroe HF-B001 typo`,                                // 6
		`// holdfast: prose, not a directive`,                            // 7
		`s = "// holdfast:ignore HF-B001 in a string";`,                  // 8
		`/// holdfast:ignore HF-C001 doc comment`,                        // 9
		`// explained below:`,                                            // 10
		`// more words`,                                                  // 11
		`y();`,                                                           // 12
		`// holdfast: ignore HF-B001 a space after the colon`,            // 13
		`// holdfast: ignore-file HF-C001 here too`,                      // 14
		`// holdfast:ignore * everything here is fine`,                   // 15
		`// holdfast:ignore HF-B* all of class B`,                        // 16
		`// holdfast:  note the pool`,                                    // 17: prose
	}, "\n")
	ds, ns := Parse("a.cc", []byte(src))
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%d:%d %s %v %d-%d %q", d.Line, d.Col, d.Kind, d.Rules, d.Lines[0], d.Lines[1], d.Reason))
	}
	want := []string{
		`1:1 ignore [HF-B001] 1-2 "the pool keeps it alive"`,
		`2:6 ignore [HF-B001 hold-container-never-filled] 2-3 "ok"`,
		`3:1 ignore-file [HF-C001 HF-B001] 0-0 "generated code"`,
		`9:1 ignore [HF-C001] 9-12 "doc comment"`,
		`13:1 ignore [HF-B001] 13-18 "a space after the colon"`,
		`14:1 ignore-file [HF-C001] 0-0 "here too"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("directives:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = nil
	for _, n := range ns {
		got = append(got, fmt.Sprintf("%d:%d %s", n.Line, n.Col, n.Message))
	}
	want = []string{
		"4:1 holdfast:ignore HF-B001 has no reason; say why the finding is wrong or acceptable (it suppresses nothing until then)",
		"5:1 holdfast:ignore needs a rule and a reason, as in '// holdfast:ignore HF-B001 the pool keeps the buffer alive'; it suppresses nothing",
		"6:1 unknown directive holdfast:ignroe (want holdfast:ignore or holdfast:ignore-file); it suppresses nothing",
		"15:1 holdfast:ignore takes rule IDs or names, not a pattern such as '*': name each rule (HF-B001 or raw-pointer-escapes-owner; 'holdfast rules' lists them); it suppresses nothing",
		"16:1 holdfast:ignore takes rule IDs or names, not a pattern such as 'HF-B*': name each rule (HF-B001 or raw-pointer-escapes-owner; 'holdfast rules' lists them); it suppresses nothing",
	}
	if !slices.Equal(got, want) {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestProcess(t *testing.T) {
	cc := strings.Join([]string{
		`void f() {`, // 1
		`  a(); // holdfast:ignore HF-B001 kept alive by the pool`,                  // 2
		`  // holdfast:ignore raw-pointer-escapes-owner the stream is synchronised`, // 3
		`  b();`,                       // 4
		`  c();`,                       // 5
		`  // holdfast:ignore HF-B001`, // 6: no reason
		`  d();`,                       // 7
		`  // holdfast:ignore HF-C001,HF-B001 stale for C`, // 8
		`  e();`, // 9
		`  // holdfast:ignore HF-X999 no such rule`,  // 10
		`  // holdfast:ignore HF-B001 nothing below`, // 11
		`  g();`, // 12
		`}`,
	}, "\n")
	mm := strings.Join([]string{
		`// holdfast:ignore-file HF-C001 fixtures hold nothing on purpose`,
		`@implementation T`,
		`- (void)run { NSLog(@"// holdfast:ignore HF-B001 not a comment"); h(); }`,
		`@end`,
	}, "\n")
	fs := []*diag.Finding{
		finding(ruleB, "a.cc", 2), // same line
		finding(ruleB, "a.cc", 4), // line above, by name
		finding(ruleB, "a.cc", 5), // two lines below: not covered
		finding(ruleB, "a.cc", 7), // directive without a reason
		finding(ruleB, "a.cc", 9), // comma list
		finding(ruleC, "b.mm", 3), // file-wide
		finding(ruleB, "b.mm", 3), // the directive in the string does not count
		finding(ruleB, "c.cu", 1), // no source given
	}
	// HF-C001 ran; a directive for a rule that did not run is never stale.
	_, ns := Process(fs, map[string][]byte{"a.cc": []byte(cc), "b.mm": []byte(mm)}, Options{Known: rules, Ran: rules})
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s:%d %s %q", f.At.Start.File, f.At.Start.Line, f.Rule.ID, f.Suppressed))
	}
	want := []string{
		`a.cc:2 HF-B001 "kept alive by the pool"`,
		`a.cc:4 HF-B001 "the stream is synchronised"`,
		`a.cc:5 HF-B001 ""`,
		`a.cc:7 HF-B001 ""`,
		`a.cc:9 HF-B001 "stale for C"`,
		`b.mm:3 HF-C001 "fixtures hold nothing on purpose"`,
		`b.mm:3 HF-B001 ""`,
		`c.cu:1 HF-B001 ""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = nil
	for _, n := range ns {
		got = append(got, fmt.Sprintf("%s:%d:%d %s: %s", n.File, n.Line, n.Col, n.Level, n.Message))
	}
	want = []string{
		"a.cc:6:3 warning: holdfast:ignore HF-B001 has no reason; say why the finding is wrong or acceptable (it suppresses nothing until then)",
		"a.cc:8:3 warning: holdfast:ignore for HF-C001 matches no finding on this line or the next; remove it",
		"a.cc:10:3 warning: holdfast:ignore names unknown rule 'HF-X999'; 'holdfast rules' lists them",
		"a.cc:11:3 warning: holdfast:ignore for HF-B001 matches no finding on this line or the next; remove it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// With only HF-B001 run, the HF-C001 half of line 8 is not stale.
	for _, f := range fs {
		f.Suppressed = ""
	}
	_, ns = Process(fs, map[string][]byte{"a.cc": []byte(cc)}, Options{Known: rules, Ran: []*diag.Rule{ruleB}})
	for _, n := range ns {
		if n.Line == 8 {
			t.Errorf("line 8 reported although HF-C001 did not run: %s", n.Message)
		}
	}
}

func TestMentions(t *testing.T) {
	if Mentions([]byte("int main() {}")) {
		t.Error("Mentions without the prefix")
	}
	if ds, ns := Parse("x.h", []byte("int x;")); ds != nil || ns != nil {
		t.Error("Parse of a file without directives")
	}
}

// TestFormerName: a directive naming a rule by a name it had before still
// suppresses its findings, and is neither unknown nor stale.
func TestFormerName(t *testing.T) {
	renamed := &diag.Rule{ID: "HF-G001", Name: "callback-outlives-capture", Former: []string{"callback-captures-this"}}
	src := "void f() {\n  // holdfast:ignore callback-captures-this the loop is joined first\n  a();\n}\n"
	f := finding(renamed, "a.cc", 3)
	known := []*diag.Rule{renamed}
	_, ns := Process([]*diag.Finding{f}, map[string][]byte{"a.cc": []byte(src)}, Options{Known: known, Ran: known})
	if f.Suppressed != "the loop is joined first" || len(ns) != 0 {
		t.Errorf("suppressed %q, notices %v", f.Suppressed, ns)
	}
}
