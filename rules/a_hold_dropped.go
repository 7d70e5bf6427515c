package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func holdDropped() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-A002",
			Name:      "future-kept-hold-dropped",
			Class:     "A",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "the future of a {future, hold} pair is kept while its hold is dropped",
			Help: `What it does: finds a caller that keeps the future of a {future, hold}
pair and drops the hold: a struct with a future member and a member that
only keeps buffers alive (std::shared_ptr<void>, a hold-named smart
pointer), a std::pair of the two, or a constructor called with a future and
without its defaulted hold parameter. The future is handed on (returned,
moved into a work object) while the hold is never touched, so it dies at
the end of the caller's scope.

Why it is bad: the hold is what keeps the buffers of the work alive until
the future completes. Dropped early, the buffers can be freed and reused
while the device still copies them.

Known problems: a caller that waits on the future before the hold dies is
safe and is not reported; a hold kept through a copy of the whole pair is
not followed. The fix that removes the problem for good is to make the
future carry the hold (a continuation that owns it), so callers cannot drop
it.`,
			Example: diag.Example{
				Bad: `struct AsyncDmaResult {
  xla::Future<> future;
  std::shared_ptr<void> buffer_hold;
};

c10::intrusive_ptr<Work> WindowTpu::Get(at::Tensor& dst) {
  AsyncDmaResult result = TpuAsyncDmaCopyDtoH(src_, dst);
  return c10::make_intrusive<WorkTpu>(std::move(result.future));  // hold dropped
}`,
				Good: `c10::intrusive_ptr<Work> WindowTpu::Get(at::Tensor& dst) {
  AsyncDmaResult result = TpuAsyncDmaCopyDtoH(src_, dst);
  return c10::make_intrusive<WorkTpu>(std::move(result.future),
                                      std::move(result.buffer_hold));
}`,
			},
			Fix:  "hand the hold on with the future (or make the future own the hold in its continuation, so there is nothing to drop)",
			Hint: "hand the hold on with the future, or make the future own it",
			Tags: []string{"memory-safety", "use-after-free", "async", "lifetime"},
			CWE:  []int{416},
		},
		Check: checkHoldDropped,
	}
}

func checkHoldDropped(p *Pass, fn *lifetime.Func) {
	for v := range fn.Vars {
		x := &fn.Vars[v]
		if x.PairFuture == "" || x.Param || x.Outer != lifetime.NoVar {
			continue
		}
		checkPairVar(p, fn, lifetime.VarID(v))
	}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Defaulted || e.Flags&lifetime.WithFuture == 0 || pairMemberIn(p, fn, e) {
			continue
		}
		msg := fmt.Sprintf("%s is built with a future but without its '%s' parameter, which defaults to holding nothing",
			e.Call, e.Text)
		p.Report(fn, e.At, p.nodeEnd(e), msg, e.Call+"."+e.Text, defaultedWitness(p, fn, i))
	}
}

// checkPairVar reports pair value v when its future is touched and its
// hold never is, nor the pair as a whole, and nothing waits on it.
func checkPairVar(p *Pass, fn *lifetime.Func, v lifetime.VarID) {
	x := fn.Var(v)
	var keep *lifetime.Event
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Var != v && e.Other != v && e.Owner != v {
			continue
		}
		switch {
		case e.Kind == lifetime.Declare, e.Kind == lifetime.ScopeExit, e.Kind == lifetime.Result,
			e.Kind == lifetime.Construct, e.Kind == lifetime.Async, e.Kind == lifetime.Materialise,
			e.Kind == lifetime.Operand, e.Kind == lifetime.OnStream:
		case e.Kind == lifetime.Wait:
			return // waited on while the hold lives
		case e.Text == x.PairHold:
			return
		case e.Text == x.PairFuture:
			if keep == nil {
				keep = e
			}
		case e.Text != "":
			// another member
		default:
			return // the pair itself is used, copied or handed on
		}
	}
	died := fn.ScopeExitOf(v)
	if keep == nil || died == nil {
		return
	}
	hold := x.Name + "." + x.PairHold
	future := x.Name + "." + x.PairFuture
	msg := fmt.Sprintf("'%s' is kept but '%s' is dropped: it dies at line %d while the work may still run",
		future, hold, p.Line(died.At))
	declEv := &lifetime.Event{Node: x.Decl, At: x.At, Call: x.Type}
	start := declEv
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Var == v && (e.Kind == lifetime.Async || e.Kind == lifetime.Result || e.Kind == lifetime.Construct) {
			start = e
			break
		}
	}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, declEv, hold, "", fmt.Sprintf("'%s' (%s) carries the hold of the work", x.Name, x.Type)),
		p.Step(fn, diag.StepAsync, start, hold, future, fmt.Sprintf("the work started for '%s' uses the buffers '%s' keeps alive", x.Name, hold)),
		p.Step(fn, diag.StepEscape, keep, future, "", fmt.Sprintf("'%s' is handed on without '%s'", future, hold)),
		p.Step(fn, diag.StepOwnerDies, died, hold, "", fmt.Sprintf("'%s' dies here while the work '%s' stands for may still use the buffers it keeps alive", hold, future)),
	}
	p.Report(fn, keep.At, p.nodeEnd(keep), msg, hold, w)
}

