package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func futureDiscarded() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-A004",
			Name:      "async-future-discarded",
			Class:     "A",
			Severity:  diag.Warning,
			Precision: "high",
			Summary:   "the future or event of async work is discarded, so nothing can wait for the work",
			Help: `What it does: finds async work whose completion is dropped: a call the API
model says returns the future of the work it starts (ToLiteral,
CopyRawToHostFuture, CopyHtoD) used as a statement, a future variable
that is never waited on, handed on or chained after the call that made it,
and a C API call whose event comes back in an argument struct
(PJRT_Buffer_ToHostBuffer's args.event) that is never read again.

Why it is bad: the future is the only way to know when the device is done
with the buffers the work uses. Without it nothing can wait before those
buffers are freed, reused or read, and an error of the work is lost.

Known problems: a future that is deliberately detached (the work keeps its
own buffers alive and its errors do not matter) is reported too; say so
with a suppression and a reason.`,
			Example: diag.Example{
				Bad: `absl::Status Prefetch(xla::PjRtBuffer* buffer, void* dst, int64_t n) {
  buffer->CopyRawToHostFuture(dst, 0, n);   // the future is dropped
  return absl::OkStatus();
}`,
				Good: `xla::Future<> Prefetch(xla::PjRtBuffer* buffer, void* dst, int64_t n) {
  return buffer->CopyRawToHostFuture(dst, 0, n);   // the caller waits
}`,
			},
			Fix:  "keep the future: return it, hand it to whatever waits (a work object, a transfer tracker), or wait on it before the buffers it uses go away",
			Hint: "keep the future: return it, hand it on, or wait on it",
			Tags: []string{"async", "lifetime", "error-handling"},
		},
		Check: checkFutureDiscarded,
	}
}

func checkFutureDiscarded(p *Pass, fn *lifetime.Func) {
	for ai := range fn.Events {
		a := &fn.Events[ai]
		if a.Kind != lifetime.Async {
			continue
		}
		roles := p.Model.Call(a.Call)
		switch {
		case a.Var == lifetime.NoVar && a.Flags&lifetime.Discarded != 0 && roles&apimodel.Yield != 0:
			reportDiscarded(p, fn, ai, a, fmt.Sprintf("the future of %s is discarded: nothing can wait for the work or see its error", a.Call))
		case a.Var != lifetime.NoVar && fn.Var(a.Var).Kind == lifetime.Future && !fn.Var(a.Var).Param && neverUsedAfter(fn, a.Var, ai, p.nodeEnd(a)):
			reportDiscarded(p, fn, ai, a, fmt.Sprintf("future '%s' of %s is never waited on, handed on or chained: nothing can wait for the work or see its error", fn.VarName(a.Var), a.Call))
		case a.Var == lifetime.NoVar && roles&apimodel.Async != 0 && roles&(apimodel.Yield|apimodel.WriteArg|apimodel.Write) == 0:
			if s := eventStruct(fn, ai, p.nodeEnd(a)); s != lifetime.NoVar && neverUsedAfter(fn, s, ai, p.nodeEnd(a)) {
				reportDiscarded(p, fn, ai, a, fmt.Sprintf("the event %s returns in '%s' is never read: nothing waits for the work or destroys the event", a.Call, fn.VarName(s)))
			}
		}
	}
}

// neverUsedAfter reports whether nothing reads v after the call at event
// ai (ending at end) but its own scope exit.
func neverUsedAfter(fn *lifetime.Func, v lifetime.VarID, ai int, end uint32) bool {
	for j := ai + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		if e.Var != v && e.Other != v && e.Owner != v || e.At < end {
			continue
		}
		switch e.Kind {
		case lifetime.ScopeExit, lifetime.Declare, lifetime.Result, lifetime.Operand:
			continue
		}
		return false
	}
	for _, l := range fn.Lambdas {
		for i := range l.Vars {
			if l.Vars[i].Outer == v {
				return false
			}
		}
	}
	return true
}

