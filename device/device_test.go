package device

import (
	"slices"
	"strings"
	"testing"
)

// stepOf is the index of the first trace step whose thread and text match.
func stepOf(r *Result, thread, text string) int {
	for _, e := range r.Trace {
		if e.Thread == thread && strings.Contains(e.Text, text) {
			return e.Step
		}
	}
	return -1
}

func clean(t *testing.T, s *Scenario) {
	t.Helper()
	for _, r := range s.Check(0) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if r.Faulted() {
			t.Fatalf("%s schedule faults: %v\n%s", r.Schedule, r.First(), r)
		}
	}
}

func TestStreamOrder(t *testing.T) {
	s := NewScenario(BFC())
	a := s.Stream("a")
	x := s.Alloc("x", 4096)
	s.Enqueue(a, Kernel("first").Writes(x).Fill("1"))
	s.Enqueue(a, Kernel("second").Writes(x).Fill("2"))
	s.Await(a)
	s.Read(x)
	for _, sch := range []Schedule{Witness, Eager} {
		r := s.Run(sch)
		if r.Value(x) != "2" {
			t.Fatalf("%s: x = %s, want 2", sch, r.Value(x))
		}
		if !(stepOf(r, "stream:a", "first end") < stepOf(r, "stream:a", "second start")) {
			t.Fatalf("%s: second started before first ended\n%s", sch, r)
		}
	}
	clean(t, s)
}

func TestHostRunsAheadUnderWitness(t *testing.T) {
	s := NewScenario(BFC())
	a := s.Stream("a")
	x := s.Alloc("x", 4096)
	s.Enqueue(a, Kernel("K").Writes(x))
	s.Note("host keeps going")
	s.Await(a)
	r := s.Run(Witness)
	if !(stepOf(r, "host", "host keeps going") < stepOf(r, "stream:a", "K start")) {
		t.Fatalf("the device ran before the host blocked\n%s", r)
	}
	r = s.Run(Eager)
	if !(stepOf(r, "stream:a", "K end") < stepOf(r, "host", "host keeps going")) {
		t.Fatalf("eager did not complete K at enqueue\n%s", r)
	}
}

func TestEventOrdersStreams(t *testing.T) {
	build := func(wait bool) *Scenario {
		s := NewScenario(BFC())
		a := s.Stream("a")
		b := s.Stream("b")
		x := s.Alloc("x", 4096)
		y := s.Alloc("y", 4096)
		s.Enqueue(a, Kernel("produce").Writes(x).Fill("v"))
		if wait {
			s.WaitEvent(b, s.Record(a))
		}
		s.Enqueue(b, Kernel("consume").Reads(x).Writes(y))
		s.Await(b)
		s.Await(a)
		return s
	}
	clean(t, build(true))
	r := build(false).Explore(0)
	if !r.Has(Race) && !r.Has(StaleRead) {
		t.Fatalf("unordered producer/consumer: want a race, got %v", r.Faults)
	}
}

func TestOnReadyRunsInlineWhenReady(t *testing.T) {
	s := NewScenario(BFC())
	f := s.Future("f")
	s.Set(f)
	s.OnReady(f, nil, func(b *Body) { b.Note("callback body") })
	s.Note("after OnReady")
	r := s.Run(Witness)
	cb := stepOf(r, "host", "callback body")
	if cb < 0 || cb > stepOf(r, "host", "after OnReady") {
		t.Fatalf("OnReady on a ready future did not run inline on the caller\n%s", r)
	}
}

func TestOnReadyRunsOnSetter(t *testing.T) {
	// a future set by a device operation: the runtime callback thread sets
	// it and runs the callback there
	s := NewScenario(BFC())
	a := s.Stream("a")
	f := s.Future("f")
	x := s.Alloc("x", 4096)
	s.OnReady(f, nil, func(b *Body) { b.Note("callback body") })
	s.Enqueue(a, Kernel("K").Writes(x).Sets(f))
	s.Note("host continues")
	s.Await(f)
	r := s.Run(Witness)
	if stepOf(r, "callback", "callback body") < 0 {
		t.Fatalf("callback did not run on the setting thread\n%s", r)
	}
	if stepOf(r, "callback", "callback body") < stepOf(r, "callback", "runtime sets f") {
		t.Fatalf("callback ran before the future was set\n%s", r)
	}
	// a future set by another host-side body: the callback runs there
	s = NewScenario(BFC())
	a = s.Stream("a")
	f = s.Future("f")
	s.OnReady(f, nil, func(b *Body) { b.Note("callback body") })
	s.ThenCallback(a, func(b *Body) { b.Set(f) })
	s.Await(f)
	r = s.Run(Witness)
	if stepOf(r, "callback", "callback body") < 0 || stepOf(r, "host", "callback body") >= 0 {
		t.Fatalf("callback did not run on the thread that set the future\n%s", r)
	}
}

