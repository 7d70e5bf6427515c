package device

import (
	"fmt"
	"slices"
)

// ---- objects ----

func (m *machine) create(o int) {
	m.objs[o] = objState{created: true, alive: true, rc: 1, gen: 1, alloc: -1, target: -1}
}

// live checks that o can be used by thread t; using a dead handle is
// HOST_UAF.
func (m *machine) live(o int, what string) bool {
	if o < 0 {
		return false
	}
	s := m.objs[o]
	if !s.created {
		m.fault(HostUAF, 0, 0, fmt.Sprintf("%s uses %s before it exists", what, m.objName(o)))
		return false
	}
	if !s.alive {
		m.fault(HostUAF, 0, 0, fmt.Sprintf("%s uses %s after it died", what, m.objName(o)))
		return false
	}
	return true
}

func (m *machine) retain(o int, what string) {
	if m.live(o, what) {
		m.objs[o].rc++
	}
}

// release drops one reference on o from thread t; at zero o dies.
func (m *machine) release(t, o int) {
	if o < 0 || !m.objs[o].alive {
		return
	}
	m.objs[o].rc--
	if m.objs[o].rc > 0 {
		return
	}
	s := &m.objs[o]
	s.alive = false
	s.gen++
	m.note(m.objName(o) + " dies")
	holds := s.holds
	tgt := s.target
	for _, h := range holds {
		m.release(t, h)
	}
	if tgt >= 0 {
		m.release(t, tgt)
	}
	if a := m.objs[o].alloc; a >= 0 && m.allocs[a].live {
		m.freeAlloc(t, o, a)
	}
}

// freeAlloc applies o's free policy to allocation a.
func (m *machine) freeAlloc(t, o, a int) {
	d := m.sc.objs[o]
	A := &m.allocs[a]
	if A.host {
		A.live = false
		m.heap.free(A.addr, roundUp(A.size, Granule))
		m.note(fmt.Sprintf("host buffer 0x%x freed", A.addr))
		return
	}
	switch {
	case d.policy == FreeAfterStream && d.pstream >= 0:
		m.enqueue(t, opInst{kind: okThen, name: "deallocate " + A.name, body: -1, alloc: a, stream: d.pstream})
		m.note(fmt.Sprintf("free of 0x%x deferred with then_callback on %s", A.addr, m.sc.streams[d.pstream]))
		return
	case d.policy == FreeOnStream || d.policy == FreeDefault && m.sc.alloc.kind == akStreamOrdered:
		st := d.pstream
		if st < 0 {
			st = A.stream
		}
		if st >= 0 {
			pos := len(m.streams[st].queue)
			id := m.enqueue(t, opInst{kind: okFree, name: "free " + A.name, alloc: a, stream: st})
			A = &m.allocs[a]
			A.live, A.freeOn, A.freePos = false, st, pos
			if so, ok := m.pool.(*streamOrdered); ok {
				so.freeAsync(A.addr, st, id)
			}
			m.hist(a, "free enqueued on "+m.sc.streams[st])
			m.note(fmt.Sprintf("cudaFreeAsync(0x%x) on %s", A.addr, m.sc.streams[st]))
			return
		}
	}
	if A.defOn >= 0 {
		A.freeOn, A.freePos = A.defOn, len(m.streams[A.defOn].queue)
	}
	if c, ok := m.pool.(*caching); ok && d.policy == FreeDefault {
		var pend []int
		for _, s := range c.uses(A.addr) {
			if q := m.streams[s].queue; len(q) > 0 && !m.ops[q[len(q)-1]].ended {
				pend = append(pend, q[len(q)-1])
			}
		}
		c.freeWithEvents(A.addr, pend)
		if len(pend) > 0 {
			// the block stays reserved until process_events sees the events
			A.pending = true
			m.hist(a, "free (waits for recorded streams)")
			m.note(fmt.Sprintf("block 0x%x waits for %d stream event(s)", A.addr, len(pend)))
			return
		}
	} else {
		m.pool.free(A.addr)
	}
	A.live = false
	m.hist(a, "free")
	m.note(fmt.Sprintf("chunk 0x%x freed", A.addr))
}

