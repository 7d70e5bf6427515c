package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func asyncOutlivesBuffer() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-A001",
			Name:      "async-work-outlives-buffer",
			Class:     "A",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "async device work may still use a buffer whose only owner, a local, dies before the work is done",
			Help: `What it does: finds an async call (a device-to-host copy, a DMA, a send)
on a buffer whose only owner is a local value (often a fresh buffer made
for a view by GetBuffer or MaterializeAndReturn), whose future leaves the
function (returned, stored in a member, handed to a work object or
consumer, chained into a continuation) while no continuation captures the
owner and nothing waits for the future before the owner dies.

Why it is bad: the owner's destructor runs at the end of its scope and
releases the buffer while the device still reads or writes it. The future
the caller keeps says nothing about the memory: the copy reads freed (and
maybe reused) memory, or writes into it. A blocking path (Await(),
BlockHostUntilReady(), get(), wait()) that waits before the owner dies is
safe, and so is a continuation that captures the owner, or a shared owner
of its memory, and releases it when the work completes.

Known problems: the summaries of the scanned tree say what its functions
do with the values they are handed (wait for them, free them, keep them),
not which other values share an owner's memory, so an owner that shares
its memory with a longer-lived value (a cache, the tensor's storage) looks
like the only owner; an API that keeps its operands alive inside the
future should say so in a pack (role keep). Suppress with a reason.`,
			Example: diag.Example{
				Bad: `xla::Future<> StartD2H(const at::Tensor& src, void* dst) {
  DeviceBufferRef buffer = GetBuffer(src);        // a new buffer for a view
  auto literal = MakeLiteral(dst);
  xla::Future<> done = buffer->ToLiteral(literal.get());
  done.OnReady([literal = std::move(literal)](absl::Status) {});
  return done;                                     // buffer dies here
}`,
				Good: `xla::Future<> StartD2H(const at::Tensor& src, void* dst) {
  DeviceBufferRef buffer = GetBuffer(src);
  auto literal = MakeLiteral(dst);
  xla::Future<> done = buffer->ToLiteral(literal.get());
  done.OnReady([literal = std::move(literal),
                list = buffer.device_buffer_list()](absl::Status) mutable {
    list.reset();                                  // released when the copy is done
  });
  return done;
}`,
			},
			Fix:  "capture the owner (or a shared owner of its memory) in the continuation and release it there, or wait for the future before the owner dies",
			Hint: "capture the owner in the continuation, or wait before the owner dies",
			Tags: []string{"memory-safety", "use-after-free", "async", "lifetime"},
			CWE:  []int{416},
		},
		Check: checkAsyncOutlivesBuffer,
	}
}

func checkAsyncOutlivesBuffer(p *Pass, fn *lifetime.Func) {
	var futures map[lifetime.VarID]int
	for ai := range fn.Events {
		a := &fn.Events[ai]
		if a.Kind != lifetime.Async || p.Model.Call(a.Call)&apimodel.Keep != 0 || !tracked(fn, a) {
			continue
		}
		ops := asyncOperands(fn, ai)
		if len(ops) == 0 {
			continue
		}
		flow := followFuture(p, fn, ai)
		if len(flow.escapes) == 0 {
			continue
		}
		if futures == nil {
			futures = asyncFutures(fn)
		}
		seen := map[lifetime.VarID]bool{}
		for _, op := range ops {
			o, via := ownerOf(fn, op.Var)
			if o == lifetime.NoVar || seen[o] || !soleLocalOwner(fn, o) || keptBeyondScope(fn, o) != nil {
				continue
			}
			seen[o] = true
			died := fn.ScopeExitOf(o)
			if died == nil || died.At < a.At {
				continue
			}
			x := uncoveredEscape(fn, ai, flow, ops, futures, died)
			if x == nil {
				continue
			}
			reportAsyncOutlives(p, fn, a, o, via, x, died, waitOnPath(fn, ai, x, flow, ops, futures))
			break
		}
	}
}

