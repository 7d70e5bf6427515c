package rules

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func noopContiguous() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-D001",
			Name:      "noop-contiguous",
			Class:     "D",
			Severity:  diag.Warning,
			Precision: "high",
			Summary:   "a .contiguous() on a tensor that is provably contiguous returns that same tensor, not a copy",
			Help: `What it does: follows the layout of local tensor values through call
chains and variables (contiguous, view, reshape, flatten, a chunk, split,
narrow or select along dim 0, slices with step 1, the factories at::empty,
zeros, ones, randn...) and reports a .contiguous() whose receiver is
provably contiguous already. It stays quiet after transpose, permute,
expand, t(), a slice with a step, a chunk along a later dim of an N-D
tensor, and on parameters and other values of unknown layout. It also
reports a statement that calls .contiguous() on a value and drops the
result (t.contiguous();): the receiver keeps its layout whatever it was,
so the statement does nothing; that is an error on every path through it.

Why it is bad: .contiguous() returns its receiver unchanged when it is
contiguous, so the result shares storage with it: it is a view, not a new
buffer. Code that calls it to get a separate buffer (one to send, to
mutate, to keep alive on its own) gets the same tensor. For a view on a
device where views become buffers of their own when they are used
(torch_tpu), nothing keeps that buffer alive.

It is an error only when the code relies on a copy: the result goes to
async work or the source changes while it is in use. A call that is only
redundant is reported as a note.

Known problems: a copy the code relies on in another function (a caller
that mutates the source) is not seen, so such a finding is a note. Layouts are not
followed through function calls or containers other than the lists that
chunk and split return.`,
			Example: diag.Example{
				Bad: `auto chunks = tensor.contiguous().view(-1).chunk(num_stripes, 0);
for (int64_t i = 0; i < num_stripes; ++i) {
  std::vector<at::Tensor> stripe = {chunks[i].contiguous()};  // the same view
  works.push_back(backend_->send(stripe, dst_rank, tag));
}`,
				Good: `auto chunks = tensor.contiguous().view(-1).chunk(num_stripes, 0);
for (int64_t i = 0; i < num_stripes; ++i) {
  // a real copy, when a buffer of its own is needed:
  std::vector<at::Tensor> stripe = {chunks[i].clone(at::MemoryFormat::Contiguous)};
  works.push_back(backend_->send(stripe, dst_rank, tag));
}`,
			},
			Fix:  "drop the call, or write .clone(at::MemoryFormat::Contiguous) where a separate contiguous copy is meant",
			Hint: "drop the call, or use .clone(at::MemoryFormat::Contiguous) for a copy",
			Tags: []string{"tensor-layout", "aliasing", "lifetime"},
		},
		Check: checkNoopContiguous,
	}
}

func checkNoopContiguous(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind == lifetime.Materialise && e.Flags&lifetime.Discarded != 0 {
			discardedContiguous(p, fn, e)
			continue
		}
		if e.Kind != lifetime.Materialise || e.Flags&lifetime.NoCopy == 0 {
			continue
		}
		// Text is "'input' is <why it is contiguous>": the why goes in the
		// note.
		input := "the same tensor"
		if in, _, ok := strings.Cut(e.Text, "' is "); ok {
			input = in + "' itself"
		}
		msg := fmt.Sprintf("%s() returns %s, not a copy: it is contiguous already", e.Call, input)
		result, recv := fn.VarName(e.Var), fn.VarName(e.Other)
		w := []diag.Step{p.Step(fn, diag.StepMaterial, e, result, recv, e.Text+", so "+e.Call+"() returns it")}
		if e.Var != lifetime.NoVar {
			if ai := asyncOn(fn, e.Var, i); ai >= 0 {
				a := &fn.Events[ai]
				w = append(w, p.Step(fn, diag.StepAsync, a, result, fn.VarName(a.Var), fmt.Sprintf("%s uses '%s', which shares storage with '%s'", a.Call, result, recv)))
				for j := range fn.Events {
					if m := &fn.Events[j]; m.Kind == lifetime.Mutate && m.Var == e.Other && m.At > a.At {
						// A wait for the work on the path to the mutation
						// is part of the story: the replay says whether
						// the no-op copy still faults.
						ops := asyncOperands(fn, ai)
						if wt := waitOnPath(fn, ai, m, followFuture(p, fn, ai), ops, asyncFutures(fn)); wt != nil {
							w = append(w, p.Step(fn, diag.StepWait, wt, fn.VarName(wt.Var), "", fmt.Sprintf("%s waits for the work before '%s' changes", wt.Call, recv)))
						}
						w = append(w, p.Step(fn, diag.StepMutate, m, recv, "", fmt.Sprintf("'%s' changes under the work", recv)))
						break
					}
				}
			}
		}
		p.Report(fn, e.At, p.nodeEnd(e), msg, e.Call+"@"+recv+">"+result, w)
		if !reliesOnCopy(w) {
			// A redundant call where nothing relies on a copy is a true
			// statement, not a bug: a note.
			p.setSeverity(diag.Note)
		}
	}
}