// processEvents returns caching-allocator blocks whose recorded events are
// complete; their allocations stop being live.
func (m *machine) processEvents() {
	c, ok := m.pool.(*caching)
	if !ok {
		return
	}
	c.processEvents(m.opDone)
	for i := range m.allocs {
		A := &m.allocs[i]
		if A.pending && !c.waitingAt(A.addr) {
			A.pending, A.live = false, false
			m.hist(i, "free (events complete)")
		}
	}
}

// resolve follows tensors and views from o to the memory it denotes.
func (m *machine) resolve(o int) (alloc int, lo, hi int64, owner int) {
	off, size := int64(0), int64(0)
	cur := o
	for range len(m.objs) + 1 {
		if cur < 0 {
			break
		}
		s := m.objs[cur]
		d := m.sc.objs[cur]
		if s.alloc >= 0 {
			A := m.allocs[s.alloc]
			if size <= 0 || off+size > A.size {
				size = A.size - off
			}
			return s.alloc, A.addr + off, A.addr + off + max(size, 0), cur
		}
		if d.kind == kView {
			if size <= 0 && d.size > 0 {
				size = d.size
			}
			off += d.off
		}
		cur = s.target
	}
	return -1, 0, 0, -1
}

// ---- allocation ----

func (m *machine) bumpGen(addr int64) int {
	for i := range m.gens {
		if m.gens[i].addr == addr {
			m.gens[i].n++
			return m.gens[i].n
		}
	}
	m.gens = append(m.gens, chunkGen{addr, 1})
	return 1
}

func (m *machine) opDone(i int) bool { return i < 0 || i < len(m.ops) && m.ops[i].ended }

// allocate gives object o its chunk; a failure is recorded as a fault.
func (m *machine) allocate(t, o int, size int64, host bool, defEvent int) {
	d := m.sc.objs[o]
	st := d.stream
	if st < 0 && len(m.sc.streams) > 0 && !host {
		st = 0
	}
	var addr, got int64
	if host {
		addr, got = m.heap.malloc(size)
	} else {
		m.processEvents()
		var ok bool
		addr, got, ok = m.pool.malloc(size, st, m.opDone)
		if !ok {
			m.fault(Deadlock, 0, 0, fmt.Sprintf("out of device memory allocating %s", d.name))
			return
		}
	}
	id := len(m.allocs)
	m.allocs = append(m.allocs, allocRec{obj: o, name: d.name, addr: addr, size: size, live: true, host: host,
		stream: st, chunkGen: m.bumpGen(addr), canary: canary(id + 1), defOn: -1, freeOn: -1})
	_ = got
	m.objs[o].alloc = id
	m.hist(id, "alloc")
	where := "device"
	if host {
		where = "host"
	}
	m.note(fmt.Sprintf("%s chunk 0x%x (alloc #%d, gen %d)", where, addr, id+1, m.allocs[id].chunkGen))
	defOn := -1
	switch {
	case host:
	case d.define >= 0:
		defOn = d.define
	case d.define == -2 && m.sc.alloc.definedOnStream():
		defOn = st
	}
	m.allocs[id].defOn = defOn
	if defOn >= 0 {
		m.enqueue(t, opInst{kind: okDefine, name: "define " + d.name, alloc: id, event: defEvent, stream: defOn})
	} else {
		m.define(id)
		if defEvent >= 0 {
			m.events[defEvent].done = true
			m.events[defEvent].vc = m.snap(t)
		}
	}
}

