package device

import "testing"

func TestBFCAllocFreeAllocSameAddress(t *testing.T) {
	s := NewScenario(BFC())
	s.Stream("compute")
	a := s.Alloc("a", 1<<20)
	s.Drop(a)
	b := s.Alloc("b", 1<<20)
	r := s.Run(Witness)
	if r.Faulted() {
		t.Fatalf("unexpected fault: %v", r.First())
	}
	if got, want := r.Addr(b), int64(deviceBase); got != want {
		t.Fatalf("b at 0x%x, want 0x%x (the chunk a had)", got, want)
	}
}

func TestBFCBestFitSplitCoalesce(t *testing.T) {
	p := newPool(BFC().withDefaults()).(*bfc)
	done := func(int) bool { return true }
	a, _, _ := p.malloc(4096, 0, done) // [0,4K)
	b, _, _ := p.malloc(1024, 0, done) // [4K,5K)
	c, _, _ := p.malloc(2048, 0, done) // [5K,7K)
	d, _, _ := p.malloc(1000, 0, done) // rounds to 1024: [7K,8K)
	_, _, _ = p.malloc(1<<20, 0, done) // keep the tail away
	if b != a+4096 || c != b+1024 || d != c+2048 {
		t.Fatalf("unexpected layout a=%x b=%x c=%x d=%x", a, b, c, d)
	}
	p.free(a)
	p.free(c)
	// best fit by (size, addr): a 2 KiB request takes c's 2 KiB chunk, not a's 4 KiB
	if got, _, _ := p.malloc(2048, 0, done); got != c {
		t.Fatalf("best fit took 0x%x, want c 0x%x", got, c)
	}
	// a 1 KiB request in a 4 KiB chunk splits it (4K >= 2*1K)
	if got, n, _ := p.malloc(1024, 0, done); got != a || n != 1024 {
		t.Fatalf("split gave 0x%x/%d, want 0x%x/1024", got, n, a)
	}
	// a 3 KiB request in the 3 KiB leftover does not split
	if got, n, _ := p.malloc(3000, 0, done); got != a+1024 || n != 3072 {
		t.Fatalf("leftover gave 0x%x/%d", got, n)
	}
	// freeing neighbours coalesces them into one chunk
	p.free(a)
	p.free(a + 1024)
	p.free(b)
	if got, n, _ := p.malloc(5120, 0, done); got != a || n != 5120 {
		t.Fatalf("coalesced chunk gave 0x%x/%d, want 0x%x/5120", got, n, a)
	}
	if bfcBin(256) != 0 || bfcBin(512) != 1 || bfcBin(1<<40) != 20 {
		t.Fatalf("bins: %d %d %d", bfcBin(256), bfcBin(512), bfcBin(1<<40))
	}
}

func TestCachingReusesPerStream(t *testing.T) {
	s := NewScenario(Caching())
	s0 := s.Stream("s0")
	s1 := s.Stream("s1")
	a := s.Alloc("a", 4096, On(s0))
	s.Drop(a)
	b := s.Alloc("b", 4096, On(s1))
	c := s.Alloc("c", 4096, On(s0))
	r := s.Run(Witness)
	if r.Faulted() {
		t.Fatalf("unexpected fault: %v", r.First())
	}
	if r.Addr(b) == int64(deviceBase) {
		t.Fatalf("an allocation on s1 reused a block freed to s0's pool")
	}
	if r.Addr(c) != int64(deviceBase) {
		t.Fatalf("c on s0 at 0x%x, want the block a had", r.Addr(c))
	}
}

func recordStreamScenario(record bool) (*Scenario, Obj, Obj) {
	s := NewScenario(Caching())
	s0 := s.Stream("s0")
	s1 := s.Stream("s1")
	tt := s.Alloc("t", 4096, On(s0))
	out := s.Alloc("out", 4096, On(s1))
	s.Enqueue(s0, Kernel("init").Writes(tt).Fill("T"))
	s.WaitEvent(s1, s.Record(s0))
	s.Enqueue(s1, Kernel("K").Reads(tt).Writes(out))
	if record {
		s.RecordStream(tt, s1)
	}
	s.Drop(tt)
	u := s.Alloc("u", 4096, On(s0))
	s.Enqueue(s0, Memset(u, "0"))
	s.Await(s1)
	s.Await(s0)
	s.Read(out)
	return s, out, u
}

func TestCachingRecordStreamDelaysReuse(t *testing.T) {
	s, _, u := recordStreamScenario(false)
	r := s.Run(Witness)
	if !r.Has(DevUAFReused) {
		t.Fatalf("without record_stream: want DEV_UAF_REUSED, got %v\n%s", r.Faults, r)
	}
	if r.Addr(u) != int64(deviceBase) {
		t.Fatalf("u should reuse t's block without record_stream")
	}
	s, out, u := recordStreamScenario(true)
	for _, r := range s.Check(0) {
		if r.Faulted() {
			t.Fatalf("with record_stream (%s): %v\n%s", r.Schedule, r.First(), r)
		}
	}
	r = s.Run(Witness)
	if r.Addr(u) == int64(deviceBase) {
		t.Fatalf("record_stream did not delay reuse of t's block")
	}
	if v := r.Value(out); v != "T" {
		t.Fatalf("out = %q, want T", v)
	}
}

