package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func closureCapturesBorrow() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:          "HF-A006",
			Name:        "closure-captures-borrow",
			Class:       "A",
			Severity:    diag.Error,
			CoreDecides: true,
			Precision:   "medium",
			Summary:     "a closure that runs later captures a pointer or view into a local owner, not the owner, and the owner dies first",
			Help: `What it does: finds a lambda handed to something that runs it later (a
continuation on a future or stream, a host callback, a loop's or pool's
task queue: the callback and defer roles of the API model, a function of
the tree that keeps or defers its callable, or, latent, a callee named
like enqueue, schedule, post or defer) that captures by value a raw
pointer or view borrowed from a local owner (buf.data(), &x, a span over
a vector) but not the owner itself (a copy, a move, a reference-counted
handle), when the owner dies at the end of its scope with no wait for
the lambda on the way.

Confirmed: when executing the function's paths finds it, as for
HF-G001 (see docs/verification.md, "Rules the core decides"); a closure
taken to run later only by a call's name is latent.

Why it is bad: copying the pointer into the closure does not keep the
memory alive. The owner's destructor frees the buffer when the function
or block ends; the lambda runs afterwards on the runtime's thread and
reads or writes freed memory, which the allocator may already have handed
to someone else.

Known problems: an owner whose memory is kept alive by other means (a
pool that outlives the work, a registry) is reported; suppress with the
reason.`,
			Example: diag.Example{
				Bad: `void Upload(Loop& loop, Device& dev) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  loop.deferToLoop([data, &dev] { dev.Write(data); });
}                                   // host is freed; the task reads it later`,
				Good: `void Upload(Loop& loop, Device& dev) {
  auto host = std::make_shared<std::vector<float>>(Pack());
  loop.deferToLoop([host, &dev] { dev.Write(host->data()); });
}`,
			},
			Fix:  "move or copy the owner into the closure (or a reference-counted handle to it), or wait for the closure before the owner dies",
			Hint: "move the owner into the closure, or wait before the owner dies",
			Tags: []string{"async", "lifetime", "use-after-free"},
			CWE:  []int{416},
		},
		Check: checkClosureCapturesBorrow,
	}
}

func checkClosureCapturesBorrow(p *Pass, fn *lifetime.Func) {
	// After the rule's own reading: the core's report of the same line
	// takes its place (see reportCoreIf).
	defer p.reportCoreIf(fn, func(fl core.Fault) bool {
		return fl.Kind == core.CallbackOutlives && fl.Captured != "" && fl.Captured != "this"
	})
	seen := map[lifetime.VarID]bool{}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Lambda == nil || e.Kind != lifetime.Callback && e.Kind != lifetime.Defer {
			continue
		}
		how, certain := "", true
		if e.Kind == lifetime.Defer {
			var ok bool
			if how, ok = p.deferral(fn, e); !ok {
				continue
			}
			certain = how != ""
		}
		caps := captures(fn, e.Lambda)
		for _, c := range caps {
			if c.Flags&(lifetime.ByRef|lifetime.CapThis) != 0 {
				continue
			}
			b := borrowOf(fn, c.Var, e.At)
			if b == nil || seen[b.Owner] {
				continue
			}
			o := fn.Var(b.Owner)
			if o == nil || o.Param || o.Static || o.Captured || o.Outer != lifetime.NoVar || ownerKept(fn, b.Owner) || capturesVar(caps, b.Owner) {
				continue
			}
			died := fn.ScopeExitOf(b.Owner)
			if died == nil || died.At < e.At {
				continue
			}
			if e.Kind == lifetime.Defer && (executorDiesFirst(fn, e, b.Owner) || localStore(fn, e, how)) {
				continue
			}
			var proven bool
			var pw partialWaits
			if e.Kind == lifetime.Defer {
				proven, pw = deferAwaited(fn, e, i, died)
			} else {
				proven, pw = awaitedBefore(fn, e, i, died)
				proven = proven || completedBefore(fn, e, i)
			}
			if proven {
				continue
			}
			seen[b.Owner] = true
			reportClosureBorrow(p, fn, e, b, c, died, how, certain, pw)
		}
	}
}

