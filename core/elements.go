package core

import "github.com/holdfast-dev/holdfast/parser"

// Elements of containers of pointers. A container holds the objects the
// pointers put in it point to (object.holds); handing the container on
// uses them all (useHeld). Reading one element (v[i], v.front(), a
// range-for's element) yields one of those pointers, and which one is
// known only when every element is accounted for (object.every) and all
// of them point to the same fate: memory that ended. Then the element
// read is a pointer into ended memory whichever element it is.
//
// A range-for visits every element ([stmt.ranged]: begin to end), so its
// element is, on some iteration, each pointer the container holds: one
// that points into ended memory is read on that iteration, whatever the
// others point to (elementVisited).
//
// An end inside a loop that also contains the read is not taken: the
// loop's paths reach one symbolic element on every iteration, so
// `for (i...) delete v[i];` would otherwise free on one iteration the
// element the next reads.

// untrack says the container whose storage is obj may now hold elements
// holdfast did not follow.
func (s *state) untrack(obj int32) {
	if obj >= 0 && int(obj) < len(s.objs) {
		s.objs[obj].every = false
	}
}

// elementRead is the value of an element of the container whose storage
// is store, read at n, when every element points into memory that ended
// before the loops around n began.
func (x *exec) elementRead(s *state, store int32, n parser.NodeID) (value, bool) {
	if store < 0 || int(store) >= len(s.objs) {
		return unknown, false
	}
	if x.writing == n || x.addressed == n {
		// Written, or its address taken: it may hold anything now.
		s.untrack(store)
		return unknown, false
	}
	o := s.objs[store]
	if !o.every || len(o.holds) == 0 || o.elem != tPointer && o.elem != tView {
		return unknown, false
	}
	for _, h := range o.holds {
		if h < 0 || int(h) >= len(s.objs) || s.objs[h].state == live || x.endedInLoopOf(s.objs[h].end, n) {
			return unknown, false
		}
	}
	return borrowOf(o.holds[0], o.elem), true
}

// elementVisited is the element of the container whose storage is store
// that a range-for declared at n binds on the iteration that reaches
// memory that ended before the loop: every element is visited, so one
// such pointer is enough.
func (x *exec) elementVisited(s *state, store int32, n parser.NodeID) (value, bool) {
	if w, ok := x.elementRead(s, store, n); ok {
		return w, true
	}
	if store < 0 || int(store) >= len(s.objs) {
		return unknown, false
	}
	o := s.objs[store]
	if !o.every || o.elem != tPointer && o.elem != tView {
		return unknown, false
	}
	for _, h := range o.holds {
		if h >= 0 && int(h) < len(s.objs) && s.objs[h].state != live && !x.endedInLoopOf(s.objs[h].end, n) {
			return borrowOf(h, o.elem), true
		}
	}
	return unknown, false
}

// endedInLoopOf reports whether end lies in a loop that contains n (n
// itself, when n is one).
func (x *exec) endedInLoopOf(end, n parser.NodeID) bool {
	if end == parser.None {
		return false
	}
	e := x.f.Nodes[end]
	for a := n; a != parser.None; a = x.f.Nodes[a].Parent {
		switch x.kind(a) {
		case parser.KindForStatement, parser.KindWhileStatement, parser.KindDoStatement, parser.KindForRangeLoop:
			if l := x.f.Nodes[a]; e.Start >= l.Start && e.End <= l.End {
				return true
			}
		case parser.KindFunctionDefinition, parser.KindLambdaExpression:
			return false
		}
	}
	return false
}
