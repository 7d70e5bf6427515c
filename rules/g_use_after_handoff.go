package rules

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func useAfterHandoff() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-G004",
			Name:      "use-after-handoff",
			Class:     "G",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "a pointer is used after it was handed, with a completion function that frees it, to code that may run that function at once",
			Help: `What it does: summarises every function of the scanned tree (the file's
own, and the other files' through the whole-tree summaries): which of its
pointer parameters it may free (on some path, directly, through a local
cast from it, or through another such function that frees it).
At a call that is handed such a function (f or &f) followed by its
user-data argument, the C convention for a completion callback and its
context, it reports a later use of that user-data pointer by the caller:
after the call, or in the condition of a loop around it.

Why it is bad: once the completion and its data are handed over, the
completion may run at any time, on another thread, and free the data: a
read after the hand-off races the free. IREE's HIP driver read a field
of its callback data after registering the cleanup that destroys it.

Known problems: whether the callee runs the completion before the
caller's use is the callee's business (an event loop on the same thread
runs it later, safely), so findings are latent: shown with --all.`,
			Example: diag.Example{
				Bad: `static void on_done(void* user_data) {
  op_t* op = (op_t*)user_data;
  free(op);
}
void submit(queue_t* q, op_t* op) {
  queue_add_completion(q, &on_done, op);
  op->submitted = true;   // on_done may have freed op already
}`,
				Good: `static void on_done(void* user_data) {
  op_t* op = (op_t*)user_data;
  free(op);
}
void submit(queue_t* q, op_t* op) {
  op->submitted = true;
  queue_add_completion(q, &on_done, op);
}`,
			},
			Fix:  "read or write what is needed before handing the data over, or copy it into locals first",
			Hint: "use or copy what is needed before handing the data over",
			Tags: []string{"memory-safety", "use-after-free", "concurrency"},
			CWE:  []int{416, 362},
		},
		Check: checkUseAfterHandoff,
	}
}

func checkUseAfterHandoff(p *Pass, fn *lifetime.Func) {
	frees := p.mayFreeSummaries()
	if len(frees) == 0 {
		return
	}
	seen := map[uint32]bool{} // uses reported, so two hand-offs do not report one use twice
	for i := range fn.Events {
		c := &fn.Events[i]
		v := pointerArgument(fn, c)
		if v == nil {
			continue
		}
		cb := completionBefore(fn, c)
		if t := p.treeFacts(cb, -1); cb == "" || !frees[p.callee(cb, -1)] && (t == nil || !t.MayFree) {
			continue
		}
		guard, value := failureGuard(fn, i), p.valueOnly(fn)
		use := useAfterSkipping(fn, i, func(e *lifetime.Event) bool { return value(e) || guard != nil && guard(e) })
		if use == nil && !finalArmElsewhere(fn, i, cb) {
			use = useOnLoopBack(fn, i)
		}
		if use == nil || seen[use.At] {
			continue
		}
		seen[use.At] = true
		reportUseAfterHandoff(p, fn, c, use, v, cb)
	}
}

// failureGuard returns a test of uses that run only when the call of
// event i failed: in the then-branch of an if whose condition negates the
// status the call's result was stored in (if (!is_ok(status))). A failed
// hand-off handed nothing over.
func failureGuard(fn *lifetime.Func, i int) func(*lifetime.Event) bool {
	c := &fn.Events[i]
	file := fn.File
	call := fn.EnclosingCall(c.Node)
	status := ""
	if p := file.Nodes[call].Parent; p != parser.None {
		switch file.Kind(p) {
		case parser.KindInitDeclarator:
			status = file.Text(file.Field(p, parser.FieldDeclarator))
		case parser.KindAssignmentExpression:
			status = file.Text(file.Field(p, parser.FieldLeft))
		}
	}
	if !isIdent(status) {
		return nil
	}
	negates := func(cond string) bool { return strings.Contains(cond, "!") && containsWord(cond, status) }
	return func(e *lifetime.Event) bool { return fn.InThenOf(e.Node, negates) }
}

// containsWord reports whether s contains w as a whole identifier.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !identByte(s[j-1])) && (end == len(s) || !identByte(s[end])) {
			return true
		}
		i = j + 1
	}
}

// completionBefore returns the name written as the argument just before
// argument event c in its call (f or &f), when it is a plain identifier,
// or "".
func completionBefore(fn *lifetime.Func, c *lifetime.Event) string {
	file := fn.File
	k, call := fn.ArgIndex(c), fn.EnclosingCall(c.Node)
	if k < 1 || call == parser.None {
		return ""
	}
	i, prev := 0, ""
	for a := range file.NamedChildren(file.Field(call, parser.FieldArguments)) {
		if i == k {
			break
		}
		prev = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(file.Text(a)), "&"))
		i++
	}
	if !isIdent(prev) {
		return ""
	}
	return prev
}

