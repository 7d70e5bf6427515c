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
			Help: `What it does: summarises every function the file defines: which of its
pointer parameters it may free (on some path, directly, through a local
cast from it, or through another function of the file that frees it).
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
	file := p.File
	seen := map[uint32]bool{} // uses reported, so two hand-offs do not report one use twice
	for i := range fn.Events {
		c := &fn.Events[i]
		if c.Kind != lifetime.Use || c.Flags&lifetime.Argument == 0 || c.Var == lifetime.NoVar {
			continue
		}
		v := fn.Var(c.Var)
		if v.Kind != lifetime.Pointer {
			continue
		}
		k := fn.ArgIndex(c)
		call := fn.EnclosingCall(c.Node)
		if k < 1 || call == parser.None {
			continue
		}
		cb := completionBefore(file, call, k)
		if cb == "" {
			continue
		}
		fk, ok := frees[p.callee(cb, -1)]
		if !ok || !fk.opaque {
			continue
		}
		failed := failureGuard(fn, i)
		use := useAfterSkipping(fn, i, failed)
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
	return func(e *lifetime.Event) bool {
		child := e.Node
		for m := file.Nodes[e.Node].Parent; m != parser.None && m != fn.Node; child, m = m, file.Nodes[m].Parent {
			if file.Kind(m) != parser.KindIfStatement || file.Nodes[child].Field != parser.FieldConsequence {
				continue
			}
			cond := strings.Join(strings.Fields(file.Text(file.Field(m, parser.FieldCondition))), "")
			if strings.Contains(cond, "!") && containsWord(cond, status) {
				return true
			}
		}
		return false
	}
}

// containsWord reports whether s contains w as a whole identifier.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdent(s[j-1:j])
		after := j+len(w) == len(s) || !isIdent("a"+s[j+len(w):j+len(w)+1])
		if before && after {
			return true
		}
		i = j + 1
	}
}

// completionBefore returns the name of the file function written as the
// argument just before argument k of call (f or &f), or "".
func completionBefore(file *parser.File, call parser.NodeID, k int) string {
	args := file.Field(call, parser.FieldArguments)
	if args == parser.None {
		return ""
	}
	i, prev := 0, ""
	for a := range file.NamedChildren(args) {
		if file.Kind(a) == parser.KindComment {
			continue
		}
		if i == k {
			return prev
		}
		prev = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(file.Text(a)), "&"))
		if !isIdent(prev) {
			prev = ""
		}
		i++
	}
	return ""
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// finalArmElsewhere reports whether another hand-off of the same pointer
// with the same completion, in another arm of a choice, leaves the loop
// right after: the code marks that arm as the one that hands the data
// over for good, and the completion of the other arm's hand-offs runs
// without freeing it (it counts the parts).
func finalArmElsewhere(fn *lifetime.Func, i int, cb string) bool {
	c := &fn.Events[i]
	file := fn.File
	for j := range fn.Events {
		o := &fn.Events[j]
		if j == i || o.Kind != lifetime.Use || o.Var != c.Var || o.Flags&lifetime.Argument == 0 || !fn.Exclusive(c.Node, o.Node) && !fn.Exclusive(o.Node, c.Node) {
			continue
		}
		call := fn.EnclosingCall(o.Node)
		if call == parser.None || completionBefore(file, call, fn.ArgIndex(o)) != cb {
			continue
		}
		for m := file.Nodes[o.Node].Parent; m != parser.None && m != fn.Node; m = file.Nodes[m].Parent {
			if k := file.Kind(m); k == parser.KindForStatement || k == parser.KindWhileStatement {
				end := parser.None
				for ch := range file.Children(file.Field(m, parser.FieldBody)) {
					end = ch
				}
				if end != parser.None && fn.JumpsBetween(o.Node, end) {
					return true
				}
				break
			}
		}
	}
	return false
}

// useOnLoopBack returns a use of the pointer of event i (inside a loop
// body) in the condition or update of a loop around it, which runs after
// the call when nothing after the call in the body leaves the loop.
func useOnLoopBack(fn *lifetime.Func, i int) *lifetime.Event {
	c := &fn.Events[i]
	file := fn.File
	for m := file.Nodes[c.Node].Parent; m != parser.None && m != fn.Node; m = file.Nodes[m].Parent {
		k := file.Kind(m)
		if k != parser.KindForStatement && k != parser.KindWhileStatement {
			continue
		}
		body := file.Field(m, parser.FieldBody)
		if body == parser.None || !fn.Within(c.Node, body) {
			continue
		}
		end := parser.None
		for ch := range file.Children(body) {
			end = ch
		}
		if end != parser.None && fn.JumpsBetween(c.Node, end) {
			return nil
		}
		for j := range fn.Events {
			e := &fn.Events[j]
			if e.Var != c.Var || e.Kind != lifetime.Use || e.At >= c.At || !fn.Within(e.Node, m) || fn.Within(e.Node, body) {
				continue
			}
			return e
		}
	}
	return nil
}

// freeFacts says which parameters a file function may free, and whether
// one of them is an opaque context (void*), the user data of a callback.
type freeFacts struct {
	params map[int]bool
	opaque bool
}

// mayFreeSummaries maps each function the file defines to the pointer
// parameters it frees on some path, in its own body: directly, through a
// local initialised from the parameter (a cast), or by passing either to a
// function of the file that frees it on every path. A free further down a
// chain of conditional calls is a protocol holdfast cannot follow (an
// arming state the completion checks first), so it is not counted.
func (p *Pass) mayFreeSummaries() map[*lifetime.Func]freeFacts {
	if p.mayFrees != nil {
		return p.mayFrees
	}
	every := p.freeSummaries()
	out := map[*lifetime.Func]freeFacts{}
	frees := func(f *lifetime.Func, e *lifetime.Event) bool {
		return every[p.calleeAt(f, e)][f.ArgIndex(e)]
	}
	for _, f := range p.Funcs {
		if f.Kind == lifetime.LambdaFunc {
			continue
		}
		for i, v := range params(f) {
			if !mayFree(f, v, frees) {
				continue
			}
			ff := out[f]
			if ff.params == nil {
				ff.params = map[int]bool{}
			}
			ff.params[i] = true
			if t := strings.ReplaceAll(f.Vars[v].Type, " ", ""); strings.HasPrefix(t, "void*") || strings.HasPrefix(t, "constvoid*") {
				ff.opaque = true
			}
			out[f] = ff
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
	msg := fmt.Sprintf("'%s' is used at line %d after it was handed to %s at line %d with %s, which may free it: the completion may already have run",
		v.Name, p.Line(use.At), shortName(c.Call), p.Line(c.At), cb)
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
		p.Step(fn, diag.StepUse, use, v.Name, "", fmt.Sprintf("'%s' is used here, after the hand-off", v.Name)),
	}
	at, end := use.At, p.nodeEnd(use)
	if use.At < c.At {
		// The use is a loop's condition, read again after the hand-off:
		// the hand-off in the loop is where the fix goes.
		msg = fmt.Sprintf("'%s' is handed to %s with %s, which may free it, inside a loop whose condition reads it again at line %d: the completion may already have run",
			v.Name, shortName(c.Call), cb, p.Line(use.At))
		at, end = c.At, p.nodeEnd(c)
	}
	p.Report(fn, at, end, msg, "handoff:"+cb+":"+v.Name, w)
}