// define makes allocation a the owner of its granules on the device
// timeline and writes its canary where it has not written yet.
func (m *machine) define(a int) {
	A := &m.allocs[a]
	if A.defined || !A.live {
		return
	}
	A.defined = true
	glo, ghi := granules(A.addr, A.addr+A.size)
	var nr []run
	for _, x := range m.runsIn(glo, ghi) {
		if x.alloc != a {
			x.alloc, x.ver, x.val = a, 0, A.canary
		}
		nr = append(nr, x)
	}
	m.setRuns(glo, ghi, nr)
	m.hist(a, "define")
}

// ---- stream operations ----

// enqueue appends an operation instance to its stream from thread t.
func (m *machine) enqueue(t int, op opInst) int {
	m.tick(t)
	op.enqVC = m.snap(t)
	id := len(m.ops)
	m.ops = append(m.ops, op)
	s := &m.streams[op.stream]
	s.queue = append(s.queue, id)
	if op.kind == okRecord || op.kind == okDefine {
		if op.event >= 0 {
			m.events[op.event].op = id
			m.events[op.event].done = false
		}
	}
	return id
}

func (m *machine) refOf(a accDef, who string) (ref, bool) {
	if a.ptr >= 0 {
		p := m.ptrs[a.ptr]
		name := m.sc.ptrs[a.ptr].name
		if !p.set {
			m.fault(HostUAF, 0, 0, fmt.Sprintf("%s uses pointer %s before it is set", who, name))
			return ref{alloc: -1}, false
		}
		if !m.objs[p.obj].alive || m.objs[p.obj].gen != p.gen {
			m.fault(HostUAF, 0, 0, fmt.Sprintf("%s dereferences %s, but %s died", who, name, m.objName(p.obj)))
		}
		al, lo, hi, _ := m.resolve(p.obj)
		return ref{alloc: al, lo: lo, hi: hi, name: name}, al >= 0
	}
	m.live(a.obj, who)
	al, lo, hi, _ := m.resolve(a.obj)
	return ref{alloc: al, lo: lo, hi: hi, name: m.objName(a.obj)}, al >= 0
}

