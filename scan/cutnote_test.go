package scan

import (
	"strings"
	"testing"
)

// TestCutPathsNotice: a function with more paths alive at once than the
// executor follows is named in a detail note of its file and counted in
// one notice line; a function with few paths is not.
func TestCutPathsNotice(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("int Many(int* a) {\n  int n = 0;\n")
	for i := range 8 {
		// Each branch on an unknown value doubles the paths: 2^8 > the bound.
		b.WriteString("  if (a[" + string(rune('0'+i)) + "]) { n++; delete new int; }\n")
	}
	b.WriteString("  return n;\n}\nint Few(int* a) {\n  if (a[0]) return 1;\n  return 0;\n}\n")
	write(t, dir, "paths.cc", []byte(b.String()))
	res := runDir(t, dir, Options{})
	var notes []Notice
	for _, n := range res.Details {
		if strings.Contains(n.Message, "more paths") {
			notes = append(notes, n)
		}
	}
	if len(notes) != 1 || notes[0].File != "paths.cc" || !strings.HasSuffix(notes[0].Message, "were not executed: Many") {
		t.Fatalf("details %+v, want one note on paths.cc naming Many only", res.Details)
	}
	want := "1 function in 1 file has more paths than are followed at once, so some of its paths were not executed (--verbose names them)"
	found := false
	for _, n := range res.Notices {
		found = found || n.Message == want
	}
	if !found {
		t.Errorf("notices %+v, want %q", res.Notices, want)
	}
}
