// Package budget bounds the analysis of one file by the work it does, not
// by the time it takes, so that what a file's analysis finds depends on
// the file and the options alone: never on the machine's speed, its load
// or how many files are analysed at once.
//
// A unit of work is one statement executed on one path, or one syntax
// node walked by a rule or a summary. The stages charge what they do to
// the file's Meter and stop at their next step once it is spent. A Meter
// can also be stopped from outside (the wall-clock safety limit, an
// interrupt); the stages then stop the same way.
package budget

import "sync/atomic"

// Meter is the work one file's analysis may still do. The stages of a
// file run one after another, so Spend is called by one goroutine at a
// time; Stop may be called from any goroutine. A nil Meter is never spent.
type Meter struct {
	left    int64
	spent   bool
	stopped atomic.Bool
}

// New returns a Meter of the given units; units <= 0 is a meter that is
// spent at once.
func New(units int64) *Meter {
	return &Meter{left: units, spent: units <= 0}
}

// Spend charges n units and says whether the work may go on: false once
// the units are spent or the meter was stopped.
func (m *Meter) Spend(n int) bool {
	if m == nil {
		return true
	}
	m.left -= int64(n)
	if m.left < 0 {
		m.spent = true
	}
	return !m.spent && !m.stopped.Load()
}

// Out says the work must stop: the units are spent or the meter was
// stopped.
func (m *Meter) Out() bool {
	return m != nil && (m.spent || m.stopped.Load())
}

// Spent says the units ran out (not a Stop).
func (m *Meter) Spent() bool { return m != nil && m.spent }

// Stop ends the work from outside: the stages stop at their next step.
func (m *Meter) Stop() {
	if m != nil {
		m.stopped.Store(true)
	}
}

// Stopped says Stop was called.
func (m *Meter) Stopped() bool { return m != nil && m.stopped.Load() }

// Left is what is left of the units (0 once spent).
func (m *Meter) Left() int64 {
	if m == nil || m.left < 0 {
		return 0
	}
	return m.left
}
