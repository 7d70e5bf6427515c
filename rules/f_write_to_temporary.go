package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func writeToTemporary() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-F001",
			Name:      "write-lost-in-temporary-copy",
			Class:     "F",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "the device writes into a packed or materialised copy of a destination and nothing copies it back",
			Help: `What it does: finds a destination that may be a view replaced by a packed
or materialised copy (out.contiguous(), MaterializeAndReturn(dst),
GetPjrtBuffer(dst), materialize_packed(view)) that is then written (by a
host-to-device DMA, a copy, a kernel it is bound to, an in-place op, a
store through its data pointer) while nothing copies the copy back
(out.copy_(out_c)), hands it back, or checks that the destination is a
contiguous base tensor (is_contiguous(), ValidateContiguousBase). A
function of the scanned tree that shares a materialising call's name but
is declared to return a reference or a pointer makes no copy.

Why it is bad: when the destination is a view that is not densely packed
(a slice, a chunk along a later dim, a channels-last chunk), the copy is a
new buffer. The writes land there and are lost when it dies: the
destination keeps its old data, with no error. Kernels that index the
copy with the view's strides also read and write past its end.

Known problems: which arguments a kernel writes is not known; a copy bound
to a kernel counts as written only when the destination looks like one (a
non-const reference or pointer parameter, or a value the function writes
elsewhere). Copies written on purpose as scratch space and then dropped
are reported when their original is such a destination.`,
			Example: diag.Example{
				Bad: `absl::Status Upload(absl::Span<const HostSlice> srcs, std::vector<at::Tensor>& dsts) {
  for (size_t i = 0; i < dsts.size(); ++i) {
    at::Tensor& dst = dsts[i];
    DeviceBufferRef dst_ref = GetPjrtBuffer(dst);   // a new buffer for a view
    TpuAsyncDmaCopyHtoD(dst_ref, srcs[i]);          // the data lands there
  }                                                 // and is lost
  return absl::OkStatus();
}`,
				Good: `absl::Status Upload(absl::Span<const HostSlice> srcs, std::vector<at::Tensor>& dsts) {
  for (size_t i = 0; i < dsts.size(); ++i) {
    at::Tensor& dst = dsts[i];
    TF_RETURN_IF_ERROR(ValidateContiguousBase(dst));  // views are refused
    DeviceBufferRef dst_ref = GetPjrtBuffer(dst);
    TpuAsyncDmaCopyHtoD(dst_ref, srcs[i]);
  }
  return absl::OkStatus();
}`,
			},
			Fix:  "copy the result back into the destination when it was not contiguous (out.copy_(out_c)), reject views first (check is_contiguous() or that it is a base tensor), or write in place through the view",
			Hint: "copy the result back into the view, reject views, or write in place",
			Tags: []string{"data-loss", "tensor-layout", "views"},
		},
		Check: checkWriteToTemporary,
	}
}

func checkWriteToTemporary(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		m := &fn.Events[i]
		if m.Kind == lifetime.Materialise && m.Flags&lifetime.NoCopy == 0 && m.Other != lifetime.NoVar && (m.Var == m.Other || m.Var == lifetime.NoVar && assignedTo(fn, i, m.Other)) {
			checkRebound(p, fn, i)
			continue
		}
		if m.Kind != lifetime.Materialise || m.Flags&lifetime.NoCopy != 0 || m.Var == lifetime.NoVar || m.Other == lifetime.NoVar {
			continue
		}
		if p.Model.Call(m.Call)&apimodel.Materialise == 0 || p.returnsNoCopy(fn, m) {
			continue
		}
		copies := derived(fn, m.Var, i)
		orig := derived(fn, m.Other, 0)
		if reachesOriginal(fn, m, copies, orig) {
			continue
		}
		w := writeInto(fn, i, copies, destinationLike(fn, m.Other, i, orig))
		if w == nil {
			continue
		}
		reportLostWrite(p, fn, m, w, unseenWriteBack(p, fn, w, copies, orig))
	}
}

