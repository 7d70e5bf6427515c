package rules

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func callbackOutlivesCapture() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-G001",
			Name:      "callback-captures-this",
			Class:     "G",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "a completion callback captures this or a local by reference, and the future can complete after the object or frame is gone",
			Help: `What it does: finds a continuation registered on a future, event or stream
(OnReady, Then, AndThen, addCallback, ThenExecuteCallback, a host
function, addCompletedHandler) whose lambda captures this and uses a
member, or captures a local by reference, when the lambda holds no strong
reference to the object (shared_from_this(), a copy of an owning pointer)
and no weak one it locks before use, and nothing waits for the future
before the object or the local can go away: not the function itself, not
the class's destructor (directly, through shutdown(), or through a method
of the class that waits). Objects of a class the file keeps in a static
instance (a singleton) live until the program exits and are not reported.

Why it is bad: registering a callback does not keep anything alive. The
future completes on a runtime thread whenever the device or the peer is
done; if the caller has dropped the object by then (a work handle nobody
waits on, an object destroyed on an error path) or the function has
returned, the callback writes through a dangling this or into a dead stack
frame. torch_tpu's TpuWork constructor registered such a callback.

Known problems: objects whose lifetime is guaranteed by other means (an
owner that joins every runtime thread before destroying them, a destructor
defined in another file) are reported too; suppress with the reason.`,
			Example: diag.Example{
				Bad: `TpuWork::TpuWork(xla::Future<> future) : future_(std::move(future)) {
  future_.OnReady([this](absl::Status s) {
    status_ = s;             // this may be gone
    finish();
  });
}`,
				Good: `void TpuWork::Start() {   // the object is owned by a shared_ptr
  future_.OnReady([self = shared_from_this()](absl::Status s) {
    self->status_ = s;
    self->finish();
  });
}`,
			},
			Fix:  "capture a strong reference (shared_from_this(), an intrusive_ptr to the object) or a weak one that the callback locks and checks, or wait for the future in the destructor or before the local dies",
			Tags: []string{"memory-safety", "use-after-free", "callbacks", "lifetime"},
			CWE:  []int{416},
		},
		Check: checkCallbackOutlivesCapture,
	}
}

func checkCallbackOutlivesCapture(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Callback || e.Lambda == nil {
			continue
		}
		l := e.Lambda
		if m := enclosing(fn).Class.Member(strings.TrimPrefix(e.Text, "this->")); e.Var == lifetime.NoVar && m != nil && !m.Method && m.Type != "" && !m.Stream && !lifetime.MayComplete(p.Model, m.Type) {
			continue // a member builder's Map runs the lambda before it returns
		}
		caps := captures(fn, l)
		if len(caps) == 0 || holdsSelf(p.Model, caps, l) {
			continue
		}
		for _, c := range caps {
			switch {
			case c.Flags&lifetime.CapThis != 0:
				if fn.Class != nil && fn.Class.Singleton {
					continue // the object lives until the program exits
				}
				use := firstThisUse(l)
				if use == nil {
					continue
				}
				if proven, pw := thisAwaited(fn, e, i); !proven {
					reportCallbackThis(p, fn, e, use, pw)
				}
			case c.Flags&lifetime.ByRef != 0:
				v := fn.Var(c.Var)
				if v == nil || v.Static || v.Captured || v.Param && (v.Kind == lifetime.Reference || v.Kind == lifetime.Pointer) {
					continue
				}
				died := fn.ScopeExitOf(c.Var)
				if died == nil {
					died = endOf(fn)
				}
				proven, pw := awaitedBefore(fn, e, i, died)
				if proven || completedBefore(fn, e, i) {
					continue
				}
				reportCallbackLocal(p, fn, e, v.Name, died, pw)
			}
		}
	}
}

// firstThisUse returns the member the lambda (or one in it) reaches
// through this that best shows the use: a declared member first, then a
// member read or written, then a member function called; nil when it never
// uses this.
func firstThisUse(l *lifetime.Func) *lifetime.ThisUse {
	var best *lifetime.ThisUse
	rank := func(u *lifetime.ThisUse) int {
		switch {
		case u.Member != nil && !u.Member.Method:
			return 0
		case !u.Call && u.Name != "this":
			return 1
		case u.Member != nil:
			return 2
		}
		return 3
	}
	var walk func(f *lifetime.Func)
	walk = func(f *lifetime.Func) {
		for i := range f.ThisUses {
			if u := &f.ThisUses[i]; best == nil || rank(u) < rank(best) {
				best = u
			}
		}
		for _, c := range f.Lambdas {
			walk(c)
		}
	}
	walk(l)
	return best
}

