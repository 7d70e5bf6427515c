package rules

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func gilObjectInCallback() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-G002",
			Name:      "tensor-released-in-device-callback",
			Class:     "G",
			Severity:  diag.Warning,
			Precision: "medium",
			Summary:   "a framework tensor or Python object is captured by value into a completion callback and released on the runtime thread",
			Help: `What it does: finds a continuation registered on device work (OnReady,
AndThen, ThenExecuteCallback, a host function, then, addCallback) whose
lambda captures by value a value whose release may need the interpreter
lock: an at::Tensor, an IValue, a py::object.

Why it is bad: the callback runs on a runtime thread when the work
completes, and its captures are destroyed there. Dropping the last
reference to a tensor that owns a Python object takes the interpreter
lock. If a Python thread holds the lock while it waits for work queued
behind this callback, neither can move: a deadlock. torch_tpu captured the
backing tensor in a transfer callback and had to take it out again.

Known problems: a tensor that is certainly not the last reference (the
caller keeps it until it waits) is reported too. Keeping only the device
buffer (a DeviceBufferRef, the storage's data pointer with its owner) in
the callback, or releasing the tensor where the caller waits, avoids it.`,
			Example: diag.Example{
				Bad: `void Upload(const at::Tensor& src, xla::PjRtBuffer* buffer) {
  xla::Future<> f = buffer->CopyRawHostToDevice(src.data_ptr(), 0, src.nbytes());
  f.OnReady([backing_tensor = src](absl::Status s) {
    // backing_tensor dies on the PJRT thread and may need the GIL
  });
}`,
				Good: `void Upload(const at::Tensor& src, xla::PjRtBuffer* buffer, TransferFuture* pending) {
  xla::Future<> f = buffer->CopyRawHostToDevice(src.data_ptr(), 0, src.nbytes());
  f.OnReady([buffer_ref = GetBuffer(src)](absl::Status s) {
    // only the device buffer is released here; no Python object involved
  });
  pending->Keep(src);   // the tensor is released by the caller after it waits
}`,
			},
			Fix:  "capture the device buffer the work needs (a buffer reference, a shared pointer to the allocation) instead of the tensor, or keep the tensor in a hold the caller releases after waiting",
			Hint: "capture the device buffer, not the tensor, or release it after waiting",
			Tags: []string{"deadlock", "callbacks", "python"},
		},
		Check: checkGILObjectInCallback,
	}
}

func checkGILObjectInCallback(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Callback || e.Lambda == nil {
			continue
		}
		for _, c := range captures(fn, e.Lambda) {
			if c.Flags&lifetime.ByRef != 0 {
				continue
			}
			v := fn.Var(c.Var)
			if v == nil || v.Kind == lifetime.Pointer {
				continue
			}
			typ := gilType(p.Model, v)
			if typ == "" {
				continue
			}
			name := v.Name
			if c.Flags&lifetime.InitCap != 0 && c.Call != "" {
				name = c.Call
			}
			fut := futureName(fn, e)
			msg := fmt.Sprintf("'%s' (%s) is captured by value and released by the %s callback on the runtime thread",
				name, typ, e.Call)
			w := []diag.Step{
				p.Step(fn, diag.StepCallback, e, fut, name, fmt.Sprintf("the callback registered on '%s' owns a copy of '%s'", fut, name)),
				p.Step(fn, diag.StepFree, endOf(e.Lambda), name, "", fmt.Sprintf("'%s' is released when the callback finishes, on the runtime thread that completes the work, which may need the interpreter lock", name)),
			}
			w[1].Via = "release on the callback thread"
			if wt, died := hostKeepsPastWait(fn, e, i, c.Var); wt != nil {
				// not provably the last reference: the witness shows the
				// host's own reference outliving the wait
				host := fn.VarName(c.Var)
				w = append(w,
					p.Step(fn, diag.StepWait, wt, fut, "", waitNote(fn, wt, died, fut)),
					p.Step(fn, diag.StepOwnerDies, died, host, name, fmt.Sprintf("the host's own reference '%s' dies only here, after the wait", host)))
			}
			at := c
			if c.Flags&lifetime.Implicit != 0 {
				at = e // a default capture: point at the registration
			}
			p.Report(fn, at.At, p.nodeEnd(at), msg, "gil:"+name+":"+fut, w)
		}
	}
}

// hostKeepsPastWait returns the wait on the future of callback event e
// (index i) and the death of the host's own reference v when v, a value the
// function owns and never moves, lives until after a wait that is on every
// path to its death or in a loop body on the way (the witness goes through
// it; a wait in a branch is not, the witness goes around it); nil
// otherwise.
func hostKeepsPastWait(fn *lifetime.Func, e *lifetime.Event, i int, v lifetime.VarID) (*lifetime.Event, *lifetime.Event) {
	x := fn.Var(v)
	if x == nil || x.Static || x.Captured || x.Kind != lifetime.Owner || e.Var == lifetime.NoVar {
		return nil, nil
	}
	for j := range fn.Events {
		if m := &fn.Events[j]; m.Kind == lifetime.Move && m.Var == v {
			return nil, nil
		}
	}
	died := fn.ScopeExitOf(v)
	if died == nil {
		if !x.Param {
			return nil, nil
		}
		died = endOf(fn)
	}
	chain := chainedFrom(fn, e.Var)
	for f := range chainedAfter(fn, e) {
		chain[f] = true
	}
	for j := i + 1; j < len(fn.Events); j++ {
		w := &fn.Events[j]
		if w.At >= died.At {
			break
		}
		if w.Kind == lifetime.Wait && chain[w.Var] && gapTo(fn, w.Scope, died.Scope) != branchGap {
			return w, died
		}
	}
	return nil, nil
}

// waitNote is the note of the witness step of the host's wait wt.
func waitNote(fn *lifetime.Func, wt, died *lifetime.Event, fut string) string {
	if gapTo(fn, wt.Scope, died.Scope) == loopGap {
		return fmt.Sprintf("the host waits for '%s' here, in a loop body holdfast cannot prove runs, after the callback has run", fut)
	}
	return fmt.Sprintf("the host waits for '%s' here, after the callback has run", fut)
}

// gilType returns the type of v, or of its elements when v is a
// container, whose release may need the interpreter lock; "" when none.
func gilType(m *apimodel.Model, v *lifetime.Var) string {
	if m.IsGILObject(v.Base) {
		return v.Base
	}
	if !m.IsContainer(v.Base) {
		return ""
	}
	t := strings.TrimSuffix(strings.TrimSuffix(v.Type, "&"), "*")
	i, j := strings.IndexByte(t, '<'), strings.LastIndexByte(t, '>')
	if i < 0 || j < i {
		return ""
	}
	elem := t[i+1 : j]
	depth := 0
	for k := 0; k < len(elem); k++ {
		switch elem[k] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				elem = elem[:k]
			}
		}
	}
	elem = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(elem), "const "))
	if m.IsGILObject(elem) {
		return v.Base + "<" + elem + ">"
	}
	return ""
}
