package device

import "fmt"

// Obj is a host object of a scenario: a device buffer owner, a host buffer,
// a plain object (a Work, a `this`), a hold container, a tensor handle or a
// view.
type Obj struct{ id int }

// Ptr is a raw pointer or borrowed reference: (object, generation).
type Ptr struct{ id int }

// Stream is a device stream (an in-order queue).
type Stream struct{ id int }

// Event is a stream position.
type Event struct{ id int }

// Future is a one-shot future with OnReady callbacks.
type Future struct{ id int }

// Lock is a host lock such as an interpreter lock.
type Lock struct{ id int }

// Waitable is what Await can block on: an Event, a Future or a Stream.
type Waitable interface{ waitTarget() target }

type targetKind int

const (
	tgEvent targetKind = iota + 1
	tgFuture
	tgStream
)

type target struct {
	kind targetKind
	id   int
}

func (e Event) waitTarget() target  { return target{tgEvent, e.id} }
func (f Future) waitTarget() target { return target{tgFuture, f.id} }
func (s Stream) waitTarget() target { return target{tgStream, s.id} }

// Intent says what the program expects a materialised value to be.
type Intent int

// Intents.
const (
	Alias Intent = iota + 1 // the program writes through it and expects the base to change
	Copy                    // the program expects an independent snapshot
)

type objKind int

const (
	kBuffer objKind = iota + 1
	kHostBuf
	kObject
	kHold
	kTensor
	kView
)

func (k objKind) String() string {
	switch k {
	case kBuffer:
		return "buffer"
	case kHostBuf:
		return "host buffer"
	case kObject:
		return "object"
	case kHold:
		return "hold"
	case kTensor:
		return "tensor"
	case kView:
		return "view"
	}
	return "?"
}

// FreePolicy says what dropping the last owner of a device buffer does.
type FreePolicy int

// Free policies (docs/device-model.md §3).
const (
	// FreeDefault uses the allocator's own rule: immediate for BFC and the
	// Metal pool, events on used streams for the caching allocator, a free
	// operation on the allocation stream for the stream-ordered allocator.
	FreeDefault FreePolicy = iota
	// FreeNow returns the chunk to the allocator at once (the old
	// kComputeSynchronized destructor, kAsynchronous untracked buffers).
	FreeNow
	// FreeAfterStream defers the free with then_callback on a stream (PR979).
	FreeAfterStream
	// FreeOnStream enqueues a stream-ordered free (cudaFreeAsync).
	FreeOnStream
)

type objDef struct {
	name    string
	kind    objKind
	size    int64
	stream  int // allocation stream, -1 none
	define  int // definition stream, -1 host time
	policy  FreePolicy
	pstream int // stream of the free policy
	// view region
	off int64
}

type ptrDef struct{ name string }

type eventDef struct {
	stream int
	alloc  int // object whose definition this event is, -1 none
}

type futureDef struct {
	name     string
	setterOp *Op // device operation that sets it, if any
	setBody  int // body that sets it, -1 none
}

// Scenario is a simulated program: streams, futures, locks and the host body.
// Build it with the Body methods on the embedded host body, then Run or
// Explore it; running never changes the scenario.
type Scenario struct {
	*Body
	alloc   Allocator
	streams []string
	objs    []objDef
	ptrs    []ptrDef
	events  []eventDef
	futures []futureDef
	locks   []string
	bodies  []*Body
	err     error
}

// NewScenario starts a scenario on the given allocator.
func NewScenario(a Allocator) *Scenario {
	s := &Scenario{alloc: a.withDefaults()}
	s.Body = s.newBody("host")
	return s
}

func (s *Scenario) newBody(name string) *Body {
	b := &Body{sc: s, id: len(s.bodies), name: name}
	s.bodies = append(s.bodies, b)
	return b
}

func (s *Scenario) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf(format, args...)
	}
}

// Err is the first error made while building the scenario, if any.
func (s *Scenario) Err() error { return s.err }

// Stream declares a stream. The first stream declared is the compute stream
// that BFC allocations are defined on.
func (s *Scenario) Stream(name string) Stream {
	s.streams = append(s.streams, name)
	return Stream{len(s.streams) - 1}
}

// Future declares a future.
func (s *Scenario) Future(name string) Future {
	s.futures = append(s.futures, futureDef{name: name, setBody: -1})
	return Future{len(s.futures) - 1}
}

// Lock declares a lock.
func (s *Scenario) Lock(name string) Lock {
	s.locks = append(s.locks, name)
	return Lock{len(s.locks) - 1}
}

// DefinitionEvent is the event completed when the allocation made for o is
// defined on its stream (the lazily created definition event of
// kComputeSynchronized). For an allocation defined at host time it is
// complete as soon as the allocation is made.
func (s *Scenario) DefinitionEvent(o Obj) Event {
	if !s.validObj(o) || s.objs[o.id].kind != kBuffer {
		s.fail("definition event of something that is not a device buffer")
		return Event{-1}
	}
	for i, e := range s.events {
		if e.alloc == o.id {
			return Event{i}
		}
	}
	s.fail("no definition event for %s", s.objs[o.id].name)
	return Event{-1}
}

// Name is the name an object was declared with.
func (s *Scenario) Name(o Obj) string {
	if !s.validObj(o) {
		return "?"
	}
	return s.objs[o.id].name
}