// pairMemberIn reports whether the construction at e takes a member of a
// pair value, which checkPairVar reports itself.
func pairMemberIn(p *Pass, fn *lifetime.Func, e *lifetime.Event) bool {
	end := p.nodeEnd(e)
	for i := range fn.Events {
		x := &fn.Events[i]
		if x.At >= e.At && x.At < end && x.Var != lifetime.NoVar && fn.Var(x.Var).PairFuture != "" && x.Text == fn.Var(x.Var).PairFuture {
			return true
		}
	}
	return false
}

// defaultedWitness tells the story of the Defaulted event at index i: when
// the future handed over comes from async work on a buffer only a local
// of this function owns, the owner, the work, the hand-off without a hold
// and the owner's death; otherwise the hand-off alone.
func defaultedWitness(p *Pass, fn *lifetime.Func, i int) []diag.Step {
	e := &fn.Events[i]
	for ai := 0; ai < i; ai++ {
		a := &fn.Events[ai]
		if a.Kind != lifetime.Async {
			continue
		}
		handed := false
		end := p.nodeEnd(e)
		flow := followFuture(p, fn, ai)
		for _, x := range flow.escapes {
			handed = handed || x.At >= e.At && x.At < end
		}
		if !handed {
			continue
		}
		ops := asyncOperands(fn, ai)
		for _, op := range ops {
			o, _ := ownerOf(fn, op.Var)
			if o == lifetime.NoVar || !soleLocalOwner(fn, o) || keptBeyondScope(fn, o) != nil {
				continue
			}
			died := fn.ScopeExitOf(o)
			if died == nil || died.At < e.At {
				continue
			}
			x := fn.Var(o)
			declEv := &lifetime.Event{Node: x.Decl, At: x.At, Call: x.Type}
			w := []diag.Step{
				p.Step(fn, diag.StepDeclare, declEv, x.Name, "", fmt.Sprintf("'%s' (%s) owns the buffer the work uses", x.Name, x.Type)),
				p.Step(fn, diag.StepAsync, a, x.Name, fn.VarName(a.Var), fmt.Sprintf("%s starts async work on '%s'", a.Call, x.Name)),
			}
			// A wait on the path before the owner dies: the missing hold is
			// still reported, and the replay shows whether it matters here.
			wait := waitOnPath(fn, ai, died, flow, ops, asyncFutures(fn))
			if wait != nil && wait.At < e.At {
				w = append(w, p.Step(fn, diag.StepWait, wait, fn.VarName(wait.Var), "", fmt.Sprintf("%s waits for the work before the hand-off", wait.Call)))
			}
			w = append(w, p.Step(fn, diag.StepEscape, e, fn.VarName(a.Var), "", fmt.Sprintf("the future goes to %s with '%s' left at its default", e.Call, e.Text)))
			if wait != nil && wait.At >= e.At {
				w = append(w, p.Step(fn, diag.StepWait, wait, fn.VarName(wait.Var), "", fmt.Sprintf("%s waits for the work while '%s' still lives", wait.Call, x.Name)))
			}
			return append(w, p.Step(fn, diag.StepOwnerDies, died, x.Name, "", fmt.Sprintf("'%s' dies here; no hold keeps its buffer", x.Name)))
		}
	}
	return []diag.Step{
		p.Step(fn, diag.StepMove, e, e.Call, "", fmt.Sprintf("the future is handed to %s", e.Call)),
		p.Step(fn, diag.StepEscape, e, e.Call, "", fmt.Sprintf("'%s' is left at its default: the buffers of the work are not kept alive until it completes", e.Text)),
	}
}
