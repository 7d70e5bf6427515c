package rules

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/core"
	"slices"
	"strings"
	"unicode"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func freeBeforeStream() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-E001",
			Name:      "free-before-stream-done",
			Class:     "E",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "device memory goes back to its allocator with nothing ordering the free after the stream that may still use it",
			Help: `What it does: finds a destructor or release function that returns device
memory to an allocator (Deallocate, DeallocateRaw, a pool's recycle, an
allocator's free) in a type or function that lives beside a stream, a
command queue or a device state that owns streams, when nothing before the
free orders it after the work queued on that stream: no wait
(BlockHostUntilDone, waitUntilCompleted, a stream synchronize), no event or
stream wait, no deferral (ThenExecuteCallback, DoHostCallback, a host
callback, addCompletedHandler) and no stream-ordered free (cudaFreeAsync).

Why it is bad: the host runs ahead of the device. When the last host owner
goes away the kernels that use the memory may still be queued or running;
a free at host time hands the chunk back to the allocator, which serves it
to the next allocation of a fitting size, possibly for another stream. That
allocation's writes then clobber memory a live kernel still reads or
writes. XLA's AllocatedRawSEDeviceMemory destructor freed this way under the
kComputeSynchronized allocation model and gave intermittent all-zero
gradients on ROCm.

Known problems: holdfast does not follow calls, so a wait done in a helper
the destructor calls (or a contract that every user synchronised first) is
not seen; suppress with a reason. cudaFree and hipFree synchronise the
device before freeing and are not reported; neither is the PyTorch caching
allocator's raw_delete, whose blocks are reused only on their own stream
(see HF-E004 for the cross-stream case).`,
			Example: diag.Example{
				Bad: `class DeviceChunk {
 public:
  void Clear() { local_device_->compute_stream()->MemZero(&mem_, 64).IgnoreError(); }
  ~DeviceChunk() {
    allocator_->Deallocate(ordinal_, mem_);   // the MemZero may still run
  }
 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  int ordinal_;
  se::DeviceMemoryBase mem_;
};`,
				Good: `class DeviceChunk {
 public:
  ~DeviceChunk() {
    absl::Status s = local_device_->ThenExecuteCallback(
        local_device_->compute_stream(),
        [allocator = allocator_, ordinal = ordinal_, mem = mem_]() {
          allocator->Deallocate(ordinal, mem).IgnoreError();
        });
    if (s.ok()) return;
    LOG(WARNING) << "deferred free failed, freeing now: " << s;
    local_device_->compute_stream()->BlockHostUntilDone().IgnoreError();
    allocator_->Deallocate(ordinal_, mem_).IgnoreError();
  }
 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  int ordinal_;
  se::DeviceMemoryBase mem_;
};`,
			},
			Fix:  "defer the free until the stream has passed the last use (a host callback on the stream, a stream-ordered free such as cudaFreeAsync, an event the allocator waits on), or wait for the stream before freeing",
			Hint: "defer the free until the stream passes the last use, or sync first",
			Tags: []string{"memory-safety", "use-after-free", "streams", "allocator"},
			CWE:  []int{416},
		},
		Check: checkFreeBeforeStream,
	}
}

func checkFreeBeforeStream(p *Pass, fn *lifetime.Func) {
	// The core's device: memory freed or replaced under queued work.
	p.reportCoreIf(fn, func(fl core.Fault) bool { return fl.Kind == core.DeviceUseAfterFree && fl.Via != "}" })
	var site *streamSite
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Free || e.Call == "delete" || hostFrees[e.Call] {
			// Host memory under queued work is the core's to decide
			// (above): its device knows which copies use host memory
			// after they return (pinned memory only, for CUDA and HIP).
			continue
		}
		if registration(fn) != nil {
			continue
		}
		ordered, pw := orderedBefore(fn, i)
		if ordered != nil {
			continue
		}
		if site == nil {
			if site = besideStream(fn); site == nil {
				return
			}
		}
		// Evidence, not presence: a stream beside the free is not enough.
		// Device work must come before the free on this path, or, for a
		// destructor, the class must tie its memory to the stream
		// elsewhere (a method or constructor that uses the stream member).
		work := deviceWorkBefore(p, fn, i, freedName(fn, e))
		if work == nil && !classUsesStream(fn) {
			continue
		}
		s := *site
		if work != nil {
			s.ev = work
		}
		reportFreeBeforeStream(p, fn, e, &s, pw)
	}
}