func (s *Scenario) validObj(o Obj) bool       { return o.id >= 0 && o.id < len(s.objs) }
func (s *Scenario) validStream(t Stream) bool { return t.id >= 0 && t.id < len(s.streams) }

// Opt adjusts one action: its source label, its tag, and for allocations the
// stream and free policy.
type Opt func(*actOpts)

type actOpts struct {
	label    string
	tag      int
	stream   int
	define   int // -2 allocator default, -1 host time, else stream
	policy   FreePolicy
	pstream  int
	weak     bool
	mutation bool
}

// At labels an action with its source position ("file:line"); the label ends
// up in the trace.
func At(label string) Opt { return func(o *actOpts) { o.label = label } }

// Tag attaches a caller's number (>= 1) to an action; trace steps of the
// action carry it.
func Tag(n int) Opt { return func(o *actOpts) { o.tag = n } }

// On sets the allocation stream of an allocation.
func On(st Stream) Opt { return func(o *actOpts) { o.stream = st.id } }

// DefineNow makes an allocation defined at host time instead of at its
// stream's tail.
func DefineNow() Opt { return func(o *actOpts) { o.define = -1 } }

// DefineOn makes an allocation defined when st reaches the point of the
// allocation.
func DefineOn(st Stream) Opt { return func(o *actOpts) { o.define = st.id } }

// Free sets the free policy of a device buffer; st is the stream of
// FreeAfterStream and FreeOnStream.
func Free(p FreePolicy, st Stream) Opt {
	return func(o *actOpts) { o.policy = p; o.pstream = st.id }
}

// FreeImmediately is Free(FreeNow, ...).
func FreeImmediately() Opt { return func(o *actOpts) { o.policy = FreeNow } }

// Weak makes a Deref a checked weak reference: a dead object is skipped.
func Weak() Opt { return func(o *actOpts) { o.weak = true } }

// AsMutation marks a host write as an in-place mutation.
func AsMutation() Opt { return func(o *actOpts) { o.mutation = true } }

func applyOpts(opts []Opt) actOpts {
	o := actOpts{stream: -1, define: -2, pstream: -1}
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	return o
}

// Op is a stream operation: a kernel, a DMA, a copy or a memset. It reads
// its read set when it starts and writes its write set when it ends.
type Op struct {
	name     string
	reads    []accDef
	writes   []accDef
	fill     string
	hasFill  bool
	holds    []int
	sets     int
	waits    []int
	mutation bool
	label    string
	tag      int
}

type accDef struct {
	obj int
	ptr int // -1 unless through a raw pointer
}

// Kernel starts a stream operation named name.
func Kernel(name string) *Op { return &Op{name: name, sets: -1} }

// Memset is a kernel that fills o with v.
func Memset(o Obj, v string) *Op { return Kernel("memset").Writes(o).Fill(v) }

// CopyOp is a device copy from src into dst (copy_, a write-back).
func CopyOp(dst, src Obj) *Op { return Kernel("copy").Reads(src).Writes(dst) }

// Reads adds buffers the operation reads at start.
func (o *Op) Reads(objs ...Obj) *Op {
	for _, x := range objs {
		o.reads = append(o.reads, accDef{obj: x.id, ptr: -1})
	}
	return o
}

// Writes adds buffers the operation writes at end.
func (o *Op) Writes(objs ...Obj) *Op {
	for _, x := range objs {
		o.writes = append(o.writes, accDef{obj: x.id, ptr: -1})
	}
	return o
}

// ReadsPtr reads through a raw pointer (dereferenced at enqueue).
func (o *Op) ReadsPtr(p Ptr) *Op {
	o.reads = append(o.reads, accDef{obj: -1, ptr: p.id})
	return o
}

// WritesPtr writes through a raw pointer (dereferenced at enqueue).
func (o *Op) WritesPtr(p Ptr) *Op {
	o.writes = append(o.writes, accDef{obj: -1, ptr: p.id})
	return o
}

// Fill makes the operation write v instead of what it read.
func (o *Op) Fill(v string) *Op { o.fill, o.hasFill = v, true; return o }

// Holds keeps references to objs from enqueue until the operation ends
// (reference_held, a tracked usage hold).
func (o *Op) Holds(objs ...Obj) *Op {
	for _, x := range objs {
		o.holds = append(o.holds, x.id)
	}
	return o
}

// Sets makes the runtime set f (on the callback thread) when the operation
// ends.
func (o *Op) Sets(f Future) *Op { o.sets = f.id; return o }

// After makes the operation wait for events before it starts.
func (o *Op) After(evs ...Event) *Op {
	for _, e := range evs {
		o.waits = append(o.waits, e.id)
	}
	return o
}

// Mutation marks the operation as an in-place mutation of what it writes.
func (o *Op) Mutation() *Op { o.mutation = true; return o }

// At labels the operation with its source position.
func (o *Op) At(label string) *Op { o.label = label; return o }

// Tag attaches a caller's number (>= 1) to the operation.
func (o *Op) Tag(n int) *Op { o.tag = n; return o }

func (o *Op) clone() *Op {
	c := *o
	c.reads = append([]accDef(nil), o.reads...)
	c.writes = append([]accDef(nil), o.writes...)
	c.holds = append([]int(nil), o.holds...)
	c.waits = append([]int(nil), o.waits...)
	return &c
}
