package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// The device: work a call queues on a stream or queue runs behind the
// host, in queue order, until something waits for it. What each call
// queues, on which queue, with which memory, and what it waits for comes
// from the API packs (apimodel's device entries, each citing its
// documentation). While work is pending, the memory it uses must stay
// alive and the host must not touch what it writes (nor write what it
// reads); a path that does either is a fault.

// work is device work queued on one path and not yet waited for.
type work struct {
	queue  string        // the queue or stream, as written ("" the default stream)
	at     parser.NodeID // the call that queued it
	what   string        // the call's name
	reads  []int32       // the memory it reads
	writes []int32       // the memory it writes
	// pinnedOnly: the work uses host memory after the call only when it
	// is page-locked; what a pointer parameter points to is kept for the
	// caller to decide (see Call.Queues), and not checked here.
	pinnedOnly bool
	// thread: the work is a detached thread running a closure (see
	// detach): what it uses is what the closure captured.
	thread bool
	// recorded: the work is in a command buffer no submit has run yet
	// (see DeviceOp.Records): it uses nothing until one does.
	recorded bool
	// continuation: the work is a closure registered to run when a
	// future or stream completes, or kept by an object to run later (see
	// continuations.go); future: it hangs on a future (else on queue, or
	// on the object that keeps it).
	continuation, future bool
	// on is the receiver a continuation was registered on or handed to,
	// as written; handed: it was handed to a method that keeps it.
	on     string
	handed bool
	// captured: the pointer or view the closure captured by value to
	// reach what it reads ("": a local captured by reference).
	captured string
}

// defaultQueues are the spellings of the default stream.
var defaultQueues = map[string]bool{"": true, "0": true, "nullptr": true, "NULL": true,
	"cudaStreamLegacy": true, "cudaStreamPerThread": true, "hipStreamLegacy": true, "hipStreamPerThread": true}

func queueKey(text string) string {
	t := strings.Join(strings.Fields(text), "")
	if defaultQueues[t] {
		return ""
	}
	return t
}

// deviceCall executes a call a pack describes: recv is the receiver of a
// method call (None for a free function). It reports whether the call
// was one.
func (x *exec) deviceCall(s *state, n, recv, list parser.NodeID, name string) (value, bool) {
	api := x.opt.API
	if api == nil {
		return unknown, false
	}
	d, ok := api.Device(name, recv != parser.None)
	if !ok || recv != parser.None && !x.receiverIs(s, recv, d.On) {
		return unknown, false
	}
	var args []parser.NodeID
	for c := range x.f.NamedChildren(list) {
		args = append(args, c)
	}
	vs := x.args(s, list)
	if recv != parser.None {
		x.eval(s, recv)
	}
	arg := func(i *int) (parser.NodeID, bool) {
		switch {
		case i == nil:
			return parser.None, false
		case *i == -1:
			return recv, recv != parser.None
		case *i >= 0 && *i < len(args):
			return args[*i], true
		}
		return parser.None, false
	}
	for _, i := range d.Needs {
		if i >= 0 && i < len(args) && nullConstant(x.text(args[i])) {
			// A call that must fail: nothing is queued, waited or freed.
			return unknown, true
		}
	}
	queue := ""
	if q, ok := arg(d.Queue); ok {
		queue = queueKey(x.text(q))
	}
	switch d.Waits {
	case "all":
		s.pending = nil
	case "queue":
		x.waitQueue(s, queue)
	}
	if d.Submits {
		for i := range s.pending {
			s.pending[i].recorded = false
		}
	}
	status := int32(0)
	if d.Frees != nil && *d.Frees < len(vs) {
		x.free(s, vs[*d.Frees], n, name)
		if v := vs[*d.Frees]; v.pt >= 0 && int(v.pt) < len(s.objs) && s.objs[v.pt].state == freed {
			status = v.pt + 1
		}
	}
	if status > 0 {
		// The call returns a status: when it reports a failure, nothing
		// was freed (see failedCall).
		out := unknown
		out.status = status
		return out, true
	}
	if a, ok := arg(d.Allocates); ok {
		x.allocInto(s, a, d.Pinned)
	}
	if len(d.Reads)+len(d.Writes) == 0 {
		return unknown, true
	}
	if b, ok := arg(d.Blocking); d.Blocking != nil && (!ok || !falseText(x.text(b))) {
		// A blocking transfer (or one whose flag is not known false) has
		// finished when it returns, and so has the work queued before it.
		x.waitQueue(s, queue)
		return unknown, true
	}
	w := work{queue: queue, at: n, what: name, recorded: d.Records}
	pick := func(idx []int) []int32 {
		var out []int32
		for _, i := range idx {
			if i < 0 || i >= len(vs) {
				continue
			}
			obj := vs[i].pt
			if vs[i].kind == tStorage {
				obj = vs[i].owns
			}
			if obj < 0 || int(obj) >= len(s.objs) {
				continue
			}
			o := s.objs[obj]
			if o.device || d.Host == "pinned" && !o.pinned && o.kind != oParam {
				continue
			}
			if o.class != "" && api.IsView(o.class) {
				// A handle to device memory (DeviceMemoryBase): the
				// work uses the memory it names, not the handle.
				continue
			}
			out = append(out, obj)
		}
		return out
	}
	w.reads, w.writes = pick(d.Reads), pick(d.Writes)
	w.pinnedOnly = d.Host == "pinned"
	if len(w.reads)+len(w.writes) > 0 {
		s.pending = append(s.pending, w)
		// The call returns a status: when it reports a failure, nothing
		// was queued (see failedCall).
		out := unknown
		out.queued = n + 1
		return out, true
	}
	return unknown, true
}

