package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func recordCopyUnkept() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-B006",
			Name:      "record-copy-unkept",
			Class:     "B",
			Severity:  diag.Warning,
			Precision: "medium",
			Summary:   "a record for later work copies several of the caller's arrays and keeps all but one of them alive",
			Help: `What it does: finds a function that fills a record (a local pointer to
memory it allocated: a queued action, a task) with copies of arrays the
caller passed (memcpy from a parameter), and hands some of those arrays to
a call that keeps what they point to alive (a keep role of the API model:
a resource set's insert, a retain), but not one of them. An array of a
type the API lends only for the call (a pack's borrowed types) is
reported even when nothing else is kept. A copy that is itself handed to
a keep call, or to code holdfast cannot see, is kept.

Why it is bad: the record exists to do the work later. The copies are
shallow: they point at what the caller owns, and the caller may release it
as soon as the call returns, as it may the arrays the function did keep.
The one left out dangles by the time the record's work runs. The function
says by its own keep calls that the caller's references are not enough.

Known problems: an array whose contents the record's work never
dereferences, or that the caller is documented to keep alive, is reported
too; every finding is latent (what the caller does is its business).`,
			Example: diag.Example{
				Bad: `status_t enqueue_execution(queue_t* q, buffer_t** buffers, int n, table_t* tables, int m) {
  action_t* action = allocate_action(q);
  memcpy(action->buffers, buffers, n * sizeof(*buffers));
  memcpy(action->tables, tables, m * sizeof(*tables));
  status_t s = iree_hal_resource_set_insert(action->resources, n, buffers);
  enqueue(q, action);                  // the tables' buffers are not kept
  return s;
}`,
				Good: `status_t enqueue_execution(queue_t* q, buffer_t** buffers, int n, table_t* tables, int m) {
  action_t* action = allocate_action(q);
  memcpy(action->buffers, buffers, n * sizeof(*buffers));
  memcpy(action->tables, tables, m * sizeof(*tables));
  status_t s = iree_hal_resource_set_insert(action->resources, n, buffers);
  if (is_ok(s)) s = insert_table_buffers(action->resources, m, tables);   // kept as well
  enqueue(q, action);
  return s;
}`,
			},
			Fix:  "keep what every copied array refers to alive with the record (retain it, insert it into the record's resource set), or copy the contents deeply",
			Hint: "retain what the copied arrays refer to with the record, or copy deeply",
			Tags: []string{"lifetime", "use-after-free", "async"},
			CWE:  []int{416},
		},
		Check: checkRecordCopyUnkept,
	}
}

func checkRecordCopyUnkept(p *Pass, fn *lifetime.Func) {
	checkRecordCopies(p, fn, keptRoots(p, fn))
}

// keptRoots maps the values of fn (by their root) that are handed to a
// keep call (a retain, a resource set's insert) to that call's name, and
// those handed to code that may keep them to "".
func keptRoots(p *Pass, fn *lifetime.Func) map[lifetime.VarID]string {
	kept := map[lifetime.VarID]string{}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Var == lifetime.NoVar || e.Kind != lifetime.Use && e.Kind != lifetime.Operand {
			continue
		}
		c := fn.EnclosingCall(e.Node)
		if c == -1 {
			continue
		}
		name := calleeText(p.File, c)
		switch {
		case p.Model.Call(name)&apimodel.Keep != 0:
			kept[e.Var] = name
		case p.Model.Call(name) == 0 && p.mayKeepCall(fn, c, e.Node):
			// Handed to code that may keep it: in the program's favour.
			if _, ok := kept[e.Var]; !ok {
				kept[e.Var] = ""
			}
		}
	}
	return kept
}

