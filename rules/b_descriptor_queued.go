package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func descriptorQueued() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-B005",
			Name:      "descriptor-queued-for-later",
			Class:     "B",
			Severity:  diag.Warning,
			Precision: "medium",
			Summary:   "a caller's descriptor, passed by reference and consumed at once on one path, is queued for later on another",
			Help: `What it does: finds a function taking a reference parameter whose address
it hands to a call on one path (a C-style descriptor given to an API that
reads it before returning: post_send(qp, &wr, &bad)) and which, on
another path, puts the parameter itself into a container that outlives
the call (a member queue: pending_.emplace_back(wr)) to be used later.

Why it is bad: the path that consumes the descriptor at once tells callers
they may build it on their stack, often with pointers into their own
frame (a scatter-gather list). The queued entry, a reference or a shallow
copy, still points there when the queue is drained after the caller has
returned: the deferred call reads garbage.

Known problems: whether callers do pass short-lived descriptors is their
business, so every finding is latent; a descriptor type without pointers,
queued by value, is safe and is still reported.`,
			Example: diag.Example{
				Bad: `void Nic::post(Queue& q, send_wr& wr) {
  if (slots_ > 0) {
    check(post_send(q.get(), &wr, &bad));   // consumed now
  } else {
    waiting_.emplace_back(q, wr);           // kept: wr.sg_list points into the caller's frame
  }
}`,
				Good: `void Nic::post(Queue& q, SendInfo info) {   // owned values only
  if (slots_ > 0) {
    ibv_sge sge = info.sge();
    send_wr wr = info.wr(&sge);
    check(post_send(q.get(), &wr, &bad));
  } else {
    waiting_.emplace_back(q, info);
  }
}`,
			},
			Fix:  "queue an owned copy of what the descriptor describes (its buffers' addresses and sizes), and build the descriptor when it is posted",
			Hint: "queue an owned copy of what the descriptor describes",
			Tags: []string{"lifetime", "use-after-free"},
			CWE:  []int{562, 825},
		},
		Check: checkDescriptorQueued,
	}
}

func checkDescriptorQueued(p *Pass, fn *lifetime.Func) {
	if fn.Kind == lifetime.LambdaFunc {
		return
	}
	for _, v := range fn.Params() {
		x := &fn.Vars[v]
		if x.Kind != lifetime.Reference || p.Model.IsContainer(x.Base) || p.Model.IsSmartPtr(x.Base) || p.Model.IsTensor(x.Base) {
			continue
		}
		var consumed, queued *lifetime.Event
		for i := range fn.Events {
			e := &fn.Events[i]
			switch {
			case e.Var != v:
			case e.Kind == lifetime.PassRef && e.Flags&lifetime.AddressOf != 0 && consumed == nil:
				consumed = e
			case e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0 && queued == nil && p.Model.Call(e.Call)&apimodel.Fill != 0 && outliving(p, fn, e):
				queued = e
			}
		}
		if consumed == nil || queued == nil || !fn.Exclusive(consumed.Node, queued.Node) && !fn.Exclusive(queued.Node, consumed.Node) {
			continue
		}
		reportDescriptorQueued(p, fn, x, consumed, queued)
	}
}

// outliving reports whether the fill call of argument event e puts it
// into a container that outlives the function: a member (this->q_, or a
// name the function does not declare).
func outliving(p *Pass, fn *lifetime.Func, e *lifetime.Event) bool {
	call := fn.EnclosingCall(e.Node)
	if call == parser.None {
		return false
	}
	callee := p.File.Field(call, parser.FieldFunction)
	if p.File.Kind(callee) != parser.KindFieldExpression {
		return false
	}
	recv := p.File.Field(callee, parser.FieldArgument)
	switch p.File.Kind(recv) {
	case parser.KindFieldExpression:
		return p.File.Kind(p.File.Field(recv, parser.FieldArgument)) == parser.KindThis
	case parser.KindIdentifier:
		name := p.File.Text(recv)
		for i := range fn.Vars {
			if fn.Vars[i].Name == name {
				return false // a local or a parameter
			}
		}
		return true
	}
	return false
}

func reportDescriptorQueued(p *Pass, fn *lifetime.Func, x *lifetime.Var, consumed, queued *lifetime.Event) {
	msg := fmt.Sprintf("'%s', the caller's object passed by reference, is queued by %s to be used after this function returns",
		x.Name, queued.Call)
	declEv := &lifetime.Event{Node: x.Decl, At: x.At, Call: x.Type}
	death := p.Step(fn, diag.StepOwnerDies, endOf(fn), x.Name, "",
		fmt.Sprintf("assumed: the caller's '%s' lives on its stack and dies when it returns, as the path that consumes it at once allows", x.Name))
	death.Assumed = true
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, declEv, x.Name, "", fmt.Sprintf("'%s' (%s) is the caller's object", x.Name, x.Type)),
		p.Step(fn, diag.StepBorrow, queued, "&"+x.Name, x.Name, fmt.Sprintf("%s keeps a reference to '%s', or a copy that points where it points", queued.Call, x.Name)),
		p.Step(fn, diag.StepStore, queued, "&"+x.Name, "the queue", fmt.Sprintf("queued to be used later, while the other path hands its address to %s at line %d at once: a caller that builds it on its stack leaves the queued entry dangling", consumed.Call, p.Line(consumed.At))),
		death,
		p.Step(fn, diag.StepUse, queued, "the queue", "", "the queued entry is used when the queue drains, after the caller returned"),
	}
	p.Report(fn, queued.At, p.nodeEnd(queued), msg, "queued:"+x.Name+":"+queued.Call, w)
}
