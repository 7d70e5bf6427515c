package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func allocatorPointerInCallback() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-E003",
			Name:      "raw-allocator-in-deferred-free",
			Class:     "E",
			Severity:  diag.Note,
			Precision: "medium",
			Summary:   "a deferred free calls its allocator through a raw pointer copied into the callback",
			Help: `What it does: finds a callback registered to run when a stream is done
(ThenExecuteCallback, DoHostCallback, a host function, OnReady) that frees
memory through a raw pointer to the allocator which it captured by value
([allocator = allocator_]).

Why it is bad: the callback runs later, on a runtime thread. Nothing in
the callback keeps the allocator alive: it is safe only while whoever owns
the allocator drains every queued callback before destroying it, which
usually rests on the order members are declared (and so destroyed) in some
other class. Reordering those members silently turns the deferred free into
a call through a dangling pointer.

Known problems: this is a note, not a bug: most runtimes do drain their
callback streams first. Write down the dependency, or capture an owning
reference to the allocator.`,
			Example: diag.Example{
				Bad: `class DeviceMemoryRef {
 public:
  ~DeviceMemoryRef() {
    local_device_->ThenExecuteCallback(local_device_->compute_stream(),
        [allocator = allocator_, ordinal = ordinal_, mem = mem_]() {
          allocator->Deallocate(ordinal, mem);   // allocator is a raw pointer
        }).IgnoreError();
  }

 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  int ordinal_;
  se::DeviceMemoryBase mem_;
};`,
				Good: `class DeviceMemoryRef {
 public:
  ~DeviceMemoryRef() {
    local_device_->ThenExecuteCallback(local_device_->compute_stream(),
        [allocator = allocator_, ordinal = ordinal_, mem = mem_]() {
          allocator->Deallocate(ordinal, mem);   // the callback owns a reference
        }).IgnoreError();
  }

 private:
  std::shared_ptr<se::DeviceMemoryAllocator> allocator_;
  LocalDeviceState* local_device_;
  int ordinal_;
  se::DeviceMemoryBase mem_;
};`,
			},
			Fix:  "capture an owning reference to the allocator (a shared_ptr), or document the destruction order that keeps the raw pointer valid until every callback stream is drained",
			Hint: "capture an owning reference to the allocator (a shared_ptr)",
			Tags: []string{"lifetime", "callbacks", "allocator"},
			CWE:  []int{825},
		},
		Check: checkAllocatorPointerInCallback,
	}
}

func checkAllocatorPointerInCallback(p *Pass, fn *lifetime.Func) {
	reg := registration(fn)
	if reg == nil {
		return
	}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Free || e.Call == "delete" {
			continue
		}
		a := fn.Var(e.Other)
		if a == nil || !a.Captured || a.Kind != lifetime.Pointer {
			continue
		}
		mem := freedName(fn, e)
		msg := fmt.Sprintf("the deferred callback frees '%s' through '%s', a raw allocator pointer copied into it",
			mem, a.Name)
		w := []diag.Step{
			p.Step(fn, diag.StepCallback, reg, reg.Call, a.Name,
				fmt.Sprintf("the callback is queued with %s and runs later on a runtime thread", reg.Call)),
			p.Step(fn, diag.StepFree, e, mem, a.Name,
				fmt.Sprintf("'%s' is freed through the raw pointer '%s': the allocator must outlive every queued callback, which only destruction order elsewhere guarantees", mem, a.Name)),
		}
		p.Report(fn, e.At, p.nodeEnd(e), msg, "allocator:"+a.Name, w)
	}
}