// borrowOf returns the last borrow before offset at that made pointer or
// view v point into a local owner, or nil.
func borrowOf(fn *lifetime.Func, v lifetime.VarID, at uint32) *lifetime.Event {
	var out *lifetime.Event
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At >= at {
			break
		}
		if e.Kind == lifetime.Borrow && e.Var == v && e.Owner != lifetime.NoVar {
			out = e
		}
	}
	return out
}

// capturesVar reports whether a lambda's captures keep value v: any
// capture of it, by value or by reference (the latter is HF-G001's).
func capturesVar(caps []*lifetime.Event, v lifetime.VarID) bool {
	for _, c := range caps {
		if c.Var == v || c.Owner == v {
			return true
		}
	}
	return false
}

// localStore reports whether Defer event e hands its lambda to a local
// object that only stores it (see storedOnly): it runs it, if ever, while
// the function's locals live.
func localStore(fn *lifetime.Func, e *lifetime.Event, how string) bool {
	x := fn.Var(e.Var)
	return x != nil && storedOnly(how) && !x.Param && !x.Static && x.Kind != lifetime.Reference && x.Kind != lifetime.Pointer
}

func reportClosureBorrow(p *Pass, fn *lifetime.Func, e *lifetime.Event, b, c, died *lifetime.Event, how string, certain bool, pw partialWaits) {
	owner, ptr := fn.VarName(b.Owner), fn.VarName(c.Var)
	ov := fn.Var(b.Owner)
	runs := "registered with " + e.Call
	queue := futureName(fn, e)
	if e.Kind == lifetime.Defer {
		runs = "handed to " + e.Call
		queue = e.Call
		if e.Text != "" {
			queue = e.Text
		}
	}
	msg := fmt.Sprintf("the lambda %s captures '%s' but not its owner '%s', which dies at line %d",
		runs, ptr, owner, p.Line(died.At))
	declEv := &lifetime.Event{Node: ov.Decl, At: ov.At, Call: ov.Type}
	cb := p.Step(fn, diag.StepCallback, e, queue, owner, fmt.Sprintf("a lambda holding '%s' (a pointer into '%s') is %s; it runs later", ptr, owner, runs))
	switch {
	case !certain:
		cb.Assumed = true
		cb.Message = fmt.Sprintf("assumed: %s, which holdfast cannot see, runs the lambda after returning, as its name says", e.Call)
	case how != "":
		cb.Message += " (" + how + ")"
	}
	death := p.Step(fn, diag.StepOwnerDies, died, owner, "", fmt.Sprintf("'%s' dies here and frees what '%s' points to; the lambda has not run", owner, ptr))
	if b.Call != "&" && !p.Model.IsView(b.Call) && (!ownsMemory(p.Model, fn, ov) || !receiverOf(fn, b)) {
		death.Assumed = true
		death.Message = fmt.Sprintf("'%s' dies here; assumed: '%s' points into memory '%s' frees (holdfast cannot see %s or the definition of %s)", owner, ptr, owner, b.Call, ov.Type)
	}
	if pw.loop == nil && pw.branch != nil {
		death.Message += fmt.Sprintf(" (the only wait for the lambda, at line %d, is %s)", p.Line(pw.branch.At), pw.gap())
	}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, declEv, owner, "", fmt.Sprintf("'%s' (%s) owns the memory", owner, ov.Type)),
		p.Step(fn, diag.StepBorrow, b, ptr, owner, fmt.Sprintf("'%s' points into '%s' (via %s)", ptr, owner, b.Call)),
		cb,
	}
	if pw.loop != nil {
		w = append(w, loopWait(p, fn, pw.loop, queue))
	}
	w = append(w, death)
	p.Report(fn, e.At, p.nodeEnd(e), msg, "closure-borrow:"+owner+":"+e.Call, w)
}
