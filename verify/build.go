package verify

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/device"
	"github.com/holdfast-dev/holdfast/diag"
)

// scen is a scenario built from a witness.
type scen struct {
	s        *device.Scenario
	fix      string // the fix applied, for the reason
	cleanWhy string // what in the witness keeps the run clean, if anything
}

type buildFunc func(w []diag.Step, opt Options, fixed bool) (*scen, error)

func builderFor(class string) (buildFunc, bool) {
	switch class {
	case "A":
		return buildA, true
	case "B":
		return buildB, true
	case "C":
		return buildC, true
	case "D":
		return buildD, true
	case "E":
		return buildE, true
	case "F":
		return buildF, true
	case "G":
		return buildG, true
	case "H":
		return buildH, true
	}
	return nil, false
}

// bld holds what every builder needs: the scenario, the witness, and the
// names the witness gave to objects (looked up, never iterated).
type bld struct {
	w     []diag.Step
	opt   Options
	fixed bool
	s     *device.Scenario
	out   *scen
	objs  map[string]device.Obj
	n     int64
}

func newBld(w []diag.Step, opt Options, fixed bool, def device.Allocator, fix string) (*bld, error) {
	a, ok := allocator(opt.Allocator, def)
	if !ok {
		return nil, fmt.Errorf("unknown allocator %q", opt.Allocator)
	}
	s := device.NewScenario(a)
	return &bld{w: w, opt: opt, fixed: fixed, s: s, out: &scen{s: s, fix: fix},
		objs: map[string]device.Obj{}, n: opt.BufferSize}, nil
}

// at labels an action with witness step i.
func (b *bld) at(i int) []device.Opt {
	return []device.Opt{device.At(label(b.w[i])), device.Tag(i + 1)}
}

func (b *bld) op(op *device.Op, i int) *device.Op {
	return op.At(label(b.w[i])).Tag(i + 1)
}

func label(st diag.Step) string {
	if st.At.Start.File == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", st.At.Start.File, st.At.Start.Line)
}

