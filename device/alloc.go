package device

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Granule is the shadow memory unit and the BFC minimum allocation.
const Granule = 256

type allocKind int

const (
	akBFC allocKind = iota + 1
	akCaching
	akStreamOrdered
	akMetal
)

// Allocator selects and configures a device allocator.
type Allocator struct {
	kind    allocKind
	Arena   int64 // BFC arena size (default 1 GiB)
	MaxFrag int64 // BFC split threshold for the leftover (default 128 MiB)
	PoolCap int   // Metal pool capacity in buffers (default 64)
}

// BFC is the best-fit-with-coalescing allocator of PJRT GPU, tied to the
// compute stream (the first stream declared).
func BFC() Allocator { return Allocator{kind: akBFC} }

// Caching is PyTorch's CUDA caching allocator.
func Caching() Allocator { return Allocator{kind: akCaching} }

// StreamOrdered is cudaMallocAsync/cudaFreeAsync.
func StreamOrdered() Allocator { return Allocator{kind: akStreamOrdered} }

// MetalPool is the ExecuTorch Metal buffer pool.
func MetalPool() Allocator { return Allocator{kind: akMetal} }

// Name is the allocator's name.
func (a Allocator) Name() string {
	switch a.kind {
	case akBFC:
		return "bfc"
	case akCaching:
		return "caching"
	case akStreamOrdered:
		return "stream-ordered"
	case akMetal:
		return "metal-pool"
	}
	return "?"
}

func (a Allocator) withDefaults() Allocator {
	if a.kind == 0 {
		a.kind = akBFC
	}
	if a.Arena <= 0 {
		a.Arena = 1 << 30
	}
	if a.MaxFrag <= 0 {
		a.MaxFrag = 128 << 20
	}
	if a.PoolCap <= 0 {
		a.PoolCap = 64
	}
	return a
}

// definedOnStream says whether allocations are defined at their stream's
// tail rather than at host time.
func (a Allocator) definedOnStream() bool { return a.kind != akMetal }

const deviceBase = 0x10000000
const hostBase = 0x7f0000000000

func roundUp(n, m int64) int64 { return (n + m - 1) / m * m }

// pool is the state of one allocator. done reports whether a stream
// operation instance has ended.
type pool interface {
	malloc(size int64, stream int, done func(int) bool) (addr, got int64, ok bool)
	free(addr int64)
	clone() pool
	encode(b *strings.Builder)
}

func newPool(a Allocator) pool {
	switch a.kind {
	case akCaching:
		return &caching{next: deviceBase}
	case akStreamOrdered:
		return &streamOrdered{next: deviceBase}
	case akMetal:
		return &metalPool{next: deviceBase, capacity: a.PoolCap}
	}
	return &bfc{chunks: []bchunk{{addr: deviceBase, size: a.Arena}}, maxFrag: a.MaxFrag}
}

// ---- BFC ----

type bchunk struct {
	addr, size int64
	used       bool
}

type bfc struct {
	chunks  []bchunk // sorted by addr, covering the arena
	maxFrag int64
}

// bfcBin is min(20, floor(log2(max(n,256)>>8))).
func bfcBin(n int64) int {
	v := max(n, Granule) >> 8
	b := bits.Len64(uint64(v)) - 1
	return min(20, b)
}

