package rules

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/core"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func elementReferenceInvalidated() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-B004",
			Name:      "element-reference-invalidated",
			Class:     "B",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "a reference or pointer to a container's element is used after the container removed the element or grew",
			Help: `What it does: follows references and pointers into the elements of a
local container or of a container member of the class (back(), front(), [], at(), data(), also returned by a named
lambda of the function that captures the container) and reports a use of
one after the container removed elements (pop_back, pop_front, erase,
clear: the API model's remove role) or, for a container whose growth may
move its elements (std::vector, SmallVector), after an insertion (push_back,
emplace_back, insert, resize), directly or through a call of a lambda that
inserts.

Why it is bad: the element is gone, or has moved to new storage; the
reference points at freed memory. MLX's check_input helpers returned
copies.back() and were called twice, so the second copy could reallocate
the vector under the first reference.

Known problems: whether an insertion reallocates depends on the capacity:
such findings are latent (shown with --all), except where the capacity is
known: a vector declared empty and reserved with a known count (reserve(3))
has room for exactly that many insertions, and the insertion past it
reallocates (confirmed). A reservation of another amount, or of a vector
that may hold elements, is taken to cover every insertion. Removals are
confirmed.`,
			Example: diag.Example{
				Bad: `void Finish(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op& last = ops.back();
  ops.pop_back();
  done.push_back(last);   // 'last' was destroyed by pop_back
}`,
				Good: `void Finish(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op last = std::move(ops.back());
  ops.pop_back();
  done.push_back(last);
}`,
			},
			Fix:  "copy or move the element out before removing it, reserve enough capacity before taking references, or keep indexes instead of references",
			Hint: "copy the element out first, reserve capacity, or keep indexes",
			Tags: []string{"memory-safety", "use-after-free", "lifetime"},
			CWE:  []int{416, 825},
		},
		Check: func(p *Pass, fn *lifetime.Func) {
			checkElementReferenceInvalidated(p, fn)
			p.reportCore(fn, core.UseAfterInvalidate)
		},
	}
}

// elemRef is a reference into a container held by value v, taken at
// event index i: the local container c, or the class member named member.
type elemRef struct {
	v, c   lifetime.VarID
	member string
	i      int
	via    string
}

// name is the container's name.
func (r elemRef) name(fn *lifetime.Func) string {
	if r.member != "" {
		return r.member
	}
	return fn.VarName(r.c)
}

func checkElementReferenceInvalidated(p *Pass, fn *lifetime.Func) {
	for _, r := range elementRefs(fn) {
		from := fn.StatementEnd(fn.Events[r.i].Node)
		for j := r.i + 1; j < len(fn.Events); j++ {
			e := &fn.Events[j]
			if e.At < from {
				continue // the statement that takes the reference
			}
			if e.Var == r.v && (e.Kind == lifetime.Assign || e.Kind == lifetime.Result || e.Kind == lifetime.ScopeExit) {
				break
			}
			grow, remove := invalidates(p, fn, e, r)
			if !grow && !remove {
				continue
			}
			sure := remove
			if remove {
				switch removes(p.Model, r.via, e.Call) {
				case otherElement:
					continue
				case maybeElement:
					sure = false
				}
			}
			use := firstUse(fn, r.v, j)
			if use == nil {
				break
			}
			reportElementInvalidated(p, fn, r, e, use, grow && !remove, !sure)
			break
		}
	}
}