func reportFreeBeforeStream(p *Pass, fn *lifetime.Func, e *lifetime.Event, site *streamSite, pw partialWaits) {
	mem := freedName(fn, e)
	where := ""
	if g := enclosing(fn); g.Kind == lifetime.Destructor {
		where = " in the destructor"
	}
	msg := fmt.Sprintf("'%s' goes back to the allocator via %s%s with nothing ordering it after '%s'",
		mem, e.Call, where, site.name)
	freed := fmt.Sprintf("'%s' is returned to the allocator at host time; the next allocation of a fitting size can be given the same memory", mem)
	if cond := pw.named(); cond != nil {
		msg = fmt.Sprintf("'%s' goes back to the allocator via %s%s, ordered after '%s' only on some paths",
			mem, e.Call, where, site.name)
		if pw.loop == nil {
			freed += fmt.Sprintf("; only %s at line %d, %s, orders it after '%s'", cond.Call, p.Line(cond.At), pw.gap(), site.name)
		}
	}
	w := []diag.Step{
		p.Step(fn, diag.StepAsync, site.ev, mem, site.name,
			fmt.Sprintf("work queued on '%s' runs behind the host and may still read or write '%s'", site.name, mem)),
	}
	w[0].Via = "stream"
	if pw.loop != nil {
		w = append(w, loopWaitStep(p, fn, pw.loop, site.name))
	}
	w = append(w, p.Step(fn, diag.StepFree, e, mem, "", freed))
	p.Report(fn, e.At, p.nodeEnd(e), msg, "free:"+mem, w)
}

// hostFrees free host memory (C's free: cppreference std::free).
var hostFrees = map[string]bool{"free": true, "std::free": true, "::free": true}

// deviceWorkBefore returns the first device work in fn before event i on a
// path to it: async work, work on an explicit stream, or a buffer handed
// to a kernel or to an async copy; nil when there is none. A host copy
// (memcpy into a struct) is done when it returns: it is not device work.
func deviceWorkBefore(p *Pass, fn *lifetime.Func, i int, mem string) *lifetime.Event {
	target := fn.Events[i].Scope
	for j := 0; j < i; j++ {
		e := &fn.Events[j]
		switch e.Kind {
		case lifetime.Async, lifetime.OnStream:
		case lifetime.Operand:
			if e.Flags&lifetime.Bound == 0 && e.Other == lifetime.NoVar && p.Model.Call(e.Call)&(apimodel.Async|apimodel.Encode) == 0 && !asyncAt(fn, e.Node) {
				continue
			}
		default:
			continue
		}
		if !workMayUse(p, e.Node, mem) {
			continue
		}
		if gapTo(fn, e.Scope, target) != branchGap {
			return e
		}
	}
	return nil
}

// workMayUse says the work queued by the call at n may use the memory
// named mem: the call names it among its arguments, and, when its
// device entry says which arguments the queued work reads or writes,
// among those (cuStreamBatchMemOp copies its parameter array at the
// call). A call that does not name the memory queues work on other
// memory.
func workMayUse(p *Pass, n parser.NodeID, mem string) bool {
	f := p.File
	call := n
	if f.Kind(call) != parser.KindCallExpression {
		call = f.Ancestor(n, parser.KindCallExpression)
	}
	if call == parser.None || mem == "" {
		return true
	}
	args := f.Field(call, parser.FieldArguments)
	name := f.Text(f.Field(call, parser.FieldFunction))
	op, known := p.Model.Device(calleeText(f, call), f.Kind(f.Field(call, parser.FieldFunction)) == parser.KindFieldExpression)
	if !known {
		op, known = p.Model.Device(name, false)
	}
	i := 0
	for a := range f.NamedChildren(args) {
		if f.Kind(a) == parser.KindComment {
			continue
		}
		if namesIdent(f, a, mem) && (!known || slices.Contains(op.Reads, i) || slices.Contains(op.Writes, i)) {
			return true
		}
		i++
	}
	return false
}

// namesIdent says expression n names the memory mem or the variable it
// is reached from (block for block->ptr, buf for buf.data()).
func namesIdent(f *parser.File, n parser.NodeID, mem string) bool {
	root := mem
	if i := strings.IndexFunc(mem, func(r rune) bool { return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) }); i > 0 {
		root = mem[:i]
	}
	for j := n; j < f.End(n); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindIdentifier, parser.KindFieldIdentifier:
			if f.Text(j) == root {
				return true
			}
		}
	}
	return false
}

// asyncAt reports whether fn starts async work at call node n.
func asyncAt(fn *lifetime.Func, n parser.NodeID) bool {
	for k := range fn.Events {
		if e := &fn.Events[k]; e.Kind == lifetime.Async && e.Node == n {
			return true
		}
	}
	return false
}

// classUsesStream reports whether fn is a destructor (or a lambda in one)
// whose class uses its stream member in another of its functions: the
// object's memory is tied to the stream's work there.
func classUsesStream(fn *lifetime.Func) bool {
	g := enclosing(fn)
	if g.Kind != lifetime.Destructor || g.Class == nil {
		return false
	}
	sm := g.Class.StreamMember()
	if sm == nil {
		return false
	}
	for _, m := range g.Class.Methods {
		if m == g {
			continue
		}
		for _, u := range m.ThisUses {
			if u.Name == sm.Name {
				return true
			}
		}
	}
	return false
}
