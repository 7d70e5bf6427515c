package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

func useAfterCalleeFrees() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-B002",
			Name:      "use-after-callee-frees",
			Class:     "B",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "a pointer is used after a function of the scanned tree that frees what it points to was called with it",
			Help: `What it does: summarises every function of the scanned tree (the file's
own, and the other files' through the whole-tree summaries): which of its
pointer parameters it frees on every path (free, delete, an allocator's
free the API model names, or a call of another such function with the
parameter). At each call of such a function with a local pointer
or a parameter, it reports a later use of that pointer (a member read or
written through it, the pointer handed to a call) when no return, no goto
to a label past the use, no call that never returns (abort, exit, a
function declared noreturn or ending in such a call, a macro expanding
to one) and no new assignment of the pointer (nor its address handed to
a call, f(&p), nor the call's own result, p = merge(p, q)) come in
between. Handing the pointer to a function of the tree that reads none
of what it points to is no use: one that only compares it, or that gives
the parameter a new value before reading it (p = reopen(p, name)).

Why it is bad: after the call the pointer dangles; the memory it points
to may already belong to the next allocation. A cleanup helper that frees
its argument is easy to forget at the call site (IREE's queue actions were
written to after their cleanup freed them).

Known problems: a loop body that continues right after the call (the use
is then on the next iteration, of another object) is not told apart from a
fall through; a function defined outside the scanned tree (a library's) is
not summarised: only the API model can say that it frees.`,
			Example: diag.Example{
				Bad: `static void action_cleanup(action_t* action) {
  iree_allocator_free(action->allocator, action);
}
void process(action_t* action) {
  action_cleanup(action);
  action->event_count = 0;   // action was freed
}`,
				Good: `static void action_cleanup(action_t* action) {
  iree_allocator_free(action->allocator, action);
}
void process(action_t* action) {
  action->event_count = 0;
  action_cleanup(action);
}`,
			},
			Fix:  "use the pointer before the call that frees it, or copy what is needed out of it first",
			Hint: "use the pointer before the call that frees it, or copy what you need",
			Tags: []string{"memory-safety", "use-after-free", "lifetime"},
			CWE:  []int{416},
		},
		Check: checkUseAfterCalleeFrees,
	}
}

func checkUseAfterCalleeFrees(p *Pass, fn *lifetime.Func) {
	frees := p.freeSummaries()
	for i := range fn.Events {
		c := &fn.Events[i]
		v := pointerArgument(fn, c)
		if v == nil || !frees[p.calleeAt(fn, c)][fn.ArgIndex(c)] && !p.treeFactsAt(fn, c).FreesArg(fn.ArgIndex(c)) {
			continue
		}
		if p.notRunArgument(c.Node) {
			continue
		}
		if use := useAfterSkipping(fn, i, p.valueOnly(fn)); use != nil {
			reportUseAfterCalleeFrees(p, fn, c, use, v)
		}
	}
}

// pointerArgument returns the pointer variable event c hands to a call as
// an argument, or nil.
func pointerArgument(fn *lifetime.Func, c *lifetime.Event) *lifetime.Var {
	if c.Kind != lifetime.Use || c.Flags&lifetime.Argument == 0 || c.Var == lifetime.NoVar {
		return nil
	}
	if v := fn.Var(c.Var); v.Kind == lifetime.Pointer {
		return v
	}
	return nil
}

// valueOnly returns a skip function for useAfterSkipping that passes over
// a pointer handed to a call known not to reach what it points to (a
// function of the file or of the tree that only keys a table with it,
// logs or compares it).
func (p *Pass) valueOnly(fn *lifetime.Func) func(*lifetime.Event) bool {
	return func(e *lifetime.Event) bool {
		return e.Flags&lifetime.Argument != 0 && !p.mayReachArg(fn, e)
	}
}

// mayReachArg reports whether the call of argument event e may reach what
// that argument points to: for a function of the file, its body says
// (mayReach); for one of another file, the tree's summary; any other call
// may.
func (p *Pass) mayReachArg(fn *lifetime.Func, e *lifetime.Event) bool {
	if r := p.Model.Call(e.Call); r == apimodel.Const || toInteger(fn.File, e.Node) {
		return false // a lookup key, an integer
	} else if core.Printed(fn.File, e.Node) {
		return false // printed by its value (%p)
	} else if r != 0 {
		return true
	}
	if g := p.calleeAt(fn, e); g != nil || p.definedHere(e.Call) {
		return g == nil || p.mayReach(g, fn.ArgIndex(e))
	}
	if t := p.treeFactsAt(fn, e); t != nil {
		return t.ReachesArg(fn.ArgIndex(e))
	}
	return true
}

