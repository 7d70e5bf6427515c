package rules

import (
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func elementReferenceInvalidated() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-B004",
			Name:      "element-reference-invalidated",
			Class:     "B",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "a reference or pointer to a container's element is used after the container removed the element or grew",
			Help: `What it does: the semantic core follows references, pointers and
iterators into the elements and the buffer of a container (back(), front(),
[], at(), data(), begin(), a range-for's element, also through a lambda or
a method of the class that returns one) along every path of the function,
and reports a use of one after the container removed that element
(pop_back, pop_front, erase at or before it, clear) or replaced its buffer
(push_back, emplace_back, insert, resize, reserve, assignment) on that
path.

Why it is bad: the element is gone, or has moved to new storage; the
reference points at freed memory. MLX's check_input helpers returned
copies.back() and were called twice, so the second copy could reallocate
the vector under the first reference.

Known problems: whether an insertion reallocates depends on the capacity.
A vector reserved with a count the function does not state is taken to
have room for every insertion (no finding); one declared empty and
reserved with a known count (reserve(3)) has room for exactly that many,
and the insertion past it reallocates. Any other insertion is taken to
reallocate, as the standard allows whenever the size outgrows the
capacity.`,
			Example: diag.Example{
				Bad: `void Finish(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op& last = ops.back();
  ops.pop_back();
  done.push_back(last);   // 'last' was destroyed by pop_back
}`,
				Good: `void Finish(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op last = std::move(ops.back());
  ops.pop_back();
  done.push_back(last);
}`,
			},
			Fix:  "copy or move the element out before removing it, reserve enough capacity before taking references, or keep indexes instead of references",
			Hint: "copy the element out first, reserve capacity, or keep indexes",
			Tags: []string{"memory-safety", "use-after-free", "lifetime"},
			CWE:  []int{416, 825},
		},
		Check: func(p *Pass, fn *lifetime.Func) {
			p.reportCore(fn, core.UseAfterInvalidate)
		},
	}
}
