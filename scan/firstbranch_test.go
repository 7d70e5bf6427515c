package scan

import (
	"strings"
	"testing"
)

// TestFirstBranchIsSaid: a file read with only the first branch of a
// conditional that splits a statement between its branches is counted in
// one notice and named in the details; a file whose conditionals parse
// whole is not.
func TestFirstBranchIsSaid(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "split.cc", []byte(`void f(Buffer* b) {
#ifdef USE_CUDA
  if (b->on_device()) {
#else
  if (b->valid()) {
#endif
    Use(b);
  }
}
`))
	write(t, dir, "whole.cc", []byte(`#ifdef USE_CUDA
void g() { Cuda(); }
#else
void g() { Host(); }
#endif
`))
	res := runDir(t, dir, Options{})
	var notes []string
	for _, n := range res.Notices {
		if strings.Contains(n.Message, "first branch") {
			notes = append(notes, n.Message)
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "1 file read with only the first branch") {
		t.Errorf("notices %q, want one counting 1 file", notes)
	}
	var named []string
	for _, d := range res.Details {
		if strings.Contains(d.Message, "first branch") {
			named = append(named, d.File)
		}
	}
	if len(named) != 1 || named[0] != "split.cc" {
		t.Errorf("details name %q, want split.cc", named)
	}
}