// elementRefs returns the references into local containers: borrows of an
// element, and values initialised by a named lambda that returns a borrow
// of a container it captures by reference.
func elementRefs(fn *lifetime.Func) []elemRef {
	var out []elemRef
	for i := range fn.Events {
		e := &fn.Events[i]
		// Only a declared reference refers into the container: a value or
		// a pointer initialised from back() is a copy of the element.
		if v := fn.Var(e.Var); e.Kind == lifetime.Borrow && (v == nil || v.Kind != lifetime.Reference) {
			continue
		}
		switch {
		case e.Kind == lifetime.Borrow && e.Var != lifetime.NoVar && e.Flags&lifetime.Member != 0 && e.Text != "":
			out = append(out, elemRef{v: e.Var, c: lifetime.NoVar, member: e.Text, i: i, via: e.Call + "()"})
		case e.Kind == lifetime.Borrow && e.Var != lifetime.NoVar && e.Owner != lifetime.NoVar:
			if c := fn.Var(e.Owner); c.Kind == lifetime.Container && !c.Param {
				out = append(out, elemRef{v: e.Var, c: e.Owner, i: i, via: e.Call + "()"})
			}
		case e.Kind == lifetime.Use && e.Flags&lifetime.Receiver != 0 && e.Other != lifetime.NoVar && fn.Var(e.Var).Kind == lifetime.Lambda:
			if c := returnsInto(fn, fn.Var(e.Var).Fn); c != lifetime.NoVar && fn.Var(e.Other).Kind == lifetime.Reference {
				out = append(out, elemRef{v: e.Other, c: c, i: i, via: e.Call + "()"})
			}
		}
	}
	return out
}

// returnsInto returns the container of fn that lambda l captures by
// reference and returns a reference into, or NoVar.
func returnsInto(fn, l *lifetime.Func) lifetime.VarID {
	if l == nil {
		return lifetime.NoVar
	}
	for i := range l.Events {
		e := &l.Events[i]
		if e.Kind != lifetime.Return || e.Owner == lifetime.NoVar {
			continue
		}
		if o := l.Var(e.Owner); o.Captured && o.Outer != lifetime.NoVar && fn.Var(o.Outer).Kind == lifetime.Container {
			return o.Outer
		}
	}
	return lifetime.NoVar
}

// invalidates says whether event e grows the container of r in a way that
// may move its elements, or removes elements from it: directly, or through
// a call of a named lambda that does.
func invalidates(p *Pass, fn *lifetime.Func, e *lifetime.Event, r elemRef) (grow, remove bool) {
	if r.member != "" {
		if e.Kind != lifetime.Use || e.Flags&lifetime.Member == 0 || e.Text != r.member {
			return false, false
		}
		roles := p.Model.Call(e.Call)
		m := enclosing(fn).Class.Member(r.member)
		return roles&apimodel.Fill != 0 && m != nil && p.Model.Reallocates(m.Base), roles&apimodel.Remove != 0
	}
	c := r.c
	cv := fn.Var(c)
	switch {
	case growsContainer(fn, e, c):
		return p.Model.Reallocates(cv.Base) && beyondCapacity(p, fn, c, e), false
	case e.Kind == lifetime.Use && e.Var == c && e.Flags&lifetime.Receiver != 0 && p.Model.Call(e.Call)&apimodel.Remove != 0:
		return false, true
	}
	return false, false
}

// firstUse returns the first use of v after event index j, or nil.
func firstUse(fn *lifetime.Func, v lifetime.VarID, j int) *lifetime.Event {
	for k := j + 1; k < len(fn.Events); k++ {
		e := &fn.Events[k]
		if e.Var != v {
			continue
		}
		switch e.Kind {
		case lifetime.Use, lifetime.Operand, lifetime.OnStream:
			return e
		case lifetime.Assign, lifetime.Result, lifetime.ScopeExit:
			return nil
		}
	}
	return nil
}

// Whether a removal removes the element a reference was taken to.
const (
	sameElement  = iota // pop_back after back(), pop_front after front(), clear
	otherElement        // pop_back after front(): another element, unless it was the only one
	maybeElement        // erase, or an element taken by index
)

// removes says whether removal call (a remove-role call) destroys the
// element a reference taken through accessor via ("back()") refers to,
// from what the API model says the removal destroys.
func removes(m *apimodel.Model, via, call string) int {
	acc, ok := m.Removes(call)
	switch {
	case !ok:
		return maybeElement
	case acc == "*" || acc+"()" == via:
		return sameElement
	}
	if m.EndAccessor(strings.TrimSuffix(via, "()")) {
		return otherElement // the other end
	}
	return maybeElement
}