// thisAwaited reports whether the future the callback was registered on is
// waited for while the object surely lives: in the same function on every
// path, or in the class's destructor. Otherwise pw holds the waits in the
// function that only some paths reach.
func thisAwaited(fn *lifetime.Func, e *lifetime.Event, i int) (proven bool, pw partialWaits) {
	proven, pw = awaitedBefore(fn, e, i, endOf(fn))
	if proven || completedBefore(fn, e, i) {
		return true, partialWaits{}
	}
	if enclosing(fn).Class.DestructorWaits() {
		return true, partialWaits{}
	}
	return false, pw
}

// awaitedBefore reports whether the future of callback event e (index i)
// is waited for, or completed here, before event end on every path to it
// (the wait's scope encloses end's): that future, one it was chained from
// (f3 = f2->then(...)), since completing the first of a chain runs the
// continuations of the rest, or one chained after the callback (waiting
// for s2 = s1->then(cb) waits for cb). Otherwise pw holds such waits that
// only some paths reach (in a branch or a loop body).
func awaitedBefore(fn *lifetime.Func, e *lifetime.Event, i int, end *lifetime.Event) (proven bool, pw partialWaits) {
	if e.Var == lifetime.NoVar {
		return false, pw
	}
	chain := chainedFrom(fn, e.Var)
	for v := range chainedAfter(fn, e) {
		chain[v] = true
	}
	// A wait on an object the continuation shares with the host (a
	// notification it notifies, a promise it sets, through the future the
	// host got from that promise) waits for the continuation.
	for v := range sharedWithContinuation(fn, e) {
		chain[v] = true
	}
	for j := i + 1; j < len(fn.Events); j++ {
		w := &fn.Events[j]
		if w.At >= end.At {
			break
		}
		if w.Kind != lifetime.Wait || !chain[w.Var] {
			continue
		}
		if pw.add(fn, w, end.Scope) {
			return true, partialWaits{}
		}
	}
	return false, pw
}

// completedBefore reports whether the future of callback event e (index
// i) is already waited for or completed when the callback is registered:
// the callback then runs at once, inline.
func completedBefore(fn *lifetime.Func, e *lifetime.Event, i int) bool {
	if e.Var == lifetime.NoVar {
		return false
	}
	chain := chainedFrom(fn, e.Var)
	for j := 0; j < i; j++ {
		if w := &fn.Events[j]; w.Kind == lifetime.Wait && chain[w.Var] {
			return true
		}
	}
	return false
}

// chainedAfter returns the futures that complete only after the callback
// of event e has run: the result of its registration (s2 = s1->then(cb))
// and the futures chained after that one.
func chainedAfter(fn *lifetime.Func, e *lifetime.Event) map[lifetime.VarID]bool {
	chain := map[lifetime.VarID]bool{}
	nodes := map[int32]bool{e.Node: true}
	for grew := true; grew; {
		grew = false
		for i := range fn.Events {
			r := &fn.Events[i]
			if r.Kind == lifetime.Result && nodes[r.Node] && !chain[r.Var] {
				chain[r.Var] = true
				grew = true
			}
			if r.Kind == lifetime.Callback && chain[r.Var] && !nodes[r.Node] {
				nodes[r.Node] = true
				grew = true
			}
		}
	}
	return chain
}

// chainedFrom returns future v and the futures it was chained from: a
// value initialised by a continuation registered on another future.
func chainedFrom(fn *lifetime.Func, v lifetime.VarID) map[lifetime.VarID]bool {
	chain := map[lifetime.VarID]bool{v: true}
	for grew := true; grew; {
		grew = false
		for i := range fn.Events {
			r := &fn.Events[i]
			if r.Kind != lifetime.Result || !chain[r.Var] {
				continue
			}
			for j := range fn.Events {
				c := &fn.Events[j]
				if c.Kind == lifetime.Callback && c.Node == r.Node && c.Var != lifetime.NoVar && !chain[c.Var] {
					chain[c.Var] = true
					grew = true
				}
			}
		}
	}
	return chain
}

// futureName names what a callback is registered on.
func futureName(fn *lifetime.Func, e *lifetime.Event) string {
	switch {
	case fn.VarName(e.Var) != "":
		return fn.VarName(e.Var)
	case e.Text != "":
		return e.Text
	}
	return "the future"
}