// discardedContiguous reports a statement that calls .contiguous() and
// drops the result: the call returns a contiguous tensor (its receiver
// itself, or a new one) and leaves the receiver as it was (the pack's
// layout entry says the result, not the receiver, is contiguous), so the
// statement does nothing and the receiver keeps its layout. That holds on
// every path through the statement, so the finding needs no replay.
func discardedContiguous(p *Pass, fn *lifetime.Func, e *lifetime.Event) {
	if op, ok := p.Model.Layout(e.Call); !ok || op.Result != "contiguous" || e.Node < 0 {
		return
	}
	fnode := p.File.Field(e.Node, parser.FieldFunction)
	if p.File.Kind(fnode) != parser.KindFieldExpression {
		// at::contiguous(t) is not a statement anyone writes for effect.
		return
	}
	recv := strings.TrimSpace(p.File.Text(p.File.Field(fnode, parser.FieldArgument)))
	call := strings.TrimSpace(p.File.Text(e.Node))
	msg := fmt.Sprintf("the result of %s is dropped and %s() leaves '%s' as it was: the statement does nothing", call, e.Call, recv)
	span := p.Span(p.File.Nodes[e.Node].Start, p.File.Nodes[e.Node].End)
	p.findings = append(p.findings, &diag.Finding{
		Rule: p.rule.Meta, Severity: p.rule.Meta.Severity, At: span, Message: msg,
		Function: p.funcName(fn), Anchor: "discarded@" + recv,
		Witness: []diag.Step{{Kind: diag.StepMaterial, At: span, Value: recv,
			Message: fmt.Sprintf("%s() returns its result and changes nothing else; the result is not kept", e.Call)}},
		Verification: &diag.Verification{Verdict: diag.Confirmed, Fault: "NO_EFFECT",
			Reason: "the function's own path executes it: the statement drops the only effect of " + e.Call + "(), whichever path reaches it"},
	})
}

// reliesOnCopy reports whether the witness shows the code relying on a
// copy: the result goes to async work, or the source changes under it.
func reliesOnCopy(w []diag.Step) bool {
	for _, st := range w {
		if st.Kind == diag.StepAsync || st.Kind == diag.StepMutate {
			return true
		}
	}
	return false
}

// asyncOn returns the index of the first async call after event i whose
// operand is v, or -1.
func asyncOn(fn *lifetime.Func, v lifetime.VarID, i int) int {
	for j := i + 1; j < len(fn.Events); j++ {
		if e := &fn.Events[j]; e.Kind == lifetime.Operand && e.Var == v {
			for k := j - 1; k >= 0; k-- {
				if a := &fn.Events[k]; a.Kind == lifetime.Async && a.Node == e.Node {
					return k
				}
			}
		}
	}
	return -1
}
