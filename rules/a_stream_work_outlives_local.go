package rules

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/core"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func streamWorkOutlivesLocal() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-A005",
			Name:      "stream-work-outlives-local",
			Class:     "A",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "work queued on a stream or command buffer reads a local that dies before the work runs, with no wait and nothing keeping it alive",
			Help: `What it does: finds device work that has no future of its own (a copy or
kernel encoded into a command buffer, or a copy queued on a stream, by a
call the API model gives the encode role: it does not keep its inputs;
MLX's copy_gpu, StreamExecutor's Memcpy)
and that reads a local owner (an array, a tensor, a staging buffer), when
the local dies at the end of its scope with no wait for the stream on the
way, and nothing keeps it alive: it is not added to the temporaries the
command buffer releases on completion (add_temporary), not stored in a
container or member, not moved, not captured, not returned and not handed
to any call holdfast cannot see (which may keep it). When a wait covers
the end of the scope, every early exit between the work and that wait (a
return, or a macro that returns on error such as TF_RETURN_IF_ERROR) is a
path on which the local dies too, and is checked the same way. A parameter
of a type the API lends only for the call (a pack's borrowed types:
IREE's HAL semaphore lists and buffers) read by such work is reported too,
latent, when the function neither keeps it (a retain, a resource set's
insert) nor waits before returning.

Why it is bad: encoding work does not run it. The command buffer runs
after the host has moved on; by then the local's buffer has gone back to
the allocator, which can hand it to the next allocation. The kernel reads
whatever is there (MLX's zero scalars passed to copy_gpu were fixed this
way).

Known problems: a stream that the caller always synchronises before the
function returns is not seen.`,
			Example: diag.Example{
				Bad: `void fill_zero(array& out, const Stream& s) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);   // read when the command buffer runs
}                                             // zero is freed here`,
				Good: `void fill_zero(array& out, const Stream& s, metal::Device& d) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);
  d.add_temporary(zero, s.index);             // released when the work completes
}`,
			},
			Fix:  "keep the local alive until the work completes: add it to the command buffer's temporaries, capture it in the completion handler, or wait for the stream before it dies",
			Hint: "keep the local alive until the queued work completes",
			Tags: []string{"memory-safety", "use-after-free", "async", "lifetime"},
			CWE:  []int{416},
		},
		Check: checkStreamWorkOutlivesLocal,
	}
}

