package core

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"unsafe"
)

// Paths that meet again in the same memory are one path from there on:
// when more paths are alive than the bound allows, states that are equal
// but for the way their paths went are merged into one before any is
// dropped (see bound and merge). Two states are equal so when every
// field that decides what the rest of the function does to memory or
// reports is equal, leaving out the conditions the path took and the
// integer and truth values it knows, and leaving out the objects nothing
// can reach any more (a temporary of a call made on one branch only,
// ended with its statement): those are never read again, and the objects
// after them are compared by their rank among the reachable ones. The
// comparison is by a 64-bit hash of those fields (maphash), so two
// different states are merged only on a hash collision.

// stateHasher encodes a state's fields into buf, hashed once at the end.
// rank is each object's rank among the reachable ones (-1: unreachable),
// and stack the objects still to visit, both kept between states.
type stateHasher struct {
	buf   []byte
	rank  []int32
	stack []int32
	// entry: the objects made before the function's body ran (what this
	// and the parameters point to, the parameters' own storage), which
	// the execution refers to by index (see exec.params): always reached.
	entry int32
}

func (w *stateHasher) i64(v int64) {
	w.buf = binary.AppendVarint(w.buf, v)
}

func (w *stateHasher) str(s string) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(s)))
	w.buf = append(w.buf, s...)
}