func TestThenCallbackAfterStreamPoint(t *testing.T) {
	s := NewScenario(BFC())
	a := s.Stream("a")
	x := s.Alloc("x", 4096)
	s.Enqueue(a, Kernel("K").Writes(x))
	s.ThenCallback(a, func(b *Body) { b.Note("cb") })
	s.Enqueue(a, Kernel("K2").Writes(x))
	for _, sch := range []Schedule{Witness, Eager} {
		r := s.Run(sch)
		if !(stepOf(r, "stream:a", "K end") < stepOf(r, "callback", "cb")) {
			t.Fatalf("%s: callback before its stream point\n%s", sch, r)
		}
	}
	// the stream is not blocked by a then_callback (it may run ahead)
	r := s.Run(Witness)
	if !(stepOf(r, "stream:a", "K2 end") < stepOf(r, "callback", "cb")) {
		t.Fatalf("witness should run the callback at the latest legal moment\n%s", r)
	}
	clean(t, s)
}

func TestHostFuncBlocksStream(t *testing.T) {
	s := NewScenario(BFC())
	a := s.Stream("a")
	x := s.Alloc("x", 4096)
	s.HostFunc(a, func(b *Body) { b.Note("host func") })
	s.Enqueue(a, Kernel("K").Writes(x))
	s.Await(a)
	for _, sch := range []Schedule{Witness, Eager} {
		r := s.Run(sch)
		if !(stepOf(r, "driver", "host func") < stepOf(r, "stream:a", "K start")) {
			t.Fatalf("%s: K started before the host function returned\n%s", sch, r)
		}
	}
	clean(t, s)
}

func TestViewAliasesAndMaterialiseSnapshots(t *testing.T) {
	s := NewScenario(MetalPool())
	base := s.Alloc("base", 8192)
	s.Write(base, "old")
	v := s.View("v", base, 0, 4096)
	c := s.Materialise("c", v, Copy)
	s.Write(v, "new")
	s.Read(base)
	r := s.Run(Witness)
	if r.Value(base) != "new|old" || r.Value(v) != "new" {
		t.Fatalf("write through a view did not reach the base: %s", r.Value(base))
	}
	if r.Value(c) != "old" {
		t.Fatalf("materialised copy is not a snapshot: %s", r.Value(c))
	}
	if r.Faulted() {
		t.Fatalf("unexpected fault %v", r.First())
	}
}

func TestContiguous(t *testing.T) {
	s := NewScenario(MetalPool())
	x := s.Alloc("x", 4096)
	s.Write(x, "a")
	same := s.Contiguous("same", x, true)
	copied := s.Contiguous("copied", x, false)
	s.Write(x, "b")
	r := s.Run(Witness)
	if r.Addr(same) != r.Addr(x) || r.Value(same) != "b" {
		t.Fatalf("contiguous(x) of a contiguous x is not x")
	}
	if r.Addr(copied) == r.Addr(x) || r.Value(copied) != "a" {
		t.Fatalf("contiguous(x) of a non-contiguous x is not a copy")
	}
}

// ---- faults, each with a near-identical clean variant ----

// xlaScenario is seed 001: K1 writes the gradient x, K2 reads it into y,
// the host drops x, and the autotuner's scratch allocation zeroes memory on
// another stream.
func xlaScenario(variant string) (*Scenario, Obj) {
	s := NewScenario(BFC())
	compute := s.Stream("compute")
	autotune := s.Stream("autotune")
	pol := FreeImmediately()
	if variant == "pr979" {
		pol = Free(FreeAfterStream, compute)
	}
	x := s.Alloc("x", 1<<20, pol, At("tracked_device_buffer.cc:64"))
	y := s.Alloc("y", 1<<20)
	s.Enqueue(compute, Kernel("K1").Writes(x).Fill("grad").At("conv.cc:10"))
	s.Enqueue(compute, Kernel("K2").Reads(x).Writes(y).At("conv.cc:11"))
	s.Drop(x, At("tracked_device_buffer.cc:101"))
	scratch := s.Alloc("scratch", 1<<20)
	op := Memset(scratch, "0").At("autotuner.cc:7")
	if variant == "wait" {
		op.After(s.DefinitionEvent(scratch))
	}
	s.Enqueue(autotune, op)
	s.Await(compute)
	s.Read(y)
	return s, y
}

