package device

import (
	"fmt"
	"slices"
	"strings"
)

// FaultKind names a fault of docs/device-model.md §7.
type FaultKind string

// Fault kinds.
const (
	DevUAFReused  FaultKind = "DEV_UAF_REUSED"
	DevUAFFreed   FaultKind = "DEV_UAF_FREED"
	HostUAF       FaultKind = "HOST_UAF"
	LostWrite     FaultKind = "LOST_WRITE"
	StaleRead     FaultKind = "STALE_READ"
	Race          FaultKind = "RACE"
	AliasMutation FaultKind = "ALIAS_MUTATION"
	Deadlock      FaultKind = "DEADLOCK"
)

// Confirms says whether the fault confirms a finding on its own;
// DEV_UAF_FREED is latent and does not.
func (k FaultKind) Confirms() bool { return k != "" && k != DevUAFFreed }

// TraceEntry is one atomic step of a run.
type TraceEntry struct {
	Step   int
	Thread string // "host", "callback", "driver", "stream:<name>"
	Text   string
	Label  string    // the source label of the action or operation
	Tag    int       // the caller's tag, 0 when none
	Fault  FaultKind // the first fault raised by this step
}

// ChunkEvent is one event in the history of a chunk of memory.
type ChunkEvent struct {
	Step  int
	Addr  int64
	Size  int64
	Alloc int // alloc_id
	Name  string
	What  string // "alloc", "define", "free", "write", ...
}

// Fault is a fault report: the kind, the step that raised it, the steps up
// to it and the history of the chunk involved.
type Fault struct {
	Kind    FaultKind
	Step    int
	Thread  string
	Text    string
	Label   string
	Tag     int
	Addr    int64
	Size    int64
	Detail  string
	Steps   []TraceEntry
	History []ChunkEvent
}

// String is a one-line summary of the fault.
func (f *Fault) String() string {
	if f == nil {
		return "no fault"
	}
	s := fmt.Sprintf("%s at step %d (%s): %s", f.Kind, f.Step, f.Thread, f.Detail)
	if f.Label != "" {
		s += " [" + f.Label + "]"
	}
	return s
}

type opKind int

const (
	okKernel opKind = iota + 1
	okRecord
	okWait
	okThen
	okHostFunc
	okDefine
	okFree
)

type ref struct {
	alloc  int
	lo, hi int64 // byte range
	name   string
}

type opInst struct {
	kind     opKind
	def      *Op
	name     string
	stream   int
	label    string
	tag      int
	reads    []ref
	writes   []ref
	holds    []int
	waits    []int
	event    int // okRecord, okDefine
	body     int // okThen, okHostFunc; -1 for an internal dealloc
	alloc    int // okDefine, okFree, internal dealloc
	enqVC    []int
	endVC    []int
	started  bool
	ended    bool
	funcDone bool
	readVal  string
}

type allocRec struct {
	obj      int
	name     string
	addr     int64
	size     int64
	chunkGen int
	live     bool
	host     bool
	stream   int
	canary   string
	defined  bool
	pending  bool // caching allocator: freed, waiting for stream events
	defOn    int  // definition stream, -1 host time
	freeOn   int  // stream the free is ordered on, -1 none
	freePos  int  // queue length of freeOn at the free
}

type objState struct {
	created bool
	alive   bool
	rc      int
	gen     int
	alloc   int // owned allocation, -1 none
	target  int // referred object, -1 none
	holds   []int
}

type ptrState struct {
	set      bool
	obj, gen int
}

type eventState struct {
	op   int // recording operation instance, -1 none
	done bool
	vc   []int
}

type pendingCB struct {
	body     int
	captures []int
	vc       []int
}

type futState struct {
	ready   bool
	running int // OnReady callbacks still running; awaiters wake after them
	vc      []int
	cbs     []pendingCB
}

type frameKind int

const (
	fBody frameKind = iota + 1
	fSet
	fDealloc
)

type frame struct {
	id       int
	kind     frameKind
	body     int
	pc       int
	fut      int
	alloc    int
	op       int // host_func operation instance, -1 none
	onReady  int // future+1 whose OnReady callback this is, 0 none
	captures []int
	vc       []int
	started  bool
}

type threadState struct{ frames []frame }

type streamState struct {
	queue []int
	head  int // first operation not ended
}

type run struct {
	lo, hi int64 // granules
	alloc  int
	ver    int
	val    string
}

type access struct {
	alloc    int
	lo, hi   int64
	write    bool
	mutation bool
	tid      int
	epoch    int
	who      string
}

type copyRec struct {
	copy, base int
	lo, hi     int64
	intent     Intent
	snapVer    int
	dirty      bool
}