// nullConstant says an argument is written as a null pointer constant.
func nullConstant(t string) bool {
	switch strings.TrimSpace(t) {
	case "nullptr", "NULL", "0", "(void*)0", "((void*)0)":
		return true
	}
	return false
}

// falseText says a flag argument is written false.
func falseText(t string) bool {
	switch strings.TrimSpace(t) {
	case "CL_FALSE", "false", "0", "CL_NON_BLOCKING":
		return true
	}
	return false
}

// receiverIs says the receiver of a method call is declared as one of
// types (by last name, template arguments left out); "*" accepts any.
func (x *exec) receiverIs(s *state, recv parser.NodeID, types []string) bool {
	if slices.Contains(types, "*") {
		return true
	}
	for x.kind(recv) == parser.KindParenthesizedExpression || x.kind(recv) == parser.KindPointerExpression {
		recv = x.lastNamedChild(recv)
	}
	if x.kind(recv) != parser.KindIdentifier {
		return false
	}
	i := s.lookup(x.text(recv))
	if i < 0 {
		return false
	}
	if slices.Contains(types, s.locals[i].tname) {
		return true
	}
	// A smart pointer to one: the class of the object it owns.
	if o := s.locals[i].val.owns; o >= 0 && int(o) < len(s.objs) && s.objs[o].class != "" {
		return slices.Contains(types, s.objs[o].class)
	}
	return false
}

// waitQueue completes the work queued on queue; "" is the default stream,
// which (as the legacy default stream does) waits for every stream.
func (x *exec) waitQueue(s *state, queue string) {
	if queue == "" {
		s.pending = nil
		return
	}
	s.pending = slices.DeleteFunc(s.pending, func(w work) bool { return w.queue == queue })
}

// allocInto makes the object a call allocates into its out-parameter
// (&p, or (void**)&p).
func (x *exec) allocInto(s *state, a parser.NodeID, pinned bool) {
	a = x.uncast(a)
	if x.kind(a) != parser.KindPointerExpression || !strings.HasPrefix(x.text(a), "&") {
		return
	}
	id := x.f.Field(a, parser.FieldArgument)
	if x.kind(id) != parser.KindIdentifier {
		return
	}
	i := s.lookup(x.text(id))
	if i < 0 || s.locals[i].ref {
		return
	}
	obj := s.newObj(object{kind: oHeap, owner: x.text(id), pinned: pinned})
	s.locals[i].val = borrowOf(obj, tPointer)
}

// mayWait drops the work an unknown call may wait for: the work of a
// queue it is handed (by name), or the work using memory it is handed.
func (x *exec) mayWait(s *state, texts []string, vs []value) {
	if len(s.pending) == 0 {
		return
	}
	var closures []parser.NodeID // the closures waited for: all their work goes
	s.pending = slices.DeleteFunc(s.pending, func(w work) (waited bool) {
		defer func() {
			if waited && (w.continuation || w.thread) {
				closures = append(closures, w.at)
			}
		}()
		for _, t := range texts {
			if w.queue != "" && queueKey(t) == w.queue {
				return true
			}
		}
		for _, v := range vs {
			if v.from >= 0 && int(v.from) < len(s.locals) && slices.Contains(w.reads, s.locals[v.from].slot) {
				// A local the work uses, handed on or called a method
				// of (a latch's wait, a future's get).
				return true
			}
			for _, obj := range [2]int32{v.pt, v.owns} {
				if obj >= 0 && (slices.Contains(w.reads, obj) || slices.Contains(w.writes, obj)) {
					return true
				}
			}
		}
		return false
	})
	ran(s, closures)
}

// mayWaitObject drops the work queued on a queue the function does not
// own — a data member of the object, a global — when another method of
// the object runs: it may wait for it (a Sync() that synchronises the
// object's stream), as code holdfast cannot see is taken to.
func (x *exec) mayWaitObject(s *state) {
	if len(s.pending) == 0 {
		return
	}
	s.pending = slices.DeleteFunc(s.pending, func(w work) bool {
		return w.queue != "" && !x.frameQueue(s, w.queue)
	})
}