// mayReach reports whether function f may reach what its pointer
// parameter i points to: its body dereferences it (p->x, *p, p[i]), copies
// it where holdfast does not follow, or hands it to a call other than a
// lookup or one of the file known not to (followed three calls deep).
func (p *Pass) mayReach(f *lifetime.Func, i int) bool {
	return p.mayReachDepth(f, i, 3)
}

func (p *Pass) mayReachDepth(f *lifetime.Func, i, depth int) bool {
	ps := f.Params()
	if i < 0 || i >= len(ps) || depth == 0 {
		return true
	}
	v := ps[i]
	killed := overwrittenAt(f, v)
	for _, k := range f.EventsOf(v) {
		e := &f.Events[k]
		if e.At >= killed {
			continue // the parameter holds another value by then
		}
		switch {
		case e.Kind == lifetime.Assign && e.Other == v, e.Kind == lifetime.Store && e.Other == v,
			e.Kind == lifetime.Capture && e.Var == v, e.Kind == lifetime.Return && e.Var == v:
			return true // copied where holdfast does not follow it
		case e.Kind != lifetime.Use || e.Var != v:
		case e.Flags&lifetime.Argument != 0:
			if toInteger(f.File, e.Node) || p.Model.Call(e.Call) == apimodel.Const {
				continue // (uintptr_t)p, table.find(p): a key, not an access
			}
			if p.Model.Call(e.Call) != 0 || !p.definedHere(e.Call) {
				return true
			}
			if g := p.calleeAt(f, e); g == nil || g == f || p.mayReachDepth(g, f.ArgIndex(e), depth-1) {
				return true
			}
		case reachesPointee(f.File, e.Node):
			return true
		}
	}
	return false
}

// overwrittenAt is the byte offset from which parameter v of f holds a
// value the body gave it on every path: the end of the first assignment
// to it in the body's own statements (p = q; p = open(...); not one
// under an if or in a loop), or past the end of the function when there
// is none. What the caller passed is not read after it.
func overwrittenAt(f *lifetime.Func, v lifetime.VarID) uint32 {
	end := ^uint32(0)
	for _, k := range f.EventsOf(v) {
		e := &f.Events[k]
		if e.Kind != lifetime.Assign && e.Kind != lifetime.Result || e.Var != v || int(e.Scope) < 0 || int(e.Scope) >= len(f.Scopes) || f.Scopes[e.Scope].Parent != -1 {
			continue
		}
		n := e.Node
		for n != parser.None && f.File.Kind(n) != parser.KindAssignmentExpression {
			n = f.File.Nodes[n].Parent
		}
		if n == parser.None || f.File.Kind(f.File.Nodes[n].Parent) != parser.KindExpressionStatement {
			continue
		}
		if at := f.File.Nodes[n].End; at < end {
			end = at
		}
	}
	return end
}

// toInteger reports whether the pointer at node n is converted to an
// integer ((uintptr_t)p, reinterpret_cast<intptr_t>(p)): only its value
// goes on.
func toInteger(file *parser.File, n parser.NodeID) bool {
	par := file.Nodes[n].Parent
	if par == parser.None {
		return false
	}
	var typ string
	switch file.Kind(par) {
	case parser.KindCastExpression:
		typ = file.Text(file.Field(par, parser.FieldType))
	case parser.KindArgumentList:
		c := file.Nodes[par].Parent
		if c == parser.None || file.Kind(c) != parser.KindCallExpression {
			return false
		}
		callee := file.Text(file.Field(c, parser.FieldFunction))
		rest, ok := strings.CutPrefix(callee, "reinterpret_cast<")
		if !ok {
			return false
		}
		typ = strings.TrimSuffix(rest, ">")
	default:
		return false
	}
	switch strings.TrimPrefix(strings.TrimSpace(typ), "std::") {
	case "uintptr_t", "intptr_t", "size_t", "uint64_t", "int64_t", "long", "unsigned long", "long long", "unsigned long long":
		return true
	}
	return false
}