type trigKind int

const (
	trigNone trigKind = iota
	trigOp
	trigFut
)

type trig struct {
	kind trigKind
	op   int
	fut  int
	tid  int
}

type chunkGen struct {
	addr int64
	n    int
}

const (
	tidHost = 0
	tidCB   = 1
	tidDRV  = 2
	nFixed  = 3
)

// machine is the run-time state of a scenario.
type machine struct {
	sc        *Scenario
	threads   []threadState
	streams   []streamState
	objs      []objState
	ptrs      []ptrState
	events    []eventState
	futs      []futState
	locks     []int
	allocs    []allocRec
	pool      pool
	heap      hostHeap
	shadow    []run
	copies    []copyRec
	log       []access
	vc        [][]int
	ops       []opInst
	gens      []chunkGen
	trig      []trig
	nextFrame int

	trace   []TraceEntry
	history []ChunkEvent
	faults  []Fault
	cur     int // trace index of the step being executed
}

func newMachine(sc *Scenario) *machine {
	m := &machine{sc: sc, pool: newPool(sc.alloc), heap: hostHeap{next: hostBase}}
	m.threads = make([]threadState, nFixed)
	m.threads[tidHost].frames = []frame{{id: 0, kind: fBody, body: 0, op: -1, started: true}}
	m.nextFrame = 1
	m.streams = make([]streamState, len(sc.streams))
	m.objs = make([]objState, len(sc.objs))
	for i := range m.objs {
		m.objs[i].alloc, m.objs[i].target = -1, -1
	}
	m.ptrs = make([]ptrState, len(sc.ptrs))
	m.events = make([]eventState, len(sc.events))
	for i := range m.events {
		m.events[i].op = -1
	}
	m.futs = make([]futState, len(sc.futures))
	m.locks = make([]int, len(sc.locks))
	m.trig = make([]trig, len(sc.bodies))
	n := nFixed + len(sc.streams)
	m.vc = make([][]int, n)
	for i := range m.vc {
		m.vc[i] = make([]int, n)
	}
	return m
}

func (m *machine) clone() *machine {
	c := *m
	c.threads = slices.Clone(m.threads)
	for i := range c.threads {
		c.threads[i].frames = slices.Clone(m.threads[i].frames)
	}
	c.streams = slices.Clone(m.streams)
	for i := range c.streams {
		c.streams[i].queue = slices.Clip(c.streams[i].queue)
	}
	c.objs = slices.Clone(m.objs)
	for i := range c.objs {
		c.objs[i].holds = slices.Clip(c.objs[i].holds)
	}
	c.ptrs = slices.Clone(m.ptrs)
	c.events = slices.Clone(m.events)
	c.futs = slices.Clone(m.futs)
	for i := range c.futs {
		c.futs[i].cbs = slices.Clip(c.futs[i].cbs)
	}
	c.locks = slices.Clone(m.locks)
	c.allocs = slices.Clone(m.allocs)
	c.pool = m.pool.clone()
	c.heap.freed = slices.Clip(m.heap.freed)
	c.shadow = slices.Clone(m.shadow)
	c.copies = slices.Clone(m.copies)
	c.log = slices.Clip(m.log)
	c.vc = make([][]int, len(m.vc))
	for i := range m.vc {
		c.vc[i] = slices.Clone(m.vc[i])
	}
	c.ops = slices.Clone(m.ops)
	c.gens = slices.Clone(m.gens)
	c.trig = slices.Clone(m.trig)
	c.trace = slices.Clip(m.trace)
	c.history = slices.Clip(m.history)
	c.faults = slices.Clip(m.faults)
	return &c
}

// ---- naming ----

func (m *machine) threadName(t int) string {
	switch t {
	case tidHost:
		return "host"
	case tidCB:
		return "callback"
	case tidDRV:
		return "driver"
	}
	return "stream:" + m.sc.streams[t-nFixed]
}

func (m *machine) objName(o int) string {
	if o < 0 || o >= len(m.sc.objs) {
		return "?"
	}
	return m.sc.objs[o].name
}

// ---- vector clocks ----

func (m *machine) tick(t int) { m.vc[t][t]++ }

func (m *machine) join(t int, v []int) {
	for i := range v {
		if v[i] > m.vc[t][i] {
			m.vc[t][i] = v[i]
		}
	}
}

func (m *machine) snap(t int) []int { return slices.Clone(m.vc[t]) }

func joinVC(a, b []int) []int {
	if a == nil {
		return slices.Clone(b)
	}
	c := slices.Clone(a)
	for i := range b {
		if b[i] > c[i] {
			c[i] = b[i]
		}
	}
	return c
}

// ---- trace ----

