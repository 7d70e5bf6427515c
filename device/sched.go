package device

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Schedule selects how a run orders the threads.
type Schedule int

// Schedules (docs/device-model.md §6).
const (
	// Witness: the host runs until it blocks; then only the
	// happens-before closure of what it waits for runs, victims as late as
	// legal, callbacks at the latest legal moment; at the end the device
	// drains by stream id then enqueue order.
	Witness Schedule = iota + 1
	// Eager: every operation completes right after the host step that
	// enqueued it.
	Eager
)

func (s Schedule) String() string {
	switch s {
	case Witness:
		return "witness"
	case Eager:
		return "eager"
	}
	return "schedule(" + fmt.Sprint(int(s)) + ")"
}

// DefaultCap is the default state cap of Explore.
const DefaultCap = 100000

const stepLimit = 1 << 20

// Result is the outcome of a run or an exploration.
type Result struct {
	Schedule string
	Trace    []TraceEntry // the run, or for an exploration the faulting path
	Faults   []Fault
	History  []ChunkEvent
	States   int  // exploration: distinct states visited
	CapHit   bool // exploration: stopped at the cap
	Err      error
	m        *machine
}

// Faulted says whether any fault was raised.
func (r *Result) Faulted() bool { return len(r.Faults) > 0 }

// First is the first fault, or nil.
func (r *Result) First() *Fault {
	if len(r.Faults) == 0 {
		return nil
	}
	return &r.Faults[0]
}

// FirstConfirming is the first fault that confirms on its own, or nil.
func (r *Result) FirstConfirming() *Fault {
	for i := range r.Faults {
		if r.Faults[i].Kind.Confirms() {
			return &r.Faults[i]
		}
	}
	return nil
}

// Has says whether a fault of kind k was raised.
func (r *Result) Has(k FaultKind) bool {
	for _, f := range r.Faults {
		if f.Kind == k {
			return true
		}
	}
	return false
}

// Value is the final content of o's memory ("" if o has none).
func (r *Result) Value(o Obj) string {
	if r.m == nil || o.id < 0 || o.id >= len(r.m.objs) {
		return ""
	}
	al, lo, hi, _ := r.m.resolve(o.id)
	if al < 0 {
		return ""
	}
	glo, ghi := granules(lo, hi)
	return joinVals(r.m.runsIn(glo, ghi))
}

// Addr is the address of the chunk o's memory is in at the end of the run.
func (r *Result) Addr(o Obj) int64 {
	if r.m == nil || o.id < 0 || o.id >= len(r.m.objs) {
		return -1
	}
	al, lo, _, _ := r.m.resolve(o.id)
	if al < 0 {
		return -1
	}
	return lo
}

