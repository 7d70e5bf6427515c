package device

type actKind int

const (
	aAlloc actKind = iota + 1
	aHostAlloc
	aObject
	aHold
	aTensor
	aRetain
	aDrop
	aStore
	aBorrow
	aDeref
	aEnqueue
	aRecord
	aWaitEvent
	aAwait
	aThenCallback
	aHostFunc
	aSet
	aOnReady
	aView
	aMaterialise
	aContiguous
	aSwap
	aRead
	aWrite
	aRecordStream
	aLock
	aUnlock
	aNote
)

type action struct {
	kind     actKind
	obj      int
	obj2     int
	ptr      int
	stream   int
	event    int
	fut      int
	body     int
	lock     int
	tgt      target
	op       *Op
	val      string
	intent   Intent
	flag     bool
	captures []int
	o        actOpts
}

// Body is a program that runs on one thread: the host program of a
// Scenario, or a callback body.
type Body struct {
	sc   *Scenario
	id   int
	name string
	acts []action
}

func (b *Body) add(a action, opts []Opt) {
	a.o = applyOpts(opts)
	b.acts = append(b.acts, a)
}

func (b *Body) obj(o Obj) int {
	if !b.sc.validObj(o) {
		b.sc.fail("unknown object in %s", b.name)
		return -1
	}
	return o.id
}

func (b *Body) stream(st Stream) int {
	if !b.sc.validStream(st) {
		b.sc.fail("unknown stream in %s", b.name)
		return -1
	}
	return st.id
}

func (b *Body) newObj(name string, kind objKind, size int64, o actOpts) int {
	d := objDef{name: name, kind: kind, size: size, stream: o.stream, define: o.define,
		policy: o.policy, pstream: o.pstream}
	b.sc.objs = append(b.sc.objs, d)
	return len(b.sc.objs) - 1
}

// Alloc allocates size bytes of device memory owned by a new buffer object
// (rc 1). Options: On (allocation stream), DefineNow/DefineOn, Free.
func (b *Body) Alloc(name string, size int64, opts ...Opt) Obj {
	if size <= 0 {
		b.sc.fail("alloc %s: size must be positive", name)
		size = 1
	}
	o := applyOpts(opts)
	id := b.newObj(name, kBuffer, size, o)
	b.sc.events = append(b.sc.events, eventDef{stream: -1, alloc: id})
	b.add(action{kind: aAlloc, obj: id, event: len(b.sc.events) - 1}, opts)
	return Obj{id}
}

// HostAlloc allocates a host buffer (a DMA source or destination).
func (b *Body) HostAlloc(name string, size int64, opts ...Opt) Obj {
	if size <= 0 {
		b.sc.fail("host alloc %s: size must be positive", name)
		size = 1
	}
	id := b.newObj(name, kHostBuf, size, applyOpts(opts))
	b.add(action{kind: aHostAlloc, obj: id}, opts)
	return Obj{id}
}

// Object creates a plain host object (a Work, the `this` of a callback).
func (b *Body) Object(name string, opts ...Opt) Obj {
	id := b.newObj(name, kObject, 0, applyOpts(opts))
	b.add(action{kind: aObject, obj: id}, opts)
	return Obj{id}
}

// Hold creates an empty hold container.
func (b *Body) Hold(name string, opts ...Opt) Obj {
	id := b.newObj(name, kHold, 0, applyOpts(opts))
	b.add(action{kind: aHold, obj: id}, opts)
	return Obj{id}
}

// Tensor creates a handle that refers to buf (rc++ on buf), like a DataPtr
// over a DeviceBufferRef; Swap replaces what it refers to.
func (b *Body) Tensor(name string, buf Obj, opts ...Opt) Obj {
	t := b.obj(buf)
	id := b.newObj(name, kTensor, 0, applyOpts(opts))
	b.add(action{kind: aTensor, obj: id, obj2: t}, opts)
	return Obj{id}
}

// Retain takes another reference on o (a shared_ptr copy).
func (b *Body) Retain(o Obj, opts ...Opt) { b.add(action{kind: aRetain, obj: b.obj(o)}, opts) }

// Drop releases one reference on o; at zero o dies (gen++), releases what
// it holds and, if it owns device memory, frees it by its policy.
func (b *Body) Drop(o Obj, opts ...Opt) { b.add(action{kind: aDrop, obj: b.obj(o)}, opts) }

// Store puts o into container c (c keeps a reference until it dies).
func (b *Body) Store(c, o Obj, opts ...Opt) {
	b.add(action{kind: aStore, obj: b.obj(c), obj2: b.obj(o)}, opts)
}

// Borrow takes a raw pointer to the object that owns o's memory.
func (b *Body) Borrow(name string, o Obj, opts ...Opt) Ptr {
	b.sc.ptrs = append(b.sc.ptrs, ptrDef{name: name})
	id := len(b.sc.ptrs) - 1
	b.add(action{kind: aBorrow, ptr: id, obj: b.obj(o)}, opts)
	return Ptr{id}
}

// Deref dereferences a raw pointer on this thread (HOST_UAF when stale;
// with Weak a dead object is skipped).
func (b *Body) Deref(p Ptr, opts ...Opt) {
	if p.id < 0 || p.id >= len(b.sc.ptrs) {
		b.sc.fail("unknown pointer in %s", b.name)
	}
	b.add(action{kind: aDeref, ptr: p.id}, opts)
}