func (m *machine) emit(t int, text, label string, tag int) {
	m.trace = append(m.trace, TraceEntry{Step: len(m.trace), Thread: m.threadName(t), Text: text, Label: label, Tag: tag})
	m.cur = len(m.trace) - 1
}

// note appends text to the current step.
func (m *machine) note(text string) {
	if len(m.trace) == 0 {
		return
	}
	e := &m.trace[m.cur]
	e.Text += "; " + text
}

func (m *machine) fault(k FaultKind, addr, size int64, detail string) {
	e := &m.trace[m.cur]
	if e.Fault == "" {
		e.Fault = k
	}
	m.faults = append(m.faults, Fault{Kind: k, Step: m.cur, Thread: e.Thread, Text: e.Text,
		Label: e.Label, Tag: e.Tag, Addr: addr, Size: size, Detail: detail})
}

func (m *machine) hist(a int, what string) {
	r := m.allocs[a]
	m.history = append(m.history, ChunkEvent{Step: m.cur, Addr: r.addr, Size: r.size, Alloc: a + 1, Name: r.name, What: what})
}

func canary(id int) string { return fmt.Sprintf("0x%x", 0xC0DE^id) }

// ---- shadow memory ----

func granules(lo, hi int64) (int64, int64) {
	return lo / Granule, (hi + Granule - 1) / Granule
}

// runsIn returns the shadow runs covering [lo, hi) granules, with gaps as
// untagged runs (alloc -1).
func (m *machine) runsIn(lo, hi int64) []run {
	var out []run
	at := lo
	for _, r := range m.shadow {
		if r.hi <= lo || r.lo >= hi {
			continue
		}
		if r.lo > at {
			out = append(out, run{lo: at, hi: r.lo, alloc: -1})
		}
		c := r
		c.lo, c.hi = max(r.lo, lo), min(r.hi, hi)
		out = append(out, c)
		at = c.hi
	}
	if at < hi {
		out = append(out, run{lo: at, hi: hi, alloc: -1})
	}
	return out
}

