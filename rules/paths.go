package rules

import (
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

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

// flagContradicts reports whether no path that runs through block (the
// scope node of a borrow's owner) reaches node use: the block sets a
// boolean flag to a literal (done = false;), nothing sets it again between
// the block's end and use, and use runs only when the flag holds the other
// value: inside if (flag) { ... }, or after if (!flag) { ...; continue; }
// (a return, break or continue) in an enclosing block.
func flagContradicts(fn *lifetime.Func, block, use parser.NodeID) bool {
	file := fn.File
	set := map[string]bool{} // flag -> the value the block leaves it with
	var walk func(n parser.NodeID)
	walk = func(n parser.NodeID) {
		for c := range file.NamedChildren(n) {
			if file.Kind(c) == parser.KindLambdaExpression {
				continue
			}
			if file.Kind(c) == parser.KindAssignmentExpression && file.Text(file.Field(c, parser.FieldOperator)) == "=" {
				left, right := file.Field(c, parser.FieldLeft), file.Field(c, parser.FieldRight)
				if file.Kind(left) == parser.KindIdentifier {
					switch file.Kind(right) {
					case parser.KindTrue:
						set[file.Text(left)] = true
					case parser.KindFalse:
						set[file.Text(left)] = false
					default:
						delete(set, file.Text(left))
					}
				}
			}
			walk(c)
		}
	}
	walk(block)
	if len(set) == 0 {
		return false
	}
	// Set again between the block and the use: the flag says nothing.
	blockEnd, useAt := file.Nodes[block].End, file.Nodes[use].Start
	reassigned := func(name string) bool {
		for i := range fn.Events {
			e := &fn.Events[i]
			if e.At >= blockEnd && e.At < useAt && fn.VarName(e.Var) == name && (e.Kind == lifetime.Assign || e.Kind == lifetime.Result) {
				return true
			}
		}
		return false
	}
	// needs returns the flag and value a condition requires to be true.
	needs := func(cond parser.NodeID) (string, bool, bool) {
		for file.Kind(cond) == parser.KindConditionClause || file.Kind(cond) == parser.KindParenthesizedExpression {
			inner := parser.None
			for c := range file.NamedChildren(cond) {
				inner = c
			}
			cond = inner
		}
		switch file.Kind(cond) {
		case parser.KindIdentifier:
			return file.Text(cond), true, true
		case parser.KindUnaryExpression:
			if arg := file.Field(cond, parser.FieldArgument); file.Text(file.Field(cond, parser.FieldOperator)) == "!" && file.Kind(arg) == parser.KindIdentifier {
				return file.Text(arg), false, true
			}
		}
		return "", false, false
	}
	contradicts := func(name string, want bool) bool {
		v, ok := set[name]
		return ok && v != want && !reassigned(name)
	}
	exits := func(n parser.NodeID) bool {
		found := false
		var look func(m parser.NodeID)
		look = func(m parser.NodeID) {
			for c := range file.NamedChildren(m) {
				switch file.Kind(c) {
				case parser.KindReturnStatement, parser.KindContinueStatement, parser.KindBreakStatement:
					found = true
				case parser.KindLambdaExpression:
				default:
					look(c)
				}
			}
		}
		look(n)
		return found
	}
	for child, n := use, file.Nodes[use].Parent; n != parser.None && n != block; child, n = n, file.Nodes[n].Parent {
		switch file.Kind(n) {
		case parser.KindIfStatement:
			if file.Field(n, parser.FieldConsequence) == child {
				if name, want, ok := needs(file.Field(n, parser.FieldCondition)); ok && contradicts(name, want) {
					return true
				}
			}
		case parser.KindCompoundStatement:
			for s := range file.NamedChildren(n) {
				if s == child {
					break
				}
				if file.Kind(s) != parser.KindIfStatement || file.Field(s, parser.FieldAlternative) != parser.None || !exits(file.Field(s, parser.FieldConsequence)) {
					continue
				}
				// if (c) { ...; continue; } before the use: the use needs !c.
				if name, want, ok := needs(file.Field(s, parser.FieldCondition)); ok && contradicts(name, !want) {
					return true
				}
			}
		}
		if file.Nodes[n].Start < blockEnd {
			break // the use is not after the block
		}
	}
	return false
}
