package rules

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func callbackOutlivesCapture() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:          "HF-G001",
			Name:        "callback-outlives-capture",
			Former:      []string{"callback-captures-this"},
			Class:       "G",
			Severity:    diag.Error,
			CoreDecides: true,
			Precision:   "medium",
			Summary:     "a completion callback captures this or a local by reference, and the future can complete after the object or frame is gone",
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

It also finds a lambda handed to a call that runs it after returning (a
loop's or pool's task queue) that captures by reference a local, a
parameter, or the object a reference parameter names, when the host waits
for nothing the lambda signals (a promise it sets, the call's own result,
the loop) before that value dies. A call runs its lambda later when a pack
gives it the defer role, when it is a function of the scanned tree that
stores its callable parameter in a member, puts it into a member
container or hands it to such a call, or (latent: only the name says so) when no pack
names it and the first or last word of its name is a defer word
(enqueue, schedule, post, defer, later). A local pool declared after the
captured value is destroyed, and drained, first; that is not reported.

It also finds a lambda that captures a local by reference and outlives
the call: returned; or kept — stored in a data member, a static or a
variable of the file, in an object of the caller's (a reference parameter
such as std::function<void()>& cb, what a pointer parameter points to, or
a field of either), or put into a container one of them is
(work_.push_back([&] { n++; })), directly or inside an object made to
keep it (std::function, std::thread, std::packaged_task, std::bind,
std::async's future) —
when the function returns with it still there and calls nothing after
storing it: it will be called after the local is gone.

It also finds a thread that is detached (t.detach() on a std::thread
built from a lambda) while its lambda uses a local captured by reference,
or the memory a pointer or view it captured by value points into, when
that local ends on the path before anything waits for the thread (a call
handed the captured local, or a method of it, such as a latch's wait,
counts as one). A joined thread is not reported.

Confirmed: when executing the function's paths finds it (see
docs/verification.md, "Rules the core decides"): the receiver is a future
or stream by its declared type or by what made it, or the callee is a
method of the tree that stores the callable and returns without waiting;
a local the closure captured by reference ends on a path before anything
waits for it; or the closure reaches the object through this, hangs on a
future the object keeps, and the class's destructor does not wait for
it. What rests on a name alone (a call named like a queue's, a receiver of
no known type) is latent.

Why it is bad: registering a callback does not keep anything alive. The
future completes on a runtime thread whenever the device or the peer is
done; if the caller has dropped the object by then (a work handle nobody
waits on, an object destroyed on an error path) or the function has
returned, the callback writes through a dangling this or into a dead stack
frame. torch_tpu's TpuWork constructor registered such a callback.