// frameQueue says queue key q names a local or parameter of the function
// (its first name: q, q.s, q->s), not a member or a global.
func (x *exec) frameQueue(s *state, q string) bool {
	if strings.HasPrefix(q, "this->") {
		return false
	}
	name := q
	if i := strings.IndexAny(name, ".-[("); i >= 0 {
		name = name[:i]
	}
	i := s.lookup(name)
	return i >= 0 && !s.locals[i].member
}

// settle reports pending work whose memory ended (freed, out of scope,
// replaced) before anything waited for it; the work is dropped.
func (x *exec) settle(s *state) {
	if len(s.pending) == 0 {
		return
	}
	s.pending = slices.DeleteFunc(s.pending, func(w work) bool {
		for _, obj := range slices.Concat(w.reads, w.writes) {
			o := s.objs[obj]
			if o.state == live || w.pinnedOnly && !o.pinned || w.recorded {
				continue
			}
			k := DeviceUseAfterFree
			switch {
			case w.thread:
				k = ThreadOutlives
			case w.continuation:
				k = CallbackOutlives
			}
			x.fault(Fault{Kind: k, Use: w.at, End: o.end, Via: o.via, Value: w.what, Owner: o.owner, Keeper: w.on, Handed: w.handed, Captured: w.captured})
			return true
		}
		return false
	})
}

// hostAccess checks the host reading (or writing) obj at n while queued
// work writes it (or reads or writes it).
func (x *exec) hostAccess(s *state, obj int32, n parser.NodeID, write bool) {
	if obj < 0 || len(s.pending) == 0 {
		return
	}
	s.pending = slices.DeleteFunc(s.pending, func(w work) bool {
		if w.thread || w.continuation || w.recorded {
			// Host threads share memory under the program's own
			// synchronisation, which is not followed here; recorded work
			// does not run yet.
			return false
		}
		if !slices.Contains(w.writes, obj) && !(write && slices.Contains(w.reads, obj)) {
			return false
		}
		if w.pinnedOnly && !s.objs[obj].pinned {
			return false
		}
		fl := Fault{Kind: HostReadsPending, Use: n, End: w.at, Via: w.what, Value: x.text(n), Owner: s.objs[obj].owner}
		if write {
			fl.Kind = HostWritesPending
		}
		x.fault(fl)
		return true
	})
}

// queued is what the work still pending at a return does to the
// function's parameters: the pointer parameters whose memory it reads or
// writes, and the parameter naming its queue.
func (x *exec) queued(s *state) []Queued {
	var out []Queued
	for _, w := range s.pending {
		if w.recorded || w.continuation {
			// Recorded, not run: the caller's submit decides when. A
			// continuation is the host's, not device work on the caller's
			// memory.
			continue
		}
		q := Queued{Queue: -1, What: w.what, PinnedOnly: w.pinnedOnly}
		if w.queue != "" {
			q.Queue = slices.Index(x.paramNames, w.queue)
			if q.Queue < 0 {
				// A queue the callee names itself (a member, a global):
				// the caller cannot tell when it is waited for.
				continue
			}
		}
		for k := range x.params {
			obj := x.params[k]
			if obj < 0 && k < len(x.stores) {
				obj = x.stores[k]
			}
			if obj < 0 {
				continue
			}
			if slices.Contains(w.reads, obj) {
				q.Reads = append(q.Reads, k)
			}
			if slices.Contains(w.writes, obj) {
				q.Writes = append(q.Writes, k)
			}
		}
		if len(q.Reads)+len(q.Writes) > 0 {
			out = append(out, q)
		}
	}
	return out
}

// enqueue queues at call n the work a callee's summary says it leaves
// pending on its arguments.
func (x *exec) enqueue(s *state, n, list parser.NodeID, name string, qs []Queued, vs []value) {
	var texts []string
	for c := range x.f.NamedChildren(list) {
		texts = append(texts, x.text(c))
	}
	for _, q := range qs {
		w := work{at: n, what: name, pinnedOnly: q.PinnedOnly}
		if q.Queue >= 0 {
			if q.Queue >= len(texts) {
				continue
			}
			w.queue = queueKey(texts[q.Queue])
		}
		pick := func(ks []int) []int32 {
			var out []int32
			for _, k := range ks {
				if k >= len(vs) {
					continue
				}
				obj := pointee(vs[k])
				if vs[k].kind == tStorage {
					obj = vs[k].owns
				}
				if obj < 0 || int(obj) >= len(s.objs) || s.objs[obj].device || q.PinnedOnly && !s.objs[obj].pinned && s.objs[obj].kind != oParam {
					continue
				}
				out = append(out, obj)
			}
			return out
		}
		w.reads, w.writes = pick(q.Reads), pick(q.Writes)
		if len(w.reads)+len(w.writes) > 0 {
			s.pending = append(s.pending, w)
		}
	}
}
