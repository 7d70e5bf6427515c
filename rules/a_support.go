package rules

import (
	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/lifetime"
)

// What the rules of classes A, F and H share: the buffers async work
// uses, who owns them, where a future goes, and which waits cover it.

// asyncOperands returns the Operand events of the call at event a (an
// Async), or, when the model has none, the Async's own subject.
func asyncOperands(fn *lifetime.Func, ai int) []lifetime.Event {
	a := &fn.Events[ai]
	var out []lifetime.Event
	for j := ai + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		if e.Kind == lifetime.Operand && e.Node == a.Node {
			out = append(out, *e)
		}
	}
	if len(out) == 0 && a.Other != lifetime.NoVar {
		out = append(out, lifetime.Event{Kind: lifetime.Operand, Node: a.Node, At: a.At, Var: a.Other, Other: a.Var, Owner: lifetime.NoVar, Call: a.Call})
	}
	return out
}

// ownerOf follows a value back to the local owner of its memory: a raw
// pointer or reference to the owner it was borrowed from, an alias to what
// it was assigned from. It returns NoVar when the chain leaves the
// function's locals. via is the last borrowing value, if any.
func ownerOf(fn *lifetime.Func, v lifetime.VarID) (owner, via lifetime.VarID) {
	via = lifetime.NoVar
	for depth := 0; depth < 8 && v != lifetime.NoVar; depth++ {
		x := fn.Var(v)
		switch x.Kind {
		case lifetime.Owner, lifetime.Container:
			if in := noCopyInput(fn, v); in != lifetime.NoVar {
				via, v = v, in
				continue
			}
			return v, via
		}
		next := lifetime.NoVar
		for i := range fn.Events {
			e := &fn.Events[i]
			if e.Var != v {
				continue
			}
			if e.Kind == lifetime.Borrow && e.Owner != lifetime.NoVar {
				next = e.Owner
				break
			}
			if e.Kind == lifetime.Assign && e.Other != lifetime.NoVar {
				next = e.Other
			}
		}
		if next == lifetime.NoVar {
			return lifetime.NoVar, via
		}
		via, v = v, next
	}
	return lifetime.NoVar, via
}

// soleLocalOwner reports whether v is a local that is the only owner of
// its memory as far as the function shows: declared here (not a parameter,
// a static or a captured name), initialised from a call or a constructor
// (a fresh buffer, a materialised copy), and not a copy of another value.
func soleLocalOwner(fn *lifetime.Func, v lifetime.VarID) bool {
	x := fn.Var(v)
	if x == nil || x.Param || x.Static || x.Outer != lifetime.NoVar || x.Captured || x.Kind != lifetime.Owner || x.Stream {
		return false
	}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Var != v {
			continue
		}
		switch e.Kind {
		case lifetime.Assign:
			return false
		case lifetime.Materialise:
			if e.Flags&lifetime.NoCopy != 0 {
				return false // the input, shared
			}
		}
	}
	return x.FromCall
}

// keptBeyondScope returns the event that lets owner o live past its
// scope: a capture by value into a lambda (a continuation keeping it), a
// move, a store into a container or member, a return, a copy into
// another value, a hand-off to a consumer. nil when nothing does.
func keptBeyondScope(fn *lifetime.Func, o lifetime.VarID) *lifetime.Event {
	for i := range fn.Events {
		e := &fn.Events[i]
		switch {
		case e.Kind == lifetime.Capture && (e.Var == o || e.Owner == o) && e.Flags&lifetime.ByRef == 0,
			e.Kind == lifetime.Move && e.Var == o,
			e.Kind == lifetime.Store && (e.Other == o || e.Owner == o),
			e.Kind == lifetime.Return && (e.Var == o || e.Owner == o),
			e.Kind == lifetime.Assign && e.Other == o,
			e.Kind == lifetime.Use && e.Var == o && e.Flags&lifetime.ToConsumer != 0:
			return e
		}
	}
	return nil
}

// futureFlow is where the future of one async call goes: the values it is
// copied, moved or stored into, and the events that take it out of the
// function's hands.
type futureFlow struct {
	vars    map[lifetime.VarID]bool
	escapes []*lifetime.Event
}

