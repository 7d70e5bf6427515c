package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

// Rules propose, the device decides. A rule picks the events that make its
// story; the device must replay the function's own path, so this file adds
// to every witness the events of that path the rule did not pick and that
// could prevent the fault:
//
//   - a wait on a value the witness names (a future, a stream) that lies on
//     the path (not in a branch the witness goes around);
//   - code holdfast cannot see that is handed such a future, event or stream
//     after the work started: it may wait there (diag.StepMayWait);
//   - code holdfast cannot see that is handed a reference-counted owner the
//     witness names: it may keep it alive (diag.StepMayHold);
//   - for a continuation, a host call on an object the continuation also
//     touches (a notification, a latch, a counter, a promise): the two may
//     synchronise there (diag.StepMayWait on the continuation's future).
//
// The verify package replays the witness with unknown code helping and
// without it: a fault in both is confirmed, a fault only without it latent.

// onPath returns witness w of a finding in fn with the events of fn's own
// path between the first and the last step added, in source order.
func (p *Pass) onPath(fn *lifetime.Func, w []diag.Step) []diag.Step {
	first, last, ok := span(w, p.File.Path)
	if !ok {
		return w
	}
	target := scopeAt(fn, last)
	names := map[string]bool{}
	taken := map[uint32]bool{}
	for _, st := range w {
		if st.Value != "" {
			names[st.Value] = true
		}
		if st.Other != "" {
			names[st.Other] = true
		}
		taken[uint32(st.At.Start.Offset)] = true
	}
	touched := p.continuationObjects(fn, w)
	var add []diag.Step
	type at struct {
		off uint32
		v   lifetime.VarID
	}
	seen := map[at]bool{}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At <= first || e.At >= last || taken[e.At] || gapTo(fn, e.Scope, target) == branchGap {
			continue
		}
		v := fn.Var(e.Var)
		if v == nil {
			continue
		}
		key := at{e.At, e.Var}
		if seen[key] {
			continue
		}
		if st, ok := p.unseenStep(fn, e, v, names, touched); ok {
			seen[key] = true
			add = append(add, st)
		}
	}
	if len(add) == 0 {
		return w
	}
	out := append(slices.Clip(w), add...)
	slices.SortStableFunc(out, func(a, b diag.Step) int { return a.At.Start.Offset - b.At.Start.Offset })
	return out
}

// unseenStep turns event e on value v into a witness step when it could
// prevent the fault the witness tells.
func (p *Pass) unseenStep(fn *lifetime.Func, e *lifetime.Event, v *lifetime.Var, names map[string]bool, touched map[string]touch) (diag.Step, bool) {
	if t, ok := touched[v.Name]; ok && e.At > t.after && (e.Kind == lifetime.PassRef || e.Kind == lifetime.Use && e.Flags&(lifetime.Receiver|lifetime.Argument) != 0) &&
		(p.unknownCall(e.Call) || p.Model.Call(e.Call)&(apimodel.Wait|apimodel.Block) != 0) {
		return p.Step(fn, diag.StepMayWait, e, t.future, v.Name,
			fmt.Sprintf("'%s', which the continuation also uses, is used here through %s: the host may synchronise with the continuation there", v.Name, e.Call)), true
	}
	if t, ok := touched[v.Name]; ok && e.At > t.after && e.Kind == lifetime.Capture && e.Lambda != nil && e.Lambda != t.lambda && e.Flags&lifetime.ByRef != 0 {
		// Another closure of the host shares the object (a predicate a
		// condition variable waits with): the host may synchronise there.
		return p.Step(fn, diag.StepMayWait, e, t.future, v.Name,
			fmt.Sprintf("'%s', which the continuation also uses, is shared with another closure of the host here: the host may synchronise with the continuation through it", v.Name)), true
	}
	if !names[v.Name] {
		return diag.Step{}, false
	}
	awaitable := v.Kind == lifetime.Future || v.Stream
	switch e.Kind {
	case lifetime.Wait:
		return p.Step(fn, diag.StepWait, e, v.Name, "", fmt.Sprintf("'%s' is waited for here", v.Name)), true
	case lifetime.Use, lifetime.PassRef, lifetime.Move:
		if e.Flags&(lifetime.Argument|lifetime.Receiver|lifetime.ToConsumer) == 0 && e.Kind != lifetime.PassRef {
			return diag.Step{}, false
		}
		if !p.unknownCall(e.Call) {
			return diag.Step{}, false
		}
		switch {
		case awaitable && p.mayWaitAt(fn, e):
			return p.Step(fn, diag.StepMayWait, e, v.Name, "",
				fmt.Sprintf("'%s' is handed to %s, which holdfast cannot see: it may wait for it", v.Name, e.Call)), true
		case v.Kind == lifetime.Owner && shared(p.Model, v):
			return p.Step(fn, diag.StepMayHold, e, v.Name, "",
				fmt.Sprintf("'%s' is handed to %s, which holdfast cannot see: it may keep a reference to it", v.Name, e.Call)), true
		}
	}
	return diag.Step{}, false
}