func reportCallbackThis(p *Pass, fn *lifetime.Func, e *lifetime.Event, use *lifetime.ThisUse, pw partialWaits) {
	fut := futureName(fn, e)
	what := "this"
	if use.Name != "this" {
		what = fmt.Sprintf("this (it uses '%s' at line %d)", use.Name, p.Line(use.At))
	}
	msg := fmt.Sprintf("the callback registered with %s on '%s' captures %s and holds no reference to the object: if the object is destroyed before '%s' completes, the callback runs on a dangling this",
		e.Call, fut, what, fut)
	if cond := pw.named(); cond != nil {
		msg += fmt.Sprintf("; the only wait for '%s' (line %d) is %s", fut, p.Line(cond.At), pw.gap())
	}
	g := enclosing(fn)
	w := []diag.Step{
		p.Step(fn, diag.StepCallback, e, fut, "this", fmt.Sprintf("a continuation capturing this is registered on '%s'", fut)),
	}
	if pw.loop != nil {
		w = append(w, loopWait(p, fn, pw.loop, fut))
	}
	death := p.Step(fn, diag.StepOwnerDies, endOf(fn), "this", "",
		fmt.Sprintf("after %s returns, the caller may drop the object while '%s' is still pending", shortName(g.Name), fut))
	// The object's death is the caller's doing: only when the future is
	// the object's own member, which its destructor does not wait for, is
	// it evidence that the object can go while the continuation is
	// pending. Otherwise the death is assumed and the finding latent.
	if !ownFuture(fn, g, e) {
		death.Assumed = true
		death.Message = fmt.Sprintf("assumed: after %s returns, a caller holdfast cannot see drops the object while '%s' is still pending", shortName(g.Name), fut)
	}
	w = append(w, death)
	p.Report(fn, e.At, p.nodeEnd(e), msg, "this:"+fut+":"+e.Call, w)
}

func reportCallbackLocal(p *Pass, fn *lifetime.Func, e *lifetime.Event, name string, died *lifetime.Event, pw partialWaits) {
	fut := futureName(fn, e)
	msg := fmt.Sprintf("the callback registered with %s on '%s' captures local '%s' by reference, and nothing waits for '%s' before '%s' dies at line %d",
		e.Call, fut, name, fut, name, p.Line(died.At))
	if cond := pw.named(); cond != nil {
		msg = fmt.Sprintf("the callback registered with %s on '%s' captures local '%s' by reference, and only a wait for '%s' %s (line %d) comes before '%s' dies at line %d: %s, the callback can run on a dead '%s'",
			e.Call, fut, name, fut, pw.gap(), p.Line(cond.At), name, p.Line(died.At), pw.others(), name)
	}
	w := []diag.Step{
		p.Step(fn, diag.StepCallback, e, fut, name, fmt.Sprintf("a continuation holding a reference to '%s' is registered on '%s'", name, fut)),
	}
	if pw.loop != nil {
		w = append(w, loopWait(p, fn, pw.loop, fut))
	}
	w = append(w, p.Step(fn, diag.StepOwnerDies, died, name, "", fmt.Sprintf("'%s' dies here; the callback can still run and use it", name)))
	p.Report(fn, e.At, p.nodeEnd(e), msg, "ref:"+name+":"+fut, w)
}

// loopWait is the witness step of a wait on the callback's future in a
// loop body: the witness goes through it, and the replay decides. A wait
// in a branch has no step: the witness takes the path around it.
func loopWait(p *Pass, fn *lifetime.Func, w *lifetime.Event, fut string) diag.Step {
	return p.Step(fn, diag.StepWait, w, fut, "",
		fmt.Sprintf("'%s' is waited for here, in a loop body holdfast cannot prove runs; when the loop does not run the callback can outlive what it captures", fut))
}

func shortName(name string) string {
	if i := strings.LastIndex(name, "::"); i >= 0 && i+2 < len(name) {
		return name[i+2:]
	}
	return name
}

// ownFuture reports whether the future of callback event e is a member of
// the class of g, the function enclosing fn: destroying the object then leaves the continuation
// registered on a future nobody waits for.
func ownFuture(fn, g *lifetime.Func, e *lifetime.Event) bool {
	name := e.Text
	if v := fn.Var(e.Var); v != nil {
		name = v.Name
	}
	name = strings.TrimPrefix(name, "this->")
	m := g.Class.Member(name)
	return m != nil && !m.Method && m.Type != ""
}

// sharedWithContinuation returns the values of fn the continuation of
// callback event e captures, and the futures the host got from a call on
// them (got = promise.get_future()).
func sharedWithContinuation(fn *lifetime.Func, e *lifetime.Event) map[lifetime.VarID]bool {
	out := map[lifetime.VarID]bool{}
	if e.Lambda == nil {
		return out
	}
	for _, c := range e.Lambda.Vars {
		if c.Captured && c.Outer != lifetime.NoVar {
			out[c.Outer] = true
		}
	}
	for i := range fn.Events {
		// A future the host got from a call on a shared object (an Async
		// whose subject it is, got = promise.get_future()).
		if a := &fn.Events[i]; a.Kind == lifetime.Async && a.Var != lifetime.NoVar && out[a.Other] {
			out[a.Var] = true
		}
	}
	return out
}