func (m *machine) enqueueUser(t int, st int, op *Op, o actOpts) {
	inst := opInst{kind: okKernel, def: op, name: op.name, stream: st, label: op.label, tag: op.tag, waits: op.waits}
	if inst.label == "" {
		inst.label = o.label
	}
	if inst.tag == 0 {
		inst.tag = o.tag
	}
	for _, a := range op.reads {
		if r, ok := m.refOf(a, op.name); ok {
			inst.reads = append(inst.reads, r)
		}
	}
	for _, a := range op.writes {
		if r, ok := m.refOf(a, op.name); ok {
			inst.writes = append(inst.writes, r)
		}
	}
	for _, h := range op.holds {
		if m.live(h, op.name) {
			m.objs[h].rc++
			inst.holds = append(inst.holds, h)
		}
	}
	m.enqueue(t, inst)
	var parts []string
	for _, r := range inst.reads {
		parts = append(parts, "R "+r.name)
	}
	for _, r := range inst.writes {
		parts = append(parts, "W "+r.name)
	}
	txt := fmt.Sprintf("enqueue %s on %s", op.name, m.sc.streams[st])
	if len(parts) > 0 {
		txt += " (" + joinComma(parts) + ")"
	}
	m.trace[m.cur].Text = txt
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

func (m *machine) waitsDone(op *opInst) bool {
	for _, e := range op.waits {
		if e >= 0 && !m.eventDone(e) {
			return false
		}
	}
	return true
}

func (m *machine) eventDone(e int) bool {
	ev := m.events[e]
	return ev.done || ev.op < 0
}

func (m *machine) streamEnabled(s int) bool {
	st := m.streams[s]
	if st.head >= len(st.queue) {
		return false
	}
	op := &m.ops[st.queue[st.head]]
	if !op.started {
		return m.waitsDone(op)
	}
	if op.kind == okHostFunc {
		return op.funcDone
	}
	return true
}

func (m *machine) isMarker(op *opInst) bool {
	return op.kind != okKernel && op.kind != okHostFunc
}

// stepStream runs the next half of the head operation of stream s.
func (m *machine) stepStream(s int) {
	t := nFixed + s
	st := &m.streams[s]
	id := st.queue[st.head]
	op := &m.ops[id]
	if !op.started {
		m.join(t, op.enqVC)
		for _, e := range op.waits {
			if e >= 0 && m.events[e].vc != nil {
				m.join(t, m.events[e].vc)
			}
		}
	}
	m.tick(t)
	if m.isMarker(op) {
		op.started, op.ended = true, true
		op.endVC = m.snap(t)
		st.head++
		m.reach(t, id)
		return
	}
	if !op.started {
		op.started = true
		m.emit(t, op.name+" start", op.label, op.tag)
		var vals []string
		for _, r := range op.reads {
			v := m.access(t, r, accessKind{who: op.name, stream: s, pos: st.head})
			m.note(fmt.Sprintf("read %s@0x%x = %s", r.name, r.lo, v))
			if !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		m.ops[id].readVal = joinBar(vals)
		if op.kind == okHostFunc {
			m.pushFrame(tidDRV, frame{kind: fBody, body: op.body, op: id, vc: m.snap(t)}, false)
		}
		return
	}
	op.ended = true
	st.head++
	m.emit(t, op.name+" end", op.label, op.tag)
	if op.kind == okHostFunc {
		m.join(t, op.endVC)
	}
	val := op.readVal
	if op.def != nil && op.def.hasFill {
		val = op.def.fill
	} else if val == "" {
		val = op.name
	}
	var from []int
	for _, r := range op.reads {
		from = append(from, r.alloc)
	}
	mut := op.def != nil && op.def.mutation
	for _, r := range op.writes {
		m.access(t, r, accessKind{write: true, mutation: mut, who: op.name, val: val, readFrom: from, stream: s, pos: st.head - 1})
		m.note(fmt.Sprintf("write %s@0x%x = %s", r.name, r.lo, val))
	}
	m.ops[id].endVC = m.snap(t)
	for _, h := range op.holds {
		m.release(t, h)
	}
	if op.def != nil && op.def.sets >= 0 {
		m.pushFrame(tidCB, frame{kind: fSet, fut: op.def.sets, vc: m.snap(t)}, false)
	}
}

func joinBar(vals []string) string {
	out := ""
	for i, v := range vals {
		if i > 0 {
			out += "|"
		}
		out += v
	}
	return out
}

// reach completes a marker operation.
func (m *machine) reach(t, id int) {
	op := m.ops[id]
	switch op.kind {
	case okRecord:
		m.emit(t, "event reached", op.label, op.tag)
		m.events[op.event].done = true
		m.events[op.event].vc = m.snap(t)
	case okWait:
		m.emit(t, "wait satisfied", op.label, op.tag)
	case okDefine:
		m.emit(t, op.name, op.label, op.tag)
		m.define(op.alloc)
		if op.event >= 0 {
			m.events[op.event].done = true
			m.events[op.event].vc = m.snap(t)
		}
	case okThen:
		m.emit(t, "then_callback point: "+op.name, op.label, op.tag)
		if op.body < 0 {
			m.pushFrame(tidCB, frame{kind: fDealloc, alloc: op.alloc, vc: m.snap(t)}, false)
		} else {
			m.pushFrame(tidCB, frame{kind: fBody, body: op.body, op: -1, vc: m.snap(t)}, false)
		}
	case okFree:
		m.emit(t, op.name+" (stream-ordered free)", op.label, op.tag)
		m.hist(op.alloc, "free done on "+m.sc.streams[op.stream])
	}
}

// ---- threads ----

func (m *machine) pushFrame(t int, f frame, front bool) {
	f.id = m.nextFrame
	m.nextFrame++
	th := &m.threads[t]
	if front {
		th.frames = append([]frame{f}, th.frames...)
	} else {
		th.frames = append(slices.Clip(th.frames), f)
	}
}

func (m *machine) popFrame(t, id int) {
	th := &m.threads[t]
	i := slices.IndexFunc(th.frames, func(f frame) bool { return f.id == id })
	if i >= 0 {
		th.frames = slices.Delete(slices.Clone(th.frames), i, i+1)
	}
}

func (m *machine) targetDone(tg target) bool {
	switch tg.kind {
	case tgEvent:
		return tg.id < 0 || m.eventDone(tg.id)
	case tgFuture:
		return m.futs[tg.id].ready && m.futs[tg.id].running == 0
	case tgStream:
		st := m.streams[tg.id]
		return st.head >= len(st.queue)
	}
	return true
}

func (m *machine) targetVC(tg target) []int {
	switch tg.kind {
	case tgEvent:
		if tg.id >= 0 {
			return m.events[tg.id].vc
		}
	case tgFuture:
		return m.futs[tg.id].vc
	case tgStream:
		st := m.streams[tg.id]
		if len(st.queue) > 0 {
			return m.ops[st.queue[len(st.queue)-1]].endVC
		}
	}
	return nil
}

func (m *machine) threadEnabled(t int) bool {
	th := m.threads[t]
	if len(th.frames) == 0 {
		return false
	}
	f := th.frames[0]
	if f.kind != fBody {
		return true
	}
	acts := m.sc.bodies[f.body].acts
	if f.pc >= len(acts) {
		return true
	}
	a := acts[f.pc]
	switch a.kind {
	case aAwait:
		return m.targetDone(a.tgt)
	case aLock:
		return m.locks[a.lock] == 0 || m.locks[a.lock] == t+1
	}
	return true
}

// stepThread runs one action of thread t.
func (m *machine) stepThread(t int) {
	th := &m.threads[t]
	f := th.frames[0]
	if !f.started {
		th.frames[0].started = true
		if f.vc != nil {
			m.join(t, f.vc)
		}
	}
	m.tick(t)
	switch f.kind {
	case fSet:
		m.popFrame(t, f.id)
		m.emit(t, "runtime sets "+m.sc.futures[f.fut].name, "", 0)
		m.setFuture(t, f.fut)
		return
	case fDealloc:
		m.popFrame(t, f.id)
		A := &m.allocs[f.alloc]
		m.emit(t, "deferred deallocate "+A.name, "", 0)
		if A.live {
			A.live = false
			m.pool.free(A.addr)
			m.hist(f.alloc, "free (deferred)")
			m.note(fmt.Sprintf("chunk 0x%x freed", A.addr))
		}
		return
	}
	body := m.sc.bodies[f.body]
	if len(body.acts) == 0 {
		m.popFrame(t, f.id)
		m.emit(t, body.name+" runs (empty)", "", 0)
		m.finishFrame(t, f)
		return
	}
	a := &body.acts[f.pc]
	th.frames[0].pc++
	done := f.pc+1 >= len(body.acts)
	if done {
		m.popFrame(t, f.id)
	}
	m.exec(t, a)
	if done {
		m.finishFrame(t, f)
	}
}

func (m *machine) finishFrame(t int, f frame) {
	for _, c := range f.captures {
		m.release(t, c)
	}
	if f.onReady > 0 {
		fs := &m.futs[f.onReady-1]
		fs.running--
		if fs.running == 0 {
			// awaiters registered after the callbacks wake now
			fs.vc = joinVC(fs.vc, m.snap(t))
		}
	}
	if f.op >= 0 && f.op < len(m.ops) && m.ops[f.op].kind == okHostFunc {
		m.ops[f.op].funcDone = true
		m.ops[f.op].endVC = m.snap(t)
	}
}

func (m *machine) setFuture(t, f int) {
	fs := &m.futs[f]
	if fs.ready {
		m.note("already set")
		return
	}
	fs.ready = true
	fs.vc = m.snap(t)
	cbs := fs.cbs
	fs.cbs = nil
	// OnReady callbacks run synchronously on the setting thread, in
	// registration order.
	for i := len(cbs) - 1; i >= 0; i-- {
		c := cbs[i]
		m.pushFrame(t, frame{kind: fBody, body: c.body, op: -1, onReady: f + 1, captures: c.captures, vc: joinVC(c.vc, fs.vc)}, true)
	}
	fs.running = len(cbs)
	if len(cbs) > 0 {
		m.note(fmt.Sprintf("%d OnReady callback(s) run on %s", len(cbs), m.threadName(t)))
	}
}

// exec performs one action on thread t.
func (m *machine) exec(t int, a *action) {
	sc := m.sc
	o := a.o
	name := func(i int) string { return m.objName(i) }
	switch a.kind {
	case aAlloc:
		d := sc.objs[a.obj]
		m.emit(t, fmt.Sprintf("alloc %s (%d B)", d.name, d.size), o.label, o.tag)
		m.create(a.obj)
		m.allocate(t, a.obj, d.size, false, a.event)
	case aHostAlloc:
		d := sc.objs[a.obj]
		m.emit(t, fmt.Sprintf("host alloc %s (%d B)", d.name, d.size), o.label, o.tag)
		m.create(a.obj)
		m.allocate(t, a.obj, d.size, true, -1)
	case aObject, aHold:
		m.emit(t, fmt.Sprintf("create %s %s", sc.objs[a.obj].kind, name(a.obj)), o.label, o.tag)
		m.create(a.obj)
	case aTensor:
		m.emit(t, fmt.Sprintf("tensor %s refers to %s", name(a.obj), name(a.obj2)), o.label, o.tag)
		m.create(a.obj)
		if m.live(a.obj2, "tensor") {
			m.objs[a.obj2].rc++
			m.objs[a.obj].target = a.obj2
		}
	case aRetain:
		m.emit(t, "retain "+name(a.obj), o.label, o.tag)
		m.retain(a.obj, "retain")
	case aDrop:
		m.emit(t, "drop "+name(a.obj), o.label, o.tag)
		if m.live(a.obj, "drop") {
			m.release(t, a.obj)
		}
	case aStore:
		m.emit(t, fmt.Sprintf("store %s into %s", name(a.obj2), name(a.obj)), o.label, o.tag)
		if m.live(a.obj, "store") && m.live(a.obj2, "store") {
			m.objs[a.obj2].rc++
			m.objs[a.obj].holds = append(slices.Clip(m.objs[a.obj].holds), a.obj2)
		}
	case aBorrow:
		m.emit(t, fmt.Sprintf("borrow %s from %s", sc.ptrs[a.ptr].name, name(a.obj)), o.label, o.tag)
		if m.live(a.obj, "borrow") {
			_, _, _, owner := m.resolve(a.obj)
			if owner < 0 {
				owner = a.obj
			}
			m.ptrs[a.ptr] = ptrState{set: true, obj: owner, gen: m.objs[owner].gen}
			m.note(fmt.Sprintf("%s = (%s, gen %d)", sc.ptrs[a.ptr].name, name(owner), m.objs[owner].gen))
		}
	case aDeref:
		p := m.ptrs[a.ptr]
		pn := sc.ptrs[a.ptr].name
		m.emit(t, "dereference "+pn, o.label, o.tag)
		switch {
		case !p.set:
			m.fault(HostUAF, 0, 0, "dereference of "+pn+" before it is set")
		case m.objs[p.obj].alive && m.objs[p.obj].gen == p.gen:
		case o.weak:
			m.note(name(p.obj) + " is gone; the weak reference is skipped")
		default:
			m.fault(HostUAF, 0, 0, fmt.Sprintf("%s points at %s (gen %d), which died (now gen %d)", pn, name(p.obj), p.gen, m.objs[p.obj].gen))
		}
	case aEnqueue:
		m.emit(t, "enqueue", o.label, o.tag)
		m.enqueueUser(t, a.stream, a.op, o)
	case aRecord:
		m.emit(t, "record event on "+sc.streams[a.stream], o.label, o.tag)
		m.enqueue(t, opInst{kind: okRecord, name: "record", event: a.event, stream: a.stream, label: o.label, tag: o.tag})
	case aWaitEvent:
		m.emit(t, fmt.Sprintf("%s waits for event", sc.streams[a.stream]), o.label, o.tag)
		m.enqueue(t, opInst{kind: okWait, name: "wait", waits: []int{a.event}, stream: a.stream, label: o.label, tag: o.tag})
	case aAwait:
		m.emit(t, "await "+m.targetName(a.tgt)+" (returns)", o.label, o.tag)
		if v := m.targetVC(a.tgt); v != nil {
			m.join(t, v)
		}
	case aThenCallback:
		m.emit(t, "then_callback on "+sc.streams[a.stream], o.label, o.tag)
		id := m.enqueue(t, opInst{kind: okThen, name: "callback", body: a.body, stream: a.stream, label: o.label, tag: o.tag})
		m.trig[a.body] = trig{kind: trigOp, op: id, tid: tidCB}
	case aHostFunc:
		m.emit(t, "host_func on "+sc.streams[a.stream], o.label, o.tag)
		id := m.enqueue(t, opInst{kind: okHostFunc, name: "host_func", body: a.body, stream: a.stream, label: o.label, tag: o.tag})
		m.trig[a.body] = trig{kind: trigOp, op: id, tid: tidDRV}
	case aSet:
		m.emit(t, "set "+sc.futures[a.fut].name, o.label, o.tag)
		m.setFuture(t, a.fut)
	case aOnReady:
		m.emit(t, "OnReady on "+sc.futures[a.fut].name, o.label, o.tag)
		var caps []int
		for _, c := range a.captures {
			if m.live(c, "capture") {
				m.objs[c].rc++
				caps = append(caps, c)
			}
		}
		m.trig[a.body] = trig{kind: trigFut, fut: a.fut}
		if m.futs[a.fut].ready {
			m.note("already ready: runs inline")
			m.pushFrame(t, frame{kind: fBody, body: a.body, op: -1, captures: caps}, true)
		} else {
			fs := &m.futs[a.fut]
			fs.cbs = append(slices.Clip(fs.cbs), pendingCB{body: a.body, captures: caps, vc: m.snap(t)})
		}
	case aView:
		m.emit(t, fmt.Sprintf("view %s of %s", name(a.obj), name(a.obj2)), o.label, o.tag)
		m.create(a.obj)
		if m.live(a.obj2, "view") {
			m.objs[a.obj2].rc++
			m.objs[a.obj].target = a.obj2
		}
	case aMaterialise:
		m.emit(t, fmt.Sprintf("materialise %s from %s", name(a.obj), name(a.obj2)), o.label, o.tag)
		m.materialise(t, a.obj, a.obj2, a.intent)
	case aContiguous:
		m.emit(t, fmt.Sprintf("%s = %s.contiguous()", name(a.obj), name(a.obj2)), o.label, o.tag)
		if a.flag {
			m.note("already contiguous: returns the same storage")
			m.create(a.obj)
			if m.live(a.obj2, "contiguous") {
				m.objs[a.obj2].rc++
				m.objs[a.obj].target = a.obj2
			}
		} else {
			m.materialise(t, a.obj, a.obj2, Copy)
		}
	case aSwap:
		m.emit(t, fmt.Sprintf("%s now refers to %s (data pointer swap)", name(a.obj), name(a.obj2)), o.label, o.tag)
		if m.live(a.obj, "swap") && m.live(a.obj2, "swap") {
			old := m.objs[a.obj].target
			m.objs[a.obj2].rc++
			m.objs[a.obj].target = a.obj2
			m.release(t, old)
		}
	case aRead:
		m.emit(t, "read "+name(a.obj), o.label, o.tag)
		m.live(a.obj, "read")
		if al, lo, hi, _ := m.resolve(a.obj); al >= 0 {
			v := m.access(t, ref{alloc: al, lo: lo, hi: hi, name: name(a.obj)}, accessKind{who: m.threadName(t) + " read of " + name(a.obj), stream: -1})
			m.note(name(a.obj) + " = " + v)
		}
	case aWrite:
		m.emit(t, fmt.Sprintf("write %s = %s", name(a.obj), a.val), o.label, o.tag)
		m.live(a.obj, "write")
		if al, lo, hi, _ := m.resolve(a.obj); al >= 0 {
			m.access(t, ref{alloc: al, lo: lo, hi: hi, name: name(a.obj)}, accessKind{write: true, mutation: o.mutation, val: a.val, who: m.threadName(t) + " write of " + name(a.obj), stream: -1})
		}
	case aRecordStream:
		m.emit(t, fmt.Sprintf("record_stream(%s, %s)", name(a.obj), sc.streams[a.stream]), o.label, o.tag)
		if al, _, _, _ := m.resolve(a.obj); al >= 0 {
			if c, ok := m.pool.(*caching); ok {
				c.recordStream(m.allocs[al].addr, a.stream)
			}
		}
	case aLock:
		m.emit(t, "acquire "+sc.locks[a.lock], o.label, o.tag)
		m.locks[a.lock] = t + 1
	case aUnlock:
		m.emit(t, "release "+sc.locks[a.lock], o.label, o.tag)
		m.locks[a.lock] = 0
	case aNote:
		m.emit(t, a.val, o.label, o.tag)
	}
}

func (m *machine) targetName(tg target) string {
	switch tg.kind {
	case tgEvent:
		return "event"
	case tgFuture:
		return m.sc.futures[tg.id].name
	case tgStream:
		return "stream " + m.sc.streams[tg.id]
	}
	return "?"
}

// materialise allocates dst and gathers src into it at this moment.
func (m *machine) materialise(t, dst, src int, intent Intent) {
	m.create(dst)
	if !m.live(src, "materialise") {
		return
	}
	al, lo, hi, _ := m.resolve(src)
	if al < 0 {
		return
	}
	size := max(hi-lo, 1)
	// the copy is made now, so it is defined now
	id := m.allocateNow(dst, size)
	if id < 0 {
		return
	}
	v := m.access(t, ref{alloc: al, lo: lo, hi: hi, name: m.objName(src)}, accessKind{who: "gather of " + m.objName(src), stream: -1})
	blo, bhi := granules(lo, hi)
	snap := maxVer(m.runsIn(blo, bhi))
	A := m.allocs[id]
	m.access(t, ref{alloc: id, lo: A.addr, hi: A.addr + A.size, name: m.objName(dst)}, accessKind{write: true, val: v, who: "gather into " + m.objName(dst), stream: -1})
	m.copies = append(m.copies, copyRec{copy: id, base: al, lo: lo, hi: hi, intent: intent, snapVer: snap})
	m.note(fmt.Sprintf("snapshot %s = %s", m.objName(dst), v))
}

func (m *machine) allocateNow(o int, size int64) int {
	st := m.sc.objs[o].stream
	if st < 0 && len(m.sc.streams) > 0 {
		st = 0
	}
	m.processEvents()
	addr, _, ok := m.pool.malloc(size, st, m.opDone)
	if !ok {
		m.fault(Deadlock, 0, 0, "out of device memory allocating "+m.objName(o))
		return -1
	}
	id := len(m.allocs)
	m.allocs = append(m.allocs, allocRec{obj: o, name: m.objName(o), addr: addr, size: size, live: true,
		stream: st, chunkGen: m.bumpGen(addr), canary: canary(id + 1), defOn: -1, freeOn: -1})
	m.objs[o].alloc = id
	m.hist(id, "alloc")
	m.note(fmt.Sprintf("device chunk 0x%x (alloc #%d)", addr, id+1))
	m.define(id)
	return id
}
