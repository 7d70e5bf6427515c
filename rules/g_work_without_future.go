package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func workWithoutFuture() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-G003",
			Name:      "work-without-future",
			Class:     "G",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "a work object is built without the future of the async work it stands for, so wait() returns at once",
			Help: `What it does: finds a work or handle object (a pack's consumer type such as
TpuWork or WorkNCCL, or any type named ...Work) built by make_intrusive,
make_shared, new or a constructor with no future among its arguments, in a
function that has started async work whose future is not waited for
before and is not handed to the object afterwards.

Why it is bad: callers wait on the work object to know the operation is
done. Built without the future, its wait() has nothing to wait for and
returns at once, while the receive or copy is still in flight: the caller
reads a destination that is not written yet, or reuses a buffer the device
still uses. torch_tpu's experimental_recv returned such a work object.

Known problems: a work type that learns its future later through a call
holdfast does not see (a setter in another file) is reported; suppress with
the reason.`,
			Example: diag.Example{
				Bad: `auto recv_future = CrossHostRecvBuffers(buffers, keys);
recv_future.OnReady([tensors](absl::Status s) { /* ... */ });
return c10::make_intrusive<TpuWork>();   // wait() returns at once`,
				Good: `auto recv_future = CrossHostRecvBuffers(buffers, keys);
return c10::make_intrusive<TpuWork>(std::move(recv_future));`,
			},
			Fix:  "hand the future of the work (or one chained after it) to the work object, so that wait() blocks until the operation is done",
			Hint: "hand the work's future to the work object",
			Tags: []string{"data-race", "async", "work"},
			CWE:  []int{362},
		},
		Check: checkWorkWithoutFuture,
	}
}

func checkWorkWithoutFuture(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		c := &fn.Events[i]
		if c.Kind != lifetime.Construct || c.Flags&lifetime.WithFuture != 0 || !p.Model.IsWork(c.Text) {
			continue
		}
		a, pw := pendingAsync(fn, i)
		if a == nil {
			continue
		}
		fut := fn.VarName(a.Var)
		if fut == "" {
			fut = "the future of " + a.Call
		} else {
			fut = "'" + fut + "'"
		}
		msg := fmt.Sprintf("%s is built without %s (started at line %d): its wait() returns before the work is done",
			c.Text, fut, p.Line(a.At))
		w := []diag.Step{
			p.Step(fn, diag.StepAsync, a, fn.VarName(a.Other), fn.VarName(a.Var), fmt.Sprintf("%s starts async work", a.Call)),
		}
		handed := fmt.Sprintf("the %s handed to callers does not hold %s", c.Text, fut)
		if cond := pw.named(); cond != nil {
			handed += fmt.Sprintf("; the only wait for it (line %d) is %s", p.Line(cond.At), pw.gap())
		}
		if pw.loop != nil {
			w = append(w, p.Step(fn, diag.StepWait, pw.loop, fn.VarName(a.Var), "",
				fmt.Sprintf("%s is waited for here, in a loop body holdfast cannot prove runs; when the loop does not run the work object's wait() returns early", fut)))
		}
		w = append(w, p.Step(fn, diag.StepEscape, c, c.Text, fn.VarName(a.Var), handed))
		w[len(w)-1].Via = "work-without-future"
		p.Report(fn, c.At, p.nodeEnd(c), msg, "work:"+c.Text+":"+a.Call, w)
	}
}

// pendingAsync returns an async start before event index i whose future is
// neither waited for before i on every path nor handed on after it, or
// nil; pw holds the waits for it before i that only some paths reach.
func pendingAsync(fn *lifetime.Func, i int) (a *lifetime.Event, pw partialWaits) {
	for j := 0; j < i; j++ {
		a := &fn.Events[j]
		if a.Kind != lifetime.Async {
			continue
		}
		if a.Var == lifetime.NoVar {
			if a.Flags&lifetime.Discarded != 0 {
				return a, partialWaits{}
			}
			continue
		}
		if settled, pw := futureSettled(fn, a.Var, j, i); !settled {
			return a, pw
		}
	}
	return nil, partialWaits{}
}

// futureSettled reports whether future v (started at index from) is
// waited for before index at on every path, or moved, stored or passed on
// after it; pw holds the waits before at that only some paths reach.
func futureSettled(fn *lifetime.Func, v lifetime.VarID, from, at int) (settled bool, pw partialWaits) {
	for k := from + 1; k < len(fn.Events); k++ {
		e := &fn.Events[k]
		if e.Var != v && e.Other != v {
			continue
		}
		switch {
		case e.Kind == lifetime.Wait && k < at:
			if pw.add(fn, e, fn.Events[at].Scope) {
				return true, partialWaits{}
			}
		case k > at && (e.Kind == lifetime.Move || e.Kind == lifetime.Store || e.Kind == lifetime.Return ||
			e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0 || e.Kind == lifetime.Capture):
			return true, partialWaits{}
		case e.Kind == lifetime.Move && e.Var == v || e.Kind == lifetime.Return && e.Var == v || e.Kind == lifetime.Store && e.Other == v:
			return true, partialWaits{} // handed to something else before: not this work's business
		}
	}
	return false, pw
}