func (b *bfc) malloc(size int64, _ int, _ func(int) bool) (int64, int64, bool) {
	n := roundUp(size, Granule)
	best := -1
	for i, c := range b.chunks {
		if c.used || c.size < n {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		o := b.chunks[best]
		// search from the request's bin upward; inside a bin by (size, addr)
		if bc, bo := bfcBin(c.size), bfcBin(o.size); bc < bo || bc == bo && (c.size < o.size || c.size == o.size && c.addr < o.addr) {
			best = i
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	c := b.chunks[best]
	if c.size >= 2*n || c.size-n >= b.maxFrag {
		rest := bchunk{addr: c.addr + n, size: c.size - n}
		b.chunks[best].size = n
		b.chunks = slices.Insert(b.chunks, best+1, rest)
	}
	b.chunks[best].used = true
	return c.addr, b.chunks[best].size, true
}

func (b *bfc) free(addr int64) {
	i := slices.IndexFunc(b.chunks, func(c bchunk) bool { return c.addr == addr })
	if i < 0 || !b.chunks[i].used {
		return
	}
	b.chunks[i].used = false
	if i+1 < len(b.chunks) && !b.chunks[i+1].used {
		b.chunks[i].size += b.chunks[i+1].size
		b.chunks = slices.Delete(b.chunks, i+1, i+2)
	}
	if i > 0 && !b.chunks[i-1].used {
		b.chunks[i-1].size += b.chunks[i].size
		b.chunks = slices.Delete(b.chunks, i, i+1)
	}
}

func (b *bfc) clone() pool {
	c := *b
	c.chunks = slices.Clone(b.chunks)
	return &c
}

func (b *bfc) encode(w *strings.Builder) {
	for _, c := range b.chunks {
		fmt.Fprintf(w, "%x/%x/%t;", c.addr, c.size, c.used)
	}
}

// ---- caching allocator ----

const cachingRound = 512
const smallSize = 1 << 20

type cblock struct {
	addr, size int64
	seg        int
	stream     int
	free       bool
	uses       []int // streams recorded with record_stream
	pending    []int // operation instances the free waits for
	waiting    bool  // freed, waiting for its events
}

type caching struct {
	next   int64
	nseg   int
	blocks []cblock // sorted by addr
}

func (c *caching) processEvents(done func(int) bool) {
	for i := range c.blocks {
		bl := &c.blocks[i]
		if !bl.waiting {
			continue
		}
		all := true
		for _, p := range bl.pending {
			if !done(p) {
				all = false
				break
			}
		}
		if all {
			bl.waiting, bl.pending = false, nil
			c.freeBlock(i)
		}
	}
}

func (c *caching) malloc(size int64, stream int, done func(int) bool) (int64, int64, bool) {
	c.processEvents(done)
	n := roundUp(max(size, 1), cachingRound)
	best := -1
	for i, b := range c.blocks {
		if !b.free || b.stream != stream || b.size < n {
			continue
		}
		if best < 0 || b.size < c.blocks[best].size || b.size == c.blocks[best].size && b.addr < c.blocks[best].addr {
			best = i
		}
	}
	if best < 0 {
		addr := c.next
		c.next += roundUp(n, 2<<20)
		c.blocks = append(c.blocks, cblock{addr: addr, size: n, seg: c.nseg, stream: stream})
		c.nseg++
		return addr, n, true
	}
	b := c.blocks[best]
	rest := b.size - n
	if n <= smallSize && rest >= cachingRound || rest > smallSize {
		c.blocks[best].size = n
		c.blocks = slices.Insert(c.blocks, best+1, cblock{addr: b.addr + n, size: rest, seg: b.seg, stream: b.stream, free: true})
	}
	c.blocks[best].free = false
	c.blocks[best].uses = nil
	return b.addr, c.blocks[best].size, true
}

// freeWithEvents frees a block, waiting for pending operations first.
func (c *caching) freeWithEvents(addr int64, pending []int) {
	i := c.find(addr)
	if i < 0 {
		return
	}
	if len(pending) > 0 {
		c.blocks[i].waiting, c.blocks[i].pending = true, pending
		return
	}
	c.freeBlock(i)
}

func (c *caching) uses(addr int64) []int {
	if i := c.find(addr); i >= 0 {
		return c.blocks[i].uses
	}
	return nil
}

func (c *caching) waitingAt(addr int64) bool {
	for _, b := range c.blocks {
		if b.addr == addr && b.waiting {
			return true
		}
	}
	return false
}

func (c *caching) recordStream(addr int64, stream int) {
	i := c.find(addr)
	if i < 0 || c.blocks[i].stream == stream || slices.Contains(c.blocks[i].uses, stream) {
		return
	}
	c.blocks[i].uses = append(slices.Clone(c.blocks[i].uses), stream)
}

func (c *caching) find(addr int64) int {
	return slices.IndexFunc(c.blocks, func(b cblock) bool { return b.addr == addr && !b.free })
}

func (c *caching) free(addr int64) { c.freeWithEvents(addr, nil) }

func (c *caching) freeBlock(i int) {
	c.blocks[i].free = true
	c.blocks[i].uses = nil
	if i+1 < len(c.blocks) && c.blocks[i+1].free && !c.blocks[i+1].waiting && c.blocks[i+1].seg == c.blocks[i].seg {
		c.blocks[i].size += c.blocks[i+1].size
		c.blocks = slices.Delete(c.blocks, i+1, i+2)
	}
	if i > 0 && c.blocks[i-1].free && !c.blocks[i-1].waiting && c.blocks[i-1].seg == c.blocks[i].seg {
		c.blocks[i-1].size += c.blocks[i].size
		c.blocks = slices.Delete(c.blocks, i, i+1)
	}
}

func (c *caching) clone() pool {
	d := *c
	d.blocks = slices.Clone(c.blocks)
	return &d
}

func (c *caching) encode(w *strings.Builder) {
	fmt.Fprintf(w, "%x;", c.next)
	for _, b := range c.blocks {
		fmt.Fprintf(w, "%x/%x/%d/%t/%v/%v/%t;", b.addr, b.size, b.stream, b.free, b.uses, b.pending, b.waiting)
	}
}

// ---- stream-ordered allocator ----

type soblock struct {
	addr, size int64
	free       bool
	freeStream int
	freeOp     int // the free operation instance, -1 once known complete
}

type streamOrdered struct {
	next   int64
	blocks []soblock
}

func (s *streamOrdered) malloc(size int64, stream int, done func(int) bool) (int64, int64, bool) {
	n := roundUp(max(size, 1), Granule)
	best := -1
	for i, b := range s.blocks {
		if !b.free || b.size < n {
			continue
		}
		// reuse when the free completed (opportunistic) or is ordered
		// before the allocation on the same stream
		if !(b.freeOp < 0 || done(b.freeOp) || b.freeStream == stream) {
			continue
		}
		if best < 0 || b.size < s.blocks[best].size || b.size == s.blocks[best].size && b.addr < s.blocks[best].addr {
			best = i
		}
	}
	if best < 0 {
		addr := s.next
		s.next += n
		s.blocks = append(s.blocks, soblock{addr: addr, size: n, freeOp: -1})
		return addr, n, true
	}
	s.blocks[best].free = false
	return s.blocks[best].addr, s.blocks[best].size, true
}

// freeAsync marks a block free as of the stream-ordered free op.
func (s *streamOrdered) freeAsync(addr int64, stream, op int) {
	for i := range s.blocks {
		if s.blocks[i].addr == addr && !s.blocks[i].free {
			s.blocks[i].free, s.blocks[i].freeStream, s.blocks[i].freeOp = true, stream, op
			return
		}
	}
}

func (s *streamOrdered) free(addr int64) { s.freeAsync(addr, -1, -1) }

func (s *streamOrdered) clone() pool {
	d := *s
	d.blocks = slices.Clone(s.blocks)
	return &d
}

func (s *streamOrdered) encode(w *strings.Builder) {
	fmt.Fprintf(w, "%x;", s.next)
	for _, b := range s.blocks {
		fmt.Fprintf(w, "%x/%x/%t/%d/%d;", b.addr, b.size, b.free, b.freeStream, b.freeOp)
	}
}

// ---- Metal buffer pool ----

type mbuf struct {
	addr, size int64
	lastUse    int
}

type metalPool struct {
	next     int64
	clock    int
	capacity int
	cached   []mbuf
	live     []mbuf
}

func (p *metalPool) malloc(size int64, _ int, _ func(int) bool) (int64, int64, bool) {
	n := max(size, 1)
	hi := min(2*n, n+32<<10)
	best := -1
	for i, b := range p.cached {
		if b.size < n || b.size > hi {
			continue
		}
		if best < 0 || b.size < p.cached[best].size || b.size == p.cached[best].size && b.addr < p.cached[best].addr {
			best = i
		}
	}
	if best >= 0 {
		b := p.cached[best]
		p.cached = slices.Delete(slices.Clone(p.cached), best, best+1)
		p.live = append(p.live, b)
		return b.addr, b.size, true
	}
	addr := p.next
	p.next += roundUp(n, Granule)
	p.live = append(p.live, mbuf{addr: addr, size: n})
	return addr, n, true
}

func (p *metalPool) free(addr int64) {
	i := slices.IndexFunc(p.live, func(b mbuf) bool { return b.addr == addr })
	if i < 0 {
		return
	}
	b := p.live[i]
	p.live = slices.Delete(slices.Clone(p.live), i, i+1)
	p.clock++
	b.lastUse = p.clock
	p.cached = append(p.cached, b)
	if len(p.cached) > p.capacity {
		lru := 0
		for j, c := range p.cached {
			if c.lastUse < p.cached[lru].lastUse {
				lru = j
			}
		}
		p.cached = slices.Delete(p.cached, lru, lru+1)
	}
}

func (p *metalPool) clone() pool {
	d := *p
	d.cached = slices.Clone(p.cached)
	d.live = slices.Clone(p.live)
	return &d
}

func (p *metalPool) encode(w *strings.Builder) {
	fmt.Fprintf(w, "%x/%d;", p.next, p.clock)
	for _, b := range p.cached {
		fmt.Fprintf(w, "c%x/%x/%d;", b.addr, b.size, b.lastUse)
	}
	for _, b := range p.live {
		fmt.Fprintf(w, "l%x/%x;", b.addr, b.size)
	}
}

// ---- host heap ----

type hblock struct{ addr, size int64 }

// hostHeap reuses the most recently freed block of the same size (LIFO).
type hostHeap struct {
	next  int64
	freed []hblock
}

func (h *hostHeap) malloc(size int64) (int64, int64) {
	n := roundUp(max(size, 1), Granule)
	for i := len(h.freed) - 1; i >= 0; i-- {
		if h.freed[i].size == n {
			b := h.freed[i]
			h.freed = slices.Delete(slices.Clone(h.freed), i, i+1)
			return b.addr, n
		}
	}
	addr := h.next
	h.next += n
	return addr, n
}

func (h *hostHeap) free(addr, size int64) {
	h.freed = append(slices.Clip(h.freed), hblock{addr, size})
}