// uncoveredEscape returns the first escape of the future that no wait
// covers before the owner dies at died: a wait before the escape counts
// when it is on every path to it (its scope encloses the escape's), a
// wait after it when it comes before the owner dies.
func uncoveredEscape(fn *lifetime.Func, ai int, flow futureFlow, ops []lifetime.Event, futures map[lifetime.VarID]int, died *lifetime.Event) *lifetime.Event {
	a := &fn.Events[ai]
	for _, x := range flow.escapes {
		if x.At > died.At {
			continue
		}
		covered := false
		for i := range fn.Events {
			w := &fn.Events[i]
			if w.Kind != lifetime.Wait || w.At <= a.At || w.At > died.At || !covers(w, ai, flow, ops, futures) {
				continue
			}
			if w.At > x.At || fn.Encloses(w.Scope, x.Scope) {
				covered = true
				break
			}
		}
		if !covered {
			return x
		}
	}
	return nil
}

func escapeText(fn *lifetime.Func, x *lifetime.Event) string {
	switch x.Kind {
	case lifetime.Async:
		return "is handed on as it is"
	case lifetime.Return:
		return "is returned"
	case lifetime.Callback:
		return "is chained into " + x.Call
	case lifetime.Capture:
		return "is captured by a lambda"
	case lifetime.Store:
		if name := fn.VarName(x.Var); name != "" {
			return "is put into '" + name + "', which outlives this function"
		}
		return "is stored in " + x.Call
	case lifetime.Construct:
		return "is handed to a " + x.Text
	case lifetime.Move:
		if x.Call == "return" {
			return "is returned"
		}
		return "is moved into " + x.Call
	}
	return "is handed to " + x.Call
}

// A wait that the rule cannot count (it is in a loop body that may not
// run) is a step of the witness, which takes the path through the loop
// body: the replay then says whether that path is clean.
func reportAsyncOutlives(p *Pass, fn *lifetime.Func, a *lifetime.Event, o, via lifetime.VarID, x, died, wait *lifetime.Event) {
	owner := fn.Var(o)
	future := fn.VarName(a.Var)
	what := "the future"
	if future != "" {
		what = fmt.Sprintf("the future '%s'", future)
	}
	through := ""
	if via != lifetime.NoVar && via != o {
		through = fmt.Sprintf(" (through '%s')", fn.VarName(via))
	}
	nothing := fmt.Sprintf("nothing waits for it or keeps '%s' alive", owner.Name)
	if wait != nil {
		nothing = fmt.Sprintf("only the wait at line %d, in a loop body that may not run, waits for it, and nothing keeps '%s' alive", p.Line(wait.At), owner.Name)
	}
	msg := fmt.Sprintf("%s may still use '%s'%s when its only owner dies at line %d",
		a.Call, owner.Name, through, p.Line(died.At))
	declEv := &lifetime.Event{Node: owner.Decl, At: owner.At, Call: owner.Type}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, declEv, owner.Name, "", fmt.Sprintf("'%s' (%s) is the only owner of the buffer", owner.Name, owner.Type)),
		p.Step(fn, diag.StepAsync, a, owner.Name, future, fmt.Sprintf("%s starts async work on '%s'", a.Call, owner.Name)),
	}
	if wait != nil {
		w = append(w, p.Step(fn, diag.StepWait, wait, fn.VarName(wait.Var), "", fmt.Sprintf("%s waits for the work on this path, in a loop body holdfast cannot prove runs", wait.Call)))
	}
	if x.Kind == lifetime.Callback {
		w = append(w, p.Step(fn, diag.StepCallback, x, future, "", fmt.Sprintf("the continuation registered with %s does not capture '%s'", x.Call, owner.Name)))
	}
	esc := future
	if esc == "" {
		esc = a.Call
	}
	w = append(w,
		p.Step(fn, diag.StepEscape, x, esc, "", fmt.Sprintf("%s %s; %s", what, escapeText(fn, x), nothing)),
		p.Step(fn, diag.StepOwnerDies, died, owner.Name, "", fmt.Sprintf("'%s' dies here while the work may still run", owner.Name)))
	p.Report(fn, a.At, p.nodeEnd(a), msg, owner.Name+"->"+a.Call, w)
}