func checkStreamWorkOutlivesLocal(p *Pass, fn *lifetime.Func) {
	// The core's device: a local's memory out of scope under queued work.
	p.reportCoreIf(fn, func(fl core.Fault) bool { return fl.Kind == core.DeviceUseAfterFree && fl.Via == "}" })
	seen := map[lifetime.VarID]bool{}
	for _, c := range encodedOperands(p, fn, p.encodeSummaries()) {
		a, op := c.work, c.op
		if op.Flags&lifetime.Temporary != 0 {
			reportTemporary(p, fn, a, op)
			continue
		}
		if seen[op.Var] {
			continue
		}
		v := fn.Var(op.Var)
		if v != nil && v.Param && p.Model.IsBorrowed(v.Base) && fn.Kind != lifetime.LambdaFunc {
			if !borrowedKept(p, fn, op.Var, a) && !awaitedAfter(fn, c.index) {
				seen[op.Var] = true
				reportBorrowedParam(p, fn, a, v)
			}
			continue
		}
		if v == nil || v.Param || v.Static || v.Captured || v.Outer != lifetime.NoVar || v.Kind == lifetime.Reference || v.Kind == lifetime.Pointer {
			continue
		}
		if v.Kind != lifetime.Container && v.Kind != lifetime.Owner || !ownsMemory(p.Model, fn, v) || aliased(fn, op.Var, c.index) {
			continue
		}
		died := fn.ScopeExitOf(op.Var)
		if died == nil || resultKept(p, fn, op.Var) {
			continue
		}
		exit := false
		if keptOrAwaited(p, fn, op.Var, c.index, died) {
			// Every path to the end of the scope waits or keeps it: an
			// early exit before that wait may not.
			if died = uncoveredExit(p, fn, op.Var, c.index, died); died == nil {
				continue
			}
			exit = true
		}
		seen[op.Var] = true
		msg := fmt.Sprintf("%s queues work that reads '%s', which dies at line %d before the work can run",
			a.Call, v.Name, p.Line(died.At))
		if exit {
			msg = fmt.Sprintf("%s queues work that reads '%s', which dies at the early exit at line %d, before the wait",
				a.Call, v.Name, p.Line(died.At))
		}
		decl := &lifetime.Event{Node: v.Decl, At: v.At, Call: v.Type}
		how := fmt.Sprintf("%s encodes work that reads '%s' when the stream runs it", a.Call, v.Name)
		if c.via != "" {
			how = fmt.Sprintf("%s encodes work on '%s' (%s)", a.Call, v.Name, c.via)
		}
		death := p.Step(fn, diag.StepOwnerDies, died, v.Name, "", fmt.Sprintf("'%s' dies here; the queued work has not run: nothing waits for the stream and nothing keeps '%s' alive", v.Name, v.Name))
		if exit {
			death.Message = fmt.Sprintf("'%s' dies when %s leaves the function here, while the work may still run; the wait that covers the other paths comes after this exit", v.Name, died.Call)
		}
		if from := sharedSource(p, fn, op.Var); from != "" {
			// A handle the function did not build itself may share its
			// buffer with one that outlives the function.
			death.Assumed = true
			death.Message += fmt.Sprintf(" (assumed: the handle %s shares its buffer with nothing that outlives the function)", from)
		}
		w := []diag.Step{
			p.Step(fn, diag.StepDeclare, decl, v.Name, "", fmt.Sprintf("'%s' (%s) owns the buffer", v.Name, v.Type)),
			p.Step(fn, diag.StepAsync, a, v.Name, streamOf(p, fn, a), how),
			death,
		}
		p.Report(fn, a.At, p.nodeEnd(a), msg, "stream-local:"+v.Name+":"+a.Call, w)
	}
}

// inReturn reports whether node n is part of the value a return statement
// returns (lambdas left out).
func inReturn(file *parser.File, n parser.NodeID) bool {
	for m := file.Nodes[n].Parent; m != parser.None; m = file.Nodes[m].Parent {
		switch file.Kind(m) {
		case parser.KindReturnStatement:
			return true
		case parser.KindLambdaExpression, parser.KindCompoundStatement, parser.KindExpressionStatement:
			return false
		}
	}
	return false
}

// borrowedKept reports whether fn hands parameter v to a keep call, or to
// code that may keep it, other than to compute an argument of the work
// call a itself (encode(handle_of(v))).
func borrowedKept(p *Pass, fn *lifetime.Func, v lifetime.VarID, a *lifetime.Event) bool {
	work := a.Node
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Var != v || e.Kind != lifetime.Use && e.Kind != lifetime.PassRef {
			continue
		}
		c := fn.EnclosingCall(e.Node)
		if c == parser.None || work >= 0 && fn.Within(c, work) {
			continue
		}
		name := calleeText(p.File, c)
		if p.Model.Call(name)&apimodel.Keep != 0 || p.Model.Call(name) == 0 && p.mayKeepCall(fn, c, e.Node) {
			return true
		}
	}
	return false
}

// awaitedAfter reports whether fn waits (or orders work) after event ai
// on every path to its end.
func awaitedAfter(fn *lifetime.Func, ai int) bool {
	for j := ai + 1; j < len(fn.Events); j++ {
		if w := &fn.Events[j]; (w.Kind == lifetime.Wait || w.Kind == lifetime.Sync) && gapTo(fn, w.Scope, 0) == everyPath {
			return true
		}
	}
	return false
}

