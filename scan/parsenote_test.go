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