func checkRecordCopies(p *Pass, fn *lifetime.Func, kept map[lifetime.VarID]string) {
	type copyOp struct {
		src  *lifetime.Event
		dest lifetime.VarID
	}
	var copies []copyOp
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Operand || e.Flags&lifetime.Written != 0 || e.Var == lifetime.NoVar || p.Model.Call(e.Call)&apimodel.WriteArg == 0 {
			continue
		}
		src := fn.Var(e.Var)
		if src == nil || !src.Param || src.Kind == lifetime.Plain && !strings.Contains(src.Type, "*") && !strings.Contains(src.Type, "list") {
			continue
		}
		if !inArgument(p.File, e.Node, e.At, 1) {
			continue // a size or offset, not what is copied
		}
		for j := range fn.Events {
			d := &fn.Events[j]
			if d.Kind == lifetime.Operand && d.Node == e.Node && d.Flags&lifetime.Written != 0 && d.Var != lifetime.NoVar {
				if dv := fn.Var(d.Var); dv != nil && !dv.Param && dv.Kind == lifetime.Pointer {
					copies = append(copies, copyOp{src: e, dest: d.Var})
				}
			}
		}
	}
	for _, c := range copies {
		if _, ok := kept[c.src.Var]; ok {
			continue
		}
		if copyKept(p, fn, c.src) {
			continue // the copy itself goes to a keep call (or code that may keep it)
		}
		var others []string
		keep, first := "", "" // the keep call of the first kept array, by name
		for _, o := range copies {
			if o.dest == c.dest && kept[o.src.Var] != "" {
				name := fn.VarName(o.src.Var)
				if first == "" || name < first {
					keep, first = kept[o.src.Var], name
				}
				others = append(others, name)
			}
		}
		if len(others) == 0 {
			// Nothing else is kept either: only an array of what the API
			// lends for the call says the record must keep it.
			if src := fn.Var(c.src.Var); p.Model.IsBorrowed(src.Base) {
				reportRecordCopyBorrowed(p, fn, c.src, c.dest)
			}
			continue
		}
		slices.Sort(others)
		reportRecordCopyUnkept(p, fn, c.src, c.dest, slices.Compact(others), keep)
	}
}

// mayKeepCall reports whether call node c, which no pack names, may keep
// the argument that node n is part of: a function of the file that may
// keep that parameter, one of the tree whose summary says so, or code
// holdfast cannot see.
func (p *Pass) mayKeepCall(fn *lifetime.Func, c, n parser.NodeID) bool {
	name := calleeText(p.File, c)
	i, nargs := -1, argCount(p.File, c)
	k := 0
	for a := range p.File.NamedChildren(p.File.Field(c, parser.FieldArguments)) {
		if p.File.Kind(a) == parser.KindComment {
			continue
		}
		if fn.Within(n, a) {
			i = k
		}
		k++
	}
	if i < 0 {
		return false
	}
	if p.definedHere(name) {
		return p.mayKeep(p.callee(name, nargs), i)
	}
	if t := p.treeFacts(name, nargs); t != nil {
		return t.KeepsArg(i)
	}
	return true
}

// copyKept reports whether the destination of the copy at event src (the
// copy's first argument, as written) is handed to a keep call, or to code
// that may keep it, later in fn: insert(set, n, target->bindings).
func copyKept(p *Pass, fn *lifetime.Func, src *lifetime.Event) bool {
	call := src.Node
	if call < 0 || p.File.Kind(call) != parser.KindCallExpression {
		call = fn.EnclosingCall(src.Node)
	}
	if call == parser.None {
		return false
	}
	dest := ""
	for a := range p.File.NamedChildren(p.File.Field(call, parser.FieldArguments)) {
		dest = strings.Join(strings.Fields(p.File.Text(a)), "")
		break
	}
	dest = strings.TrimPrefix(strings.TrimPrefix(dest, "(void*)"), "(void *)")
	if dest == "" {
		return false
	}
	end := p.File.Nodes[call].End
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At < end || e.Kind != lifetime.Use && e.Kind != lifetime.PassRef {
			continue
		}
		c := fn.EnclosingCall(e.Node)
		if c == parser.None {
			continue
		}
		name := calleeText(p.File, c)
		keeps := p.Model.Call(name)&apimodel.Keep != 0
		if !keeps && (p.Model.Call(name) != 0 || !p.mayKeepCall(fn, c, e.Node)) {
			continue
		}
		for a := range p.File.NamedChildren(p.File.Field(c, parser.FieldArguments)) {
			t := strings.TrimPrefix(strings.Join(strings.Fields(p.File.Text(a)), ""), "&")
			switch {
			case t == dest, strings.HasPrefix(t, dest+"."), strings.HasPrefix(t, dest+"->"), strings.HasPrefix(t, dest+"["):
				return true // the copy, or what is in it
			case keeps && (strings.HasPrefix(dest, t+".") || strings.HasPrefix(dest, t+"->")):
				return true // a keep call on what holds the copy (a list retain)
			}
		}
	}
	return false
}

