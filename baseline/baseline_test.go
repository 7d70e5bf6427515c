package baseline

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/diag"
)

var rule = &diag.Rule{ID: "HF-B001", Name: "raw-pointer-escapes-owner"}

func finding(file, fn, anchor string, line int) *diag.Finding {
	return &diag.Finding{
		Rule: rule, Severity: diag.Error, Function: fn, Anchor: anchor,
		At:      diag.Span{Start: diag.Pos{File: file, Line: line, Col: 1}},
		Message: "raw pointer 'p' escapes, used at line " + strconv.Itoa(line),
	}
}

func roundTrip(t *testing.T, b *File) *File {
	t.Helper()
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return got
}

func TestMovedLinesStayKnown(t *testing.T) {
	old := []*diag.Finding{finding("a.cc", "F", "p<-o", 10), finding("a.cc", "G", "q<-o", 30)}
	b := roundTrip(t, New(old, "0.1.0"))
	// Lines moved down by 5; the message quotes other line numbers.
	now := []*diag.Finding{finding("a.cc", "F", "p<-o", 15), finding("a.cc", "G", "q<-o", 35), finding("a.cc", "H", "r<-o", 50)}
	kept, matched := b.Filter(now)
	if matched != 2 || len(kept) != 1 || kept[0].Function != "H" {
		t.Fatalf("kept %v, matched %d; want only H", kept, matched)
	}
}

func TestMultiset(t *testing.T) {
	// Two identical old findings (same rule, file, function and names)
	// hide two, never a third.
	b := New([]*diag.Finding{finding("a.cc", "F", "p<-o", 10), finding("a.cc", "F", "p<-o", 20)}, "0.1.0")
	now := []*diag.Finding{finding("a.cc", "F", "p<-o", 10), finding("a.cc", "F", "p<-o", 15), finding("a.cc", "F", "p<-o", 20)}
	kept, matched := b.Filter(now)
	if matched != 2 || len(kept) != 1 {
		t.Fatalf("kept %d, matched %d; want 1 and 2", len(kept), matched)
	}
	// The one on a line the baseline does not know is the new one.
	if kept[0].At.Start.Line != 15 {
		t.Errorf("reported line %d, want 15", kept[0].At.Start.Line)
	}
}

func TestSuppressedNeitherRecordedNorHidden(t *testing.T) {
	s := finding("a.cc", "F", "p<-o", 10)
	s.Suppressed = "reviewed"
	if b := New([]*diag.Finding{s}, "0.1.0"); len(b.Findings) != 0 {
		t.Errorf("suppressed finding recorded: %+v", b.Findings)
	}
	b := New([]*diag.Finding{finding("a.cc", "F", "p<-o", 10)}, "0.1.0")
	kept, matched := b.Filter([]*diag.Finding{s})
	if matched != 0 || len(kept) != 1 {
		t.Errorf("suppressed finding matched the baseline")
	}
}

func TestEmptyAndOrder(t *testing.T) {
	var buf bytes.Buffer
	if err := New(nil, "0.1.0").Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"findings": []`) {
		t.Errorf("empty baseline:\n%s", buf.String())
	}
	b := New([]*diag.Finding{finding("b.cc", "F", "x", 1), finding("a.cc", "F", "x", 9), finding("a.cc", "F", "y", 2)}, "0.1.0")
	var got []string
	for _, e := range b.Findings {
		got = append(got, e.File+":"+strconv.Itoa(e.Line))
	}
	if strings.Join(got, " ") != "a.cc:2 a.cc:9 b.cc:1" {
		t.Errorf("order: %v", got)
	}
}

func TestReadRejects(t *testing.T) {
	for name, in := range map[string]string{
		"not json":       `nope`,
		"unknown field":  `{"version":1,"tool":"holdfast","findings":[],"extra":1}`,
		"other tool":     `{"version":1,"tool":"other","findings":[]}`,
		"newer version":  `{"version":2,"tool":"holdfast","findings":[]}`,
		"no fingerprint": `{"version":1,"tool":"holdfast","findings":[{"rule":"HF-B001"}]}`,
		"trailing data":  `{"version":1,"tool":"holdfast","findings":[]} {}`,
	} {
		if _, err := Read(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestLoadIsBounded: a baseline that is a device, a FIFO or bigger than
// MaxSize is refused without reading it whole or blocking on it.
func TestLoadIsBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"version":1,"tool":"holdfast","findings":[]}`+strings.Repeat(" ", MaxSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", fifo, big} {
		done := make(chan error, 1)
		go func() { _, err := Load(p); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: loaded", p)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: Load did not return", p)
		}
	}
}
