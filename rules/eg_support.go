package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

// What the rules of classes E and G share: where a function meets a
// stream, whether a lambda runs deferred, and what orders a point of a
// function after the work queued before it.

// streamSite is what puts a function beside a stream: a stream member of
// its class, a stream value of its own, or work it issues on a stream.
type streamSite struct {
	name string
	ev   *lifetime.Event // a synthetic event at the declaration or use
}

// besideStream returns what puts fn (or the function a lambda is written
// in) beside a stream, or nil.
func besideStream(fn *lifetime.Func) *streamSite {
	for g := fn; g != nil; g = g.Parent {
		if m := g.Class.StreamMember(); m != nil {
			return &streamSite{name: m.Name, ev: &lifetime.Event{Node: m.Node, At: m.At, Var: lifetime.NoVar, Call: m.Type}}
		}
		for i := range g.Vars {
			if v := &g.Vars[i]; v.Stream {
				return &streamSite{name: v.Name, ev: &lifetime.Event{Node: v.Decl, At: v.At, Var: lifetime.NoVar, Call: v.Type}}
			}
		}
		for i := range g.Events {
			if e := &g.Events[i]; e.Kind == lifetime.OnStream || e.Kind == lifetime.Switch {
				name := g.VarName(e.Other)
				if e.Kind == lifetime.Switch {
					name = g.VarName(e.Var)
				}
				if name == "" {
					name = e.Call
				}
				return &streamSite{name: name, ev: e}
			}
		}
		if g.Kind != lifetime.LambdaFunc {
			break
		}
	}
	return nil
}

// registration returns the Callback event that registers fn, or a lambda
// fn is written in, as a continuation; nil when fn runs when it is called.
func registration(fn *lifetime.Func) *lifetime.Event {
	for l := fn; l != nil && l.Kind == lifetime.LambdaFunc && l.Parent != nil; l = l.Parent {
		for i := range l.Parent.Events {
			if e := &l.Parent.Events[i]; e.Kind == lifetime.Callback && e.Lambda == l {
				return e
			}
		}
	}
	return nil
}

// orderedBefore returns the event that orders the point at event index i
// after the stream: a deferral the function reaches before it, or a wait
// or a sync on every path to it (the call itself counts: a stream-ordered
// free is both a sync and a free); nil if none. pw then holds the waits
// and syncs before it that only some paths reach.
func orderedBefore(fn *lifetime.Func, i int) (ordered *lifetime.Event, pw partialWaits) {
	for j := 0; j < i; j++ {
		switch e := &fn.Events[j]; e.Kind {
		case lifetime.Callback:
			return e, partialWaits{}
		case lifetime.Wait, lifetime.Sync:
			if pw.add(fn, e, fn.Events[i].Scope) {
				return e, partialWaits{}
			}
		}
	}
	return nil, pw
}

// loopWaitStep is the witness step of a wait or sync in a loop body: the
// witness goes through it, and the replay decides. A wait in a branch has
// no step: the witness takes the path around it.
func loopWaitStep(p *Pass, fn *lifetime.Func, w *lifetime.Event, stream string) diag.Step {
	name := fn.VarName(w.Var)
	if name == "" {
		name = stream
	}
	st := p.Step(fn, diag.StepWait, w, name, "",
		fmt.Sprintf("%s orders the host after the stream on this path, in a loop body holdfast cannot prove runs; when the loop does not run, the free comes while the stream may still run", w.Call))
	st.Via = w.Call
	return st
}

// lambdaFrees returns the first free in l or a lambda written in it.
func lambdaFrees(l *lifetime.Func) (*lifetime.Func, *lifetime.Event) {
	if l == nil {
		return nil, nil
	}
	for i := range l.Events {
		if e := &l.Events[i]; e.Kind == lifetime.Free && e.Call != "delete" {
			return l, e
		}
	}
	for _, c := range l.Lambdas {
		if g, e := lambdaFrees(c); e != nil {
			return g, e
		}
	}
	return nil, nil
}

// freedName names what a Free event frees.
func freedName(fn *lifetime.Func, e *lifetime.Event) string {
	if e.Text != "" {
		return e.Text
	}
	return fn.VarName(e.Var)
}

// captures returns the Capture events by which fn's lambda l captures
// names.
func captures(fn *lifetime.Func, l *lifetime.Func) []*lifetime.Event {
	var out []*lifetime.Event
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == lifetime.Capture && e.Lambda == l {
			out = append(out, e)
		}
	}
	return out
}

// holdsSelf reports whether lambda l keeps the object it was made in
// alive, or checks that it is: it captures a strong reference to it, or a
// weak one that it locks before use.
func holdsSelf(m *apimodel.Model, caps []*lifetime.Event, l *lifetime.Func) bool {
	weak := false
	for _, c := range caps {
		switch {
		case c.Flags&lifetime.SelfRef != 0 && c.Flags&lifetime.Weak == 0:
			return true
		case c.Flags&lifetime.SelfRef != 0:
			weak = true
		}
	}
	if !weak {
		return false
	}
	return locksWeak(m, l)
}

// locksWeak reports whether l, or a lambda in it, turns a weak reference
// into a strong one (lock) before using it.
func locksWeak(m *apimodel.Model, l *lifetime.Func) bool {
	for i := range l.Events {
		e := &l.Events[i]
		if e.Kind == lifetime.Use && e.Flags&lifetime.Receiver != 0 && m.Call(e.Call)&apimodel.Self != 0 {
			if v := l.Var(e.Var); v != nil && v.Weak {
				return true
			}
		}
	}
	for _, c := range l.Lambdas {
		if locksWeak(m, c) {
			return true
		}
	}
	return false
}

// enclosing returns the function a lambda is written in, or fn itself.
func enclosing(fn *lifetime.Func) *lifetime.Func {
	for fn.Kind == lifetime.LambdaFunc && fn.Parent != nil {
		fn = fn.Parent
	}
	return fn
}

// endOf returns a synthetic event at the closing brace of fn's body.
func endOf(fn *lifetime.Func) *lifetime.Event {
	s := fn.Scopes[0]
	return &lifetime.Event{Kind: lifetime.ScopeExit, Node: s.Node, At: s.End - 1, Var: lifetime.NoVar, Call: "}"}
}
