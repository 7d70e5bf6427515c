package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress line timing: nothing for scans shorter than progressDelay, so a
// pre-commit run over a few files prints nothing, then at most one update
// per progressEvery.
const (
	progressDelay = 500 * time.Millisecond
	progressEvery = 100 * time.Millisecond
)

// progress keeps one status line on a terminal up to date with \r and
// clears it at the end, so the report that follows starts on a clean line.
//
// A scan abandoned on Ctrl-C may still call update after finish, so both
// lock, and updates after finish print nothing.
type progress struct {
	mu       sync.Mutex
	finished bool
	w        io.Writer
	now      func() time.Time
	start    time.Time
	last     time.Time
	width    int // length of the line on screen, 0 when none
}

func newProgress(w io.Writer, now func() time.Time) *progress {
	return &progress{w: w, now: now, start: now()}
}

// update is scan.Options.Progress: called after each file.
func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	t := p.now()
	if t.Sub(p.start) < progressDelay || (p.width > 0 && t.Sub(p.last) < progressEvery) {
		return
	}
	p.last = t
	s := fmt.Sprintf("holdfast: %d/%d files (%d%%)", done, total, 100*done/max(total, 1))
	_, _ = fmt.Fprintf(p.w, "\r%s%s", s, strings.Repeat(" ", max(0, p.width-len(s)))) // a status line: nothing to do on error
	p.width = len(s)
}

// finish erases the line, if one was printed.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished = true
	if p.width > 0 {
		_, _ = fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}

// isTTY reports whether w is a terminal that understands \r: a character
// device other than the null device, with TERM not "dumb".
func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}