func orName(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

func shapeErr(class string, i int, st diag.Step) error {
	return fmt.Errorf("the class %s replay does not model a %s step here (step %d)", class, st.Kind, i+1)
}

func missing(class, what string) error {
	return fmt.Errorf("the class %s witness has no %s step to replay", class, what)
}

// owner allocates a device buffer owned by a fresh owner named name.
func (b *bld) owner(name string, i int, opts ...device.Opt) device.Obj {
	o := b.s.Alloc(name, b.n, append(opts, b.at(i)...)...)
	b.objs[name] = o
	return o
}

// foreign is the model's adversarial next allocation: same size, so a
// best-fit allocator re-serves a freed chunk, and written at once.
func (b *bld) foreign(st device.Stream, opts ...device.Opt) {
	x := b.s.Alloc("next allocation", b.n, opts...)
	b.s.Enqueue(st, device.Kernel("next op").Writes(x).Fill("Q"))
}

func lower(st diag.Step) string { return strings.ToLower(st.Via + " " + st.Message) }

// toDevice says whether an async step writes device memory (H2D) rather
// than reading it (D2H); def when the step does not say.
func toDevice(st diag.Step, def bool) bool {
	s := lower(st)
	for _, k := range []string{"h2d", "htod", "host_to_device", "hosttodevice", "todevice", "upload"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	for _, k := range []string{"d2h", "dtoh", "device_to_host", "tohost", "toliteral", "download"} {
		if strings.Contains(s, k) {
			return false
		}
	}
	switch {
	case strings.Contains(s, "write"):
		return true
	case strings.Contains(s, "read"):
		return false
	}
	return def
}

// dma enqueues a raw, untracked transfer between buf and a host buffer that
// sets fut when it ends.
func (b *bld) dma(st device.Stream, buf device.Obj, fut device.Future, i int, h2d bool) {
	host := b.s.HostAlloc(b.s.Name(buf)+" host copy", b.n, b.at(i)...)
	op := device.Kernel(orName(b.w[i].Via, "dma")).Sets(fut)
	if h2d {
		b.s.Write(host, "host data", b.at(i)...)
		op.Reads(host).Writes(buf)
	} else {
		op.Reads(buf).Writes(host)
	}
	b.s.Enqueue(st, b.op(op, i), b.at(i)...)
}

// ---- A: async work outlives its buffer ----

func buildA(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	async, callback := false, false
	for _, st := range w {
		async = async || st.Kind == diag.StepAsync
		callback = callback || st.Kind == diag.StepCallback
	}
	if !async && callback {
		// A closure that runs later holding a pointer into a local owner
		// (HF-A006): the callback's replay, where the owner dies before
		// the callback reads through the pointer.
		return buildG(w, opt, fixed)
	}
	b, err := newBld(w, opt, fixed, device.BFC(), "the continuation keeps the owner until the future is ready")
	if err != nil {
		return nil, err
	}
	s := b.s
	compute := s.Stream("compute")
	transfer := s.Stream("transfer")
	var fut device.Future
	haveFut, dead := false, false
	ownerName := ""
	for i, st := range w {
		switch st.Kind {
		case diag.StepDeclare:
			ownerName = orName(st.Value, "owner")
			b.owner(ownerName, i, device.DefineNow(), device.FreeImmediately())
		case diag.StepAsync:
			if ownerName == "" {
				ownerName = orName(st.Value, "owner")
				b.owner(ownerName, i, device.DefineNow(), device.FreeImmediately())
			}
			buf, ok := b.objs[orName(st.Value, ownerName)]
			if !ok || haveFut {
				return nil, shapeErr("A", i, st)
			}
			fut = s.Future(orName(st.Other, "future"))
			haveFut = true
			b.dma(transfer, buf, fut, i, toDevice(st, false))
			if fixed {
				s.OnReady(fut, []device.Obj{buf}, func(cb *device.Body) { cb.Note("the continuation releases " + ownerName) }, b.at(i)...)
			}
		case diag.StepCallback:
			if !haveFut {
				return nil, shapeErr("A", i, st)
			}
			var caps []device.Obj
			if o, ok := b.objs[st.Other]; ok && st.Other != "" && !dead {
				caps = []device.Obj{o}
				b.out.cleanWhy = "the continuation captures " + st.Other
			}
			s.OnReady(fut, caps, func(cb *device.Body) { cb.Note("continuation runs") }, b.at(i)...)
		case diag.StepWait:
			if !haveFut {
				return nil, shapeErr("A", i, st)
			}
			s.Await(fut, b.at(i)...)
			if !dead {
				b.out.cleanWhy = "the future is awaited before the owner dies"
			}
		case diag.StepOwnerDies:
			o, ok := b.objs[orName(st.Value, ownerName)]
			if !ok {
				return nil, shapeErr("A", i, st)
			}
			s.Drop(o, b.at(i)...)
			dead = true
			b.foreign(compute, device.DefineNow())
		case diag.StepEscape, diag.StepUse, diag.StepBlock:
			s.Note(fmt.Sprintf("%s %s (%s)", st.Kind, orName(st.Value, "value"), orName(st.Via, "")), b.at(i)...)
		default:
			return nil, shapeErr("A", i, st)
		}
	}
	if !haveFut {
		return nil, missing("A", "async")
	}
	if !dead {
		return nil, missing("A", "owner-dies")
	}
	s.Await(fut) // the caller of the escaped future waits for it
	return b.out, nil
}

// ---- B: a raw pointer outlives its owner ----

func buildB(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	b, err := newBld(w, opt, fixed, device.BFC(), "a reference copy of the owner is held until the use returns")
	if err != nil {
		return nil, err
	}
	s := b.s
	compute := s.Stream("compute")
	send := s.Stream("send")
	ptrs := map[string]device.Ptr{}
	var ptrOrder []string
	inContainer := map[string][]string{}
	holds := map[string]device.Obj{}
	var held []device.Obj
	dead, used, consumed := false, false, false
	nsend := 0
	use := func(i int, names []string) {
		for _, pn := range names {
			p := ptrs[pn]
			s.Deref(p, b.at(i)...)
			f := s.Future(fmt.Sprintf("send%d", nsend))
			nsend++
			s.Enqueue(send, b.op(device.Kernel(orName(b.w[i].Via, "use")).ReadsPtr(p).Sets(f), i), b.at(i)...)
			s.Await(f, b.at(i)...)
		}
		if fixed {
			for _, o := range held {
				s.Drop(o, b.at(i)...)
			}
			held = nil
		}
	}
	for i, st := range w {
		switch st.Kind {
		case diag.StepDeclare:
			b.owner(orName(st.Value, "owner"), i, device.DefineNow(), device.FreeImmediately())
		case diag.StepBorrow:
			on := orName(st.Other, "owner")
			o, ok := b.objs[on]
			if !ok {
				o = b.owner(on, i, device.DefineNow(), device.FreeImmediately())
			}
			pn := orName(st.Value, "ptr")
			ptrs[pn] = s.Borrow(pn, o, b.at(i)...)
			ptrOrder = append(ptrOrder, pn)
			if fixed {
				s.Retain(o, b.at(i)...)
				held = append(held, o)
			}
		case diag.StepStore:
			cn := orName(st.Other, "container")
			if _, ok := ptrs[st.Value]; ok {
				inContainer[cn] = append(inContainer[cn], st.Value)
				s.Note(fmt.Sprintf("store %s into %s (a raw pointer: no reference)", st.Value, cn), b.at(i)...)
				continue
			}
			o, ok := b.objs[st.Value]
			if !ok {
				return nil, shapeErr("B", i, st)
			}
			h, ok := holds[cn]
			if !ok {
				h = s.Hold(cn, b.at(i)...)
				holds[cn] = h
			}
			s.Store(h, o, b.at(i)...)
			if !dead {
				b.out.cleanWhy = fmt.Sprintf("%s is kept in %s", st.Value, cn)
			}
		case diag.StepWait:
			if !dead && len(ptrOrder) > 0 {
				// the host waits until the pointer's consumer is done
				use(i, ptrOrder)
				consumed = true
				b.out.cleanWhy = "the host waits for the pointer's consumer before the owner dies"
				continue
			}
			s.Note("wait ("+orName(st.Via, "wait")+")", b.at(i)...)
		case diag.StepOwnerDies:
			o, ok := b.objs[orName(st.Value, "owner")]
			if !ok {
				return nil, shapeErr("B", i, st)
			}
			s.Drop(o, b.at(i)...)
			dead = true
			b.foreign(compute, device.DefineNow())
		case diag.StepBlock:
			s.Note("host blocks on "+orName(st.Via, "a rendezvous"), b.at(i)...)
		case diag.StepUse:
			var names []string
			if _, ok := ptrs[st.Value]; ok {
				names = []string{st.Value}
			} else if c, ok := inContainer[st.Value]; ok {
				names = c
			} else {
				return nil, shapeErr("B", i, st)
			}
			used = true
			if consumed {
				s.Note("the consumer already finished at the wait", b.at(i)...)
				continue
			}
			use(i, names)
		case diag.StepEscape:
			s.Note("escape "+orName(st.Value, "value"), b.at(i)...)
		default:
			return nil, shapeErr("B", i, st)
		}
	}
	if len(ptrOrder) == 0 {
		return nil, missing("B", "borrow")
	}
	if !used {
		return nil, missing("B", "use")
	}
	return b.out, nil
}

// ---- C: hold container moved but never filled ----

func buildC(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	b, err := newBld(w, opt, fixed, device.BFC(), "the hold container keeps the owner until the wait")
	if err != nil {
		return nil, err
	}
	s := b.s
	compute := s.Stream("compute")
	transfer := s.Stream("transfer")
	var hold device.Obj
	haveHold, haveFut, dead, waited, moved := false, false, false, false, false
	var fut device.Future
	ownerName := ""
	for i, st := range w {
		switch st.Kind {
		case diag.StepDeclHold:
			hold = s.Hold(orName(st.Value, "holds"), b.at(i)...)
			haveHold = true
		case diag.StepDeclare:
			ownerName = orName(st.Value, "owner")
			b.owner(ownerName, i, device.DefineNow(), device.FreeImmediately())
		case diag.StepAsync:
			if ownerName == "" {
				ownerName = orName(st.Value, "owner")
				b.owner(ownerName, i, device.DefineNow(), device.FreeImmediately())
			}
			buf, ok := b.objs[orName(st.Value, ownerName)]
			if !ok || haveFut || !haveHold {
				return nil, shapeErr("C", i, st)
			}
			fut = s.Future(orName(st.Other, "transfer"))
			haveFut = true
			b.dma(transfer, buf, fut, i, toDevice(st, true))
			if fixed {
				s.Store(hold, buf, b.at(i)...)
			}
		case diag.StepStore:
			o, ok := b.objs[st.Value]
			if !ok || !haveHold {
				return nil, shapeErr("C", i, st)
			}
			s.Store(hold, o, b.at(i)...)
			if !dead {
				b.out.cleanWhy = "the hold container is filled with " + st.Value
			}
		case diag.StepOwnerDies:
			o, ok := b.objs[orName(st.Value, ownerName)]
			if !ok {
				return nil, shapeErr("C", i, st)
			}
			s.Drop(o, b.at(i)...)
			dead = true
			b.foreign(compute, device.DefineNow())
		case diag.StepMove:
			if !haveHold || !haveFut || moved {
				return nil, shapeErr("C", i, st)
			}
			// the consumer keeps the container until its future is ready
			s.OnReady(fut, []device.Obj{hold}, func(cb *device.Body) {
				cb.Note(orName(st.Other, "the consumer") + " releases the container")
			}, b.at(i)...)
			s.Drop(hold, b.at(i)...)
			moved = true
		case diag.StepWait:
			if !haveFut {
				return nil, shapeErr("C", i, st)
			}
			s.Await(fut, b.at(i)...)
			waited = true
			if !dead {
				b.out.cleanWhy = "the transfer is awaited before the owner dies"
			}
		case diag.StepEscape, diag.StepUse, diag.StepBlock:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("C", i, st)
		}
	}
	if !haveHold {
		return nil, missing("C", "hold")
	}
	if !haveFut {
		return nil, missing("C", "async")
	}
	if !waited {
		s.Await(fut)
	}
	return b.out, nil
}

// ---- D: no-op contiguous ----

func contiguousReceiver(st diag.Step) bool {
	m := strings.ToLower(st.Message)
	for _, k := range []string{"not contiguous", "non-contiguous", "noncontiguous", "not provably contiguous"} {
		if strings.Contains(m, k) {
			return false
		}
	}
	return strings.Contains(m, "contiguous")
}

func buildD(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	b, err := newBld(w, opt, fixed, device.BFC(), "the result is a real copy (clone)")
	if err != nil {
		return nil, err
	}
	s := b.s
	mut := s.Stream("compute")
	consumer := s.Stream("consumer")
	var result, recv device.Obj
	haveMat, haveAsync, haveMut := false, false, false
	recvName, resName := "", ""
	for i, st := range w {
		switch st.Kind {
		case diag.StepMaterial:
			if haveMat {
				return nil, shapeErr("D", i, st)
			}
			recvName, resName = orName(st.Other, "receiver"), orName(st.Value, "result")
			recv = b.owner(recvName, i, device.DefineNow())
			s.Write(recv, "x", b.at(i)...)
			contig := contiguousReceiver(st)
			if !contig {
				b.out.cleanWhy = "the receiver is not known to be contiguous, so contiguous() copies"
			}
			result = s.Contiguous(resName, recv, contig && !fixed, b.at(i)...)
			b.objs[resName] = result
			haveMat = true
		case diag.StepAsync:
			if !haveMat || orName(st.Value, resName) != resName {
				return nil, shapeErr("D", i, st)
			}
			out := s.Alloc(resName+" consumer output", b.n, device.DefineNow())
			s.Enqueue(consumer, b.op(device.Kernel(orName(st.Via, "consumer")).Reads(result).Writes(out), i), b.at(i)...)
			haveAsync = true
		case diag.StepMutate:
			if !haveMat || orName(st.Value, recvName) != recvName {
				return nil, shapeErr("D", i, st)
			}
			s.Enqueue(mut, b.op(device.Kernel(orName(st.Via, "mutate")).Reads(recv).Writes(recv).Fill("x mutated").Mutation(), i), b.at(i)...)
			haveMut = true
		case diag.StepWait:
			s.Await(consumer, b.at(i)...)
			if haveAsync && !haveMut {
				b.out.cleanWhy = "the consumer is awaited before the mutation"
			}
		case diag.StepDeclare, diag.StepEscape, diag.StepUse, diag.StepBlock:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("D", i, st)
		}
	}
	if !haveMat {
		return nil, missing("D", "materialise")
	}
	if !haveAsync || !haveMut {
		return nil, fmt.Errorf("a no-op contiguous() is a value fault that confirms only with copy intent: the witness shows no async consumer and later mutation")
	}
	s.Await(mut)
	s.Await(consumer)
	return b.out, nil
}

// ---- E: device memory freed before the stream is done ----

func rawFree(via string) bool {
	v := strings.ToLower(via)
	for _, k := range []string{"free", "dealloc", "release", "delete"} {
		if strings.Contains(v, k) {
			return true
		}
	}
	return false
}

func buildE(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	caching := opt.Allocator == "caching"
	seenAsync := false
	for i, st := range w {
		if st.Kind == diag.StepFree && !seenAsync {
			return nil, shapeErr("E", i, st)
		}
		if st.Kind == diag.StepAsync {
			seenAsync = true
		}
		if st.Kind == diag.StepFree && !rawFree(st.Via) && opt.Allocator == "" {
			caching = true
		}
	}
	if caching {
		return buildECaching(w, opt, fixed)
	}
	b, err := newBld(w, opt, fixed, device.BFC(), "the free is deferred with then_callback on the stream")
	if err != nil {
		return nil, err
	}
	s := b.s
	streams := map[string]device.Stream{}
	var main device.Stream
	haveMain := false
	stream := func(name string) device.Stream {
		name = orName(name, "compute")
		if st, ok := streams[name]; ok {
			return st
		}
		st := s.Stream(name)
		streams[name] = st
		if !haveMain {
			main, haveMain = st, true
		}
		return st
	}
	for _, st := range w {
		if st.Kind == diag.StepAsync {
			stream(st.Other)
			break
		}
	}
	if !haveMain {
		return nil, missing("E", "async")
	}
	side := s.Stream("autotuner")
	var outs []device.Obj
	freed, haveFree := false, false
	policy := device.FreeImmediately()
	if fixed {
		policy = device.Free(device.FreeAfterStream, main)
	}
	for i, st := range w {
		switch st.Kind {
		case diag.StepDeclare:
			b.owner(orName(st.Value, "memory"), i, policy)
		case diag.StepAsync:
			mem, ok := b.objs[orName(st.Value, "memory")]
			if !ok {
				mem = b.owner(orName(st.Value, "memory"), i, policy)
			}
			if freed {
				return nil, shapeErr("E", i, st)
			}
			out := s.Alloc(b.s.Name(mem)+" result", b.n)
			outs = append(outs, out)
			s.Enqueue(stream(st.Other), b.op(device.Kernel(orName(st.Via, "kernel")).Reads(mem).Writes(out), i), b.at(i)...)
		case diag.StepFree:
			mem, ok := b.objs[orName(st.Value, "memory")]
			if !ok {
				return nil, shapeErr("E", i, st)
			}
			s.Drop(mem, b.at(i)...)
			freed, haveFree = true, true
			// the autotuner's scratch takes the next chunk and zeroes it on
			// its own stream, without waiting for the definition event
			scratch := s.Alloc("autotuner scratch", b.n)
			s.Enqueue(side, device.Memset(scratch, "0"))
		case diag.StepWait:
			s.Await(main, b.at(i)...)
			if !freed {
				b.out.cleanWhy = "the host waits for the stream before the free"
			}
		case diag.StepEscape, diag.StepUse, diag.StepBlock:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("E", i, st)
		}
	}
	if !haveFree {
		return nil, missing("E", "free")
	}
	s.Await(main)
	for _, o := range outs {
		s.Read(o)
	}
	return b.out, nil
}

// buildECaching is class E's cross-stream release (docs/device-model.md
// §8): a tensor used on a side stream and dropped without record_stream
// under the caching allocator.
func buildECaching(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	b, err := newBld(w, opt, fixed, device.Caching(), "record_stream on the side stream before the drop")
	if err != nil {
		return nil, err
	}
	s := b.s
	home := s.Stream("default")
	var side device.Stream
	haveSide := false
	var outs []device.Obj
	haveFree := false
	for i, st := range w {
		switch st.Kind {
		case diag.StepDeclare:
			b.owner(orName(st.Value, "tensor"), i, device.On(home))
		case diag.StepAsync:
			name := orName(st.Value, "tensor")
			t, ok := b.objs[name]
			if !ok {
				t = b.owner(name, i, device.On(home))
			}
			use := home
			if st.Other != "" && st.Other != "default" {
				if !haveSide {
					side, haveSide = s.Stream(st.Other), true
				}
				use = side
			}
			s.Enqueue(home, device.Kernel("producer").Writes(t).Fill("T"))
			if use != home {
				s.WaitEvent(use, s.Record(home))
			}
			out := s.Alloc(name+" result", b.n, device.On(use))
			outs = append(outs, out)
			s.Enqueue(use, b.op(device.Kernel(orName(st.Via, "kernel")).Reads(t).Writes(out), i), b.at(i)...)
			if fixed && use != home {
				s.RecordStream(t, use, b.at(i)...)
			}
		case diag.StepFree:
			t, ok := b.objs[orName(st.Value, "tensor")]
			if !ok {
				return nil, shapeErr("E", i, st)
			}
			s.Drop(t, b.at(i)...)
			haveFree = true
			u := s.Alloc("next allocation", b.n, device.On(home))
			s.Enqueue(home, device.Memset(u, "0"))
		case diag.StepWait:
			if haveSide {
				s.Await(side, b.at(i)...)
			}
			s.Await(home, b.at(i)...)
			if !haveFree {
				b.out.cleanWhy = "the host waits for the streams before the free"
			}
		case diag.StepEscape, diag.StepUse, diag.StepBlock:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("E", i, st)
		}
	}
	if !haveFree {
		return nil, missing("E", "free")
	}
	if haveSide {
		s.Await(side)
	}
	s.Await(home)
	for _, o := range outs {
		s.Read(o)
	}
	return b.out, nil
}

// ---- F: writes lost in a temporary copy ----

func buildF(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	b, err := newBld(w, opt, fixed, device.MetalPool(), "the copy is written back into the original")
	if err != nil {
		return nil, err
	}
	s := b.s
	q := s.Stream("queue")
	copies := map[string]device.Obj{} // copy name -> copy
	views := map[string]device.Obj{}  // copy name -> view of the original
	origOf := map[string]string{}     // copy name -> original name
	var bases []device.Obj
	writeBack := func(cn string, i int) {
		s.Enqueue(q, b.op(device.CopyOp(views[cn], copies[cn]), i), b.at(i)...)
	}
	for i, st := range w {
		switch st.Kind {
		case diag.StepMaterial:
			cn, on := orName(st.Value, "copy"), orName(st.Other, "original")
			base, ok := b.objs[on]
			if !ok {
				base = s.Alloc(on, 2*b.n, append([]device.Opt{device.DefineNow()}, b.at(i)...)...)
				b.objs[on] = base
				bases = append(bases, base)
				s.Write(base, "original", b.at(i)...)
			}
			v := s.View(on+" view", base, 0, b.n, b.at(i)...)
			copies[cn], views[cn], origOf[cn] = s.Materialise(cn, v, device.Alias, b.at(i)...), v, on
		case diag.StepWrite, diag.StepStore:
			if c, ok := copies[st.Value]; ok {
				s.Enqueue(q, b.op(device.Kernel(orName(st.Via, "kernel")).Writes(c).Fill("result"), i), b.at(i)...)
				if fixed {
					writeBack(st.Value, i)
				}
				continue
			}
			// a write-back: the original receives the copy
			if on, ok := origOf[st.Other]; ok && on == st.Value {
				writeBack(st.Other, i)
				b.out.cleanWhy = "the copy is written back into " + st.Value
				continue
			}
			return nil, shapeErr("F", i, st)
		case diag.StepWait:
			s.Await(q, b.at(i)...)
		case diag.StepDeclare, diag.StepEscape, diag.StepUse, diag.StepBlock, diag.StepAsync:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("F", i, st)
		}
	}
	if len(copies) == 0 {
		return nil, missing("F", "materialise")
	}
	s.Await(q)
	for _, base := range bases {
		s.Read(base) // the caller reads the original
	}
	return b.out, nil
}

// ---- G: callbacks and work objects ----

func workWithoutFuture(st diag.Step) bool {
	v := strings.ToLower(st.Via)
	return strings.Contains(v, "without-future") || strings.Contains(v, "without future")
}

// releasedOnCallbackThread says whether a free step is the release of a
// callback's capture on the runtime thread that runs the callback (G2).
func releasedOnCallbackThread(st diag.Step) bool {
	v := strings.ToLower(st.Via)
	return st.Kind == diag.StepFree && (strings.Contains(v, "callback thread") || strings.Contains(v, "callback-thread"))
}

func buildG(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	callback := false
	for _, st := range w {
		if workWithoutFuture(st) {
			return buildG3(w, opt, fixed)
		}
		if releasedOnCallbackThread(st) {
			return buildG2(w, opt, fixed)
		}
		callback = callback || st.Kind == diag.StepCallback
	}
	if !callback {
		// A completion handed over with its data (HF-G004): its witness
		// is the host's side, where the completion's free is an owner
		// death before the host's use; it replays as class B does.
		return buildB(w, opt, fixed)
	}
	b, err := newBld(w, opt, fixed, device.BFC(), "the callback holds a strong reference")
	if err != nil {
		return nil, err
	}
	s := b.s
	compute := s.Stream("compute")
	futs := map[string]device.Future{}
	var last device.Future
	haveCB, died := false, false
	object := func(name string, i int) device.Obj {
		if o, ok := b.objs[name]; ok {
			return o
		}
		o := s.Object(name, b.at(i)...)
		b.objs[name] = o
		return o
	}
	for i, st := range w {
		switch st.Kind {
		case diag.StepDeclare:
			object(orName(st.Value, "object"), i)
		case diag.StepCallback:
			cap := orName(st.Other, "this")
			o := object(cap, i)
			p := s.Borrow(cap+" (captured)", o, b.at(i)...)
			fn := orName(st.Value, "future")
			f, ok := futs[fn]
			if !ok {
				f = s.Future(fn)
				futs[fn] = f
				work := s.Alloc("work buffer", b.n)
				s.Enqueue(compute, device.Kernel("async work").Writes(work).Sets(f))
			}
			last = f
			var caps []device.Obj
			if fixed {
				caps = []device.Obj{o}
			}
			s.OnReady(f, caps, func(cb *device.Body) { cb.Deref(p, b.at(i)...) }, b.at(i)...)
			haveCB = true
		case diag.StepOwnerDies:
			o, ok := b.objs[orName(st.Value, "this")]
			if !ok {
				return nil, shapeErr("G", i, st)
			}
			s.Drop(o, b.at(i)...)
			died = true
		case diag.StepWait:
			f, ok := futs[st.Value]
			if !ok {
				if !haveCB {
					return nil, shapeErr("G", i, st)
				}
				f = last
			}
			s.Await(f, b.at(i)...)
			if !died {
				b.out.cleanWhy = "the future is awaited (and the callback has run) before the object dies"
			}
		case diag.StepEscape, diag.StepUse, diag.StepBlock, diag.StepAsync, diag.StepMove, diag.StepStore, diag.StepBorrow:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("G", i, st)
		}
	}
	if !haveCB {
		return nil, missing("G", "callback")
	}
	if !died {
		return nil, missing("G", "owner-dies")
	}
	s.Await(compute)
	return b.out, nil
}

// buildG2 is class G's release on the callback thread (docs/device-model.md
// §8): an object whose release may need the interpreter lock L is captured by a completion callback and released on
// the runtime thread that completes the work. The model's Python thread
// holds L while it awaits later work, whose completion is queued behind the
// callback on that thread: when the callback must take L, no thread can
// move. The witness is callback(Value=future, Other=capture) →
// free(Value=capture, Via "release on the callback thread") → optional
// wait(Value=future) → optional owner-dies(Value=the host's own reference,
// Other=capture). A host reference that dies only after a wait on the
// future makes the callback's copy not the last one: its release needs no
// lock.
func buildG2(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	b, err := newBld(w, opt, fixed, device.BFC(), "the callback does not capture the object; the host releases it after awaiting the future")
	if err != nil {
		return nil, err
	}
	s := b.s
	work := s.Stream("device")
	gil := s.Lock("interpreter lock")
	// the host keeps its own reference until after a wait on the future
	hostKeeps, waitSeen := false, false
	for _, st := range w {
		switch st.Kind {
		case diag.StepWait:
			waitSeen = true
		case diag.StepOwnerDies:
			if waitSeen {
				hostKeeps = true
			}
		}
	}
	var obj device.Obj
	var fut device.Future
	haveCB, haveRelease, hostDropped, waited := false, false, false, false
	capName, futName := "", ""
	for i, st := range w {
		switch {
		case st.Kind == diag.StepCallback:
			if haveCB {
				return nil, shapeErr("G", i, st)
			}
			capName, futName = orName(st.Other, "object"), orName(st.Value, "future")
			obj = s.Object(capName, b.at(i)...)
			b.objs[capName] = obj
			fut = s.Future(futName)
			out := s.Alloc("work buffer", b.n)
			s.Enqueue(work, device.Kernel("async work").Writes(out).Sets(fut))
			haveCB = true
		case releasedOnCallbackThread(st):
			if !haveCB || haveRelease || orName(st.Value, capName) != capName {
				return nil, shapeErr("G", i, st)
			}
			var caps []device.Obj
			if !fixed {
				caps = []device.Obj{obj}
			}
			last := !hostKeeps && !fixed
			at := b.at(i)
			s.OnReady(fut, caps, func(cb *device.Body) {
				switch {
				case last:
					cb.Acquire(gil, at...)
					cb.Note("release "+capName+" (the last reference)", at...)
					cb.Release(gil, at...)
				case !fixed:
					cb.Note("drop a copy of "+capName+": the host still holds a reference, no lock needed", at...)
				}
			}, b.at(i)...)
			haveRelease = true
		case st.Kind == diag.StepWait:
			if !haveCB {
				return nil, shapeErr("G", i, st)
			}
			s.Await(fut, b.at(i)...)
			waited = true
			b.out.cleanWhy = "the host awaits " + futName + ", so the callback has released its copy before the host takes the interpreter lock"
		case st.Kind == diag.StepOwnerDies:
			if !haveCB || hostDropped {
				return nil, shapeErr("G", i, st)
			}
			if fixed && !waited {
				continue // the fix keeps the host's reference until after the wait
			}
			s.Drop(obj, b.at(i)...)
			hostDropped = true
		case st.Kind == diag.StepDeclare || st.Kind == diag.StepEscape || st.Kind == diag.StepUse ||
			st.Kind == diag.StepBlock || st.Kind == diag.StepAsync || st.Kind == diag.StepMove || st.Kind == diag.StepStore:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("G", i, st)
		}
	}
	if !haveCB {
		return nil, missing("G", "callback")
	}
	if !haveRelease {
		return nil, missing("G", "release on the callback thread")
	}
	// later work, whose completion is queued behind the callback
	next := s.Future("later work")
	out := s.Alloc("later work buffer", b.n)
	s.Enqueue(work, device.Kernel("later work").Writes(out).Sets(next))
	if fixed && !waited {
		s.Await(fut)
	}
	if !hostDropped {
		s.Drop(obj) // the caller lets go of its reference
	}
	// a Python thread holds the interpreter lock while it awaits that work
	s.Acquire(gil)
	s.Await(next)
	s.Release(gil)
	return b.out, nil
}

// buildG3 is class G's work object (docs/device-model.md §8): a work
// object without the future of the work it stands for, so wait() returns at
// once.
func buildG3(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	b, err := newBld(w, opt, fixed, device.BFC(), "the work object holds the receive's future")
	if err != nil {
		return nil, err
	}
	s := b.s
	recv := s.Stream("recv")
	var fut device.Future
	futName := ""
	var dsts []device.Obj
	haveRecv, waited, read := false, false, false
	for i, st := range w {
		switch {
		case workWithoutFuture(st):
			s.Note("work object "+orName(st.Value, "work")+" is built without the receive's future", b.at(i)...)
		case st.Kind == diag.StepAsync:
			if haveRecv {
				return nil, shapeErr("G", i, st)
			}
			dn := orName(st.Value, "destination")
			dst := b.owner(dn, i, device.DefineNow())
			dsts = append(dsts, dst)
			futName = orName(st.Other, "receive")
			fut = s.Future(futName)
			s.Enqueue(recv, b.op(device.Kernel(orName(st.Via, "recv")).Writes(dst).Fill("payload").Sets(fut), i), b.at(i)...)
			haveRecv = true
		case st.Kind == diag.StepWait:
			if !haveRecv {
				return nil, shapeErr("G", i, st)
			}
			if st.Value == futName || fixed {
				s.Await(fut, b.at(i)...)
				if st.Value == futName && !read {
					b.out.cleanWhy = "the receive's future itself is awaited"
				}
			} else {
				s.Note("wait() on "+orName(st.Value, "the work")+" returns at once: it holds no future", b.at(i)...)
			}
			waited = true
		case st.Kind == diag.StepUse:
			o, ok := b.objs[st.Value]
			if !ok {
				return nil, shapeErr("G", i, st)
			}
			if fixed && !waited {
				s.Await(fut, b.at(i)...)
				waited = true
			}
			s.Read(o, b.at(i)...)
			read = true
		case st.Kind == diag.StepDeclare || st.Kind == diag.StepEscape || st.Kind == diag.StepBlock || st.Kind == diag.StepMove:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("G", i, st)
		}
	}
	if !haveRecv {
		return nil, missing("G", "async (the receive)")
	}
	if !read {
		if fixed && !waited {
			s.Await(fut)
		}
		for _, d := range dsts {
			s.Read(d) // the caller reads the destination after wait()
		}
	}
	s.Await(recv)
	return b.out, nil
}

// ---- H: in-place mutation while async work uses the buffer ----

func explicitSwap(st diag.Step) bool {
	v := strings.ToLower(st.Via + " " + st.Message)
	for _, k := range []string{"overwritedataptr", "swap", "set_data", "setdataptr", "data pointer", "dataptr"} {
		if strings.Contains(v, k) {
			return true
		}
	}
	return false
}

func buildH(w []diag.Step, opt Options, fixed bool) (*scen, error) {
	swap := opt.Mutation == SwapThenReuse
	for _, st := range w {
		if st.Kind == diag.StepMutate && explicitSwap(st) {
			swap = true
		}
	}
	fix := "the future is awaited before the mutation"
	b, err := newBld(w, opt, fixed, device.BFC(), fix)
	if err != nil {
		return nil, err
	}
	s := b.s
	compute := s.Stream("compute")
	transfer := s.Stream("transfer")
	tensors := map[string]device.Obj{}
	tensor := func(name string, i int) device.Obj {
		if t, ok := tensors[name]; ok {
			return t
		}
		if !swap {
			t := b.owner(name, i, device.DefineNow())
			s.Write(t, "t", b.at(i)...)
			tensors[name] = t
			return t
		}
		buf := s.Alloc(name+" buffer", b.n, append([]device.Opt{device.DefineNow(), device.FreeImmediately()}, b.at(i)...)...)
		s.Write(buf, "t", b.at(i)...)
		t := s.Tensor(name, buf, b.at(i)...)
		s.Drop(buf, b.at(i)...) // the tensor holds the only reference
		tensors[name] = t
		return t
	}
	var fut device.Future
	haveFut, mutated, waited := false, false, false
	nswap := 0
	for i, st := range w {
		switch st.Kind {
		case diag.StepDeclare:
			tensor(orName(st.Value, "tensor"), i)
		case diag.StepAsync:
			if haveFut {
				return nil, shapeErr("H", i, st)
			}
			t := tensor(orName(st.Value, "tensor"), i)
			fut = s.Future(orName(st.Other, "copy"))
			haveFut = true
			b.dma(transfer, t, fut, i, toDevice(st, false))
		case diag.StepMutate:
			t, ok := tensors[orName(st.Value, "tensor")]
			if !ok || !haveFut {
				return nil, shapeErr("H", i, st)
			}
			if fixed && !waited {
				s.Await(fut, b.at(i)...)
				waited = true
			}
			via := orName(st.Via, "mutate")
			if swap {
				nb := s.Alloc(fmt.Sprintf("%s buffer %d", s.Name(t), nswap+1), b.n, append([]device.Opt{device.DefineNow(), device.FreeImmediately()}, b.at(i)...)...)
				nswap++
				s.Enqueue(compute, b.op(device.Kernel(via).Writes(nb).Fill("0"), i), b.at(i)...)
				s.Swap(t, nb, b.at(i)...) // the old buffer loses its owner
				s.Drop(nb, b.at(i)...)
				b.foreign(compute, device.DefineNow())
			} else {
				s.Enqueue(compute, b.op(device.Kernel(via).Writes(t).Fill("0").Mutation(), i), b.at(i)...)
			}
			mutated = true
		case diag.StepWait:
			if !haveFut {
				return nil, shapeErr("H", i, st)
			}
			if !waited {
				s.Await(fut, b.at(i)...)
				waited = true
			}
			if !mutated {
				b.out.cleanWhy = "the future is awaited before the mutation"
			}
		case diag.StepEscape, diag.StepUse, diag.StepBlock:
			s.Note(fmt.Sprintf("%s %s", st.Kind, orName(st.Value, "value")), b.at(i)...)
		default:
			return nil, shapeErr("H", i, st)
		}
	}
	if !haveFut {
		return nil, missing("H", "async")
	}
	if !mutated {
		return nil, missing("H", "mutate")
	}
	if !waited {
		s.Await(fut)
	}
	s.Await(compute)
	return b.out, nil
}