// unseenWriteBack returns the first call after the write w that is in no
// API pack and takes both the original and the copy as arguments: a
// helper that may copy one into the other (copy back if needed), which
// holdfast cannot see into. nil when there is none.
func unseenWriteBack(p *Pass, fn *lifetime.Func, w *lifetime.Event, copies, orig map[lifetime.VarID]bool) *lifetime.Event {
	for j := range fn.Events {
		e := &fn.Events[j]
		if e.At <= w.At || e.Kind != lifetime.Use || e.Flags&lifetime.Argument == 0 || !orig[e.Var] || p.Model.Call(e.Call) != 0 {
			continue
		}
		// the other arguments of the same call are the Use events next to it
		for k := j - 1; k >= 0 && k >= j-8; k-- {
			x := &fn.Events[k]
			if x.Kind != lifetime.Use || x.Call != e.Call {
				break
			}
			if copies[x.Var] && x.Flags&lifetime.Argument != 0 {
				return e
			}
		}
		for k := j + 1; k < len(fn.Events) && k <= j+8; k++ {
			x := &fn.Events[k]
			if x.Kind != lifetime.Use || x.Call != e.Call {
				break
			}
			if copies[x.Var] && x.Flags&lifetime.Argument != 0 {
				return e
			}
		}
	}
	return nil
}

// derived returns v and the values that alias its memory after event i:
// raw pointers and references borrowed from it, values assigned from it.
func derived(fn *lifetime.Func, v lifetime.VarID, from int) map[lifetime.VarID]bool {
	set := map[lifetime.VarID]bool{v: true}
	for j := from; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		switch {
		case e.Kind == lifetime.Borrow && set[e.Owner] && e.Var != lifetime.NoVar:
			set[e.Var] = true
		case e.Kind == lifetime.Assign && set[e.Other]:
			set[e.Var] = true
		}
	}
	return set
}

// reachesOriginal reports whether the copy's contents can reach the
// original: a call writes the original from the copy (out.copy_(out_c)),
// the copy is handed on (returned, moved, stored, assigned), or the
// function checks the original's layout (views are then refused).
func reachesOriginal(fn *lifetime.Func, m *lifetime.Event, copies, orig map[lifetime.VarID]bool) bool {
	writes := map[int32]bool{} // nodes of calls that write the original
	for j := range fn.Events {
		e := &fn.Events[j]
		if e.Kind == lifetime.Operand && orig[e.Var] && e.Flags&lifetime.Written != 0 {
			writes[e.Node] = true
		}
		if e.Kind == lifetime.Check && (orig[e.Var] || copies[e.Var]) {
			return true
		}
	}
	for j := range fn.Events {
		e := &fn.Events[j]
		if e.At < m.At {
			continue
		}
		switch {
		case e.Kind == lifetime.Operand && copies[e.Var] && writes[e.Node]:
			return true
		case e.Kind == lifetime.Return && (copies[e.Var] || copies[e.Owner]),
			e.Kind == lifetime.Move && copies[e.Var],
			e.Kind == lifetime.Store && (copies[e.Other] || copies[e.Owner]),
			e.Kind == lifetime.Assign && copies[e.Other] && orig[e.Var],
			e.Kind == lifetime.Capture && copies[e.Var] && e.Flags&lifetime.ByRef == 0:
			return true
		}
	}
	return false
}

// destinationLike reports whether the original looks like something the
// function writes: a reference or pointer parameter that is not const, or
// a value the function writes or mutates elsewhere.
func destinationLike(fn *lifetime.Func, o lifetime.VarID, mi int, orig map[lifetime.VarID]bool) bool {
	x := fn.Var(o)
	if x.Param && (x.Kind == lifetime.Reference || x.Kind == lifetime.Pointer) && !x.Const {
		return true
	}
	for j := range fn.Events {
		e := &fn.Events[j]
		if j == mi || !orig[e.Var] {
			continue
		}
		if e.Kind == lifetime.Mutate || e.Kind == lifetime.Operand && e.Flags&lifetime.Written != 0 {
			return true
		}
	}
	return false
}