// Enqueue puts op on stream st. Its buffers are resolved (and raw pointers
// dereferenced) now; their alloc_ids are captured.
func (b *Body) Enqueue(st Stream, op *Op, opts ...Opt) {
	if op == nil {
		b.sc.fail("enqueue of a nil operation")
		return
	}
	c := op.clone()
	if c.sets >= 0 && c.sets < len(b.sc.futures) {
		b.sc.futures[c.sets].setterOp = c
	}
	b.add(action{kind: aEnqueue, stream: b.stream(st), op: c}, opts)
}

// Record records an event at the current tail of st.
func (b *Body) Record(st Stream, opts ...Opt) Event {
	b.sc.events = append(b.sc.events, eventDef{stream: st.id, alloc: -1})
	e := len(b.sc.events) - 1
	b.add(action{kind: aRecord, stream: b.stream(st), event: e}, opts)
	return Event{e}
}

// WaitEvent makes st wait for e before its later operations start.
func (b *Body) WaitEvent(st Stream, e Event, opts ...Opt) {
	b.add(action{kind: aWaitEvent, stream: b.stream(st), event: e.id}, opts)
}

// Await blocks this thread until w is complete (an event, a future, or
// every operation enqueued so far on a stream).
func (b *Body) Await(w Waitable, opts ...Opt) {
	if w == nil {
		b.sc.fail("await of nothing")
		return
	}
	b.add(action{kind: aAwait, tgt: w.waitTarget()}, opts)
}

// ThenCallback runs fn on the runtime callback thread after st reaches this
// point.
func (b *Body) ThenCallback(st Stream, fn func(*Body), opts ...Opt) {
	cb := b.sc.newBody("then_callback")
	if fn != nil {
		fn(cb)
	}
	b.add(action{kind: aThenCallback, stream: b.stream(st), body: cb.id}, opts)
}

// HostFunc runs fn on the driver thread when st reaches this point; st is
// blocked until fn returns.
func (b *Body) HostFunc(st Stream, fn func(*Body), opts ...Opt) {
	cb := b.sc.newBody("host_func")
	if fn != nil {
		fn(cb)
	}
	b.add(action{kind: aHostFunc, stream: b.stream(st), body: cb.id}, opts)
}

// Set sets f on this thread and runs its OnReady callbacks here.
func (b *Body) Set(f Future, opts ...Opt) {
	if f.id >= 0 && f.id < len(b.sc.futures) {
		b.sc.futures[f.id].setBody = b.id
	}
	b.add(action{kind: aSet, fut: f.id}, opts)
}

// OnReady registers fn on f; captures are retained now and released when
// fn returns. If f is already ready fn runs inline on this thread.
func (b *Body) OnReady(f Future, captures []Obj, fn func(*Body), opts ...Opt) {
	cb := b.sc.newBody("on_ready")
	if fn != nil {
		fn(cb)
	}
	var cs []int
	for _, c := range captures {
		cs = append(cs, b.obj(c))
	}
	b.add(action{kind: aOnReady, fut: f.id, body: cb.id, captures: cs}, opts)
}

// View makes an alias of base's bytes [off, off+size) (rc++ on base).
func (b *Body) View(name string, base Obj, off, size int64, opts ...Opt) Obj {
	o := applyOpts(opts)
	id := b.newObj(name, kView, size, o)
	b.sc.objs[id].off = off
	b.add(action{kind: aView, obj: id, obj2: b.obj(base)}, opts)
	return Obj{id}
}

// Materialise allocates a new buffer and gathers v into it now (a
// snapshot). intent says whether the program believes writes through the
// result reach v's base (Alias) or wants a copy (Copy).
func (b *Body) Materialise(name string, v Obj, intent Intent, opts ...Opt) Obj {
	o := applyOpts(opts)
	id := b.newObj(name, kBuffer, 0, o)
	b.add(action{kind: aMaterialise, obj: id, obj2: b.obj(v), intent: intent}, opts)
	return Obj{id}
}

// Contiguous is x.contiguous(): x itself (an alias, rc++) when x is
// contiguous, otherwise a materialised copy.
func (b *Body) Contiguous(name string, x Obj, contiguous bool, opts ...Opt) Obj {
	o := applyOpts(opts)
	id := b.newObj(name, kView, 0, o)
	b.add(action{kind: aContiguous, obj: id, obj2: b.obj(x), flag: contiguous}, opts)
	return Obj{id}
}

// Swap makes tensor t refer to buf (rc++) and drops its old buffer, as
// torch_tpu's OverwriteDataPtr does for an in-place op.
func (b *Body) Swap(t, buf Obj, opts ...Opt) {
	b.add(action{kind: aSwap, obj: b.obj(t), obj2: b.obj(buf)}, opts)
}

// Read reads o on this thread (CPU access to shared memory, or the value a
// caller observes).
func (b *Body) Read(o Obj, opts ...Opt) { b.add(action{kind: aRead, obj: b.obj(o)}, opts) }

// Write writes v into o on this thread (AsMutation marks it in place).
func (b *Body) Write(o Obj, v string, opts ...Opt) {
	b.add(action{kind: aWrite, obj: b.obj(o), val: v}, opts)
}

// RecordStream is record_stream(o, st) for the caching allocator.
func (b *Body) RecordStream(o Obj, st Stream, opts ...Opt) {
	b.add(action{kind: aRecordStream, obj: b.obj(o), stream: b.stream(st)}, opts)
}

// Acquire takes lock l, blocking while another thread holds it.
func (b *Body) Acquire(l Lock, opts ...Opt) { b.add(action{kind: aLock, lock: l.id}, opts) }

// Release releases lock l.
func (b *Body) Release(l Lock, opts ...Opt) { b.add(action{kind: aUnlock, lock: l.id}, opts) }

// Note is a step that only appears in the trace.
func (b *Body) Note(text string, opts ...Opt) { b.add(action{kind: aNote, val: text}, opts) }