Known problems: objects whose lifetime is guaranteed by other means (an
owner that joins every runtime thread before destroying them, a destructor
defined in another file) are reported too; suppress with the reason. A
reference parameter whose caller promises to keep the object alive until
the lambda runs is reported as latent.`,
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
			Hint: "capture a strong or checked weak reference, or wait before it dies",
			Tags: []string{"memory-safety", "use-after-free", "callbacks", "lifetime"},
			CWE:  []int{416},
		},
		Check: checkCallbackOutlivesCapture,
	}
}

func checkCallbackOutlivesCapture(p *Pass, fn *lifetime.Func) {
	// After the rule's own reading: the core's report of the same line
	// takes its place (see reportCoreIf).
	defer p.reportCoreIf(fn, func(fl core.Fault) bool {
		return fl.Kind == core.ThreadOutlives || fl.Kind == core.CallbackOutlives && (fl.Captured == "" || fl.Captured == "this") || fl.Kind == core.ReturnsLocal && (storedHow(fl.Via) == "lambda" || fl.Via == "returned lambda")
	})
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind == lifetime.Defer && e.Lambda != nil {
			checkDeferredClosure(p, fn, e, i)
			continue
		}
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
	chain := map[lifetime.VarID]bool{}
	if e.Var != lifetime.NoVar {
		chain = chainedFrom(fn, e.Var)
		for v := range chainedAfter(fn, e) {
			chain[v] = true
		}
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
	uses := ""
	if use.Name != "this" {
		uses = fmt.Sprintf(" (it uses '%s' at line %d)", use.Name, p.Line(use.At))
	}
	msg := fmt.Sprintf("the callback registered with %s on '%s' captures this but holds no reference to the object",
		e.Call, fut)
	g := enclosing(fn)
	w := []diag.Step{
		p.Step(fn, diag.StepCallback, e, fut, "this", fmt.Sprintf("a continuation capturing this%s is registered on '%s'", uses, fut)),
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
	death.Message += "; the callback then runs on a dangling this"
	if pw.loop == nil && pw.branch != nil {
		death.Message += fmt.Sprintf(" (the only wait for '%s', at line %d, is %s)", fut, p.Line(pw.branch.At), pw.gap())
	}
	w = append(w, death)
	p.Report(fn, e.At, p.nodeEnd(e), msg, "this:"+fut+":"+e.Call, w)
}

func reportCallbackLocal(p *Pass, fn *lifetime.Func, e *lifetime.Event, name string, died *lifetime.Event, pw partialWaits) {
	fut := futureName(fn, e)
	msg := fmt.Sprintf("the callback registered with %s on '%s' captures local '%s' by reference, which dies at line %d",
		e.Call, fut, name, p.Line(died.At))
	death := fmt.Sprintf("'%s' dies here and nothing waited for '%s': the callback can still run and use it", name, fut)
	if cond := pw.named(); cond != nil {
		death = fmt.Sprintf("'%s' dies here, and the only wait for '%s' (line %d) is %s: %s, the callback can run on a dead '%s'",
			name, fut, p.Line(cond.At), pw.gap(), pw.others(), name)
	}
	w := []diag.Step{
		p.Step(fn, diag.StepCallback, e, fut, name, fmt.Sprintf("a continuation holding a reference to '%s' is registered on '%s'", name, fut)),
	}
	if pw.loop != nil {
		w = append(w, loopWait(p, fn, pw.loop, fut))
	}
	w = append(w, p.Step(fn, diag.StepOwnerDies, died, name, "", death))
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

// checkDeferredClosure reports a lambda handed to a call that runs it
// after returning (event e, index i of fn), when it captures by reference
// a value of fn that dies before it can run: a local or by-value
// parameter (its death is the function's own), or a reference parameter
// (the caller's object, which nothing here keeps alive: latent). Captures
// of this are left to the object's owner: a loop or pool of the object's
// own is drained before the object goes, as a rule.
func checkDeferredClosure(p *Pass, fn *lifetime.Func, e *lifetime.Event, i int) {
	how, ok := p.deferral(fn, e)
	if !ok {
		return
	}
	if x := fn.Var(e.Var); x != nil && storedOnly(how) && !x.Param && !x.Static && x.Kind != lifetime.Reference && x.Kind != lifetime.Pointer {
		// Kept by a local object that runs it only when asked: the object
		// goes with the function, and nothing asks it after.
		return
	}
	for _, c := range captures(fn, e.Lambda) {
		if c.Flags&lifetime.ByRef == 0 {
			continue
		}
		v := fn.Var(c.Var)
		if v == nil || v.Static || v.Captured || v.Outer != lifetime.NoVar {
			continue
		}
		if executorDiesFirst(fn, e, c.Var) {
			continue
		}
		died := fn.ScopeExitOf(c.Var)
		callers := v.Param && v.Kind == lifetime.Reference
		if died == nil || callers {
			died = endOf(fn)
		}
		if storedOnly(how) && storedAgain(p.File, e.Node, died.At) {
			// The same call on the same object stores another value in
			// the member before the capture dies: what was kept is gone.
			continue
		}
		proven, pw := deferAwaited(fn, e, i, died)
		if proven {
			continue
		}
		reportDeferredLocal(p, fn, e, v, died, how, callers, pw)
	}
}

// deferAwaited reports whether the host waits, on every path from Defer
// event e (index i) to died, for the lambda to have run: on the loop or
// pool it was handed to, on the result of the call (a future or handle it
// returned, kept or waited at once: ex.runAsync(l)->wait()), or on
// something the lambda shares with the host (a promise it sets, waited
// through p.get_future().wait()). Otherwise pw holds such waits that only
// some paths reach.
func deferAwaited(fn *lifetime.Func, e *lifetime.Event, i int, died *lifetime.Event) (proven bool, pw partialWaits) {
	shared := sharedWithContinuation(fn, e)
	if e.Var != lifetime.NoVar {
		shared[e.Var] = true
	}
	call := fn.EnclosingCall(e.Node)
	for k := range fn.Vars {
		if x := &fn.Vars[k]; x.Decl != parser.None && call != parser.None && fn.Within(call, x.Decl) {
			shared[lifetime.VarID(k)] = true // auto fut = ex.runAsync(l)
		}
	}
	for j := i + 1; j < len(fn.Events); j++ {
		w := &fn.Events[j]
		if w.At >= died.At {
			break
		}
		if w.Kind != lifetime.Wait {
			continue
		}
		if !shared[w.Var] && (w.Var != lifetime.NoVar || !waitsThrough(fn, w, shared, call)) {
			continue
		}
		if pw.add(fn, w, died.Scope) {
			return true, partialWaits{}
		}
	}
	return false, pw
}

// waitsThrough reports whether wait w, on no named value, waits on an
// expression built from one of the values in vs or from call node call
// (p.get_future().wait(), ex.runAsync(l)->wait()).
func waitsThrough(fn *lifetime.Func, w *lifetime.Event, vs map[lifetime.VarID]bool, call parser.NodeID) bool {
	file := fn.File
	n := w.Node
	for depth := 0; n != parser.None && depth < 8; depth++ {
		if n == call {
			return true
		}
		switch file.Kind(n) {
		case parser.KindCallExpression:
			n = file.Field(n, parser.FieldFunction)
		case parser.KindFieldExpression:
			n = file.Field(n, parser.FieldArgument)
		case parser.KindParenthesizedExpression:
			inner := parser.None
			for c := range file.NamedChildren(n) {
				inner = c
				break
			}
			n = inner
		case parser.KindIdentifier:
			name := file.Text(n)
			for v := range vs {
				if fn.VarName(v) == name {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// deferral says whether the lambda of Defer event e surely runs after the
// call returns (a pack's defer role, or a function of the file that keeps
// or defers its callable parameter) or may, by its name only (how is then
// "" and ok true with an assumed step); ok is false when the call runs it
// before returning, keeps nothing, or is a function of the file holdfast
// cannot tell among overloads.
func (p *Pass) deferral(fn *lifetime.Func, e *lifetime.Event) (how string, ok bool) {
	if e.Flags&lifetime.Inferred == 0 {
		return "a pack says " + e.Call + " runs it later", true
	}
	if p.definedHere(e.Call) {
		g := p.calleeAt(fn, e)
		if g == nil {
			return "", false
		}
		if why := p.deferSummaries()[g][fn.ArgIndex(e)]; why != "" {
			return why, true
		}
		return "", false
	}
	if t := p.treeFactsAt(fn, e); t != nil {
		if why := t.Defers[fn.ArgIndex(e)]; why != "" {
			return why + ", in " + esc.Name(t.File), true
		}
		return "", false
	}
	if p.Model.IsDeferName(e.Call) {
		return "", true
	}
	return "", false
}

// storedOnly reports whether a deferral's account says the callable is
// only stored (in a member or a member container) for the object to run
// when asked, rather than handed to something that runs it by itself.
// storedAgain says the call at n (one that stores its argument in a
// member of its receiver) is made again, with the same callee and
// receiver, later in the function and before the offset died.
func storedAgain(f *parser.File, n parser.NodeID, died uint32) bool {
	call := n
	if f.Kind(call) != parser.KindCallExpression {
		call = f.Ancestor(n, parser.KindCallExpression)
	}
	if call == parser.None {
		return false
	}
	callee := f.Text(f.Field(call, parser.FieldFunction))
	for j := f.End(call); int(j) < len(f.Nodes) && f.Nodes[j].Start < died; j++ {
		if f.Nodes[j].Kind == parser.KindCallExpression && f.Text(f.Field(j, parser.FieldFunction)) == callee {
			return true
		}
	}
	return false
}

func storedOnly(how string) bool {
	return strings.Contains(how, "stores it in a member") || strings.Contains(how, "puts it into member")
}

// deferSummaries maps each function the file defines to the parameters it
// keeps for later or defers: stores in a member, puts into a member
// container, or hands to a call that defers it (a pack's defer role, or
// another such function), with what it does.
func (p *Pass) deferSummaries() map[*lifetime.Func]map[int]string {
	if p.defers == nil {
		p.defers = summarise(p, func(f *lifetime.Func, known map[*lifetime.Func]map[int]string) map[int]string {
			facts := map[int]string{}
			for i, v := range f.Params() {
				if why := keptForLater(p, f, v, known); why != "" {
					facts[i] = why
				}
			}
			return facts
		})
	}
	return p.defers
}

// keptForLater says how function f keeps its parameter v past the call:
// "" when it does not (or not in a way holdfast can tell).
func keptForLater(p *Pass, f *lifetime.Func, v lifetime.VarID, known map[*lifetime.Func]map[int]string) string {
	name := shortName(f.Name)
	for _, k := range f.EventsOf(v) {
		e := &f.Events[k]
		switch {
		case e.Kind == lifetime.Store && e.Other == v && e.Flags&lifetime.Member != 0:
			return fmt.Sprintf("%s stores it in a member", name)
		case (e.Kind == lifetime.Move || e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0) && e.Var == v:
			c, arg := handedTo(f, e.Node)
			if c == parser.None {
				continue
			}
			callee := calleeText(p.File, c)
			for j := range f.Events {
				r := &f.Events[j]
				if r.Node == c && r.Kind == lifetime.Use && r.Flags&lifetime.Member != 0 && r.Flags&lifetime.Receiver != 0 && r.Text != "" {
					return fmt.Sprintf("%s puts it into member '%s'", name, r.Text)
				}
			}
			if p.Model.Call(callee)&apimodel.Defer != 0 {
				return fmt.Sprintf("%s hands it to %s, which runs it later", name, callee)
			}
			if g := p.callee(callee, argCount(p.File, c)); g != nil && g != f && known[g][arg] != "" {
				return fmt.Sprintf("%s hands it to %s (%s)", name, callee, known[g][arg])
			}
			if t := p.treeFacts(callee, argCount(p.File, c)); t != nil && t.Defers[arg] != "" {
				return fmt.Sprintf("%s hands it to %s (%s)", name, callee, t.Defers[arg])
			}
		}
	}
	return ""
}

// handedTo returns the call node n is an argument of, looking through
// std::move and std::forward, and the argument's index.
func handedTo(f *lifetime.Func, n parser.NodeID) (parser.NodeID, int) {
	file := f.File
	for n != parser.None {
		list := file.Nodes[n].Parent
		if list == parser.None || file.Kind(list) != parser.KindArgumentList {
			if list != parser.None && file.Kind(list) == parser.KindParenthesizedExpression {
				n = list
				continue
			}
			return parser.None, -1
		}
		c := file.Nodes[list].Parent
		if c == parser.None || file.Kind(c) != parser.KindCallExpression {
			return parser.None, -1
		}
		switch calleeText(file, c) {
		case "move", "forward":
			n = c
			continue
		}
		i := 0
		for a := range file.NamedChildren(list) {
			if a == n {
				return c, i
			}
			if file.Kind(a) != parser.KindComment {
				i++
			}
		}
		return parser.None, -1
	}
	return parser.None, -1
}

// calleeText returns the last component of the name call node c calls
// (obj->deferToLoop, std::forward<F>: deferToLoop, forward).
func calleeText(file *parser.File, c parser.NodeID) string {
	t := file.Text(file.Field(c, parser.FieldFunction))
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndexAny(t, ".>:"); i >= 0 {
		t = t[i+1:]
	}
	return strings.TrimSpace(t)
}

// argCount returns the number of arguments of call node c.
func argCount(file *parser.File, c parser.NodeID) int {
	n := 0
	for a := range file.NamedChildren(file.Field(c, parser.FieldArguments)) {
		if file.Kind(a) != parser.KindComment {
			n++
		}
	}
	return n
}

// executorDiesFirst reports whether the loop or pool of Defer event e is a
// local of fn that dies before captured value v: destroying it (which
// drains or joins it, as a rule) comes first.
func executorDiesFirst(fn *lifetime.Func, e *lifetime.Event, v lifetime.VarID) bool {
	x := fn.Var(e.Var)
	if x == nil || x.Param || x.Static || x.Kind == lifetime.Reference || x.Kind == lifetime.Pointer {
		return false
	}
	xd, vd := fn.ScopeExitOf(e.Var), fn.ScopeExitOf(v)
	if xd == nil {
		return false
	}
	if vd == nil {
		return true
	}
	return xd.At < vd.At || xd.At == vd.At && x.At > fn.Var(v).At
}

func reportDeferredLocal(p *Pass, fn *lifetime.Func, e *lifetime.Event, v *lifetime.Var, died *lifetime.Event, how string, callers bool, pw partialWaits) {
	what := "local"
	switch {
	case callers:
		what = "reference parameter"
	case v.Param:
		what = "parameter"
	}
	var msg string
	if callers {
		msg = fmt.Sprintf("the lambda handed to %s captures the caller's '%s' by reference and nothing keeps it alive",
			e.Call, v.Name)
	} else {
		msg = fmt.Sprintf("the lambda handed to %s captures %s '%s' by reference, which dies at line %d",
			e.Call, what, v.Name, p.Line(died.At))
	}
	queue := e.Call
	if e.Text != "" {
		queue = e.Text
	}
	cb := p.Step(fn, diag.StepCallback, e, queue, v.Name, fmt.Sprintf("a lambda holding a reference to '%s' is handed to %s", v.Name, e.Call))
	if how == "" {
		cb.Assumed = true
		cb.Message = fmt.Sprintf("assumed: %s, which holdfast cannot see, runs the lambda after returning, as its name says", e.Call)
	} else {
		cb.Message += fmt.Sprintf(", which may run it after returning (%s)", how)
	}
	w := []diag.Step{cb}
	if pw.loop != nil {
		w = append(w, loopWait(p, fn, pw.loop, queue))
	}
	death := p.Step(fn, diag.StepOwnerDies, died, v.Name, "", fmt.Sprintf("'%s' dies here and nothing waited for the lambda: it can still run and use it", v.Name))
	if pw.loop == nil && pw.branch != nil {
		death.Message = fmt.Sprintf("'%s' dies here, and the only wait for the lambda (line %d) is %s: the lambda can still run and use it", v.Name, p.Line(pw.branch.At), pw.gap())
	}
	if callers {
		death.Assumed = true
		death.Message = fmt.Sprintf("assumed: after %s returns, a caller holdfast cannot see destroys the object '%s' refers to before the lambda runs: capture a strong reference or a copy", shortName(enclosing(fn).Name), v.Name)
	}
	w = append(w, death)
	p.Report(fn, e.At, p.nodeEnd(e), msg, "defer:"+v.Name+":"+e.Call, w)
}