func (w *stateHasher) flag(b bool) {
	if b {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

// ref writes object index o as its rank (see reach).
func (w *stateHasher) ref(o int32) {
	if o >= 0 && int(o) < len(w.rank) {
		o = w.rank[o]
	}
	w.i64(int64(o))
}

// ref1 writes an object index + 1 (0: none) as its rank + 1.
func (w *stateHasher) ref1(o int32) {
	if o <= 0 {
		w.i64(int64(o))
		return
	}
	w.ref(o - 1)
}

func (w *stateHasher) refs(v []int32) {
	w.i64(int64(len(v)))
	for _, o := range v {
		w.ref(o)
	}
}

// value writes v but for its integer and truth values (see merge).
func (w *stateHasher) value(v value) {
	w.ref(v.pt)
	w.ref(v.owns)
	w.i64(int64(v.kind))
	w.flag(v.null)
	w.i64(int64(v.from))
	w.flag(v.moved)
	w.flag(v.fromMoved)
	w.flag(v.prvalue)
	w.ref1(v.status)
	w.i64(int64(v.queued))
	// A closure is made once and shared by the clones of its path.
	w.i64(int64(uintptr(unsafe.Pointer(v.clo))))
}

func (w *stateHasher) object(o *object) {
	w.i64(int64(o.kind))
	w.i64(int64(o.state))
	w.str(o.owner)
	w.i64(int64(o.end))
	w.str(o.via)
	w.flag(o.frame)
	w.flag(o.reserved)
	w.flag(o.empty)
	w.flag(o.every)
	w.i64(int64(o.spare))
	w.i64(int64(o.refs))
	w.flag(o.kept)
	w.i64(int64(o.fam))
	w.i64(int64(o.elem))
	w.ref1(o.parent)
	w.i64(int64(o.pos))
	w.flag(o.pinned)
	w.flag(o.device)
	w.refs(o.holds)
	w.i64(int64(len(o.heldAs)))
	for _, h := range o.heldAs {
		w.str(h)
	}
	w.str(o.key)
	w.str(o.class)
	lk := o.link()
	w.ref1(lk.twin)
	w.i64(int64(lk.copiedAt))
	w.flag(lk.lost)
	w.i64(int64(lk.lostAt))
	w.str(lk.lostVia)
	w.flag(lk.null)
	w.i64(int64(o.counted))
	w.i64(int64(o.rc))
	w.flag(o.retained)
	w.flag(o.shared)
	w.i64(int64(o.madeAt))
	w.ref1(o.inner)
	w.flag(o.smart)
	w.flag(o.stepped)
}

func (w *stateHasher) local(l *local) {
	w.str(l.name)
	w.ref(l.slot)
	w.i64(int64(l.typ))
	w.flag(l.ref)
	w.value(l.val)
	w.i64(int64(l.depth))
	w.flag(l.param)
	w.i64(int64(l.decl))
	w.flag(l.array)
	w.i64(int64(l.alias))
	w.i64(int64(l.fam))
	w.i64(int64(l.elem))
	w.flag(l.movedFrom)
	w.flag(l.member)
	w.flag(l.auto)
	w.flag(l.callers)
	w.i64(int64(l.deref))
	w.ref(l.derefObj)
	w.str(l.tname)
	w.i64(int64(l.setAt))
}

func (w *stateHasher) work(k *work) {
	w.str(k.queue)
	w.i64(int64(k.at))
	w.str(k.what)
	w.refs(k.reads)
	w.refs(k.writes)
	w.flag(k.pinnedOnly)
	w.flag(k.thread)
	w.flag(k.recorded)
	w.flag(k.continuation)
	w.flag(k.future)
	w.str(k.on)
	w.flag(k.handed)
	w.str(k.captured)
}

// reach ranks the objects of s that the rest of the function can still
// reach: those made on entry, those a local, a capture, the returned
// value, a temporary, queued device work or a recorded store refers to,
// and what those hold, point to, are parts of or have as parts (a part
// is found from its parent by a walk over the objects).
func (w *stateHasher) reach(s *state) {
	n := len(s.objs)
	w.rank = slices.Grow(w.rank[:0], n)[:n]
	for i := range w.rank {
		w.rank[i] = -1
	}
	w.stack = w.stack[:0]
	for i := int32(0); i < w.entry && int(i) < n; i++ {
		w.mark(i)
	}
	for i := range s.locals {
		w.markLocal(&s.locals[i])
	}
	w.markValue(s.ret)
	for _, t := range s.temps {
		w.mark(t)
	}
	for i := range s.pending {
		for _, o := range s.pending[i].reads {
			w.mark(o)
		}
		for _, o := range s.pending[i].writes {
			w.mark(o)
		}
	}
	for _, e := range s.escs {
		w.mark(e.obj)
	}
	for {
		for len(w.stack) > 0 {
			o := &s.objs[w.stack[len(w.stack)-1]]
			w.stack = w.stack[:len(w.stack)-1]
			for _, h := range o.holds {
				w.mark(h)
			}
			w.mark(o.parent - 1)
			w.mark(o.inner - 1)
			w.mark(o.link().twin - 1)
		}
		// Parts of reached objects: mostly made after their parent, so
		// one pass in order finds them; another only when one was not.
		for i := range s.objs {
			if p := s.objs[i].parent - 1; w.rank[i] < 0 && p >= 0 && int(p) < n && w.rank[p] >= 0 {
				w.mark(int32(i))
			}
		}
		if len(w.stack) == 0 {
			break
		}
	}
	r := int32(0)
	for i := range w.rank {
		if w.rank[i] >= 0 {
			w.rank[i] = r
			r++
		}
	}
}

func (w *stateHasher) mark(o int32) {
	if o >= 0 && int(o) < len(w.rank) && w.rank[o] < 0 {
		w.rank[o] = 0
		w.stack = append(w.stack, o)
	}
}

func (w *stateHasher) markValue(v value) {
	w.mark(v.pt)
	w.mark(v.owns)
	w.mark(v.status - 1)
	if v.clo != nil {
		for i := range v.clo.caps {
			w.mark(v.clo.caps[i].slot)
			w.markLocal(&v.clo.caps[i].l)
		}
	}
}

func (w *stateHasher) markLocal(l *local) {
	w.mark(l.slot)
	w.mark(l.derefObj)
	w.markValue(l.val)
}

// sum hashes s with seed (see merge).
func (w *stateHasher) sum(seed maphash.Seed, s *state) uint64 {
	w.reach(s)
	w.buf = w.buf[:0]
	for i := range s.objs {
		if w.rank[i] >= 0 {
			w.object(&s.objs[i])
		}
	}
	w.i64(-1) // the end of the objects
	w.i64(int64(len(s.locals)))
	for i := range s.locals {
		w.local(&s.locals[i])
	}
	w.refs(s.temps)
	w.i64(int64(s.flow))
	w.str(s.label)
	w.flag(s.failed)
	w.i64(int64(len(s.pending)))
	for i := range s.pending {
		w.work(&s.pending[i])
	}
	w.flag(s.hasParts)
	w.value(s.ret)
	w.i64(int64(s.retArg))
	w.i64(int64(s.retRef))
	w.i64(int64(len(s.retHolds)))
	for _, h := range s.retHolds {
		w.str(h)
	}
	// The count of calls matters only as "a call after the store" (see
	// escapes.go): paths that differ in it alone are the same path.
	w.i64(int64(len(s.escs)))
	for _, e := range s.escs {
		w.i64(int64(e.at))
		w.str(e.lhs)
		w.ref(e.obj)
		w.flag(s.calls > e.calls)
		w.str(e.where)
		w.str(e.member)
		w.str(e.how)
	}
	return maphash.Bytes(seed, w.buf)
}

// merger merges states (see merge), its buffers kept from one merge to
// the next of an execution.
type merger struct {
	w     stateHasher
	seed  maphash.Seed
	first map[uint64]int
}

func newMerger(entry int32) *merger {
	return &merger{w: stateHasher{entry: entry}, seed: maphash.MakeSeed(), first: map[uint64]int{}}
}

// merge keeps the first of each set of states that are equal but for the
// way their paths went and what they can no longer reach (see sum), in
// order, each widened to what the states it stands for agree on: an
// integer or truth value they differ in becomes unknown, and only the
// conditions all of them took are kept. Memory (objects, owners, borrows,
// pending device work) is equal across the set, so every fault any of
// them would meet, the kept one meets; what it loses is the correlation
// between later branches and the earlier ones, so it may also follow a
// path none of them could. widened says some state was not equal to the
// one kept for it.
func (m *merger) merge(ss []*state) (out []*state, widened bool) {
	clear(m.first)
	out = ss[:0]
	for _, s := range ss {
		k := m.w.sum(m.seed, s)
		if i, ok := m.first[k]; ok {
			if widen(out[i], s) {
				widened = true
			}
			continue
		}
		m.first[k] = len(out)
		out = append(out, s)
	}
	return out, widened
}

// widen makes a stand for b as well (see merge): a and b hash equal, so
// they have the same locals. It says whether a changed.
func widen(a, b *state) bool {
	changed := widenValue(&a.ret, b.ret)
	for i := range a.locals {
		if widenValue(&a.locals[i].val, b.locals[i].val) {
			changed = true
		}
	}
	kept := a.cons[:0]
	for _, c := range a.cons {
		if slices.Contains(b.cons, c) {
			kept = append(kept, c)
		}
	}
	if len(kept) != len(a.cons) {
		changed = true
	}
	a.cons = kept
	return changed
}

// widenValue forgets what of *v differs from u: its integer value, its
// truth value.
func widenValue(v *value, u value) bool {
	changed := false
	if v.known && (!u.known || v.num != u.num) {
		v.known, v.num = false, 0
		changed = true
	}
	if v.flag != u.flag && v.flag != 0 {
		v.flag = 0
		changed = true
	}
	return changed
}