// isIdent reports whether s is a C identifier.
func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) || i == 0 && s[i] >= '0' && s[i] <= '9' {
			return false
		}
	}
	return s != ""
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// finalArmElsewhere reports whether another hand-off of the same pointer
// with the same completion, in another arm of a choice, leaves the loop
// right after: the code marks that arm as the one that hands the data
// over for good, and the completion of the other arm's hand-offs runs
// without freeing it (it counts the parts).
func finalArmElsewhere(fn *lifetime.Func, i int, cb string) bool {
	c := &fn.Events[i]
	for j := range fn.Events {
		o := &fn.Events[j]
		if j == i || o.Var != c.Var || pointerArgument(fn, o) == nil || !fn.Exclusive(c.Node, o.Node) && !fn.Exclusive(o.Node, c.Node) {
			continue
		}
		if completionBefore(fn, o) != cb {
			continue
		}
		if loop, end := fn.LoopAround(o.Node); loop != parser.None && fn.JumpsBetween(o.Node, end) {
			return true
		}
	}
	return false
}

// useOnLoopBack returns a use of the pointer of event i (inside a loop
// body) in the condition or update of the loop around it, which runs after
// the call when nothing after the call in the body leaves the loop.
func useOnLoopBack(fn *lifetime.Func, i int) *lifetime.Event {
	c := &fn.Events[i]
	loop, end := fn.LoopAround(c.Node)
	if loop == parser.None || fn.JumpsBetween(c.Node, end) {
		return nil
	}
	body := fn.File.Field(loop, parser.FieldBody)
	for j := range fn.Events {
		e := &fn.Events[j]
		if e.Var == c.Var && e.Kind == lifetime.Use && e.At < c.At && fn.Within(e.Node, loop) && !fn.Within(e.Node, body) {
			return e
		}
	}
	return nil
}

// mayFreeSummaries returns the functions the file defines that may free
// their opaque parameter (a void*, the user data of a callback) on some
// path, in their own body: directly, through a local initialised from the
// parameter (a cast), or by passing either to a function of the file that
// frees it on every path. A free further down a chain of conditional
// calls is a protocol holdfast cannot follow (an arming state the
// completion checks first), so it is not counted.
func (p *Pass) mayFreeSummaries() map[*lifetime.Func]bool {
	if p.mayFrees != nil {
		return p.mayFrees
	}
	every := p.freeSummaries()
	frees := func(f *lifetime.Func, e *lifetime.Event) bool {
		return every[p.calleeAt(f, e)][f.ArgIndex(e)] || p.treeFactsAt(f, e).FreesArg(f.ArgIndex(e))
	}
	out := map[*lifetime.Func]bool{}
	for _, f := range p.Funcs {
		if f.Kind == lifetime.LambdaFunc {
			continue
		}
		for _, v := range f.Params() {
			t := strings.ReplaceAll(f.Vars[v].Type, " ", "")
			if (strings.HasPrefix(t, "void*") || strings.HasPrefix(t, "constvoid*")) && mayFree(f, v, frees) {
				out[f] = true
			}
		}
	}
	p.mayFrees = out
	return out
}

// mayFree reports whether f frees parameter v, or a local initialised
// from it, on some path.
func mayFree(f *lifetime.Func, v lifetime.VarID, frees func(*lifetime.Func, *lifetime.Event) bool) bool {
	names := map[lifetime.VarID]bool{v: true}
	for i := range f.Events {
		e := &f.Events[i]
		if e.Kind == lifetime.Assign && e.Other == v && e.Var != lifetime.NoVar && !f.Vars[e.Var].Param && f.Vars[e.Var].Kind == lifetime.Pointer {
			names[e.Var] = true
		}
	}
	for i := range f.Events {
		e := &f.Events[i]
		if !names[e.Var] || f.NullGuarded(e.Node, f.Vars[e.Var].Name) {
			continue
		}
		switch {
		case e.Kind == lifetime.Free && strings.TrimSpace(e.Text) == f.Vars[e.Var].Name:
			return true
		case e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0 && frees(f, e):
			return true
		}
	}
	return false
}

func reportUseAfterHandoff(p *Pass, fn *lifetime.Func, c, use *lifetime.Event, v *lifetime.Var, cb string) {
	msg := fmt.Sprintf("'%s' is used at line %d after it was handed to %s at line %d, which may free it",
		v.Name, p.Line(use.At), shortName(c.Call), p.Line(c.At))
	obj := "*" + v.Name
	decl := &lifetime.Event{Node: v.Decl, At: v.At, Call: v.Type}
	dies := p.Step(fn, diag.StepOwnerDies, c, obj, "",
		fmt.Sprintf("%s is handed %s with '%s'; it may run at once, on another thread, and free it (assumed: what %s does with it is not in this file)",
			shortName(c.Call), cb, v.Name, shortName(c.Call)))
	dies.Assumed = true
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, decl, obj, "", fmt.Sprintf("'%s' points to an object on the heap", v.Name)),
		p.Step(fn, diag.StepBorrow, decl, v.Name, obj, fmt.Sprintf("'%s' points to it", v.Name)),
		dies,
		p.Step(fn, diag.StepUse, use, v.Name, "", fmt.Sprintf("'%s' is used here, after the hand-off: the completion may already have run", v.Name)),
	}
	at, end := use.At, p.nodeEnd(use)
	if use.At < c.At {
		// The use is a loop's condition, read again after the hand-off:
		// the hand-off in the loop is where the fix goes.
		msg = fmt.Sprintf("'%s' is handed to %s, which may free it, in a loop whose condition reads it at line %d",
			v.Name, shortName(c.Call), p.Line(use.At))
		at, end = c.At, p.nodeEnd(c)
	}
	p.Report(fn, at, end, msg, "handoff:"+cb+":"+v.Name, w)
}
