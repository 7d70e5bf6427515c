package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func completionFreesIntoPool() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-G005",
			Name:      "completion-frees-into-unkept-pool",
			Class:     "G",
			Severity:  diag.Warning,
			Precision: "medium",
			Summary:   "a completion frees memory into a pool that is part of an object the completion does not keep alive",
			Help: `What it does: finds memory allocated from a pool embedded in an object
(alloc(&device->pool, &x)) and freed by a completion callback (a
continuation, a command buffer's completed handler), when neither the
callback nor the function keeps the object alive: the callback does not
capture it, and no keep call (a retain) takes it.

Why it is bad: the completion runs when the device is done, on a runtime
thread, after the function has returned. If the object's last owner
releases it meanwhile, its pool is torn down with it, and the callback's
free writes into freed memory.

Known problems: an object whose owner always outlives the queued work (a
device whose destructor drains its queues) is reported too; every finding
is latent.`,
			Example: diag.Example{
				Bad: `void submit(device_t* device, HostFuture<void> done) {
  set_t* set = NULL;
  set_allocate(&device->block_pool, &set);
  done.OnReady([set](Status s) { iree_hal_resource_set_free(set); });
}`,
				Good: `void submit(device_t* device, HostFuture<void> done) {
  set_t* set = NULL;
  set_allocate(&device->block_pool, &set);
  iree_hal_resource_retain(device);
  done.OnReady([set, device](Status s) {
    iree_hal_resource_set_free(set);
    iree_hal_resource_release(device);
  });
}`,
			},
			Fix:  "keep the pool's owner alive until the completion has freed into it: retain it before registering the callback and release it in the callback",
			Hint: "retain the pool's owner in the callback and release it there",
			Tags: []string{"memory-safety", "use-after-free", "callbacks"},
			CWE:  []int{416},
		},
		Check: checkCompletionFreesIntoPool,
	}
}

func checkCompletionFreesIntoPool(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Callback || e.Lambda == nil {
			continue
		}
		l := e.Lambda
		for k := range l.Events {
			f := &l.Events[k]
			if f.Kind != lifetime.Free {
				continue
			}
			x := l.Var(f.Var)
			if x == nil || !x.Captured || x.Outer == lifetime.NoVar {
				continue
			}
			owner, member, alloc := poolOwner(p, fn, x.Outer)
			if owner == lifetime.NoVar || keptByCallback(p, fn, l, owner) {
				continue
			}
			if proven, _ := awaitedBefore(fn, e, i, endOf(fn)); proven {
				continue
			}
			reportCompletionFreesIntoPool(p, fn, e, f, alloc, fn.VarName(x.Outer), fn.VarName(owner), member)
		}
	}
}

// poolOwner returns the object whose embedded pool value v was allocated
// from (alloc(&owner->member, &v)), that member, and the allocating call's
// event; NoVar when v was not allocated so.
func poolOwner(p *Pass, fn *lifetime.Func, v lifetime.VarID) (lifetime.VarID, string, *lifetime.Event) {
	for i := range fn.Events {
		out := &fn.Events[i]
		if out.Kind != lifetime.PassRef || out.Var != v || out.Flags&lifetime.AddressOf == 0 {
			continue
		}
		for j := range fn.Events {
			o := &fn.Events[j]
			if o.Kind != lifetime.PassRef || o.Var == v || o.Flags&lifetime.AddressOf == 0 || !fn.SameCall(o.Node, out.Node) {
				continue
			}
			if m := memberOf(p.File, o.Node); m != "" {
				if ov := fn.Var(o.Var); ov != nil && (ov.Kind == lifetime.Pointer || ov.Param) {
					return o.Var, m, out
				}
			}
		}
	}
	return lifetime.NoVar, "", nil
}

// memberOf returns the member of &p->member (or &p.member) at node n, or
// "".
func memberOf(file *parser.File, n parser.NodeID) string {
	for m := n; m != parser.None; m = file.Nodes[m].Parent {
		if file.Kind(m) == parser.KindPointerExpression {
			arg := file.Field(m, parser.FieldArgument)
			if file.Kind(arg) == parser.KindFieldExpression {
				return file.Text(file.Field(arg, parser.FieldField))
			}
			return ""
		}
		if file.Kind(m) == parser.KindArgumentList {
			return ""
		}
	}
	return ""
}

// keptByCallback reports whether the callback or the function keeps the
// pool's owner, or a value it was made from (device = cast(base_device)):
// the callback names one (to release it afterwards), or a keep call takes
// one.
func keptByCallback(p *Pass, fn *lifetime.Func, l *lifetime.Func, owner lifetime.VarID) bool {
	aliases := []lifetime.VarID{owner}
	decl := parser.None
	if ov := fn.Var(owner); ov != nil {
		for n := ov.Decl; n != parser.None; n = p.File.Nodes[n].Parent {
			if p.File.Kind(n) == parser.KindDeclaration {
				decl = n
				break
			}
		}
	}
	for i := range fn.Events {
		e := &fn.Events[i]
		if decl != parser.None && e.Kind == lifetime.Use && e.Var != lifetime.NoVar && e.Var != owner && fn.Within(e.Node, decl) {
			aliases = append(aliases, e.Var)
		}
	}
	for _, a := range aliases {
		if mentions(l, fn.VarName(a)) || kept(p, fn, a) {
			return true
		}
	}
	return false
}

// mentions reports whether lambda l names value name (captures or uses it).
func mentions(l *lifetime.Func, name string) bool {
	for i := range l.Vars {
		if l.Vars[i].Name == name {
			return true
		}
	}
	return false
}

// kept reports whether fn hands v to a keep call (a retain).
func kept(p *Pass, fn *lifetime.Func, v lifetime.VarID) bool {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Var == v && (e.Kind == lifetime.Use || e.Kind == lifetime.PassRef) && p.Model.Call(e.Call)&apimodel.Keep != 0 {
			return true
		}
	}
	return false
}

func reportCompletionFreesIntoPool(p *Pass, fn *lifetime.Func, e, f, alloc *lifetime.Event, x, owner, member string) {
	fut := futureName(fn, e)
	msg := fmt.Sprintf("the %s callback frees '%s' into the pool of '%s' but keeps no reference to it",
		e.Call, x, owner)
	death := p.Step(fn, diag.StepOwnerDies, endOf(fn), owner, "",
		fmt.Sprintf("assumed: after %s returns, a caller holdfast cannot see releases '%s' before the work completes; the free then writes into its destroyed pool", shortName(enclosing(fn).Name), owner))
	death.Assumed = true
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, alloc, owner, "", fmt.Sprintf("'%s' comes from the pool '%s->%s'", x, owner, member)),
		p.Step(fn, diag.StepCallback, e, fut, owner, fmt.Sprintf("the callback frees '%s' (line %d) into the pool of '%s', which it does not keep", x, p.Line(f.At), owner)),
		death,
	}
	p.Report(fn, e.At, p.nodeEnd(e), msg, "pool-free:"+owner+":"+x, w)
}
