package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func defaultedHold() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-A003",
			Name:      "hold-parameter-defaults-to-nothing",
			Class:     "A",
			Severity:  diag.Note,
			Precision: "high",
			Summary:   "a hold parameter next to a future defaults to holding nothing, so callers can drop it silently",
			Help: `What it does: finds a function or constructor that takes a future and,
beside it, a hold (a std::shared_ptr<void> or a hold-named smart pointer
whose only job is to keep the work's buffers alive) with a default value,
such as "std::shared_ptr<void> hold = nullptr".

Why it is bad: the hold is part of the contract of the future: without it
the buffers of the work may be freed while the device still uses them. A
default makes forgetting it compile, and nothing complains when a caller
does.

Known problems: none known; a default that is really meant (the future
keeps its buffers alive by itself) is better expressed by removing the
parameter.`,
			Example: diag.Example{
				Bad: `class WorkTpu : public Work {
 public:
  explicit WorkTpu(xla::Future<> future, std::shared_ptr<void> hold = nullptr);
};`,
				Good: `class WorkTpu : public Work {
 public:
  // The future's continuation owns whatever the work must keep alive.
  explicit WorkTpu(xla::Future<> future);
};`,
			},
			Fix:  "make the hold required, or better, make the future carry it (a continuation that owns the buffers and releases them when the work completes) and drop the parameter",
			Hint: "make the hold required, or make the future carry it",
			Tags: []string{"api-design", "async", "lifetime"},
			CWE:  []int{416},
		},
		CheckFile: checkDefaultedHold,
	}
}

func checkDefaultedHold(p *Pass) {
	for _, d := range lifetime.HoldDefaults(p.File, p.Model) {
		msg := fmt.Sprintf("hold parameter '%s' of %s defaults to %s: a caller can leave it out and nothing complains",
			d.Param, d.Func, d.Default)
		at := &lifetime.Event{Node: d.Node, At: d.At}
		w := []diag.Step{p.Step(nil, diag.StepDeclHold, at, d.Param, d.Func, fmt.Sprintf("'%s' keeps the buffers of '%s' alive; a caller that passes only the future '%s' drops it", d.Param, d.Future, d.Future))}
		p.findings = append(p.findings, &diag.Finding{
			Rule:     p.rule.Meta,
			Severity: p.rule.Meta.Severity,
			At:       p.Span(d.At, p.File.Nodes[d.Node].End),
			Message:  msg,
			Function: d.Func,
			Witness:  w,
			Anchor:   d.Func + "." + d.Param,
		})
	}
}
