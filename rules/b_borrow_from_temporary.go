package rules

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/core"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func borrowFromTemporary() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:          "HF-B003",
			Name:        "borrow-from-temporary",
			Class:       "B",
			Severity:    diag.Error,
			CoreDecides: true,
			Precision:   "high",
			Summary:     "a pointer or view taken from a fresh copy or allocation made in the same statement is used after the statement",
			Help: `What it does: finds a raw pointer, reference or view taken from an owner
that exists only for one statement, a fresh copy or allocation the API
model names (t.contiguous(), a tensor factory, clone()), kept in a variable
and used after that statement: t.contiguous().data_ptr<float>(), or a
handle made from such a temporary by a call holdfast cannot see
(to_device(t.contiguous())), which may borrow its memory. Also an object
that keeps a temporary argument (its class's code binds a reference member
to the parameter, or stores the parameter's buffer:
Frame frame{regs, Context{id}}; builder->AddInput(std::vector<uint8_t>(n));),
or an aggregate whose view, pointer or reference member a braced list
gives a temporary (Req r{1, {a, b}}; Req r{1, std::vector<int>{1, 2}};),
and is used after that statement. And the result of a call that refers to a
temporary argument: the callee's code returns a reference or pointer to
its parameter's object (const std::string& n = NameOf(MakeBox());), its
declaration marks the parameter lifetimebound
(std::string_view t = Trimmed(MakeName());), or it is std::min, std::max
or std::clamp (const int& m = std::max(a, 0);). And a range-based for
loop over a member of a temporary (for (int x : MakeBox().items())): only
the range itself lives as long as the loop (before C++23), so the object
it belongs to is gone before the first iteration; likewise a view a method
returns of a member string or container (std::string_view n =
MakeBox().name();).

Why it is bad: the temporary dies at the end of the full expression. When
it was a real copy (the input was a view), its memory goes back to the
allocator at once, and the next allocation can be handed the same memory
while the pointer still refers to it: a kernel enqueued later reads or
writes someone else's data.

Known problems: a handle that copies what it needs out of the temporary
(rather than borrowing it) is reported as latent; so is any handle made by
a call holdfast cannot see.`,
			Example: diag.Example{
				Bad: `void run(const at::Tensor& input, Stream s) {
  float* p = input.contiguous().data_ptr<float>();   // the copy dies here
  launch(p, s);
}`,
				Good: `void run(const at::Tensor& input, Stream s) {
  at::Tensor packed = input.contiguous();            // named: lives to the end
  float* p = packed.data_ptr<float>();
  launch(p, s);
}`,
			},
			Fix:  "name the temporary (at::Tensor packed = t.contiguous();) so it lives as long as the pointer, and take the pointer from it",
			Hint: "name the temporary so it lives as long as the pointer",
			Tags: []string{"memory-safety", "use-after-free", "lifetime"},
			CWE:  []int{416, 825},
		},
		Check: func(p *Pass, fn *lifetime.Func) {
			checkBorrowFromTemporary(p, fn)
			p.reportCoreIf(fn, func(fl core.Fault) bool {
				// Used after its statement, or stored where it outlives it.
				return fl.Kind == core.UseOfTemporary || fl.Kind == core.ReturnsLocal && storedHow(fl.Via) == "temp"
			})
		},
	}
}

func checkBorrowFromTemporary(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		b := &fn.Events[i]
		if b.Kind != lifetime.Borrow || b.Flags&lifetime.Temporary == 0 || b.Var == lifetime.NoVar {
			continue
		}
		end := fn.StatementEnd(b.Node)
		var use *lifetime.Event
		for j := i + 1; j < len(fn.Events); j++ {
			e := &fn.Events[j]
			if e.Var != b.Var || e.At < end {
				continue
			}
			if e.Kind == lifetime.Assign || e.Kind == lifetime.Result || e.Kind == lifetime.ScopeExit {
				break // a new value, or the pointer's end
			}
			if e.Kind == lifetime.Use || e.Kind == lifetime.OnStream || e.Kind == lifetime.Operand {
				use = e
				break
			}
		}
		if use == nil {
			continue
		}
		reportBorrowFromTemporary(p, fn, b, end, use)
	}
}

func reportBorrowFromTemporary(p *Pass, fn *lifetime.Func, b *lifetime.Event, end uint32, use *lifetime.Event) {
	name := fn.VarName(b.Var)
	msg := fmt.Sprintf("'%s' is taken from the temporary '%s' and used at line %d, after the temporary died",
		name, b.Text, p.Line(use.At))
	borrow := p.Step(fn, diag.StepBorrow, b, name, b.Text, fmt.Sprintf("'%s' is taken from %s via %s", name, b.Text, b.Call))
	if b.Flags&lifetime.Inferred != 0 {
		borrow.Assumed = true
		borrow.Message = fmt.Sprintf("assumed: %s, which holdfast cannot see, makes '%s' borrow the memory of %s", b.Call, name, b.Text)
	}
	died := &lifetime.Event{Kind: lifetime.ScopeExit, Node: -1, At: end - 1, Call: ";"}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, b, b.Text, "", fmt.Sprintf("%s is a fresh owner when it copies or allocates", b.Text)),
		borrow,
		p.Step(fn, diag.StepOwnerDies, died, b.Text, "", "the temporary dies at the end of the statement"),
		p.Step(fn, diag.StepUse, use, name, "", fmt.Sprintf("'%s' is used here, after the temporary died", name)),
	}
	p.Report(fn, b.At, p.nodeEnd(b), msg, "temporary:"+b.Text+">"+name, w)
}
