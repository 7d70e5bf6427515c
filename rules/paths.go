package rules

import "github.com/holdfast-dev/holdfast/lifetime"

// Which paths to a point an earlier event (a wait, a sync) is on. One
// policy for every rule: an event on every path proves what it does; one
// in a loop body is skipped only when the loop runs zero times, so the
// witness goes through it and the replay decides; one in a branch or a
// handler has a path around it, which the witness takes, so the rule
// reports what happens there.

// pathGap says how a path to a point can skip an event before it.
type pathGap uint8

const (
	// everyPath: the event's scope encloses the point's, or lies in plain
	// blocks inside one that does.
	everyPath pathGap = iota
	// loopGap: between the event and a scope enclosing the point there
	// are only loops and plain blocks; a loop that runs zero times skips it.
	loopGap
	// branchGap: a branch or a handler lies in between; the paths that do
	// not take it skip the event.
	branchGap
)

// gapTo returns how a path to a point in scope target can skip an event in
// scope s.
func gapTo(fn *lifetime.Func, s, target lifetime.ScopeID) pathGap {
	gap := everyPath
	for ; s >= 0; s = fn.Scopes[s].Parent {
		if fn.Encloses(s, target) {
			return gap
		}
		switch fn.Scopes[s].Kind {
		case lifetime.BlockScope:
		case lifetime.LoopScope:
			gap = loopGap
		default:
			return branchGap
		}
	}
	return branchGap
}

// partialWaits are the waits (or syncs) before a point that are not on
// every path to it, by the gap that lets a path skip them.
type partialWaits struct {
	loop   *lifetime.Event // the first in a loop body: the witness goes through it
	branch *lifetime.Event // the first in a branch or handler: the witness goes around it
}

// add files wait w, before a point in scope target, and reports whether
// it is on every path to that point.
func (pw *partialWaits) add(fn *lifetime.Func, w *lifetime.Event, target lifetime.ScopeID) bool {
	switch gapTo(fn, w.Scope, target) {
	case everyPath:
		return true
	case loopGap:
		if pw.loop == nil {
			pw.loop = w
		}
	default:
		if pw.branch == nil {
			pw.branch = w
		}
	}
	return false
}

// named returns the wait a message names: the one the witness goes
// through, else the one it goes around; nil when there is none.
func (pw partialWaits) named() *lifetime.Event {
	if pw.loop != nil {
		return pw.loop
	}
	return pw.branch
}

// gap says where the named wait is: "in a loop body that may run zero
// times" or "in a branch".
func (pw partialWaits) gap() string {
	if pw.loop != nil {
		return "in a loop body that may run zero times"
	}
	return "in a branch"
}

// others names the paths that skip the named wait.
func (pw partialWaits) others() string {
	if pw.loop != nil {
		return "when the loop does not run"
	}
	return "on the paths that skip it"
}