// reportBorrowedParam reports encoded work a that reads parameter v, a
// value the API lends a function only for the call, when nothing keeps it
// for the work: latent, since the caller's release is outside the file.
func reportBorrowedParam(p *Pass, fn *lifetime.Func, a *lifetime.Event, v *lifetime.Var) {
	msg := fmt.Sprintf("%s queues work that reads '%s', which the caller lends only for this call; nothing keeps it",
		a.Call, v.Name)
	decl := &lifetime.Event{Node: v.Decl, At: v.At, Call: v.Type}
	death := p.Step(fn, diag.StepOwnerDies, endOf(fn), v.Name, "",
		fmt.Sprintf("assumed: the caller releases what '%s' holds once the call returns, as the API allows; nothing keeps it for the work: no retain, no resource set, no wait before the function returns", v.Name))
	death.Assumed = true
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, decl, v.Name, "", fmt.Sprintf("'%s' (%s) is lent by the caller for the call", v.Name, v.Type)),
		p.Step(fn, diag.StepAsync, a, v.Name, streamOf(p, fn, a), fmt.Sprintf("%s encodes work that reads '%s' when the device runs it", a.Call, v.Name)),
		death,
	}
	p.Report(fn, a.At, p.nodeEnd(a), msg, "borrowed-param:"+v.Name+":"+a.Call, w)
}

// uncoveredExit returns the first early exit from fn (a return, or a
// macro that returns on error, such as TF_RETURN_IF_ERROR) after work
// event ai and before v dies at died, on a path from the work, where
// neither a wait on every path to it nor a keep of v came first; the exit
// is returned as v's death there. nil when there is none.
func uncoveredExit(p *Pass, fn *lifetime.Func, v lifetime.VarID, ai int, died *lifetime.Event) *lifetime.Event {
	a := &fn.Events[ai]
	from := p.nodeEnd(a)
	var out *lifetime.Event
	walkExits(p.File, fn.Node, func(n parser.NodeID, how string) bool {
		start, at := p.File.Nodes[n].Start, p.File.Nodes[n].End-1 // it leaves after evaluating its operand
		if start < from || at >= died.At || fn.Exclusive(a.Node, n) {
			return true
		}
		x := &lifetime.Event{Kind: lifetime.ScopeExit, Node: n, At: at, Scope: scopeAt(fn, at), Var: v, Other: lifetime.NoVar, Owner: lifetime.NoVar, Call: how}
		if keptOrAwaited(p, fn, v, ai, x) {
			return true
		}
		out = x
		return false
	})
	return out
}

// walkExits calls visit, in source order, for each return statement and
// each call of a macro that returns on error (an all-capitals name with
// the word RETURN) in the body of n, lambdas left out; visit returns
// false to stop.
func walkExits(file *parser.File, n parser.NodeID, visit func(n parser.NodeID, how string) bool) bool {
	for c := range file.NamedChildren(n) {
		switch file.Kind(c) {
		case parser.KindLambdaExpression:
			continue
		case parser.KindReturnStatement:
			if !visit(c, "return") {
				return false
			}
			continue
		case parser.KindCallExpression:
			if name := file.Text(file.Field(c, parser.FieldFunction)); exitMacro(name) && !visit(c, name) {
				return false
			}
		}
		if !walkExits(file, c, visit) {
			return false
		}
	}
	return true
}

// exitMacro reports whether a callee name is a macro that returns from
// the function on error: all capitals, with RETURN among its words
// (TF_RETURN_IF_ERROR, IREE_RETURN_IF_ERROR, ASSIGN_OR_RETURN).
func exitMacro(name string) bool {
	if name == "" || strings.ToUpper(name) != name {
		return false
	}
	return slices.Contains(strings.Split(name, "_"), "RETURN")
}

