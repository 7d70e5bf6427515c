package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestModelReadsDeclarationMacros: a macro call whose first argument is a
// declaration declares that variable in the model whether or not the macro
// is listed in a pack; a check macro declares nothing.
func TestModelReadsDeclarationMacros(t *testing.T) {
	tree(t, map[string]string{"t.cc": `Status Run(Executor* executor, Client* client, int x) {
  ASSERT_OK_AND_ASSIGN(auto stream, executor->CreateStream());
  TF_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Buffer> b, client->Create(x));
  MY_PROJECT_ASSIGN_OR_RETURN(Foo* f, Get());
  CHECK_EQ(x * stream, 3);
  IREE_RETURN_IF_ERROR(f->Use(b.get()));
  return Ok();
}
`})
	out, _ := expect(t, 0, "model", "t.cc")
	for _, want := range []string{
		"declare     stream : auto",
		"declare     b : std::unique_ptr<Buffer>",
		"declare     f : Foo*",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("model lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "declare "); n != 3 {
		t.Errorf("%d declarations, want the 3 from macros:\n%s", n, out)
	}
}

// TestParseErrorNoticeLeavesExitStatus: functions with parse errors are
// one clause of the summary line in text (the counting notice and the
// files with --verbose), one notice in the machine formats, one
// annotation with --format github, and the exit status stays 0.
func TestParseErrorNoticeLeavesExitStatus(t *testing.T) {
	tree(t, map[string]string{"broken.cc": "void A() { int x = (; }\n", "broken2.cc": "void B() { g(; }\n", "ok.cc": clean})
	out, errs := expect(t, 0, "scan", "--no-verify")
	want := "holdfast: 0 findings in 3 files; 1 note on what was not fully analysed (--verbose shows them)\n"
	if out+errs != want {
		t.Errorf("text is not the one summary line:\n%s%s\nwant\n%s", out, errs, want)
	}
	out, _ = expect(t, 0, "scan", "--no-verify", "--verbose")
	if !strings.Contains(out, "holdfast: note: 2 functions in 2 files have parse errors") ||
		!strings.Contains(out, "broken.cc: note: 1 of 1 functions has parse errors") || !strings.Contains(out, "broken2.cc: note:") {
		t.Errorf("--verbose does not name the files:\n%s", out)
	}
	out, _ = expect(t, 0, "scan", "--no-verify", "--verbose", "--format", "json")
	var js struct {
		Notices []struct{ Level, File, Message string }
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Notices) != 3 || js.Notices[1].File != "broken.cc" || js.Notices[1].Level != "note" {
		t.Errorf("JSON notices %+v", js.Notices)
	}
	// GitHub annotations: one for the count, not one per file.
	out, _ = expect(t, 0, "scan", "--no-verify", "--format", "github")
	if n := strings.Count(out, "::notice"); n != 1 || !strings.Contains(out, "::2 functions in 2 files have parse errors") {
		t.Errorf("%d ::notice lines, want the one counting line:\n%s", n, out)
	}
	out, _ = expect(t, 0, "scan", "--no-verify", "--format", "sarif")
	if !strings.Contains(out, `"toolExecutionNotifications"`) || !strings.Contains(out, "parse errors") {
		t.Errorf("SARIF lacks the notification:\n%s", out)
	}
}

// TestModelFuncMatchesNothing: --func with a name no function has is an
// error, not an empty success.
func TestModelFuncMatchesNothing(t *testing.T) {
	tree(t, map[string]string{"t.cc": "void Run() {}\n"})
	_, errs := expect(t, 2, "model", "--func", "Nope", "t.cc")
	if !strings.Contains(errs, `no function's name contains "Nope"`) {
		t.Errorf("stderr: %q", errs)
	}
	out, _ := expect(t, 0, "model", "--func", "Run", "t.cc")
	if !strings.Contains(out, "function Run") {
		t.Errorf("model --func Run: %q", out)
	}
}

// TestUsageErrorKeepsLayout: cobra's usage errors print over several lines,
// not with escaped newlines and tabs.
func TestUsageErrorKeepsLayout(t *testing.T) {
	tree(t, map[string]string{"t.cc": "void Run() {}\n"})
	_, errs := expect(t, 2, "scna")
	if strings.Contains(errs, `\n`) || strings.Contains(errs, `\t`) || !strings.Contains(errs, "Did you mean this?\n") {
		t.Errorf("stderr: %q", errs)
	}
}

// TestMissingArgumentIsAUsageError: a command without the argument it
// needs says what it needs, in its own terms, and its usage line.
func TestMissingArgumentIsAUsageError(t *testing.T) {
	tree(t, map[string]string{"t.cc": "void Run() {}\n"})
	for _, c := range []struct {
		args      []string
		want, use string
	}{
		{[]string{"explain"}, "holdfast: explain needs a rule ID or a fault name (holdfast explain HF-B001); holdfast rules lists the rules", "usage: holdfast explain RULE|FAULT"},
		{[]string{"explain", "HF-B001", "HF-B002"}, "holdfast: explain takes one rule ID or fault name, not 2", "usage: holdfast explain RULE|FAULT"},
		{[]string{"model"}, "holdfast: model needs a source file", "usage: holdfast model FILE..."},
	} {
		_, errs := expect(t, 2, c.args...)
		if strings.Contains(errs, "arg(s)") || !strings.Contains(errs, c.want) || !strings.Contains(errs, "\n"+c.use) {
			t.Errorf("%v: stderr %q, want %q and %q", c.args, errs, c.want, c.use)
		}
	}
}