// eventStruct returns the local struct a C API call gets by address (its
// argument struct, where the event of the work comes back), or NoVar.
func eventStruct(fn *lifetime.Func, ai int, end uint32) lifetime.VarID {
	a := &fn.Events[ai]
	for j := ai + 1; j < len(fn.Events) && fn.Events[j].At < end; j++ {
		e := &fn.Events[j]
		if e.Kind == lifetime.PassRef && e.Flags&lifetime.AddressOf != 0 && e.Call == a.Call {
			if x := fn.Var(e.Var); x != nil && x.Kind == lifetime.Owner && !x.Param && x.Outer == lifetime.NoVar && filledBefore(fn, e.Var, ai) {
				return e.Var
			}
		}
	}
	return lifetime.NoVar
}

func reportDiscarded(p *Pass, fn *lifetime.Func, ai int, a *lifetime.Event, msg string) {
	value := ""
	ops := asyncOperands(fn, ai)
	for _, op := range ops {
		if o, _ := ownerOf(fn, op.Var); o != lifetime.NoVar {
			value = fn.VarName(o)
			break
		}
		if value == "" {
			value = fn.VarName(op.Var)
		}
	}
	w := discardedOwnerWitness(p, fn, ai, ops)
	if w == nil {
		w = []diag.Step{p.Step(fn, diag.StepAsync, a, value, fn.VarName(a.Var), fmt.Sprintf("%s starts async work", a.Call))}
		if a.Var != lifetime.NoVar {
			if d := fn.ScopeExitOf(a.Var); d != nil {
				w = append(w, p.Step(fn, diag.StepOwnerDies, d, fn.VarName(a.Var), "", fmt.Sprintf("'%s' is dropped here, unawaited", fn.VarName(a.Var))))
			}
		}
	}
	p.Report(fn, a.At, p.nodeEnd(a), msg, a.Call+":"+fn.VarName(a.Var), w)
}

// discardedOwnerWitness tells what the discarded future costs when the
// work's buffer has a local sole owner: the owner, the work, any wait on
// the path that still covers the work, and the owner's death. nil when
// the buffer belongs to the caller, where nothing in this function faults.
func discardedOwnerWitness(p *Pass, fn *lifetime.Func, ai int, ops []lifetime.Event) []diag.Step {
	a := &fn.Events[ai]
	for _, op := range ops {
		o, _ := ownerOf(fn, op.Var)
		if o == lifetime.NoVar || !soleLocalOwner(fn, o) || keptBeyondScope(fn, o) != nil {
			continue
		}
		died := fn.ScopeExitOf(o)
		if died == nil || died.At < a.At {
			continue
		}
		x := fn.Var(o)
		declEv := &lifetime.Event{Node: x.Decl, At: x.At, Call: x.Type}
		w := []diag.Step{
			p.Step(fn, diag.StepDeclare, declEv, x.Name, "", fmt.Sprintf("'%s' (%s) owns the buffer the work uses", x.Name, x.Type)),
			p.Step(fn, diag.StepAsync, a, x.Name, fn.VarName(a.Var), fmt.Sprintf("%s starts async work on '%s'; its future is dropped", a.Call, x.Name)),
		}
		if wt := waitOnPath(fn, ai, died, followFuture(p, fn, ai), ops, asyncFutures(fn)); wt != nil {
			w = append(w, p.Step(fn, diag.StepWait, wt, fn.VarName(wt.Var), "", fmt.Sprintf("%s waits for the device's work, this work included, while '%s' lives", wt.Call, x.Name)))
		}
		return append(w, p.Step(fn, diag.StepOwnerDies, died, x.Name, "", fmt.Sprintf("'%s' dies here while nothing has waited for the work", x.Name)))
	}
	return nil
}

// filledBefore reports whether fields of struct s are set before the
// call at event ai: it is an argument struct, not a destination.
func filledBefore(fn *lifetime.Func, s lifetime.VarID, ai int) bool {
	for j := 0; j < ai; j++ {
		if e := &fn.Events[j]; e.Kind == lifetime.Store && e.Var == s {
			return true
		}
	}
	return false
}
