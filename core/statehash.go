package core

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

// Paths that meet again in the same memory are one path from there on:
// when more paths are alive than the bound allows, equal states are kept
// once before any is dropped (see bound). Two states are equal when every
// field that decides what the rest of the function does or reports is
// equal; the comparison is by a 64-bit hash of those fields (maphash),
// so two different states are merged only on a hash collision.

// stateHasher encodes a state's fields into buf, hashed once at the end.
type stateHasher struct {
	buf []byte
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

func (w *stateHasher) value(v value) {
	w.i64(int64(v.pt))
	w.i64(int64(v.owns))
	w.i64(int64(v.kind))
	w.flag(v.null)
	w.i64(int64(v.flag))
	w.i64(int64(v.from))
	w.flag(v.moved)
	w.flag(v.known)
	w.i64(v.num)
	w.flag(v.fromMoved)
	w.flag(v.prvalue)
	w.i64(int64(v.status))
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
	w.i64(int64(o.spare))
	w.i64(int64(o.refs))
	w.flag(o.kept)
	w.i64(int64(o.fam))
	w.i64(int64(o.elem))
	w.i64(int64(o.parent))
	w.i64(int64(o.pos))
	w.flag(o.pinned)
	w.flag(o.device)
	w.i32s(o.holds)
	w.i64(int64(len(o.heldAs)))
	for _, h := range o.heldAs {
		w.str(h)
	}
	w.str(o.key)
	w.str(o.class)
	lk := o.link()
	w.i64(int64(lk.twin))
	w.i64(int64(lk.copiedAt))
	w.flag(lk.lost)
	w.i64(int64(lk.lostAt))
	w.str(lk.lostVia)
	w.i64(int64(o.counted))
	w.i64(int64(o.rc))
	w.flag(o.retained)
	w.flag(o.shared)
	w.i64(int64(o.madeAt))
	w.i64(int64(o.inner))
	w.flag(o.smart)
	w.flag(o.stepped)
}

func (w *stateHasher) local(l *local) {
	w.str(l.name)
	w.i64(int64(l.slot))
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
	w.i64(int64(l.deref))
	w.i64(int64(l.derefObj))
	w.str(l.tname)
	w.i64(int64(l.setAt))
}

func (w *stateHasher) work(k *work) {
	w.str(k.queue)
	w.i64(int64(k.at))
	w.str(k.what)
	w.i32s(k.reads)
	w.i32s(k.writes)
	w.flag(k.pinnedOnly)
	w.flag(k.thread)
}

// sum hashes s with seed.
func (w *stateHasher) sum(seed maphash.Seed, s *state) uint64 {
	w.buf = w.buf[:0]
	w.i64(int64(len(s.objs)))
	for i := range s.objs {
		w.object(&s.objs[i])
	}
	w.i64(int64(len(s.locals)))
	for i := range s.locals {
		w.local(&s.locals[i])
	}
	w.i32s(s.temps)
	w.i64(int64(len(s.cons)))
	for _, c := range s.cons {
		w.str(c.name)
		w.str(c.op)
		w.i64(c.k)
	}
	w.i64(int64(s.flow))
	w.flag(s.failed)
	w.i64(int64(len(s.pending)))
	for i := range s.pending {
		w.work(&s.pending[i])
	}
	w.flag(s.hasParts)
	w.value(s.ret)
	w.i64(int64(s.retArg))
	w.i64(int64(s.retRef))
	// The count of calls matters only as "a call after the store" (see
	// escapes.go): paths that differ in it alone are the same path.
	w.i64(int64(len(s.escs)))
	for _, e := range s.escs {
		w.i64(int64(e.at))
		w.str(e.lhs)
		w.i64(int64(e.obj))
		w.flag(s.calls > e.calls)
		w.str(e.where)
		w.str(e.how)
	}
	return maphash.Bytes(seed, w.buf)
}

// dedupe keeps the first of each set of equal states, in order.
func dedupe(ss []*state) []*state {
	var w stateHasher
	seed := maphash.MakeSeed()
	seen := make(map[uint64]bool, len(ss))
	out := ss[:0]
	for _, s := range ss {
		k := w.sum(seed, s)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
	}
	return out
}

// i32s writes a length and the values.
func (w *stateHasher) i32s(v []int32) {
	w.i64(int64(len(v)))
	for _, x := range v {
		w.i64(int64(x))
	}
}