// unknownCall reports whether a call is one whose effect holdfast does not
// know: no role in the packs, and not an operator or a construct.
func (p *Pass) unknownCall(name string) bool {
	// A returned value reaches the caller only after the function's locals
	// are gone.
	if name == "" || name == "return" || strings.HasPrefix(name, "operator") || strings.HasSuffix(name, "::operator") {
		return false
	}
	for _, c := range name {
		if c != '_' && c != ':' && c != '<' && c != '>' && c != ' ' && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false // an assignment, a subscript, a construct: not a call
		}
	}
	return p.Model.Call(name) == 0
}

// shared reports whether an owner is reference counted: a copy of it
// handed elsewhere keeps the memory alive.
func shared(m *apimodel.Model, v *lifetime.Var) bool {
	base := v.Base
	if base == "" {
		base = v.Type
	}
	if strings.Contains(base, "unique_ptr") {
		return false
	}
	return m.IsSmartPtr(base) || m.IsTensor(base)
}

// touch is an outer value a continuation captures: the future it is
// registered on, and where.
type touch struct {
	future string
	after  uint32
	lambda *lifetime.Func
}

// continuationObjects maps the outer values that the continuations of the
// witness's callback steps capture (by reference, or pointers by value) to
// the future the continuation is registered on.
func (p *Pass) continuationObjects(fn *lifetime.Func, w []diag.Step) map[string]touch {
	out := map[string]touch{}
	for _, st := range w {
		if st.Kind != diag.StepCallback {
			continue
		}
		for i := range fn.Events {
			e := &fn.Events[i]
			if e.Kind != lifetime.Callback || e.Lambda == nil || int(e.At) != st.At.Start.Offset {
				continue
			}
			for _, c := range e.Lambda.Vars {
				if !c.Captured || c.Outer == lifetime.NoVar {
					continue
				}
				out[fn.VarName(c.Outer)] = touch{future: st.Value, after: e.At, lambda: e.Lambda}
			}
		}
	}
	return out
}

// span returns the first and last offsets of the witness steps in file.
func span(w []diag.Step, file string) (first, last uint32, ok bool) {
	for _, st := range w {
		if st.At.Start.File != file {
			continue
		}
		o := uint32(st.At.Start.Offset)
		if !ok || o < first {
			first = o
		}
		if !ok || o > last {
			last = o
		}
		ok = true
	}
	return first, last, ok
}

// scopeAt returns the innermost scope of fn containing offset off.
func scopeAt(fn *lifetime.Func, off uint32) lifetime.ScopeID {
	best := lifetime.ScopeID(0)
	for i, s := range fn.Scopes {
		if s.Start <= off && off < s.End && s.End-s.Start < fn.Scopes[best].End-fn.Scopes[best].Start {
			best = lifetime.ScopeID(i)
		}
	}
	return best
}

// mayWaitAt reports whether the call of event e may wait: mayWaitIn for a
// function of the file, what the tree's summaries say for one of another
// file, yes for one holdfast cannot see.
func (p *Pass) mayWaitAt(fn *lifetime.Func, e *lifetime.Event) bool {
	if g := p.calleeAt(fn, e); g != nil || p.definedHere(e.Call) {
		return p.mayWaitIn(g)
	}
	if t := p.treeFactsAt(fn, e); t != nil {
		return t.Waits
	}
	return true
}

// mayWaitIn reports whether a call holdfast does not know may wait: a
// function f the file defines may only when its body waits, blocks or
// orders work against a stream (one level: what it calls is not
// followed); any other (f nil: unseen, or overloads the call does not
// tell apart) may.
func (p *Pass) mayWaitIn(f *lifetime.Func) bool {
	if f == nil {
		return true
	}
	for i := range f.Events {
		switch e := &f.Events[i]; e.Kind {
		case lifetime.Wait, lifetime.Block, lifetime.Sync:
			return true
		case lifetime.Use:
			if e.Flags&lifetime.Argument != 0 && p.unknownCall(e.Call) && !p.definedHere(e.Call) {
				if t := p.treeFactsAt(f, e); t == nil || t.Waits {
					return true // handed on to code holdfast cannot see, or that may wait
				}
			}
		}
	}
	return false
}
