package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func deferralStatusIgnored() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-E002",
			Name:      "deferred-free-status-ignored",
			Class:     "E",
			Severity:  diag.Warning,
			Precision: "high",
			Summary:   "the status of a deferred free is dropped or only tested, so a failed deferral frees at once or leaks without a trace",
			Help: `What it does: finds a deferral that returns a status (ThenExecuteCallback,
DoHostCallback, cudaLaunchHostFunc) used to free device memory after a
stream is done, when its status is dropped, or kept in a variable that is
only tested (s.ok()) before the code falls back to an immediate free: the
failure is never logged, returned or counted.

Why it is bad: when the callback cannot be enqueued the memory is either
never freed (the deferred free never runs) or freed at once by the fall
back, which is exactly the free-before-the-stream-is-done the deferral was
there to prevent. Either way nobody learns why: the error that explains a
leak or an intermittent corruption is thrown away.

Known problems: a status tested inline (if (!x.ThenExecuteCallback(...).ok()))
is not followed; a failure reported through a helper that receives the
status by reference counts as handled.`,
			Example: diag.Example{
				Bad: `absl::Status s = local_device_->ThenExecuteCallback(
    stream, [allocator, ordinal, mem]() { allocator->Deallocate(ordinal, mem); });
if (s.ok()) {
  return;
}
allocator_->Deallocate(ordinal_, mem_);   // why did the deferral fail?`,
				Good: `absl::Status s = local_device_->ThenExecuteCallback(
    stream, [allocator, ordinal, mem]() { allocator->Deallocate(ordinal, mem); });
if (s.ok()) {
  return;
}
LOG(WARNING) << "could not defer the free, waiting for the stream: " << s;
stream->BlockHostUntilDone().IgnoreError();
allocator_->Deallocate(ordinal_, mem_);`,
			},
			Fix:  "log or return the status of the deferral, and make the fall back wait for the stream before it frees",
			Hint: "log or return the deferral's status; sync before the fall back frees",
			Tags: []string{"error-handling", "streams", "allocator"},
			CWE:  []int{416},
		},
		Check: checkDeferralStatusIgnored,
	}
}

func checkDeferralStatusIgnored(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Callback || p.Model.Call(e.Call)&apimodel.Status == 0 {
			continue
		}
		lf, inner := lambdaFrees(e.Lambda)
		fallback, pw := freeAfter(fn, i)
		if inner == nil && fallback == nil {
			continue
		}
		if e.Flags&lifetime.Discarded != 0 {
			reportDeferral(p, fn, e, "", lf, inner, fallback, pw)
			continue
		}
		s := resultOf(fn, e)
		if s == lifetime.NoVar || fallback == nil || !onlyTested(p.Model, fn, s, i) {
			continue
		}
		reportDeferral(p, fn, e, fn.VarName(s), lf, inner, fallback, pw)
	}
}

// freeAfter returns the first free after event i in fn that no wait or
// sync on every path to it orders after a stream (the fall back of a
// failed deferral), or nil; pw holds the waits and syncs between them that
// only some paths reach.
func freeAfter(fn *lifetime.Func, i int) (free *lifetime.Event, pw partialWaits) {
	for j := i + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		if e.Kind != lifetime.Free || e.Call == "delete" {
			continue
		}
		for k := i + 1; k < j; k++ {
			if w := &fn.Events[k]; w.Kind == lifetime.Wait || w.Kind == lifetime.Sync {
				if pw.add(fn, w, e.Scope) {
					return nil, partialWaits{}
				}
			}
		}
		return e, pw
	}
	return nil, partialWaits{}
}

// resultOf returns the value the result of the call of event e initialises.
func resultOf(fn *lifetime.Func, e *lifetime.Event) lifetime.VarID {
	for i := range fn.Events {
		if r := &fn.Events[i]; r.Kind == lifetime.Result && r.Node == e.Node {
			return r.Var
		}
	}
	return lifetime.NoVar
}

// onlyTested reports whether every use of s after event i is a test that
// reads nothing out of it (s.ok()).
func onlyTested(m *apimodel.Model, fn *lifetime.Func, s lifetime.VarID, i int) bool {
	tested := false
	for j := i + 1; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		if e.Var != s && e.Other != s {
			continue
		}
		switch {
		case e.Kind == lifetime.ScopeExit, e.Kind == lifetime.Result, e.Kind == lifetime.Declare:
		case e.Kind == lifetime.Use && e.Flags&lifetime.Receiver != 0 && m.Call(e.Call)&(apimodel.Const|apimodel.Check) != 0:
			tested = true
		default:
			return false
		}
	}
	return tested
}

func reportDeferral(p *Pass, fn *lifetime.Func, e *lifetime.Event, status string, lf *lifetime.Func, inner, fallback *lifetime.Event, pw partialWaits) {
	var msg string
	mem := ""
	switch {
	case fallback != nil:
		mem = freedName(fn, fallback)
	case inner != nil:
		mem = freedName(lf, inner)
	}
	fellBack := fmt.Sprintf("the fall back frees '%s' at host time, without waiting for the stream", mem)
	switch {
	case status == "" && fallback != nil:
		msg = fmt.Sprintf("the status of %s is dropped: when the deferral fails, '%s' is freed at once at line %d",
			e.Call, mem, p.Line(fallback.At))
		fellBack += ", and nothing says why"
	case status == "":
		msg = fmt.Sprintf("the status of %s is dropped: when the deferral fails, the deferred free of '%s' never runs",
			e.Call, mem)
	default:
		msg = fmt.Sprintf("the status of %s in '%s' is only tested: on failure '%s' is freed at once at line %d",
			e.Call, status, mem, p.Line(fallback.At))
		fellBack += "; the error is never logged or returned"
	}
	stream := fn.VarName(e.Var)
	if stream == "" {
		stream = e.Text
	}
	if stream == "" {
		stream = "the stream"
	}
	w := []diag.Step{
		p.Step(fn, diag.StepAsync, e, mem, stream,
			fmt.Sprintf("%s tries to defer the free of '%s' until the stream is done; it can fail", e.Call, mem)),
	}
	w[0].Via = "stream"
	if pw.loop != nil {
		w = append(w, loopWaitStep(p, fn, pw.loop, stream))
	}
	if fallback != nil {
		w = append(w, p.Step(fn, diag.StepFree, fallback, mem, "", fellBack))
	}
	p.Report(fn, e.At, p.nodeEnd(e), msg, "deferral:"+e.Call+":"+status, w)
}
