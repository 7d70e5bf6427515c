package rules

import (
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func useAfterMove() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-N002",
			Name:      "use-after-move",
			Class:     "N",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "a smart pointer is dereferenced, or its null pointer returned, after it was moved from",
			Help: `What it does: executes every path of the function and reports a
unique_ptr or shared_ptr dereferenced (*p, p->m) after std::move handed
its object on, or its get() returned to the caller, with nothing assigned
to it or reset in between.

Why it is bad: a moved-from unique_ptr or shared_ptr is empty (the C++
standard says so of their move constructors and assignments). The
dereference reads through a null pointer; the returned get() gives the
caller null where it expects the object that was stored elsewhere.

Known problems: only smart pointers are followed (a moved-from container
or string is valid but unspecified, and code that reuses one after
clear() is correct).`,
			Example: diag.Example{
				Bad: `Buffer* Cache::Insert(int key) {
  auto made = std::make_unique<Buffer>();
  entries_[key] = std::move(made);
  return made.get();            // made is empty after the move
}`,
				Good: `Buffer* Cache::Insert(int key) {
  auto made = std::make_unique<Buffer>();
  Buffer* raw = made.get();
  entries_[key] = std::move(made);
  return raw;
}`,
			},
			Fix:  "take the raw pointer before the move, or use the object through its new owner",
			Hint: "take the raw pointer before the move, or use the new owner",
			Tags: []string{"memory-safety", "null-dereference", "lifetime"},
			CWE:  []int{476},
		},
		Check: func(p *Pass, fn *lifetime.Func) { p.reportCore(fn, core.UseAfterMove) },
	}
}