func reportElementInvalidated(p *Pass, fn *lifetime.Func, r elemRef, inv, use *lifetime.Event, grew, assumed bool) {
	name, c := fn.VarName(r.v), r.name(fn)
	what := "removes elements"
	if grew {
		what = "grows"
	}
	msg := fmt.Sprintf("'%s' refers to an element of '%s' and is used at line %d after '%s' %s at line %d",
		name, c, p.Line(use.At), c, what, p.Line(inv.At))
	elem := c + "'s element"
	decl := &fn.Events[r.i]
	died := p.Step(fn, diag.StepOwnerDies, inv, elem, "", fmt.Sprintf("%s via %s: the element '%s' refers to is gone", c, inv.Call, name))
	switch {
	case grew:
		died.Assumed = true
		died.Message = fmt.Sprintf("assumed: %s via %s runs out of capacity and moves the elements", c, inv.Call)
	case assumed:
		died.Assumed = true
		died.Message = fmt.Sprintf("assumed: %s via %s removes the element '%s' refers to", c, inv.Call, name)
	}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, decl, elem, "", fmt.Sprintf("an element of '%s'", c)),
		p.Step(fn, diag.StepBorrow, decl, name, elem, fmt.Sprintf("'%s' refers to it (via %s)", name, r.via)),
		died,
		p.Step(fn, diag.StepUse, use, name, "", fmt.Sprintf("'%s' is used here", name)),
	}
	p.Report(fn, decl.At, p.nodeEnd(decl), msg, "element:"+c+">"+name, w)
}

// reserved returns the capacity the function (or a lambda of it)
// reserves in container c: ok is false when it reserves none, and n is -1
// when the amount is not a literal (the reservation is then taken to
// cover every insertion).
func reserved(m *apimodel.Model, fn *lifetime.Func, c lifetime.VarID) (n int, ok bool) {
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == lifetime.Use && e.Var == c && e.Flags&lifetime.Receiver != 0 && m.Call(e.Call)&apimodel.Reserve != 0 {
			return literalArg(fn, e), true
		}
	}
	// or in a lambda of the function that captures the container
	for _, l := range fn.Lambdas {
		for i := range l.Events {
			e := &l.Events[i]
			if v := l.Var(e.Var); e.Kind == lifetime.Use && v != nil && v.Outer == c && e.Flags&lifetime.Receiver != 0 && m.Call(e.Call)&apimodel.Reserve != 0 {
				return literalArg(l, e), true
			}
		}
	}
	return 0, false
}

// literalArg returns the value of the only argument of the call of event
// e when it is a decimal literal, or -1.
func literalArg(fn *lifetime.Func, e *lifetime.Event) int {
	call := fn.EnclosingCall(e.Node)
	if call == parser.None {
		return -1
	}
	args := strings.TrimSpace(fn.File.Text(fn.File.Field(call, parser.FieldArguments)))
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(args, "("), ")")))
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// beyondCapacity reports whether growth event e of container c may be an
// insertion past the capacity the function reserved: more insertions
// than the literal reservation (counted directly and through named
// lambdas, leaving out those in other arms of a choice than e's) come up
// to e.
func beyondCapacity(p *Pass, fn *lifetime.Func, c lifetime.VarID, e *lifetime.Event) bool {
	n, ok := reserved(p.Model, fn, c)
	if !ok {
		return true
	}
	if n < 0 {
		return false
	}
	count := 0
	for i := range fn.Events {
		g := &fn.Events[i]
		if g.At > e.At {
			break
		}
		if g != e && (fn.Exclusive(g.Node, e.Node) || fn.Exclusive(e.Node, g.Node)) {
			continue
		}
		if growsContainer(fn, g, c) {
			count++
		}
	}
	return count > n
}

// growsContainer reports whether event g inserts into container c:
// directly, or by calling a named lambda that does.
func growsContainer(fn *lifetime.Func, g *lifetime.Event, c lifetime.VarID) bool {
	switch {
	case g.Kind == lifetime.Store && g.Var == c:
		return true
	case g.Kind == lifetime.Use && g.Flags&lifetime.Receiver != 0 && fn.Var(g.Var) != nil && fn.Var(g.Var).Kind == lifetime.Lambda:
		l := fn.Var(g.Var).Fn
		if l == nil {
			return false
		}
		for i := range l.Events {
			if x := &l.Events[i]; x.Kind == lifetime.Store && l.Var(x.Var) != nil && l.Var(x.Var).Outer == c {
				return true
			}
		}
	}
	return false
}
