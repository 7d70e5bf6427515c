package scan

import (
	"strings"
	"testing"
)

// TestParseErrorNotice: a file whose functions have parse errors gets one
// detail note naming them, not one per function; a clean file gets none;
// the notices carry one line that counts them.
func TestParseErrorNotice(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "broken.cc", []byte("void A() { int x = (; }\nvoid B() { g(; }\nvoid C() { h(); }\n"))
	write(t, dir, "clean.cc", []byte(buggy))
	res := runDir(t, dir, Options{})
	var notes []Notice
	for _, n := range res.Details {
		if strings.Contains(n.Message, "parse errors") {
			notes = append(notes, n)
		}
	}
	if len(notes) != 1 {
		t.Fatalf("%d parse-error details, want 1: %+v", len(notes), res.Details)
	}
	if len(res.Notices) != 1 || res.Notices[0].Message != "2 functions in 1 file have parse errors, so their analysis may be incomplete (--verbose names them)" {
		t.Errorf("notices %+v, want one line counting the parse errors", res.Notices)
	}
	n := notes[0]
	if n.File != "broken.cc" || n.Level != "note" || n.Line != 0 {
		t.Errorf("notice %+v, want a note on the whole of broken.cc", n)
	}
	if !strings.HasPrefix(n.Message, "2 of 3 functions have parse errors") || !strings.Contains(n.Message, "A (line 1), B (line 2)") {
		t.Errorf("message %q", n.Message)
	}
	if res.Skipped != 0 {
		t.Errorf("Skipped = %d; a parse error skips nothing", res.Skipped)
	}
	if !findingIn(res, "clean.cc") {
		t.Error("the other file's finding is missing")
	}
}

// TestDeclaratorIsCut: what a parse error makes of a function's name is
// cut in the note to the name its declarator declares.
func TestDeclaratorIsCut(t *testing.T) {
	for in, want := range map[string]string{
		"Run":          "Run",
		"":             "(unnamed)",
		"Sender::Send": "Sender::Send",
		"& operator=(const array& other) && = delete; /** Default copy":            "operator=",
		"/** Default copy constructor. */\n  array(const array& other) = default;": "array",
		"const Buffer& ns::Sender::Send(int peer) const; // sends":                 "ns::Sender::Send",
		"virtual ~Stream() = default;":                                             "~Stream",
		"Pool::~Pool":                                                              "Pool::~Pool",
		"std::vector<int> Pool<float, 2>::Take(size_t n) {":                        "Pool<float, 2>::Take",
		"template <typename T> T* Get(int i)":                                      "Get",
		"bool operator==(const Key& o) const":                                      "operator==",
		"R operator()(Args... args)":                                               "operator()",
		"Handle::operator bool() const":                                            "Handle::operator bool",
		"static void* operator new[](size_t n)":                                    "operator new[]",
		"decltype(auto) Run(int x)":                                                "Run",
		"f\n  int g();":                                                            "f",
		strings.Repeat("x", 100):                                                   strings.Repeat("x", 59) + "…",
	} {
		if got := declarator(in); got != want {
			t.Errorf("declarator(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestKeepDetails: keeping the details of some files keeps the counting
// notes in step: each counts only the details kept, and a kind with none
// left has no note; other notices stay.
func TestKeepDetails(t *testing.T) {
	details := []Notice{
		{Level: "note", File: "new.cc", Message: "parse", kind: kindParse, funcs: 2},
		{Level: "note", File: "old.h", Message: "parse", kind: kindParse, funcs: 5},
		{Level: "note", File: "old.h", Message: "cut", kind: kindCut, funcs: 1},
		{Level: "note", File: "old.cc", Message: "first branch", kind: kindFirstBranch},
		{Level: "note", File: "gen.cc", Message: "generated", kind: kindGenerated},
	}
	warning := Notice{Level: "warning", File: "old.h", Message: "looks binary"}
	res := &Result{Details: details, Notices: append([]Notice{warning}, countingNotes(details)...)}
	if len(res.Notices) != 5 {
		t.Fatalf("before: %d notices, want the warning and 4 counting notes: %+v", len(res.Notices), res.Notices)
	}
	res.KeepDetails(func(f string) bool { return f == "new.cc" || f == "gen.cc" })
	var msgs []string
	for _, n := range res.Notices {
		msgs = append(msgs, n.Message)
	}
	want := []string{"1 generated source file not analysed", "2 functions in 1 file have parse errors", "looks binary"}
	ok := len(msgs) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(msgs[i], want[i])
	}
	if !ok {
		t.Errorf("notices:\n%s\nwant, in order, notices starting:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Details) != 2 || res.Details[0].File != "new.cc" || res.Details[1].File != "gen.cc" {
		t.Errorf("details %+v", res.Details)
	}
}