// resultKept reports whether v was initialised from a call of a function
// or named lambda of the file that returns only its parameters (which the
// caller keeps) or values it handed to a keep call (add_temporary): then
// whatever v holds is kept alive with the work.
func resultKept(p *Pass, fn *lifetime.Func, v lifetime.VarID) bool {
	name := fn.InitCallee(v)
	if name == "" {
		return false
	}
	var f *lifetime.Func
	for j := range fn.Vars {
		if l := &fn.Vars[j]; l.Kind == lifetime.Lambda && l.Name == name && l.Fn != nil {
			f = l.Fn
		}
	}
	if f == nil {
		f = p.callee(name, -1)
	}
	return f != nil && keepsResult(p, f)
}

// keepsResult reports whether every return of f returns a parameter or a
// value f handed to a keep call.
func keepsResult(p *Pass, f *lifetime.Func) bool {
	returns := 0
	for i := range f.Events {
		r := &f.Events[i]
		if r.Kind != lifetime.Return {
			continue
		}
		returns++
		x := f.Var(r.Var)
		if x == nil {
			return false
		}
		if x.Param || x.Captured && x.Outer != lifetime.NoVar {
			continue
		}
		kept := false
		for j := range f.Events {
			k := &f.Events[j]
			if k.Var == r.Var && k.Kind == lifetime.Use && k.Flags&lifetime.Argument != 0 && k.At < r.At && p.Model.Call(k.Call)&apimodel.Keep != 0 {
				kept = true
			}
		}
		if !kept {
			return false
		}
	}
	return returns > 0
}

// sharedSource says where a reference-counted handle v got a buffer it
// may share with another handle: from a call's result ("returned by f")
// or from another value ("copied from x"); "" when the function built it
// itself (a constructor with its shape, a scalar) or the type is not
// reference counted.
func sharedSource(p *Pass, fn *lifetime.Func, v lifetime.VarID) string {
	x := fn.Var(v)
	if !shared(p.Model, x) && !p.Model.IsHandle(x.Type) {
		return ""
	}
	for i := range fn.Events {
		switch e := &fn.Events[i]; {
		case e.Var != v:
		case e.Kind == lifetime.Construct:
			return ""
		case e.Kind == lifetime.Assign && e.Other != lifetime.NoVar:
			return "copied from '" + fn.VarName(e.Other) + "'"
		}
	}
	if !x.FromCall {
		return ""
	}
	if f := fn.InitCallee(v); f != "" {
		return "returned by " + f
	}
	return "returned by a call"
}

// encoded is a value handed to work encoded into a command buffer: the
// call (an encode-role call, or a function of the file that encodes that
// argument), its event index, and the operand.
type encoded struct {
	work, op *lifetime.Event
	index    int
	via      string // for a function of the file: what it calls
}

// encodedOperands returns the values fn hands to encoded work, in order,
// with enc the file's functions that encode their arguments.
func encodedOperands(p *Pass, fn *lifetime.Func, enc map[*lifetime.Func]map[int]string) []encoded {
	var out []encoded
	for ai := range fn.Events {
		a := &fn.Events[ai]
		switch {
		case a.Kind == lifetime.Async && a.Var == lifetime.NoVar && a.Flags&lifetime.Inferred == 0:
			roles := p.Model.Call(a.Call)
			if roles&apimodel.Encode == 0 || roles&(apimodel.Yield|apimodel.Keep) != 0 {
				continue // only calls an API model says encode without keeping their inputs
			}
			for j := ai + 1; j < len(fn.Events); j++ {
				op := &fn.Events[j]
				if op.Node != a.Node && op.At > p.nodeEnd(a) {
					break
				}
				if op.Kind == lifetime.Operand && op.Node == a.Node {
					out = append(out, encoded{work: a, op: op, index: ai})
				}
			}
		case a.Kind == lifetime.Use && a.Flags&lifetime.Argument != 0 && a.Var != lifetime.NoVar:
			if via, ok := enc[p.calleeAt(fn, a)][fn.ArgIndex(a)]; ok {
				out = append(out, encoded{work: a, op: a, index: ai, via: via + ", in this file"})
			} else if t := p.treeFactsAt(fn, a); t != nil && t.Encodes[fn.ArgIndex(a)] != "" {
				out = append(out, encoded{work: a, op: a, index: ai, via: t.Encodes[fn.ArgIndex(a)] + ", in " + esc.Name(t.File)})
			}
		}
	}
	return out
}

