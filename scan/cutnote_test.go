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
	b.WriteString("int Many(int* a, int* p0, int* p1, int* p2, int* p3, int* p4, int* p5, int* p6, int* p7) {\n  int n = 0;\n")
	for i := range 8 {
		// Each branch on an unknown value doubles the paths, each with its
		// own memory: 2^8 > the bound, and none merge.
		d := string(rune('0' + i))
		b.WriteString("  if (a[" + d + "]) { n++; delete p" + d + "; }\n")
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
	if len(notes) != 1 || notes[0].File != "paths.cc" || !strings.HasSuffix(notes[0].Message, "were not executed: Many (line 1)") {
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

// TestMergedPathsNotice: a function whose paths past the bound differ
// only in the integers they know is executed on merged paths, named in
// its own kind of note, and not among the cut ones.
func TestMergedPathsNotice(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("int Known(int* a) {\n  int n = 0;\n")
	for i := range 8 {
		b.WriteString("  if (a[" + string(rune('0'+i)) + "]) n = n + " + string(rune('1'+i)) + ";\n")
	}
	b.WriteString("  return n;\n}\n")
	write(t, dir, "known.cc", []byte(b.String()))
	res := runDir(t, dir, Options{})
	var notes []string
	for _, n := range res.Details {
		if strings.Contains(n.Message, "more paths") {
			notes = append(notes, n.File+": "+n.Message)
		}
	}
	if len(notes) != 1 || !strings.HasSuffix(notes[0], "executed merged, as one path that forgot which way each went: Known (line 1)") {
		t.Fatalf("details %q, want one merged note on known.cc naming Known", notes)
	}
	want := "1 function in 1 file has more paths than are followed at once, so some of its paths were executed merged, as one path that forgot which way each went (--verbose names them)"
	found := false
	for _, n := range res.Notices {
		found = found || n.Message == want
	}
	if !found {
		t.Errorf("notices %+v, want %q", res.Notices, want)
	}
}