func TestXLASeed001(t *testing.T) {
	s, y := xlaScenario("bug")
	r := s.Run(Witness)
	f := r.First()
	if f == nil || f.Kind != DevUAFReused {
		t.Fatalf("want DEV_UAF_REUSED, got %v\n%s", r.Faults, r)
	}
	if r.Value(y) != "0" {
		t.Fatalf("y = %s, want all zeros", r.Value(y))
	}
	k1 := stepOf(r, "stream:compute", "K1 end")
	ms := stepOf(r, "stream:autotune", "memset end")
	k2 := stepOf(r, "stream:compute", "K2 start")
	if !(k1 < ms && ms < k2) || f.Step != k2 {
		t.Fatalf("want K1.end < memset.end < K2.start (fault at K2.start); got %d %d %d fault at %d\n%s", k1, ms, k2, f.Step, r)
	}
	if f.Label != "conv.cc:11" || f.Thread != "stream:compute" {
		t.Fatalf("fault not attributed to K2: %+v", f)
	}
	// the chunk history: x allocated, freed, re-served to scratch, zeroed
	var whats []string
	for _, h := range f.History {
		whats = append(whats, h.Name+" "+h.What)
	}
	want := []string{"x alloc", "x free", "scratch alloc", "x K1 writes grad", "scratch memset writes 0"}
	for _, w := range want {
		if !slices.Contains(whats, w) {
			t.Fatalf("history lacks %q: %v", w, whats)
		}
	}
	if len(f.Steps) != f.Step+1 {
		t.Fatalf("fault report steps: %d, want %d", len(f.Steps), f.Step+1)
	}
	if !s.Explore(0).Has(DevUAFReused) {
		t.Fatalf("exploration misses the bug")
	}

	// PR979: the free is deferred with then_callback on compute
	s, y = xlaScenario("pr979")
	clean(t, s)
	if v := s.Run(Witness).Value(y); v != "grad" {
		t.Fatalf("pr979: y = %s, want grad", v)
	}
	// old destructor, but the autotuner stream waits on the definition event
	s, y = xlaScenario("wait")
	clean(t, s)
	if v := s.Run(Witness).Value(y); v != "grad" {
		t.Fatalf("wait: y = %s, want grad", v)
	}
}

func TestDevUAFFreedIsLatent(t *testing.T) {
	build := func(hold bool) *Scenario {
		s := NewScenario(BFC())
		s.Stream("compute")
		dma := s.Stream("dma")
		x := s.Alloc("x", 4096, DefineNow())
		h := s.HostAlloc("h", 4096)
		op := Kernel("d2h").Reads(x).Writes(h)
		if hold {
			op.Holds(x)
		}
		s.Enqueue(dma, op)
		s.Drop(x)
		s.Await(dma)
		return s
	}
	r := build(false).Run(Witness)
	if f := r.First(); f == nil || f.Kind != DevUAFFreed || f.Kind.Confirms() {
		t.Fatalf("want a latent DEV_UAF_FREED, got %v", r.Faults)
	}
	clean(t, build(true))
}

func TestHostUAF(t *testing.T) {
	build := func(strong bool) *Scenario {
		s := NewScenario(BFC())
		a := s.Stream("a")
		f := s.Future("f")
		x := s.Alloc("x", 4096)
		w := s.Object("work")
		p := s.Borrow("this", w)
		var caps []Obj
		if strong {
			caps = []Obj{w}
		}
		s.OnReady(f, caps, func(b *Body) { b.Deref(p) })
		s.Enqueue(a, Kernel("K").Writes(x).Sets(f))
		s.Drop(w)
		s.Await(a)
		return s
	}
	r := build(false).Run(Witness)
	if f := r.First(); f == nil || f.Kind != HostUAF || f.Thread != "callback" {
		t.Fatalf("want HOST_UAF on the callback thread, got %v\n%s", r.Faults, r)
	}
	clean(t, build(true))

	// a checked weak reference is clean too
	s := NewScenario(BFC())
	w := s.Object("work")
	p := s.Borrow("weak", w)
	s.Drop(w)
	s.Deref(p, Weak())
	clean(t, s)
}

func TestLostWrite(t *testing.T) {
	build := func(writeBack bool) *Scenario {
		s := NewScenario(MetalPool())
		q := s.Stream("queue")
		base := s.Alloc("T", 128)
		s.Write(base, "init")
		v := s.View("V", base, 0, 64)
		c := s.Materialise("packed", v, Alias)
		s.Enqueue(q, Kernel("kernel").Writes(c).Fill("out"))
		if writeBack {
			s.Enqueue(q, CopyOp(v, c))
		}
		s.Await(q)
		s.Read(base)
		return s
	}
	r := build(false).Run(Witness)
	if f := r.First(); f == nil || f.Kind != LostWrite {
		t.Fatalf("want LOST_WRITE, got %v\n%s", r.Faults, r)
	}
	clean(t, build(true))
}