// inArgument reports whether offset at lies in argument i of call node c.
func inArgument(file *parser.File, c parser.NodeID, at uint32, i int) bool {
	for c >= 0 && file.Kind(c) != parser.KindCallExpression {
		c = file.Nodes[c].Parent
	}
	if c < 0 {
		return false
	}
	k := 0
	for a := range file.NamedChildren(file.Field(c, parser.FieldArguments)) {
		if file.Kind(a) == parser.KindComment {
			continue
		}
		if k == i {
			return file.Nodes[a].Start <= at && at < file.Nodes[a].End
		}
		k++
	}
	return false
}

func reportRecordCopyUnkept(p *Pass, fn *lifetime.Func, src *lifetime.Event, dest lifetime.VarID, others []string, keep string) {
	name, rec := fn.VarName(src.Var), fn.VarName(dest)
	reportRecordCopy(p, fn, src, rec,
		fmt.Sprintf("only %s go to %s, which keeps them alive: what '%s' points to may be released by the caller before the record's work runs",
			quoteList(others), keep, name),
		"is the caller's", "after the call returns, as it may what the function keeps")
}

func reportRecordCopyBorrowed(p *Pass, fn *lifetime.Func, src *lifetime.Event, dest lifetime.VarID) {
	name, rec := fn.VarName(src.Var), fn.VarName(dest)
	reportRecordCopy(p, fn, src, rec,
		fmt.Sprintf("no retain, no resource set keeps what '%s' points to", name),
		"is lent by the caller for the call", "once the call returns, as the API allows")
}

// reportRecordCopy reports the copy at event src of the caller's array
// into record rec; kept says what keeps (or does not keep) what the array
// points to, whose whose the array is, when when the caller may release
// it.
func reportRecordCopy(p *Pass, fn *lifetime.Func, src *lifetime.Event, rec, kept, whose, when string) {
	name := fn.VarName(src.Var)
	msg := fmt.Sprintf("'%s' copies the caller's '%s' for later, but nothing keeps what it points to alive", rec, name)
	x := fn.Var(src.Var)
	declEv := &lifetime.Event{Node: x.Decl, At: x.At, Call: x.Type}
	death := p.Step(fn, diag.StepOwnerDies, endOf(fn), name, "",
		fmt.Sprintf("assumed: the caller releases what '%s' refers to %s", name, when))
	death.Assumed = true
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, declEv, name, "", fmt.Sprintf("'%s' (%s) %s", name, x.Type, whose)),
		p.Step(fn, diag.StepBorrow, src, "copy of "+name, name, fmt.Sprintf("%s copies '%s' into '%s': the copy points where it points", src.Call, name, rec)),
		p.Step(fn, diag.StepStore, src, "copy of "+name, rec, fmt.Sprintf("'%s' carries it to the work that runs later; %s", rec, kept)),
		death,
		p.Step(fn, diag.StepUse, src, rec, "", fmt.Sprintf("the record's work reads '%s' through the copy", name)),
	}
	p.Report(fn, src.At, p.nodeEnd(src), msg, "record-copy:"+rec+":"+name, w)
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q, ", ")
}