// encodeSummaries maps each function the file defines to the parameters
// it hands to encoded work (directly, or through another such function),
// with the call that does.
func (p *Pass) encodeSummaries() map[*lifetime.Func]map[int]string {
	if p.encodes == nil {
		p.encodes = summarise(p, func(f *lifetime.Func, known map[*lifetime.Func]map[int]string) map[int]string {
			index := map[lifetime.VarID]int{}
			for i, v := range f.Params() {
				index[v] = i
			}
			facts := map[int]string{}
			for _, c := range encodedOperands(p, f, known) {
				if i, ok := index[c.op.Var]; ok && facts[i] == "" {
					facts[i] = c.work.Call
				}
			}
			return facts
		})
	}
	return p.encodes
}

// aliased reports whether v, before async event ai, was the receiver of a
// call that takes another value (out_slice.copy_shared_buffer(out, ...)):
// it may share that value's memory rather than own its own.
func aliased(fn *lifetime.Func, v lifetime.VarID, ai int) bool {
	for j := 0; j < ai; j++ {
		r := &fn.Events[j]
		if r.Kind != lifetime.Use || r.Var != v || r.Flags&lifetime.Receiver == 0 {
			continue
		}
		for k := j + 1; k < ai; k++ {
			if o := &fn.Events[k]; o.Kind == lifetime.Use && o.Flags&lifetime.Argument != 0 && o.Var != v && fn.SameCall(r.Node, o.Node) {
				return true
			}
		}
	}
	return false
}

// keptOrAwaited reports whether, in the life of v, the host waits after
// async event ai (or orders work) on a path to the death, or v is kept:
// handed to a keep call, stored, moved, captured, returned, or passed to a
// call holdfast cannot see, which may keep it.
func keptOrAwaited(p *Pass, fn *lifetime.Func, v lifetime.VarID, ai int, died *lifetime.Event) bool {
	for j := range fn.Events {
		e := &fn.Events[j]
		if e.At >= died.At {
			break
		}
		if j < ai && (e.Kind == lifetime.Wait || e.Kind == lifetime.Sync) {
			continue // a wait before the work does not order it
		}
		if j == ai {
			continue
		}
		switch e.Kind {
		case lifetime.Wait, lifetime.Sync:
			// A wait in a loop body goes into the witness (see onPath):
			// the replay decides.
			if gapTo(fn, e.Scope, died.Scope) == everyPath {
				return true
			}
		}
		if e.Var != v && e.Other != v {
			continue
		}
		switch e.Kind {
		case lifetime.Store:
			if e.Other == v && diesUnheld(fn, e.Var, j) {
				continue // into a container that dies with nothing keeping it
			}
			return true
		case lifetime.Move, lifetime.Capture, lifetime.Return, lifetime.PassRef:
			return true
		case lifetime.Use:
			if e.Flags&lifetime.Argument != 0 && (p.Model.Call(e.Call)&apimodel.Keep != 0 || p.unknownCall(e.Call) && p.mayKeepAt(fn, e)) {
				return true
			}
			if e.Flags&lifetime.Argument != 0 && inReturn(fn.File, e.Node) {
				return true // return std::make_tuple(x, ...): the caller gets it
			}
		}
	}
	return false
}

// streamOf names the stream async event a is queued on, or "".
func streamOf(p *Pass, fn *lifetime.Func, a *lifetime.Event) string {
	end := p.nodeEnd(a)
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == lifetime.OnStream && e.At >= a.At && e.At < end && e.Other != lifetime.NoVar {
			return fn.VarName(e.Other)
		}
	}
	return ""
}

