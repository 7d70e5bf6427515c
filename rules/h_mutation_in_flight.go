package rules

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/core"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func mutationInFlight() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-H001",
			Name:      "mutation-while-copy-in-flight",
			Class:     "H",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "a tensor is mutated in place while an async copy from or to it may still run",
			Help: `What it does: finds an async copy from or to a tensor (directly, through
its data pointer, or through a buffer materialised from it) followed,
before anything waits for that copy, by an in-place mutation of the tensor:
zero_(), copy_(), fill_(), any ATen in-place op (a trailing underscore), or
a data-pointer swap (OverwriteDataPtr).

Why it is bad: the copy reads or writes the tensor's buffer while the host
changes it. On backends whose in-place ops swap the buffer under the
tensor (torch_tpu), the copy keeps using a buffer nobody owns any more; on
others it reads half-updated data or its result is overwritten.

Known problems: work queued on the same CUDA stream as the mutation is
ordered after it; the rule only reports stream-ordered copies when the
stream is known to be a side stream, and host tensors mutated after a
same-stream copy are missed.`,
			Example: diag.Example{
				Bad: `absl::Status CopyThenZero(at::Tensor& t, xla::MutableBorrowingLiteral* literal) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef src_ref, GetBuffer(t));
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * src_buffer, src_ref.AwaitBuffer());
  xla::Future<> done = src_buffer->ToLiteral(literal);
  t.zero_();               // swaps t's buffer while the copy reads it
  return done.Await();
}`,
				Good: `absl::Status CopyThenZero(at::Tensor& t, xla::MutableBorrowingLiteral* literal) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef src_ref, GetBuffer(t));
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * src_buffer, src_ref.AwaitBuffer());
  xla::Future<> done = src_buffer->ToLiteral(literal);
  TF_RETURN_IF_ERROR(done.Await());
  t.zero_();
  return absl::OkStatus();
}`,
			},
			Fix:  "wait for the copy (Await, BlockHostUntilReady, a stream or event synchronisation) before mutating the tensor, or mutate a clone",
			Hint: "wait for the copy before mutating the tensor, or mutate a clone",
			Tags: []string{"data-race", "async", "aliasing"},
			CWE:  []int{362},
		},
		Check: checkMutationInFlight,
	}
}

func checkMutationInFlight(p *Pass, fn *lifetime.Func) {
	// The core's device: the host writes what queued work uses.
	p.reportCore(fn, core.HostWritesPending)
	var futures map[lifetime.VarID]int
	for ai := range fn.Events {
		a := &fn.Events[ai]
		if a.Kind != lifetime.Async || !tracked(fn, a) {
			continue
		}
		ops := asyncOperands(fn, ai)
		if len(ops) == 0 || sameStreamWork(fn, ops) {
			continue
		}
		roots := map[lifetime.VarID]lifetime.VarID{} // value -> operand it derives from
		for _, op := range ops {
			for _, r := range ancestors(fn, op.Var) {
				if _, ok := roots[r]; !ok {
					roots[r] = op.Var
				}
			}
		}
		end := p.nodeEnd(a)
		if futures == nil {
			futures = asyncFutures(fn)
		}
		flow := followFuture(p, fn, ai)
		for mi := ai + 1; mi < len(fn.Events); mi++ {
			m := &fn.Events[mi]
			if m.Kind != lifetime.Mutate || m.At < end {
				continue
			}
			op, ok := roots[m.Var]
			if !ok {
				continue
			}
			if waitedBefore(fn, ai, mi, flow, ops, futures) {
				break
			}
			reportMutationInFlight(p, fn, a, m, op, ai, flow, ops, futures)
			break
		}
	}
}

// ancestors returns v and the values its memory comes from: the owner a
// pointer was borrowed from, the original a buffer was materialised from,
// the value it was assigned from.
func ancestors(fn *lifetime.Func, v lifetime.VarID) []lifetime.VarID {
	out := []lifetime.VarID{v}
	seen := map[lifetime.VarID]bool{v: true}
	for k := 0; k < len(out) && k < 16; k++ {
		x := out[k]
		for i := range fn.Events {
			e := &fn.Events[i]
			if e.Var != x {
				continue
			}
			next := lifetime.NoVar
			switch e.Kind {
			case lifetime.Borrow:
				next = e.Owner
			case lifetime.Materialise, lifetime.Assign:
				next = e.Other
			}
			if next != lifetime.NoVar && !seen[next] {
				seen[next] = true
				out = append(out, next)
			}
		}
	}
	return out
}

// sameStreamWork reports whether the work runs on a stream that is not
// known to be a side stream: in-place ops issued later on the current
// stream are ordered after it.
func sameStreamWork(fn *lifetime.Func, ops []lifetime.Event) bool {
	for _, op := range ops {
		if x := fn.Var(op.Var); x != nil && x.Stream {
			return !x.SideStream
		}
	}
	return false
}

// waitedBefore reports whether a wait that covers the Async at event ai
// runs on every path to the mutation at event mi.
func waitedBefore(fn *lifetime.Func, ai, mi int, flow futureFlow, ops []lifetime.Event, futures map[lifetime.VarID]int) bool {
	m := &fn.Events[mi]
	for i := ai + 1; i < mi; i++ {
		w := &fn.Events[i]
		if w.Kind == lifetime.Wait && fn.Encloses(w.Scope, m.Scope) && covers(w, ai, flow, ops, futures) {
			return true
		}
	}
	return false
}

func reportMutationInFlight(p *Pass, fn *lifetime.Func, a, m *lifetime.Event, op lifetime.VarID, ai int, flow futureFlow, ops []lifetime.Event, futures map[lifetime.VarID]int) {
	t := fn.VarName(m.Var)
	through := ""
	if op != m.Var {
		through = fmt.Sprintf(" (through '%s')", fn.VarName(op))
	}
	msg := fmt.Sprintf("%s (line %d) may still be using '%s'%s when %s mutates it in place",
		a.Call, p.Line(a.At), t, through, m.Call)
	w := []diag.Step{p.Step(fn, diag.StepAsync, a, t, fn.VarName(a.Var), fmt.Sprintf("%s starts an async copy that uses '%s'", a.Call, t))}
	// A wait in a loop body the rule cannot prove runs: the witness takes
	// the path through the body, and the replay says whether it is clean.
	if lw := waitOnPath(fn, ai, m, flow, ops, futures); lw != nil {
		w = append(w, p.Step(fn, diag.StepWait, lw, fn.VarName(lw.Var), "", fmt.Sprintf("%s waits for the copy on this path, in a loop body holdfast cannot prove runs", lw.Call)))
	}
	w = append(w, p.Step(fn, diag.StepMutate, m, t, "", fmt.Sprintf("%s changes '%s' before anything waits for the copy on every path", m.Call, t)))
	for i := range fn.Events {
		if e := &fn.Events[i]; e.At > m.At && e.Kind == lifetime.Wait && covers(e, ai, flow, ops, futures) {
			w = append(w, p.Step(fn, diag.StepWait, e, fn.VarName(e.Var), "", "the copy is waited for only here"))
			break
		}
	}
	p.Report(fn, m.At, p.nodeEnd(m), msg, t+"@"+a.Call, w)
}
