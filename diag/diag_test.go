package diag

import "testing"

func TestFingerprintIgnoresPositionsAndMessage(t *testing.T) {
	r := &Rule{ID: "HF-B001"}
	a := &Finding{Rule: r, At: Span{Start: Pos{File: "a.cc", Line: 10, Offset: 100}}, Function: "f", Anchor: "h->raw",
		Message: "used at line 12 after 'h' dies at line 11"}
	b := *a
	b.At.Start.Line, b.At.Start.Offset = 20, 300
	b.Message = "used at line 22 after 'h' dies at line 21"
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("moving a finding changed its fingerprint")
	}
	c := *a
	c.Anchor = "g->raw"
	if a.Fingerprint() == c.Fingerprint() {
		t.Error("a different anchor kept the fingerprint")
	}
	d := *a
	d.At.Start.File = "b.cc"
	if a.Fingerprint() == d.Fingerprint() {
		t.Error("a different file kept the fingerprint")
	}
}

func TestSortIsDeterministicAndDeduplicates(t *testing.T) {
	r1, r2 := &Rule{ID: "HF-B001"}, &Rule{ID: "HF-C001"}
	mk := func(r *Rule, file string, off int) *Finding {
		return &Finding{Rule: r, At: Span{Start: Pos{File: file, Offset: off}}, Message: "m"}
	}
	fs := Sort([]*Finding{mk(r2, "b.cc", 1), mk(r1, "b.cc", 1), mk(r1, "a.cc", 5), mk(r1, "b.cc", 1)})
	if len(fs) != 3 || fs[0].At.Start.File != "a.cc" || fs[1].Rule != r1 || fs[2].Rule != r2 {
		t.Errorf("sorted: %v", fs)
	}
}

func TestSeverity(t *testing.T) {
	for _, s := range []Severity{Note, Warning, Error} {
		got, ok := ParseSeverity(s.String())
		if !ok || got != s {
			t.Errorf("round trip of %v", s)
		}
	}
	if _, ok := ParseSeverity("fatal"); ok {
		t.Error("fatal parsed")
	}
	if !(Note < Warning && Warning < Error) {
		t.Error("severities out of order")
	}
}