// followFuture follows the future of the Async at event ai.
func followFuture(p *Pass, fn *lifetime.Func, ai int) futureFlow {
	a := &fn.Events[ai]
	fl := futureFlow{vars: map[lifetime.VarID]bool{}}
	if a.Var == lifetime.NoVar {
		if a.Flags&lifetime.Passed != 0 {
			fl.escapes = append(fl.escapes, a)
		}
		return fl
	}
	fl.vars[a.Var] = true
	for j := ai + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		switch e.Kind {
		case lifetime.Store:
			if !fl.vars[e.Other] {
				continue
			}
			if e.Var != lifetime.NoVar && e.Flags&lifetime.Member == 0 && !fn.Var(e.Var).Param {
				fl.vars[e.Var] = true // a local container of futures
				continue
			}
			fl.escapes = append(fl.escapes, e)
		case lifetime.Assign:
			if fl.vars[e.Other] {
				fl.vars[e.Var] = true
			}
		case lifetime.Move:
			if !fl.vars[e.Var] {
				continue
			}
			if e.Other != lifetime.NoVar {
				fl.vars[e.Other] = true
				continue
			}
			if e.Call == "=" || p.Model.Call(e.Call)&apimodel.Fill != 0 {
				continue // assigned or put into a container: a Store follows
			}
			fl.escapes = append(fl.escapes, e)
		case lifetime.Return, lifetime.Callback:
			if fl.vars[e.Var] {
				fl.escapes = append(fl.escapes, e)
			}
		case lifetime.Capture:
			if fl.vars[e.Var] && e.Flags&lifetime.ByRef == 0 {
				fl.escapes = append(fl.escapes, e)
			}
		case lifetime.Use:
			if fl.vars[e.Var] && e.Flags&lifetime.Argument != 0 && (e.Flags&lifetime.ToConsumer != 0 || p.Model.Call(e.Call)&apimodel.Consume != 0) {
				fl.escapes = append(fl.escapes, e)
			}
		case lifetime.Construct:
			if e.Flags&lifetime.WithFuture != 0 && usesFuture(fn, j, fl.vars) {
				fl.escapes = append(fl.escapes, e)
			}
		}
	}
	return fl
}

// usesFuture reports whether one of the futures is an argument of the
// Construct at event j (its argument events sit right around it).
func usesFuture(fn *lifetime.Func, j int, futures map[lifetime.VarID]bool) bool {
	c := &fn.Events[j]
	for k := j - 4; k <= j+4; k++ {
		if k < 0 || k >= len(fn.Events) || k == j {
			continue
		}
		e := &fn.Events[k]
		if (e.Kind == lifetime.Move || e.Kind == lifetime.Use) && futures[e.Var] && e.Call == c.Call {
			return true
		}
	}
	return false
}

// asyncFutures returns the futures of every async call of fn.
func asyncFutures(fn *lifetime.Func) map[lifetime.VarID]int {
	out := map[lifetime.VarID]int{}
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == lifetime.Async && e.Var != lifetime.NoVar {
			out[e.Var] = i
		}
	}
	return out
}

// covers reports whether wait w waits for the work of the Async at event
// ai: it waits on that work's future (or where it went), on one of its
// operands (a stream, the buffer), on everything (a device or stream
// synchronisation with no named value), or on something that is not the
// future of some other async call.
func covers(w *lifetime.Event, ai int, flow futureFlow, operands []lifetime.Event, futures map[lifetime.VarID]int) bool {
	if w.Kind != lifetime.Wait {
		return false
	}
	if w.Var == lifetime.NoVar || flow.vars[w.Var] {
		return true
	}
	for _, o := range operands {
		if o.Var == w.Var {
			return true
		}
	}
	if j, ok := futures[w.Var]; ok && j != ai {
		return false
	}
	return true
}

// noCopyInput returns the input of the .contiguous() that initialised v
// when the model proved it returns that input unchanged.
func noCopyInput(fn *lifetime.Func, v lifetime.VarID) lifetime.VarID {
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == lifetime.Materialise && e.Var == v && e.Flags&lifetime.NoCopy != 0 {
			return e.Other
		}
	}
	return lifetime.NoVar
}

// tracked reports whether the work of the Async at a has something to
// wait on: a future (named, or handed on as it is), or a stream. A call
// whose result is a tensor or a buffer is not a tracked async copy.
func tracked(fn *lifetime.Func, a *lifetime.Event) bool {
	if a.Var == lifetime.NoVar {
		return true
	}
	return fn.Var(a.Var).Kind == lifetime.Future
}

// waitOnPath returns the first wait after the Async at event ai and
// before event t that covers the work and is on every path to t or in a
// loop body on the way (see gapTo); nil when there is none.
func waitOnPath(fn *lifetime.Func, ai int, t *lifetime.Event, flow futureFlow, ops []lifetime.Event, futures map[lifetime.VarID]int) *lifetime.Event {
	for i := ai + 1; i < len(fn.Events) && fn.Events[i].At < t.At; i++ {
		w := &fn.Events[i]
		if w.Kind == lifetime.Wait && covers(w, ai, flow, ops, futures) && gapTo(fn, w.Scope, t.Scope) != branchGap {
			return w
		}
	}
	return nil
}