// writeInto returns the first event after the materialisation at event i
// that writes one of the copies: a call that writes it (a DMA into it,
// copy_), an in-place op, a store through its data pointer, or, when the
// original is a destination, a kernel it is bound to.
func writeInto(fn *lifetime.Func, i int, copies map[lifetime.VarID]bool, dest bool) *lifetime.Event {
	for j := i + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		if !copies[e.Var] {
			continue
		}
		switch e.Kind {
		case lifetime.Operand:
			if e.Flags&lifetime.Written != 0 && (dest || isAsyncCall(fn, j)) || e.Flags&lifetime.Bound != 0 && dest {
				return e
			}
		case lifetime.Mutate:
			if dest {
				return e
			}
		case lifetime.Store:
			if dest && e.Flags&lifetime.Member == 0 && fn.Var(e.Var).Kind == lifetime.Pointer {
				return e
			}
		}
	}
	return nil
}

// isAsyncCall reports whether the Operand at event j belongs to an async
// call (a DMA, a device copy).
func isAsyncCall(fn *lifetime.Func, j int) bool {
	op := &fn.Events[j]
	for k := j - 1; k >= 0 && k >= j-64; k-- {
		if e := &fn.Events[k]; e.Kind == lifetime.Async && e.Node == op.Node {
			return true
		}
	}
	return false
}

// back, when not nil, is a helper that may copy the copy back: the rule
// cannot prove it does, so it reports, and the witness takes the helper
// as the write-back, which the replay then checks.
func reportLostWrite(p *Pass, fn *lifetime.Func, m, w, back *lifetime.Event) {
	cp, orig := fn.VarName(m.Var), fn.VarName(m.Other)
	shown := "'" + orig + "'"
	if m.Text != "" {
		shown = m.Text // the input as written: dsts[i], *tensor
	}
	how := "written by " + w.Call
	switch {
	case w.Kind == lifetime.Mutate:
		how = "mutated in place by " + w.Call
	case w.Kind == lifetime.Store:
		how = "written through '" + fn.VarName(w.Var) + "'"
	case w.Flags&lifetime.Bound != 0:
		how = "handed to " + w.Call + ", which may write it"
	}
	nothing := "nothing copies it back"
	lost := "is lost"
	if back != nil {
		nothing = fmt.Sprintf("only %s at line %d, which holdfast does not see into, may copy it back", back.Call, p.Line(back.At))
		lost = "may be lost"
	}
	msg := fmt.Sprintf("'%s' may be a new copy of %s: the write at line %d %s when %s is a view",
		cp, shown, p.Line(w.At), lost, shown)
	via := w.Call
	if w.Kind == lifetime.Store {
		via = "store"
	}
	ws := p.Step(fn, diag.StepWrite, w, cp, "", fmt.Sprintf("'%s', not %s, is %s; %s or checks that %s is a contiguous base tensor", cp, shown, how, nothing, shown))
	ws.Via = via
	steps := []diag.Step{
		p.Step(fn, diag.StepMaterial, m, cp, orig, fmt.Sprintf("%s makes a new buffer when %s is a view", m.Call, shown)),
		ws,
	}
	if back != nil {
		bs := p.Step(fn, diag.StepWrite, back, orig, cp, fmt.Sprintf("%s may copy '%s' back into %s", back.Call, cp, shown))
		bs.Via = back.Call
		steps = append(steps, bs)
	}
	p.Report(fn, m.At, p.nodeEnd(m), msg, orig+"->"+cp, steps)
}