// useAfterSkipping is useAfterFree with uses for which skip says true passed over.
func useAfterSkipping(fn *lifetime.Func, i int, skip func(*lifetime.Event) bool) *lifetime.Event {
	c := &fn.Events[i]
	for j := i + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		if e.Kind != lifetime.Result && (e.Node == c.Node || fn.Within(e.Node, fn.EnclosingCall(c.Node))) || fn.Exclusive(c.Node, e.Node) {
			continue // the call's own arguments, or another arm of a choice
		}
		switch {
		case e.Kind == lifetime.Return && !fn.Exclusive(c.Node, e.Node):
			return nil
		case e.Var != c.Var:
		case e.Kind == lifetime.Assign, e.Kind == lifetime.Result, e.Kind == lifetime.Declare, e.Kind == lifetime.ScopeExit:
			return nil
		case e.Kind == lifetime.PassRef && e.Flags&lifetime.AddressOf != 0 && e.At > c.At && !fn.JumpsBetween(c.Node, e.Node):
			return nil // f(&p): the call may store a new pointer in p
		case e.Kind == lifetime.Use && e.At > c.At:
			if fn.JumpsBetween(c.Node, e.Node) {
				return nil
			}
			if !reachesPointee(fn.File, e.Node) {
				continue // the pointer's value only: printed, compared, copied
			}
			if skip != nil && skip(e) {
				continue
			}
			return e
		}
	}
	return nil
}

// reachesPointee reports whether the use of a pointer at node n reaches
// what it points to: p->x, *p, p[i], or p handed to a call (which may).
// Printing, comparing or copying the pointer's value does not.
func reachesPointee(file *parser.File, n parser.NodeID) bool {
	switch file.Kind(n) {
	case parser.KindFieldExpression, parser.KindSubscriptExpression:
		return true // the event is the access itself (p->x = 0)
	case parser.KindPointerExpression:
		return strings.HasPrefix(strings.TrimSpace(file.Text(n)), "*")
	}
	for n >= 0 {
		par := file.Nodes[n].Parent
		if par == parser.None {
			return false
		}
		switch file.Kind(par) {
		case parser.KindParenthesizedExpression:
			n = par
			continue
		case parser.KindFieldExpression, parser.KindSubscriptExpression:
			return file.Field(par, parser.FieldArgument) == n
		case parser.KindPointerExpression:
			return strings.HasPrefix(strings.TrimSpace(file.Text(par)), "*")
		case parser.KindArgumentList:
			return true
		}
		return false
	}
	return false
}

// freeSummaries maps each function the file defines to the indexes of
// the pointer parameters it frees on every path: directly, or by passing
// the parameter to another such function.
func (p *Pass) freeSummaries() map[*lifetime.Func]map[int]bool {
	if p.frees == nil {
		p.frees = summarise(p, func(f *lifetime.Func, known map[*lifetime.Func]map[int]bool) map[int]bool {
			frees := func(g *lifetime.Func, e *lifetime.Event) bool {
				return known[p.calleeAt(g, e)][g.ArgIndex(e)] || p.treeFactsAt(g, e).FreesArg(g.ArgIndex(e))
			}
			facts := map[int]bool{}
			freed := freedOnEveryPath(f, frees, nil)
			for i, v := range f.Params() {
				if freed[v] {
					facts[i] = true
				}
			}
			return facts
		})
	}
	return p.frees
}

// freedOnEveryPath returns the pointer parameters f frees, or hands to a
// function known to free them, on every path: in no branch or loop, with
// no return before it other than one taken only when the pointer is null,
// and before the first macro that may return early. One pass over the
// events decides every parameter.
//
// forward, when set, is told of each argument use of a parameter still
// open, on every path, whose callee known does not say frees it: the
// parameter is freed there if the callee turns out to free it.
func freedOnEveryPath(f *lifetime.Func, known func(*lifetime.Func, *lifetime.Event) bool, forward func(lifetime.VarID, *lifetime.Event)) map[lifetime.VarID]bool {
	open := map[lifetime.VarID]bool{} // parameters not yet decided
	for _, v := range f.Params() {
		if f.Vars[v].Kind == lifetime.Pointer {
			open[v] = true
		}
	}
	freed := map[lifetime.VarID]bool{}
	if len(open) == 0 {
		return freed
	}
	exitAt := firstErrorExit(f)
	for i := range f.Events {
		e := &f.Events[i]
		if e.At > exitAt || len(open) == 0 {
			break
		}
		if e.Kind == lifetime.Return {
			for v := range open {
				if !f.NullGuarded(e.Node, f.Vars[v].Name) {
					delete(open, v) // a return before any free
				}
			}
			continue
		}
		if !open[e.Var] || gapTo(f, e.Scope, 0) != everyPath {
			continue
		}
		v := e.Var
		switch {
		case e.Kind == lifetime.Free && strings.TrimSpace(e.Text) == f.Vars[v].Name,
			e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0 && known(f, e):
			freed[v] = true
			delete(open, v)
		case e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0 && forward != nil:
			forward(v, e)
		}
	}
	return freed
}