// String renders the trace, one step a line.
func (r *Result) String() string {
	var b strings.Builder
	for _, e := range r.Trace {
		fmt.Fprintf(&b, "%3d %-16s %s", e.Step, e.Thread, e.Text)
		if e.Label != "" {
			fmt.Fprintf(&b, " [%s]", e.Label)
		}
		if e.Fault != "" {
			fmt.Fprintf(&b, " !%s", e.Fault)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Run runs the scenario under a schedule.
func (s *Scenario) Run(sch Schedule) *Result {
	if s.err != nil {
		return &Result{Schedule: sch.String(), Err: s.err}
	}
	m := newMachine(s)
	switch sch {
	case Eager:
		m.runEager()
	default:
		sch = Witness
		m.runWitness()
	}
	return m.result(sch.String())
}

// Explore visits every happens-before-consistent interleaving of the
// scenario's half-steps (with state caching) up to cap states and stops at
// the first fault. cap <= 0 means DefaultCap.
func (s *Scenario) Explore(cap int) *Result {
	if cap <= 0 {
		cap = DefaultCap
	}
	if s.err != nil {
		return &Result{Schedule: "explore", Err: s.err}
	}
	m := newMachine(s)
	states, capHit, bad := m.explore(cap)
	var r *Result
	if bad != nil {
		r = bad.result("explore")
	} else {
		r = &Result{Schedule: "explore"}
	}
	r.States, r.CapHit = states, capHit
	return r
}

// Check is the fixed check of docs/device-model.md §6: the exploration,
// then the witness and eager schedules. The first result that faults is returned first.
func (s *Scenario) Check(cap int) []*Result {
	rs := []*Result{s.Explore(cap), s.Run(Witness), s.Run(Eager)}
	for i, r := range rs {
		if r.Faulted() && i > 0 {
			rs[0], rs[i] = rs[i], rs[0]
			break
		}
	}
	return rs
}

func (m *machine) result(name string) *Result {
	r := &Result{Schedule: name, Trace: m.trace, History: m.history, m: m}
	for _, f := range m.faults {
		f.Steps = m.trace[:f.Step+1]
		for _, h := range m.history {
			if f.Size > 0 && h.Addr < f.Addr+f.Size && f.Addr < h.Addr+h.Size {
				f.History = append(f.History, h)
			}
		}
		r.Faults = append(r.Faults, f)
	}
	return r
}

// ---- transitions ----

func (m *machine) nThreads() int { return nFixed + len(m.streams) }

func (m *machine) enabled(tid int) bool {
	if tid < nFixed {
		return m.threadEnabled(tid)
	}
	return m.streamEnabled(tid - nFixed)
}

func (m *machine) do(tid int) {
	if tid < nFixed {
		m.stepThread(tid)
	} else {
		m.stepStream(tid - nFixed)
	}
}

// finish raises DEADLOCK when work remains that cannot run.
func (m *machine) finish() {
	var stuck []string
	for t := range nFixed {
		if len(m.threads[t].frames) > 0 {
			stuck = append(stuck, m.threadName(t))
		}
	}
	for s, st := range m.streams {
		if st.head < len(st.queue) {
			stuck = append(stuck, m.threadName(nFixed+s))
		}
	}
	if len(stuck) == 0 {
		return
	}
	m.emit(tidHost, "no thread can move: "+strings.Join(stuck, ", "), "", 0)
	m.fault(Deadlock, 0, 0, "no thread can move: "+strings.Join(stuck, ", ")+" wait on each other")
}

func (m *machine) stale(op *opInst) bool {
	for _, rs := range [][]ref{op.reads, op.writes} {
		for _, r := range rs {
			if r.alloc >= 0 && !m.allocs[r.alloc].live {
				return true
			}
		}
	}
	return false
}

// victim: the head of stream s holds a freed alloc_id and is the last
// pending operation of its stream that does.
func (m *machine) victim(s int) bool {
	st := m.streams[s]
	if st.head >= len(st.queue) || !m.stale(&m.ops[st.queue[st.head]]) {
		return false
	}
	for _, id := range st.queue[st.head+1:] {
		if m.stale(&m.ops[id]) {
			return false
		}
	}
	return true
}

type need struct {
	ops     []bool
	cb, drv bool
}

func (m *machine) hostTarget() (target, bool) {
	fs := m.threads[tidHost].frames
	if len(fs) == 0 || fs[0].kind != fBody {
		return target{}, false
	}
	acts := m.sc.bodies[fs[0].body].acts
	if fs[0].pc >= len(acts) || acts[fs[0].pc].kind != aAwait {
		return target{}, false
	}
	return acts[fs[0].pc].tgt, true
}

// closure is the set of operations and threads that tg waits for.
func (m *machine) closure(tg target) need {
	n := need{ops: make([]bool, len(m.ops))}
	seenF := make([]bool, len(m.futs))
	seenB := make([]bool, len(m.sc.bodies))
	var addOp func(int)
	var addFut func(int)
	var addBody func(int)
	addOp = func(i int) {
		if i < 0 || i >= len(m.ops) || n.ops[i] {
			return
		}
		st := m.streams[m.ops[i].stream]
		for _, id := range st.queue[st.head:] {
			if !n.ops[id] {
				n.ops[id] = true
				op := m.ops[id]
				for _, e := range op.waits {
					if e >= 0 && !m.eventDone(e) {
						addOp(m.events[e].op)
					}
				}
				if op.kind == okHostFunc {
					n.drv = true
				}
			}
			if id == i {
				break
			}
		}
	}
	addFut = func(f int) {
		if f < 0 || seenF[f] {
			return
		}
		if m.futs[f].ready {
			if m.futs[f].running > 0 {
				n.cb = true // its OnReady callbacks still run
			}
			return
		}
		seenF[f] = true
		d := m.sc.futures[f]
		if d.setterOp != nil {
			for j := range m.ops {
				if m.ops[j].def == d.setterOp {
					addOp(j)
				}
			}
			n.cb = true
		}
		if d.setBody > 0 {
			addBody(d.setBody)
		}
	}
	addBody = func(b int) {
		if b <= 0 || seenB[b] {
			return
		}
		seenB[b] = true
		tr := m.trig[b]
		switch tr.kind {
		case trigOp:
			addOp(tr.op)
			if tr.tid == tidDRV {
				n.drv = true
			} else {
				n.cb = true
			}
		case trigFut:
			addFut(tr.fut)
			n.cb = true
		}
	}
	switch tg.kind {
	case tgEvent:
		if tg.id >= 0 {
			addOp(m.events[tg.id].op)
		}
	case tgFuture:
		addFut(tg.id)
	case tgStream:
		if q := m.streams[tg.id].queue; len(q) > 0 {
			addOp(q[len(q)-1])
		}
	}
	return n
}

// pickWitness chooses the next non-host transition of the witness schedule.
func (m *machine) pickWitness() (int, bool) {
	var n *need
	if len(m.threads[tidHost].frames) > 0 {
		if tg, ok := m.hostTarget(); ok {
			c := m.closure(tg)
			n = &c
		}
	}
	in := func(tid int) bool {
		if n == nil {
			return true
		}
		switch tid {
		case tidCB:
			return n.cb
		case tidDRV:
			return n.drv
		case tidHost:
			return false
		}
		st := m.streams[tid-nFixed]
		return n.ops[st.queue[st.head]]
	}
	ns := len(m.streams)
	streamWhere := func(victim, inside bool) (int, bool) {
		for s := range ns {
			tid := nFixed + s
			if m.streamEnabled(s) && m.victim(s) == victim && in(tid) == inside {
				return tid, true
			}
		}
		return 0, false
	}
	if t, ok := streamWhere(false, true); ok {
		return t, true
	}
	if m.threadEnabled(tidDRV) && in(tidDRV) {
		return tidDRV, true
	}
	_, late := streamWhere(true, true)
	late = late || m.threadEnabled(tidCB) && in(tidCB)
	if late && n != nil {
		if t, ok := streamWhere(false, false); ok {
			return t, true
		}
	}
	if m.threadEnabled(tidCB) && in(tidCB) {
		return tidCB, true
	}
	if t, ok := streamWhere(true, true); ok {
		return t, true
	}
	// nothing the host waits for can move: let anything run
	for _, v := range []bool{false, true} {
		if v {
			if m.threadEnabled(tidDRV) {
				return tidDRV, true
			}
			if m.threadEnabled(tidCB) {
				return tidCB, true
			}
		}
		for s := range ns {
			if m.streamEnabled(s) && m.victim(s) == v {
				return nFixed + s, true
			}
		}
	}
	return 0, false
}

func (m *machine) runWitness() {
	for range stepLimit {
		if m.threadEnabled(tidHost) {
			m.stepThread(tidHost)
			continue
		}
		t, ok := m.pickWitness()
		if !ok {
			m.finish()
			return
		}
		m.do(t)
	}
}

// pickDrain orders non-host work: streams (non-victims first, by id), the
// driver, the callback thread, then victims.
func (m *machine) pickDrain() (int, bool) {
	for s := range m.streams {
		if m.streamEnabled(s) && !m.victim(s) {
			return nFixed + s, true
		}
	}
	if m.threadEnabled(tidDRV) {
		return tidDRV, true
	}
	if m.threadEnabled(tidCB) {
		return tidCB, true
	}
	for s := range m.streams {
		if m.streamEnabled(s) {
			return nFixed + s, true
		}
	}
	return 0, false
}

func (m *machine) runEager() {
	for range stepLimit {
		if t, ok := m.pickDrain(); ok {
			m.do(t)
			continue
		}
		if m.threadEnabled(tidHost) {
			m.stepThread(tidHost)
			continue
		}
		m.finish()
		return
	}
}

func (m *machine) explore(cap int) (int, bool, *machine) {
	seen := make(map[[32]byte]struct{})
	stack := []*machine{m}
	states := 0
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k := c.key()
		if _, ok := seen[k]; ok {
			continue
		}
		seen[k] = struct{}{}
		states++
		if states > cap {
			return cap, true, nil
		}
		var ts []int
		for tid := range c.nThreads() {
			if c.enabled(tid) {
				ts = append(ts, tid)
			}
		}
		if len(ts) == 0 {
			c.finish()
			if len(c.faults) > 0 {
				return states, false, c
			}
			continue
		}
		for i := len(ts) - 1; i >= 0; i-- {
			d := c
			if i > 0 {
				d = c.clone()
			}
			d.do(ts[i])
			if len(d.faults) > 0 {
				return states, false, d
			}
			stack = append(stack, d)
		}
	}
	return states, false, nil
}

// key hashes everything that decides the future of a run (not the trace).
func (m *machine) key() [32]byte {
	var e enc
	for _, th := range m.threads {
		e.i(len(th.frames))
		for _, f := range th.frames {
			e.i(int(f.kind), f.body, f.pc, f.fut, f.alloc, f.op, f.onReady)
			e.b(f.started)
			e.ints(f.captures)
			e.ints(f.vc)
		}
	}
	for _, st := range m.streams {
		e.i(st.head)
		e.ints(st.queue)
	}
	for _, o := range m.objs {
		e.b(o.created, o.alive)
		e.i(o.rc, o.gen, o.alloc, o.target)
		e.ints(o.holds)
	}
	for _, p := range m.ptrs {
		e.b(p.set)
		e.i(p.obj, p.gen)
	}
	for _, ev := range m.events {
		e.i(ev.op)
		e.b(ev.done)
		e.ints(ev.vc)
	}
	for _, f := range m.futs {
		e.b(f.ready)
		e.i(f.running)
		e.ints(f.vc)
		e.i(len(f.cbs))
		for _, c := range f.cbs {
			e.i(c.body)
			e.ints(c.captures)
			e.ints(c.vc)
		}
	}
	e.ints(m.locks)
	for _, a := range m.allocs {
		e.i(a.obj, int(a.addr), int(a.size), a.chunkGen, a.stream, a.defOn, a.freeOn, a.freePos)
		e.b(a.live, a.host, a.defined, a.pending)
	}
	var pb strings.Builder
	m.pool.encode(&pb)
	e.s(pb.String())
	e.i(int(m.heap.next), len(m.heap.freed))
	for _, h := range m.heap.freed {
		e.i(int(h.addr), int(h.size))
	}
	for _, r := range m.shadow {
		e.i(int(r.lo), int(r.hi), r.alloc, r.ver)
		e.s(r.val)
	}
	for _, c := range m.copies {
		e.i(c.copy, c.base, int(c.lo), int(c.hi), int(c.intent), c.snapVer)
		e.b(c.dirty)
	}
	m.pruneLog()
	log := slices.Clone(m.log)
	slices.SortFunc(log, func(x, y access) int {
		return cmp.Or(cmp.Compare(x.alloc, y.alloc), cmp.Compare(x.lo, y.lo), cmp.Compare(x.tid, y.tid),
			cmp.Compare(x.epoch, y.epoch), cmp.Compare(x.hi, y.hi), cmp.Compare(x.who, y.who),
			boolCmp(x.write, y.write), boolCmp(x.mutation, y.mutation))
	})
	e.i(len(log))
	for _, a := range log {
		e.i(a.alloc, int(a.lo), int(a.hi), a.tid, a.epoch)
		e.b(a.write, a.mutation)
		e.s(a.who)
	}
	for _, v := range m.vc {
		e.ints(v)
	}
	for _, t := range m.trig {
		e.i(int(t.kind), t.op, t.fut, t.tid)
	}
	e.i(len(m.ops))
	for _, op := range m.ops {
		e.i(int(op.kind), op.stream, op.event, op.body, op.alloc)
		e.b(op.started, op.ended, op.funcDone)
		e.s(op.readVal)
		e.ints(op.endVC)
		e.ints(op.enqVC)
		e.ints(op.holds)
		e.ints(op.waits)
		for _, rs := range [][]ref{op.reads, op.writes} {
			e.i(len(rs))
			for _, r := range rs {
				e.i(r.alloc, int(r.lo), int(r.hi))
			}
		}
	}
	return sha256.Sum256(e.buf)
}

type enc struct{ buf []byte }

func (e *enc) i(vs ...int) {
	for _, v := range vs {
		e.buf = binary.AppendVarint(e.buf, int64(v))
	}
}

func (e *enc) ints(vs []int) {
	e.i(len(vs))
	e.i(vs...)
}

func (e *enc) b(vs ...bool) {
	for _, v := range vs {
		if v {
			e.buf = append(e.buf, 1)
		} else {
			e.buf = append(e.buf, 0)
		}
	}
}

func (e *enc) s(v string) {
	e.i(len(v))
	e.buf = append(e.buf, v...)
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
