package rules

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func holdNeverFilled() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-C001",
			Name:      "hold-container-never-filled",
			Class:     "C",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "a container meant to keep buffers alive is handed on but nothing is ever put in it",
			Help: `What it does: finds a local container whose type or name says it keeps
things alive (std::vector<std::shared_ptr<void>>, holds, keepalive, pins)
that is moved or returned into a consumer while no path of the function
puts anything into it: no push_back, emplace_back, insert, resize, assign,
swap, assignment, subscript store, no passing by address or by name to a
helper that could fill it, no capture by reference.

Why it is bad: the container is the only thing that was meant to keep the
buffers of in-flight work alive. Handed on empty, it keeps nothing: the
buffers die at the end of their scope while the device still reads or
writes them.

Known problems: a container filled through an alias (a pointer to it
taken earlier) is not seen; such code is rare and worth a suppression with
a reason.`,
			Example: diag.Example{
				Bad: `std::vector<std::shared_ptr<void>> holds;
for (auto& dst : dsts) {
  DeviceBufferRef ref = GetPjrtBuffer(dst);
  futures.push_back(CopyHostToDevice(ref, src));
}
acc.AndThen(std::move(futures), std::move(holds));  // holds is empty`,
				Good: `std::vector<std::shared_ptr<void>> holds;
for (auto& dst : dsts) {
  DeviceBufferRef ref = GetPjrtBuffer(dst);
  futures.push_back(CopyHostToDevice(ref, src));
  holds.push_back(std::make_shared<DeviceBufferRef>(std::move(ref)));
}
acc.AndThen(std::move(futures), std::move(holds));`,
			},
			Fix:  "put the owner of every buffer the async work uses into the hold container before handing it on",
			Hint: "put the owner of every buffer the work uses into the hold container",
			Tags: []string{"memory-safety", "use-after-free", "async", "lifetime"},
			CWE:  []int{416},
		},
		Check: checkHoldNeverFilled,
	}
}

func checkHoldNeverFilled(p *Pass, fn *lifetime.Func) {
	for v := range fn.Vars {
		x := &fn.Vars[v]
		if !x.Hold || x.Kind != lifetime.Container || x.Param || x.Static || x.Outer != lifetime.NoVar {
			continue
		}
		id := lifetime.VarID(v)
		if mayFill(p.Model, fn, id) {
			continue
		}
		handoff := firstHandoff(fn, id)
		if handoff == nil {
			continue
		}
		reportEmptyHold(p, fn, id, handoff)
	}
}

// mayFill reports whether any event could put something into container v.
func mayFill(m *apimodel.Model, fn *lifetime.Func, v lifetime.VarID) bool {
	for i := range fn.Events {
		e := &fn.Events[i]
		switch {
		case e.Kind == lifetime.Store && e.Var == v,
			e.Kind == lifetime.PassRef && e.Var == v,
			e.Kind == lifetime.Assign && e.Var == v,
			e.Kind == lifetime.Move && e.Other == v,
			e.Kind == lifetime.Borrow && e.Var == v,
			e.Kind == lifetime.Async && e.Var == v,
			e.Kind == lifetime.Materialise && e.Var == v,
			e.Kind == lifetime.Capture && e.Var == v && e.Flags&lifetime.ByRef != 0:
			return true
		case e.Kind == lifetime.Use && e.Var == v:
			if e.Flags&lifetime.Receiver != 0 && m.Call(e.Call)&(apimodel.Const|apimodel.Borrow|apimodel.Remove) == 0 {
				return true // an unknown method may fill its receiver
			}
			if e.Flags&lifetime.Argument != 0 {
				return true // a helper may take it by reference and fill it
			}
		}
	}
	return false
}

// firstHandoff returns the first event that hands container v on: a move
// into a call or value, a return, or an init-capture.
func firstHandoff(fn *lifetime.Func, v lifetime.VarID) *lifetime.Event {
	for i := range fn.Events {
		e := &fn.Events[i]
		switch {
		case e.Kind == lifetime.Move && e.Var == v,
			e.Kind == lifetime.Return && e.Var == v,
			e.Kind == lifetime.Capture && e.Var == v && e.Flags&lifetime.InitCap != 0:
			return e
		}
	}
	return nil
}

func reportEmptyHold(p *Pass, fn *lifetime.Func, v lifetime.VarID, handoff *lifetime.Event) {
	x := fn.Var(v)
	into := handoff.Call
	if o := fn.VarName(handoff.Other); o != "" {
		into = o
	}
	how := "is handed to " + into
	switch {
	case handoff.Kind == lifetime.Return || into == "return":
		how = "is returned"
	case handoff.Kind == lifetime.Capture || into == "a lambda":
		how = "is moved into a lambda"
	case into == "=":
		how = "is moved away"
	}
	msg := fmt.Sprintf("hold container '%s' %s but nothing is ever put into it, so it keeps no buffer alive", x.Name, how)
	declEv := &lifetime.Event{Node: x.Decl, At: x.At, Kind: lifetime.Declare}
	w := []diag.Step{p.Step(fn, diag.StepDeclHold, declEv, x.Name, "", fmt.Sprintf("'%s' (%s) is declared to keep buffers alive", x.Name, x.Type))}
	// The async work the hold should have covered, its buffer's owner and
	// any wait on it, in program order: whether the owner dies before the
	// work is awaited is for the replay to say, not the rule.
	w = append(w, asyncCoverage(p, fn, handoff)...)
	w = append(w, p.Step(fn, diag.StepMove, handoff, x.Name, into, fmt.Sprintf("'%s' is handed on empty", x.Name)))
	slices.SortStableFunc(w[1:], func(a, b diag.Step) int { return cmp.Compare(a.At.Start.Offset, b.At.Start.Offset) })
	p.Report(fn, handoff.At, p.nodeEnd(handoff), msg, x.Name, w)
}

// asyncCoverage returns the witness steps of the first async work started
// on a local owner before the handoff: the owner's declaration, the start,
// the waits on its future and the owner's death.
func asyncCoverage(p *Pass, fn *lifetime.Func, handoff *lifetime.Event) []diag.Step {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Async || e.At > handoff.At {
			continue
		}
		buf := fn.Var(e.Other)
		if buf == nil || buf.Param || buf.Outer != lifetime.NoVar {
			continue
		}
		died := fn.ScopeExitOf(e.Other)
		if died == nil {
			continue
		}
		bufDecl := &lifetime.Event{Node: buf.Decl, At: buf.At, Kind: lifetime.Declare}
		w := []diag.Step{
			p.Step(fn, diag.StepDeclare, bufDecl, buf.Name, "", fmt.Sprintf("'%s' owns the buffer the device uses", buf.Name)),
			p.Step(fn, diag.StepAsync, e, buf.Name, fn.VarName(e.Var), fmt.Sprintf("async work on '%s' starts via %s", buf.Name, e.Call)),
			p.Step(fn, diag.StepOwnerDies, died, buf.Name, "", fmt.Sprintf("'%s' dies here", buf.Name)),
		}
		if e.Var != lifetime.NoVar {
			for j := range fn.Events {
				if wt := &fn.Events[j]; wt.Kind == lifetime.Wait && wt.Var == e.Var && wt.At > e.At {
					w = append(w, p.Step(fn, diag.StepWait, wt, fn.VarName(e.Var), "", fmt.Sprintf("the host waits for '%s' via %s", fn.VarName(e.Var), wt.Call)))
					break
				}
			}
		}
		return w
	}
	return nil
}