// forwards returns the hand-offs of g's pointer parameters, on every
// path before it frees them, to calls of functions the file does not
// define (see summary.Func.Forwards); frees are the file's own free
// summaries.
func (p *Pass) forwards(g *lifetime.Func, frees map[*lifetime.Func]map[int]bool) []summary.Forward {
	params := map[lifetime.VarID]int{}
	for i, v := range g.Params() {
		params[v] = i
	}
	var out []summary.Forward
	known := func(h *lifetime.Func, e *lifetime.Event) bool {
		return frees[p.calleeAt(h, e)][h.ArgIndex(e)]
	}
	freedOnEveryPath(g, known, func(v lifetime.VarID, e *lifetime.Event) {
		i, ok := params[v]
		arg := g.ArgIndex(e)
		if !ok || arg < 0 || frees[g][i] {
			return
		}
		if c, ok := p.treeCall(g, e); ok {
			out = append(out, summary.Forward{Param: i, Arg: arg, Call: c})
		}
	})
	return out
}

// firstErrorExit returns the offset of the first macro in f's body that
// may return early (IREE_RETURN_IF_ERROR): a free after it is not on every
// path. The largest offset when there is none.
func firstErrorExit(f *lifetime.Func) uint32 {
	exitAt := ^uint32(0)
	walkExits(f.File, f.Node, func(n parser.NodeID, how string) bool {
		if how != "return" {
			exitAt = f.File.Nodes[n].Start
			return false
		}
		return true
	})
	return exitAt
}

func reportUseAfterCalleeFrees(p *Pass, fn *lifetime.Func, c, use *lifetime.Event, v *lifetime.Var) {
	callee := shortName(c.Call)
	msg := fmt.Sprintf("'%s' is used at line %d after %s, which frees what it points to, was called with it at line %d",
		v.Name, p.Line(use.At), callee, p.Line(c.At))
	obj := "*" + v.Name
	decl := &lifetime.Event{Node: v.Decl, At: v.At, Call: v.Type}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, decl, obj, "", fmt.Sprintf("'%s' points to an object on the heap", v.Name)),
		p.Step(fn, diag.StepBorrow, decl, v.Name, obj, fmt.Sprintf("'%s' points to it", v.Name)),
	}
	// A reference taken before the call (a retain the API model names)
	// is part of the story: the replay says whether the object survives.
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At < c.At && e.Var == c.Var && e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0 && p.Model.Call(e.Call)&apimodel.Keep != 0 {
			w = append(w, p.Step(fn, diag.StepStore, e, obj, "a reference taken by "+e.Call, fmt.Sprintf("%s takes a reference to it", e.Call)))
		}
	}
	w = append(w,
		p.Step(fn, diag.StepOwnerDies, c, obj, "", fmt.Sprintf("%s frees it on every path (its body, %s)", callee, p.whereDefined(fn, c))),
		p.Step(fn, diag.StepUse, use, v.Name, "", fmt.Sprintf("'%s' is used here, after its pointee was freed", v.Name)))
	p.Report(fn, use.At, p.nodeEnd(use), msg, "freed-by:"+callee+":"+v.Name, w)
}

// notRunArgument says node n lies in an argument of a macro call that
// the macro names only where it returns or in a lambda (see
// summary.Exit.NotRun): the code after the macro has not run it there.
func (p *Pass) notRunArgument(n parser.NodeID) bool {
	f := p.File
	for c := n; c != parser.None; c = f.Nodes[c].Parent {
		list := f.Nodes[c].Parent
		if list == parser.None || f.Kind(list) != parser.KindArgumentList {
			continue
		}
		call := f.Nodes[list].Parent
		fn := f.Field(call, parser.FieldFunction)
		if f.Kind(call) != parser.KindCallExpression || f.Kind(fn) != parser.KindIdentifier {
			continue
		}
		skip := p.summaries().MacroNotRun(f.Text(fn))
		if len(skip) == 0 {
			continue
		}
		k := 0
		for a := range f.NamedChildren(list) {
			if a == c {
				return slices.Contains(skip, k)
			}
			k++
		}
	}
	return false
}
