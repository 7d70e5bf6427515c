package scan

import (
	"strings"
	"testing"
)

// TestParseErrorNotice: a file whose functions have parse errors gets one
// note naming how many, not one per function; a clean file gets none.
func TestParseErrorNotice(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "broken.cc", []byte("void A() { int x = (; }\nvoid B() { g(; }\nvoid C() { h(); }\n"))
	write(t, dir, "clean.cc", []byte(buggy))
	res := runDir(t, dir, Options{})
	var notes []Notice
	for _, n := range res.Notices {
		if strings.Contains(n.Message, "parse errors") {
			notes = append(notes, n)
		}
	}
	if len(notes) != 1 {
		t.Fatalf("%d parse-error notices, want 1: %+v", len(notes), res.Notices)
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
