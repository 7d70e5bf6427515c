package rules

import (
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func useAfterFree() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-N001",
			Name:      "use-after-free",
			Class:     "N",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "memory is used, or freed again, after delete, free or its smart pointer's reset freed it",
			Help: `What it does: executes every path of the function over its memory and
reports a read or write through a pointer, reference or smart pointer
after what it points to was freed on that path: by delete, free, a
unique_ptr's or shared_ptr's reset or reassignment, or a function of the
file or the tree that frees that argument on every path. Freeing it a
second time is reported too, and so is a class copied member by member:
when its destructor frees what a pointer member points to and the class
declares no copy or move of its own, a copy (T b = a, b = a, an element
pushed into a container, a temporary assigned) shares that memory, so the
first destructor frees it under the other and the second frees it again;
so do two smart pointers made from one raw pointer (unique_ptr<T> a(p),
b(p); b(a.get())), and a function whose smart pointer adopts the pointer
it was handed frees its caller's object.
A reference-counted object (Objective-C, metal-cpp) released by code that
holds no reference to it is the same bug: under Cocoa's ownership policy
only alloc, new, copy and mutableCopy (and Create functions in metal-cpp)
give the caller a reference, retain takes one, and release or
autorelease gives one up, so releasing what another method returned,
releasing twice, or a destructor releasing a member stored without a
retain frees the object under its real owner.

Why it is bad: freed memory goes back to the allocator and is handed out
again; the late read sees another object's data and the late write
corrupts it. Device backends free host staging, descriptors and handles
this way, and the bug usually hides on an error path.

Known problems: a free inside code holdfast cannot see is not known, so
such a path is not reported; a pointer that is only compared, logged or
used as a key after the free is not a use.`,
			Example: diag.Example{
				Bad: `void Retire(Job* job) {
  delete job;
  job->state = kDone;           // job was freed on the line above
}`,
				Good: `void Retire(Job* job) {
  job->state = kDone;
  delete job;
}`,
			},
			Fix:  "use the object before freeing it, or clear the pointer when it is freed and check it before use",
			Hint: "use the object before freeing it, or clear the pointer when freeing",
			Tags: []string{"memory-safety", "use-after-free", "lifetime"},
			CWE:  []int{416, 415},
		},
		Check: func(p *Pass, fn *lifetime.Func) {
			p.reportCore(fn, core.UseAfterFree, core.DoubleFree, core.OverRelease)
		},
	}
}