// reportTemporary reports an object built in the argument list of encoded
// work: it dies at the end of the statement, before the command buffer
// runs, whatever any other code does.
func reportTemporary(p *Pass, fn *lifetime.Func, a, op *lifetime.Event) {
	end := fn.StatementEnd(a.Node)
	msg := fmt.Sprintf("%s queues work that reads the temporary '%s', which dies at the end of the statement",
		a.Call, op.Text)
	died := &lifetime.Event{Kind: lifetime.ScopeExit, Node: parser.None, At: end - 1, Call: ";"}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, op, op.Text, "", fmt.Sprintf("the temporary %s owns a buffer", op.Text)),
		p.Step(fn, diag.StepAsync, a, op.Text, streamOf(p, fn, a), fmt.Sprintf("%s encodes work that reads it when the stream runs it", a.Call)),
		p.Step(fn, diag.StepOwnerDies, died, op.Text, "", "the temporary dies at the end of the statement; the queued work has not run"),
	}
	p.Report(fn, op.At, p.nodeEnd(op), msg, "stream-temporary:"+op.Text+":"+a.Call, w)
}

// diesUnheld reports whether container c, after event index j, dies at
// its scope's end without being handed on: c is a local or a parameter
// taken by value, and nothing after j (on a path from j: not in another
// arm of a choice) moves, returns, captures, stores or passes it to a
// call.
func diesUnheld(fn *lifetime.Func, c lifetime.VarID, j int) bool {
	v := fn.Var(c)
	if v == nil || v.Kind != lifetime.Container || v.Static || v.Captured || v.Outer != lifetime.NoVar {
		return false
	}
	for k := j + 1; k < len(fn.Events); k++ {
		e := &fn.Events[k]
		if e.Var != c && e.Other != c || fn.Exclusive(fn.Events[j].Node, e.Node) {
			continue // another value, or another arm of a choice than the store's
		}
		switch e.Kind {
		case lifetime.ScopeExit:
			return e.Var == c
		case lifetime.Move, lifetime.Capture, lifetime.Return, lifetime.PassRef, lifetime.Assign:
			return false
		case lifetime.Store:
			if e.Var != c {
				return false // stored elsewhere
			}
		case lifetime.Use:
			if e.Flags&lifetime.Argument != 0 {
				return false
			}
		}
	}
	return v.Param // a by-value parameter dies at the function's end
}

// mayKeepAt reports whether the call of argument event e may keep that
// argument past the call: mayKeep for a function of the file, what the
// tree's summaries say for one of another file, yes for one holdfast
// cannot see.
func (p *Pass) mayKeepAt(fn *lifetime.Func, e *lifetime.Event) bool {
	if g := p.calleeAt(fn, e); g != nil || p.definedHere(e.Call) {
		return p.mayKeep(g, fn.ArgIndex(e))
	}
	if t := p.treeFactsAt(fn, e); t != nil {
		return t.KeepsArg(fn.ArgIndex(e))
	}
	return true
}

// mayKeep reports whether a call of f, a function of the file (nil: one
// holdfast cannot see or cannot tell among overloads), may keep its
// argument i alive past the call: an unseen function may; a function of
// the file does when its body stores, moves, captures or returns that
// parameter, or hands it to a call holdfast cannot see.
func (p *Pass) mayKeep(f *lifetime.Func, i int) bool {
	if f == nil {
		return true
	}
	ps := f.Params()
	if i < 0 || i >= len(ps) {
		return true
	}
	v := ps[i]
	for _, k := range f.EventsOf(v) {
		e := &f.Events[k]
		switch e.Kind {
		case lifetime.Store, lifetime.Move, lifetime.Capture, lifetime.Return, lifetime.PassRef:
			return true
		case lifetime.Use:
			if e.Flags&lifetime.Argument != 0 && p.Model.Call(e.Call) == 0 && !p.definedHere(e.Call) {
				if t := p.treeFactsAt(f, e); t == nil || t.KeepsArg(f.ArgIndex(e)) {
					return true
				}
			}
		}
	}
	return false
}