func TestCachingRecordStreamReuseAfterEvents(t *testing.T) {
	s := NewScenario(Caching())
	s0 := s.Stream("s0")
	s1 := s.Stream("s1")
	tt := s.Alloc("t", 4096, On(s0))
	out := s.Alloc("out", 4096, On(s1))
	s.Enqueue(s1, Kernel("K").Reads(tt).Writes(out))
	s.RecordStream(tt, s1)
	s.Drop(tt)
	s.Await(s1) // the recorded event completes
	u := s.Alloc("u", 4096, On(s0))
	r := s.Run(Witness)
	if r.Faulted() {
		t.Fatalf("unexpected fault: %v", r.First())
	}
	if r.Addr(u) != int64(deviceBase) {
		t.Fatalf("process_events should return t's block once s1 passed the event; u at 0x%x", r.Addr(u))
	}
}

func TestStreamOrderedFree(t *testing.T) {
	s := NewScenario(StreamOrdered())
	a := s.Stream("a")
	b := s.Stream("b")
	x := s.Alloc("x", 4096, On(a))
	s.Enqueue(a, Kernel("K").Writes(x))
	s.Drop(x) // cudaFreeAsync(x, a)
	same := s.Alloc("same", 4096, On(a))
	other := s.Alloc("other", 4096, On(b))
	r := s.Run(Witness)
	if r.Faulted() {
		t.Fatalf("unexpected fault: %v\n%s", r.First(), r)
	}
	if r.Addr(same) != int64(deviceBase) {
		t.Fatalf("an allocation on the freeing stream should reuse the block")
	}
	if r.Addr(other) == int64(deviceBase) {
		t.Fatalf("an allocation on another stream reused a block whose free had not completed")
	}
	for _, r := range s.Check(0) {
		if r.Faulted() {
			t.Fatalf("%s: %v\n%s", r.Schedule, r.First(), r)
		}
	}

	// opportunistic reuse once the free completed
	s = NewScenario(StreamOrdered())
	a = s.Stream("a")
	b = s.Stream("b")
	x = s.Alloc("x", 4096, On(a))
	s.Drop(x)
	s.Await(a)
	other = s.Alloc("other", 4096, On(b))
	if r := s.Run(Witness); r.Addr(other) != int64(deviceBase) {
		t.Fatalf("completed free should allow reuse from another stream")
	}

	// a use enqueued after the free point faults
	s = NewScenario(StreamOrdered())
	a = s.Stream("a")
	x = s.Alloc("x", 4096, On(a))
	p := s.Borrow("p", x)
	s.Drop(x)
	s.Enqueue(a, Kernel("late").ReadsPtr(p))
	r = s.Run(Witness)
	if !r.Has(HostUAF) || !r.Has(DevUAFFreed) {
		t.Fatalf("use after the stream-ordered free: got %v", r.Faults)
	}
}

func TestMetalPoolWindowAndRecycle(t *testing.T) {
	p := newPool(MetalPool().withDefaults()).(*metalPool)
	done := func(int) bool { return true }
	a, _, _ := p.malloc(100<<10, 0, done)
	p.free(a)
	// 100 KiB cached: a 60 KiB request may take at most min(120, 92) KiB
	if got, _, _ := p.malloc(60<<10, 0, done); got == a {
		t.Fatalf("60 KiB request took a 100 KiB buffer outside the window")
	}
	// an 80 KiB request may take up to 112 KiB
	if got, _, _ := p.malloc(80<<10, 0, done); got != a {
		t.Fatalf("80 KiB request did not reuse the cached 100 KiB buffer")
	}
	// LRU eviction at capacity
	q := newPool(Allocator{kind: akMetal, PoolCap: 2}.withDefaults()).(*metalPool)
	x, _, _ := q.malloc(1024, 0, done)
	y, _, _ := q.malloc(1024, 0, done)
	z, _, _ := q.malloc(1024, 0, done)
	q.free(x)
	q.free(y)
	q.free(z)
	if len(q.cached) != 2 || q.cached[0].addr != y || q.cached[1].addr != z {
		t.Fatalf("LRU eviction kept %+v", q.cached)
	}

	// immediate recycle while the GPU still reads: the CPU memcpy into the
	// recycled buffer clobbers what the kernel reads
	s := NewScenario(MetalPool())
	q0 := s.Stream("queue")
	in := s.Alloc("in", 4096)
	out := s.Alloc("out", 4096)
	s.Write(in, "input")
	s.Enqueue(q0, Kernel("kernel").Reads(in).Writes(out))
	s.Drop(in)
	tmp := s.Alloc("tmp", 4096)
	s.Write(tmp, "other")
	s.Await(q0)
	r := s.Run(Witness)
	if r.Addr(tmp) != r.Addr(in) && r.Addr(tmp) != int64(deviceBase) {
		t.Fatalf("metal pool did not recycle at once")
	}
	if !r.Has(DevUAFReused) || r.Value(out) != "other" {
		t.Fatalf("want DEV_UAF_REUSED and out=other, got %v out=%s\n%s", r.Faults, r.Value(out), r)
	}
}