// checkRebound reports an output parameter rebound to its own packed copy
// (out = out.contiguous()) and then written: the caller's tensor, which
// other handles share, is left as it was when it was a view. The write is
// a known one (a mutation, a kernel or copy that writes it), or, assumed,
// the parameter or a handle made from it handed to a call holdfast cannot
// see.
func checkRebound(p *Pass, fn *lifetime.Func, i int) {
	m := &fn.Events[i]
	v := fn.Var(m.Other)
	if !v.Param || v.Kind != lifetime.Reference || v.Const || !p.Model.IsTensor(v.Base) {
		return
	}
	if p.Model.Call(m.Call)&apimodel.Materialise == 0 {
		return
	}
	handles := map[lifetime.VarID]bool{m.Other: true}
	var w *lifetime.Event
	assumed := false
	for j := i + 1; j < len(fn.Events) && w == nil; j++ {
		e := &fn.Events[j]
		if !handles[e.Var] {
			continue
		}
		switch {
		case e.Kind == lifetime.Mutate, e.Kind == lifetime.Operand && e.Flags&lifetime.Written != 0:
			w = e
		case e.Kind != lifetime.Use || e.Flags&lifetime.Argument == 0:
		case e.Call == "copy_":
			return // copied somewhere: a write-back holdfast reads as such
		case madeFrom(fn, e, handles):
			// a handle made from the parameter: y = todp(out)
		case p.unknownCall(e.Call):
			w, assumed = e, true
		}
	}
	if w == nil {
		return
	}
	caller := v.Name + " (the caller's tensor)"
	msg := fmt.Sprintf("'%s' is rebound to its own %s() and written at line %d, so a caller's view is never written",
		v.Name, m.Call, p.Line(w.At))
	ws := p.Step(fn, diag.StepWrite, w, v.Name, "", fmt.Sprintf("%s writes the packed copy, not the caller's tensor; nothing copies the result back", w.Call))
	ws.Via = w.Call
	if assumed {
		ws.Assumed = true
		ws.Message = fmt.Sprintf("assumed: %s, which holdfast cannot see, writes the packed copy it is handed", w.Call)
	}
	steps := []diag.Step{
		p.Step(fn, diag.StepMaterial, m, v.Name, caller, fmt.Sprintf("%s() makes a new buffer when the caller's tensor is a view, and '%s' now refers to it", m.Call, v.Name)),
		ws,
	}
	p.Report(fn, m.At, p.nodeEnd(m), msg, "rebound:"+v.Name, steps)
}

// assignedTo reports whether the result of materialise event i is assigned
// to v in the same statement (out = out.contiguous() through a reference).
func assignedTo(fn *lifetime.Func, i int, v lifetime.VarID) bool {
	m := &fn.Events[i]
	end := fn.StatementEnd(m.Node)
	for j := i + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		if e.At >= end {
			return false
		}
		if e.Kind == lifetime.Use && e.Var == v && e.Call == "=" {
			return true
		}
	}
	return false
}

// madeFrom adds to handles the values whose initialiser is the call that
// argument event e belongs to, and reports whether there was one.
func madeFrom(fn *lifetime.Func, e *lifetime.Event, handles map[lifetime.VarID]bool) bool {
	found := false
	for k := range fn.Vars {
		if fn.Vars[k].FromCall && fn.InDeclaration(e.Node, lifetime.VarID(k)) {
			handles[lifetime.VarID(k)] = true
			found = true
		}
	}
	return found
}

// returnsNoCopy says the call of materialise event m is of a function the
// tree declares, and what it returns is no new object: a reference or a
// pointer (GetBuffer() returning a member by reference). The tree's code
// comes before a pack's word for a name it happens to share.
func (p *Pass) returnsNoCopy(fn *lifetime.Func, m *lifetime.Event) bool {
	if gs := p.named(m.Call); len(gs) > 0 {
		// Every function of the file of that name (overloads, or
		// methods of several classes: which one runs is not followed).
		for _, g := range gs {
			if byValue, _ := core.Returns(g.File, g.Node); byValue || g.Kind == lifetime.Constructor {
				return false
			}
		}
		return true
	}
	if t := p.treeFactsAt(fn, m); t != nil {
		return !t.ByValue
	}
	return false
}