// setRuns replaces the shadow over [lo, hi) granules with rs (sorted,
// covering the range).
func (m *machine) setRuns(lo, hi int64, rs []run) {
	var out []run
	for _, r := range m.shadow {
		if r.hi <= lo || r.lo >= hi {
			out = append(out, r)
			continue
		}
		if r.lo < lo {
			a := r
			a.hi = lo
			out = append(out, a)
		}
		if r.hi > hi {
			b := r
			b.lo = hi
			out = append(out, b)
		}
	}
	for _, r := range rs {
		if r.alloc >= 0 || r.val != "" {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b run) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	// merge neighbours with equal tags
	var merged []run
	for _, r := range out {
		if n := len(merged); n > 0 {
			p := &merged[n-1]
			if p.hi == r.lo && p.alloc == r.alloc && p.ver == r.ver && p.val == r.val {
				p.hi = r.hi
				continue
			}
		}
		merged = append(merged, r)
	}
	m.shadow = merged
}

func joinVals(rs []run) string {
	var vals []string
	for _, r := range rs {
		v := r.val
		if v == "" {
			v = "uninit"
		}
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	return strings.Join(vals, "|")
}

func maxVer(rs []run) int {
	v := 0
	for _, r := range rs {
		v = max(v, r.ver)
	}
	return v
}

// liveAt is the live allocation overlapping [lo, hi) bytes, -1 if none.
func (m *machine) liveAt(lo, hi int64, except int) int {
	for i, a := range m.allocs {
		if i != except && a.live && a.addr < hi && lo < a.addr+a.size {
			return i
		}
	}
	return -1
}

func (m *machine) copyOf(a int) int {
	for i, c := range m.copies {
		if c.copy == a {
			return i
		}
	}
	return -1
}

type accessKind struct {
	write    bool
	mutation bool
	who      string
	val      string // value written
	readFrom []int  // allocations the writer read (write-back detection)
	stream   int    // the stream of the accessing operation, -1 for a thread
	pos      int    // its position in the stream's queue
}

// access performs one read or write of r by thread t, raising faults, and
// returns the value read.
func (m *machine) access(t int, r ref, k accessKind) string {
	if r.alloc < 0 {
		return ""
	}
	A := m.allocs[r.alloc]
	glo, ghi := granules(r.lo, r.hi)
	rs := m.runsIn(glo, ghi)
	safe := true
	if A.host && !A.live {
		m.fault(HostUAF, r.lo, r.hi-r.lo, fmt.Sprintf("%s touches host buffer %s after it was freed", k.who, A.name))
		safe = false
	} else if !A.host && !A.live {
		for _, x := range rs {
			o := m.liveAt(x.lo*Granule, x.hi*Granule, -1)
			if (x.alloc == r.alloc || x.alloc < 0) && o >= 0 {
				// re-served but not yet defined on the device timeline
				continue
			}
			if (x.alloc == r.alloc || x.alloc < 0) && A.freeOn >= 0 && k.stream == A.freeOn && k.pos < A.freePos {
				// stream order puts this access before the free point
				continue
			}
			if x.alloc != r.alloc && o >= 0 {
				verb := "reads " + valOr(x.val) + " from"
				if k.write {
					verb = "clobbers " + valOr(x.val) + " in"
				}
				m.fault(DevUAFReused, r.lo, r.hi-r.lo, fmt.Sprintf("%s %s chunk 0x%x of freed %s, re-served to %s", k.who, verb, A.addr, A.name, m.allocs[o].name))
			} else {
				m.fault(DevUAFFreed, r.lo, r.hi-r.lo, fmt.Sprintf("%s touches %s after it was freed (chunk 0x%x is free)", k.who, A.name, A.addr))
			}
			safe = false
			break
		}
	}
	if safe {
		m.raceCheck(t, r, k)
	}
	val := joinVals(rs)
	if !k.write {
		if A.live && !A.host {
			// the owner claims granules it reads before its definition
			var nr []run
			for _, x := range rs {
				if x.alloc != r.alloc {
					x.alloc = r.alloc
				}
				nr = append(nr, x)
			}
			m.setRuns(glo, ghi, nr)
		}
		for i, c := range m.copies {
			if c.base == r.alloc && c.lo < r.hi && r.lo < c.hi && c.dirty && c.intent == Alias {
				m.fault(LostWrite, r.lo, r.hi-r.lo, fmt.Sprintf("%s reads %s, but writes into its copy %s were never copied back", k.who, A.name, m.allocs[c.copy].name))
				m.copies[i].dirty = false
			}
		}
		if ci := m.copyOf(r.alloc); ci >= 0 {
			c := m.copies[ci]
			bl, bh := granules(c.lo, c.hi)
			if c.intent == Alias && maxVer(m.runsIn(bl, bh)) > c.snapVer {
				m.fault(StaleRead, r.lo, r.hi-r.lo, fmt.Sprintf("%s reads copy %s after its base %s changed", k.who, A.name, m.allocs[c.base].name))
			}
		}
		return val
	}
	ver := maxVer(rs) + 1
	m.setRuns(glo, ghi, []run{{lo: glo, hi: ghi, alloc: r.alloc, ver: ver, val: k.val}})
	if !A.host {
		m.hist(r.alloc, fmt.Sprintf("%s writes %s", k.who, k.val))
	}
	if ci := m.copyOf(r.alloc); ci >= 0 && m.copies[ci].intent == Alias {
		m.copies[ci].dirty = true
	}
	for i, c := range m.copies {
		if c.base == r.alloc && c.lo < r.hi && r.lo < c.hi && slices.Contains(k.readFrom, c.copy) {
			m.copies[i].dirty = false
		}
	}
	return val
}

func valOr(v string) string {
	if v == "" {
		return "uninit"
	}
	return v
}

func (m *machine) raceCheck(t int, r ref, k accessKind) {
	now := m.vc[t]
	found := false
	for _, e := range m.log {
		if found || e.alloc != r.alloc || e.hi <= r.lo || r.hi <= e.lo || !(e.write || k.write) {
			continue
		}
		if e.epoch <= now[e.tid] {
			continue
		}
		kind := Race
		switch {
		case e.mutation || k.mutation:
			kind = AliasMutation
		case !e.write && k.write:
			kind = StaleRead
		}
		m.fault(kind, r.lo, r.hi-r.lo, fmt.Sprintf("%s %s %s unordered with %s on %s, which %s it",
			k.who, verb(k.write), m.allocs[r.alloc].name, e.who, m.threadName(e.tid), verb(e.write)))
		found = true
	}
	m.log = append(m.log, access{alloc: r.alloc, lo: r.lo, hi: r.hi, write: k.write, mutation: k.mutation,
		tid: t, epoch: now[t], who: k.who})
}

// pruneLog drops accesses that happen before the current point of every
// thread: no later access can be unordered with them.
func (m *machine) pruneLog() {
	keep := m.log[:0:0]
	for _, e := range m.log {
		old := true
		for u := range m.vc {
			if e.epoch > m.vc[u][e.tid] {
				old = false
				break
			}
		}
		if !old {
			keep = append(keep, e)
		}
	}
	if len(keep) != len(m.log) {
		m.log = keep
	}
}

func verb(write bool) string {
	if write {
		return "writes"
	}
	return "reads"
}