func TestStaleRead(t *testing.T) {
	build := func(await bool) *Scenario {
		s := NewScenario(BFC())
		net := s.Stream("recv")
		fut := s.Future("recv")
		dst := s.Alloc("dst", 4096)
		s.Enqueue(net, Kernel("recv").Writes(dst).Fill("payload").Sets(fut))
		if await {
			s.Await(fut)
		}
		s.Read(dst)
		return s
	}
	r := build(false).Run(Witness)
	if f := r.First(); f == nil || f.Kind != StaleRead {
		t.Fatalf("want STALE_READ, got %v\n%s", r.Faults, r)
	}
	clean(t, build(true))
}

func TestRace(t *testing.T) {
	build := func(order bool) *Scenario {
		s := NewScenario(BFC())
		a := s.Stream("a")
		b := s.Stream("b")
		x := s.Alloc("x", 4096)
		s.Enqueue(a, Kernel("Ka").Writes(x).Fill("a"))
		if order {
			s.WaitEvent(b, s.Record(a))
		}
		s.Enqueue(b, Kernel("Kb").Writes(x).Fill("b"))
		s.Await(a)
		s.Await(b)
		return s
	}
	r := build(false).Run(Witness)
	if f := r.First(); f == nil || f.Kind != Race {
		t.Fatalf("want RACE, got %v\n%s", r.Faults, r)
	}
	clean(t, build(true))
}

func TestAliasMutation(t *testing.T) {
	build := func(isContiguous bool) *Scenario {
		s := NewScenario(BFC())
		s1 := s.Stream("s1")
		s2 := s.Stream("s2")
		x := s.Alloc("x", 4096)
		out := s.Alloc("out", 4096)
		s.Enqueue(s1, Kernel("init").Writes(x).Fill("x0"))
		s.Await(s1)
		y := s.Contiguous("y", x, isContiguous)
		s.Enqueue(s2, Kernel("consumer").Reads(y).Writes(out))
		s.Enqueue(s1, Kernel("add_").Reads(x).Writes(x).Fill("x+1").Mutation())
		s.Await(s1)
		s.Await(s2)
		return s
	}
	r := build(true).Run(Witness)
	if f := r.First(); f == nil || f.Kind != AliasMutation {
		t.Fatalf("want ALIAS_MUTATION, got %v\n%s", r.Faults, r)
	}
	clean(t, build(false))
}

func TestDeadlockInterpreterLock(t *testing.T) {
	build := func(releaseOnHost bool) *Scenario {
		s := NewScenario(BFC())
		a := s.Stream("a")
		gil := s.Lock("interpreter lock")
		f1 := s.Future("f1")
		f2 := s.Future("f2")
		x := s.Alloc("x", 4096)
		y := s.Alloc("y", 4096)
		tensor := s.Object("backing_tensor")
		var caps []Obj
		if !releaseOnHost {
			caps = []Obj{tensor}
		}
		s.Enqueue(a, Kernel("h2d").Writes(x).Sets(f1))
		s.OnReady(f1, caps, func(cb *Body) {
			if !releaseOnHost {
				cb.Acquire(gil)
				cb.Note("release the tensor")
				cb.Release(gil)
			}
		})
		s.Enqueue(a, Kernel("next").Writes(y).Sets(f2))
		if releaseOnHost {
			s.Await(f1)
		}
		s.Drop(tensor)
		s.Acquire(gil)
		s.Await(f2)
		s.Release(gil)
		return s
	}
	r := build(false).Run(Witness)
	if f := r.First(); f == nil || f.Kind != Deadlock {
		t.Fatalf("want DEADLOCK, got %v\n%s", r.Faults, r)
	}
	if !build(false).Explore(0).Has(Deadlock) {
		t.Fatalf("exploration misses the deadlock")
	}
	clean(t, build(true))
}

func TestExploreReportsCap(t *testing.T) {
	s := NewScenario(BFC())
	var xs []Obj
	for i := range 4 {
		st := s.Stream("s" + string(rune('a'+i)))
		x := s.Alloc("x"+string(rune('a'+i)), 4096)
		xs = append(xs, x)
		for j := range 3 {
			s.Enqueue(st, Kernel("K"+string(rune('0'+j))).Writes(x))
		}
	}
	r := s.Explore(50)
	if !r.CapHit || r.States != 50 || r.Faulted() {
		t.Fatalf("want the cap reported at 50 states, got %d cap=%v faults=%v", r.States, r.CapHit, r.Faults)
	}
	_ = xs
}

func TestBuildErrors(t *testing.T) {
	s := NewScenario(BFC())
	s.Alloc("bad", 0)
	if s.Err() == nil || s.Run(Witness).Err == nil {
		t.Fatal("want an error for a zero-sized allocation")
	}
	if msg := s.Err().Error(); msg != strings.ToLower(msg[:1])+msg[1:] {
		t.Fatalf("error text not lower case: %q", msg)
	}
}
