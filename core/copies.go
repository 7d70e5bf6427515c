package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// Implicit copies of a class that frees what a member points to.
//
// A class whose destructor frees the memory a pointer member points to,
// and that declares neither a copy nor a move constructor or assignment,
// is copied member by member (C++ [class.copy.ctor], [class.copy.assign]:
// the implicitly defined copy and move copy each member, so a pointer is
// copied, not what it points to). The copy and the original then share
// that memory, and each one's destructor frees it: the first destruction
// leaves the other pointing at freed memory, the second frees it again.
//
// The core links the two objects (object.twin) when one local is made or
// assigned from another of the class (T b = a; T b(a); b = a; b =
// std::move(a)), and marks the target's memory freed when it is assigned
// a temporary of the class (the temporary is destroyed at the end of the
// statement). Anything that could change what an object holds — a method
// called on it, handing it to a call, assigning to one of its members —
// unlinks it: only copies the path follows to the end are faults.

// sharedMembers lists the members the destructor of class frees whose
// copies an implicit copy would share; nil when the class declares its
// own copy or move, or frees nothing.
func (x *exec) sharedMembers(class string) []string {
	if class == "" || x.opt.Members == nil {
		return nil
	}
	if m, ok := x.shared[class]; ok {
		return m
	}
	var m []string
	if facts := x.opt.Members(class); facts["(cp)"] == "" && hasBody(facts) {
		m = list(facts, "(~!)")
	}
	if x.shared == nil {
		x.shared = map[string][]string{}
	}
	x.shared[class] = m
	return m
}

// link records that objects a and b share what class's destructor frees.
func (x *exec) link(s *state, a, b int32) {
	if a == b || a < 0 || b < 0 || int(a) >= len(s.objs) || int(b) >= len(s.objs) {
		return
	}
	x.unlink(s, a)
	x.unlink(s, b)
	la, lb := s.objs[a].link(), s.objs[b].link()
	la.twin, lb.twin = b+1, a+1
	s.objs[a].setLink(la)
	s.objs[b].setLink(lb)
}

// unlink forgets what obj shares, and that it was freed under it.
func (x *exec) unlink(s *state, obj int32) {
	if obj < 0 || int(obj) >= len(s.objs) {
		return
	}
	o := &s.objs[obj]
	if t := o.link().twin - 1; t >= 0 && int(t) < len(s.objs) && s.objs[t].link().twin == obj+1 {
		lt := s.objs[t].link()
		lt.twin = 0
		s.objs[t].setLink(lt)
	}
	lo := o.link()
	lo.twin, lo.lost, lo.lostAt, lo.lostVia, lo.null = 0, false, parser.None, "", false
	o.setLink(lo)
}

// madeNull marks obj, an object of class made by init (its declaration's
// initialiser, parser.None for T t;), as holding null in every member the
// destructor frees, when the constructor that makes it leaves them null
// (class fact "(null/n)"): its destructor then frees nothing, nor does a
// member-wise copy's.
func (x *exec) madeNull(s *state, obj int32, class string, init parser.NodeID) {
	if obj < 0 || int(obj) >= len(s.objs) || !x.nullMade(class, init) {
		return
	}
	lk := s.objs[obj].link()
	lk.null = true
	s.objs[obj].setLink(lk)
}

// nullObject says v is read from a local object holding null in every
// member its destructor frees (see madeNull): a copy of it shares
// nothing.
func (s *state) nullObject(v value) bool {
	if v.from < 0 || int(v.from) >= len(s.locals) {
		return false
	}
	l := s.locals[v.from]
	return !l.ref && l.typ == tPlain && s.objs[l.slot].link().null
}

// nullMade says an object of class made by init holds null in every
// member its destructor frees.
func (x *exec) nullMade(class string, init parser.NodeID) bool {
	shared := x.sharedMembers(class)
	if shared == nil {
		return false
	}
	nargs := 0
	switch x.kind(init) {
	case parser.KindArgumentList, parser.KindInitializerList:
		nargs = x.argCount(init)
	case parser.KindCallExpression:
		if !x.constructs(init, class) {
			return false
		}
		nargs = x.argCount(x.f.Field(init, parser.FieldArguments))
	case parser.KindCompoundLiteralExpression:
		if !x.constructs(init, class) {
			return false
		}
		nargs = x.argCount(x.f.Field(init, parser.FieldValue))
	default:
		if init != parser.None {
			return false
		}
	}
	nulls := nullMembers(x.opt.Members(class), nargs)
	for _, m := range shared {
		if !slices.Contains(nulls, m) {
			return false
		}
	}
	return true
}

// lose marks the memory obj's members point to as freed at n by via (its
// copy's destructor), for the uses and the destruction that follow.
func (x *exec) lose(s *state, obj int32, n parser.NodeID, via string) {
	o := &s.objs[obj]
	lo := o.link()
	lo.twin, lo.lost, lo.lostAt, lo.lostVia = 0, true, n, via
	o.setLink(lo)
	for i := range s.objs {
		if c := &s.objs[i]; c.parent == obj+1 && c.pos == posHeld && c.state == live {
			c.state, c.end, c.via = freed, n, via
		}
	}
}

// destroyed runs the destructor of obj, a local of a class whose copies
// share memory, at n: a second free when its copy's destructor (or the
// temporary it was assigned) already freed that memory, or when an
// explicit destructor call already ran; otherwise its copy now points at
// freed memory.
func (x *exec) destroyed(s *state, l *local, at parser.NodeID) {
	obj := l.slot
	o := s.objs[obj]
	lk := o.link()
	members := x.sharedMembers(o.class)
	if members == nil {
		return
	}
	if x.kind(at) == parser.KindCompoundStatement {
		// The end of the function: its closing brace.
		at = x.closing(at)
	}
	switch {
	case lk.lost && x.usedLost(s, obj):
		// A use of the freed memory was reported on this path already.
	case lk.lost:
		x.fault(Fault{Kind: DoubleFree, Use: at, End: lk.lostAt, Via: lk.lostVia, Value: l.name, Owner: l.name + "." + members[0]})
	case o.destroyedOnly():
		x.fault(Fault{Kind: DoubleFree, Use: at, End: o.end, Via: o.via, Value: l.name, Owner: l.name + "." + members[0]})
	case lk.twin > 0 && s.objs[lk.twin-1].kind == oStorage:
		// Its copy is an element of a container: one of the two
		// destructors frees the memory under the other, whichever runs
		// first.
		c := s.objs[lk.twin-1]
		x.fault(Fault{Kind: DoubleFree, Use: at, End: lk.copiedAt, Via: dtor(o.class), Value: l.name, Owner: l.name + "." + members[0], Keeper: c.owner})
	case lk.twin > 0 && s.objs[lk.twin-1].state == live:
		x.lose(s, lk.twin-1, at, dtor(o.class)+" of its copy '"+l.name+"'")
	}
	x.unlink(s, obj)
}

// copied links the class object at slot dst, made or assigned from the
// value v, with the local v was read from when that local is an object
// of the same class; a temporary of the class assigned at n frees the
// shared memory at the end of the statement.
func (x *exec) copied(s *state, dst int32, v value, rhs, n parser.NodeID) {
	class := s.objs[dst].class
	if x.sharedMembers(class) == nil {
		return
	}
	if v.from >= 0 && int(v.from) < len(s.locals) {
		src := s.locals[v.from]
		if !src.ref && src.typ == tPlain && s.objs[src.slot].class == class && src.slot != dst {
			if s.objs[src.slot].link().null {
				// A copy of null members: the copy holds null too.
				x.unlink(s, dst)
				x.madeNull(s, dst, class, parser.None)
				return
			}
			x.link(s, dst, src.slot)
		}
		return
	}
	if rhs != parser.None && n != parser.None && x.constructs(rhs, class) && !x.nullMade(class, rhs) {
		x.unlink(s, dst)
		x.lose(s, dst, n, dtor(class)+" of the temporary assigned to it")
	}
}

// constructs says e is T(...) or T{...} for class T.
func (x *exec) constructs(e parser.NodeID, class string) bool {
	f := x.f
	var fn parser.NodeID
	switch x.kind(e) {
	case parser.KindCallExpression:
		fn = f.Field(e, parser.FieldFunction)
	case parser.KindCompoundLiteralExpression:
		fn = f.Field(e, parser.FieldType)
	default:
		return false
	}
	return lastName(x.text(fn)) == class
}

// touched unlinks the object a local names when code may change what it
// holds: a method called on it, the local handed to a call, a member of
// it assigned.
func (x *exec) touched(s *state, v value) {
	if v.from >= 0 && int(v.from) < len(s.locals) {
		if l := s.locals[v.from]; !l.ref && l.typ == tPlain {
			x.unlink(s, l.slot)
		}
	}
}

// sharedField is a.m read from a local a whose member m a copy shares:
// a pointer to the memory m points to, freed if the copy freed it.
func (x *exec) sharedField(s *state, v value, member string) (value, bool) {
	if v.from < 0 || int(v.from) >= len(s.locals) {
		return unknown, false
	}
	l := s.locals[v.from]
	if l.ref || l.typ != tPlain || !s.objs[l.slot].link().lost {
		return unknown, false
	}
	o := s.objs[l.slot]
	for _, m := range x.sharedMembers(o.class) {
		if m == member {
			before := len(s.objs)
			p := s.keyedPart(l.slot, posHeld, m)
			if int(p) >= before {
				// Made now: the memory was freed when the copy's was.
				s.objs[p].state, s.objs[p].end, s.objs[p].via = freed, o.link().lostAt, o.link().lostVia
			}
			s.objs[p].owner = l.name + "." + m
			return borrowOf(p, tPointer), true
		}
	}
	return unknown, false
}

// usedLost says a use of the memory obj lost to its copy was reported (the
// part is live again after its report, see use).
func (x *exec) usedLost(s *state, obj int32) bool {
	for i := range s.objs {
		if c := s.objs[i]; c.parent == obj+1 && c.pos == posHeld && c.state == live && c.via == s.objs[obj].link().lostVia {
			return true
		}
	}
	return false
}

func dtor(class string) string { return "~" + class }

// copiedInto: v, the single argument of an insertion into the container
// whose storage is obj (named recv), is copied member by member into a
// new element. A temporary of such a class frees what the element points
// to at the end of the statement; a local shares it with the element
// until one of them is destroyed.
func (x *exec) copiedInto(s *state, obj int32, recv string, list parser.NodeID, v value, n parser.NodeID) {
	arg := x.lastNamedChild(list)
	if v.from >= 0 && int(v.from) < len(s.locals) {
		src := s.locals[v.from]
		if src.ref || src.typ != tPlain || x.sharedMembers(s.objs[src.slot].class) == nil || s.objs[src.slot].link().null {
			return
		}
		x.link(s, src.slot, obj)
		ls := s.objs[src.slot].link()
		ls.copiedAt = n
		s.objs[src.slot].setLink(ls)
		return
	}
	fn := parser.None
	switch x.kind(arg) {
	case parser.KindCallExpression:
		fn = x.f.Field(arg, parser.FieldFunction)
	case parser.KindCompoundLiteralExpression:
		fn = x.f.Field(arg, parser.FieldType)
	}
	if fn == parser.None {
		return
	}
	class := lastName(x.text(fn))
	if members := x.sharedMembers(class); members != nil && x.knowsClass(class) && !x.nullMade(class, arg) {
		x.fault(Fault{Kind: DoubleFree, Use: n, End: n, Via: dtor(class) + " of the temporary", Value: x.text(arg), Owner: members[0], Keeper: recv})
	}
}

// knowsClass says the class's definition (its data members) is known.
func (x *exec) knowsClass(class string) bool {
	return x.opt.Members != nil && hasBody(x.opt.Members(class))
}

// fieldPointees lists what a copy of the local object v names (or of the
// temporary v is, see madeTemp) carries of its pointer fields: what its
// members were given, and the objects the field cells this path set point
// to ([class.copy.ctor]: an implicit copy copies each member, so a
// pointer member of the copy points where the original's does). Only a
// class whose copy is member-wise counts (none of its own), and only a
// field it declares a pointer or a view; a field of a class whose
// definition is not seen counts when it was set to the address of an
// object of class type, which no field but a pointer takes.
func (x *exec) fieldPointees(s *state, v value) []int32 {
	obj := x.madeTemp(s, v)
	if obj < 0 {
		if v.from < 0 || int(v.from) >= len(s.locals) {
			return nil
		}
		src := s.locals[v.from]
		if src.ref || src.param || src.typ != tPlain || src.slot < 0 || int(src.slot) >= len(s.objs) {
			return nil
		}
		obj = src.slot
	}
	var facts map[string]string
	if c := s.objs[obj].class; c != "" && x.opt.Members != nil {
		facts = x.opt.Members(c)
	}
	if facts["(cp)"] != "" {
		return nil
	}
	known := hasBody(facts)
	var out []int32
	// What a constructor or a braced list made its pointer, view and
	// reference members keep (a member that owns a buffer, a string, has
	// the copy own a copy of it).
	o := s.objs[obj]
	for i, t := range o.holds {
		if t == obj || i >= len(o.heldAs) {
			continue
		}
		typ := x.resolve(facts[strings.TrimSuffix(o.heldAs[i], "[]")])
		if strings.HasSuffix(o.heldAs[i], "[]") {
			if _, el := containerOf(typ); el == tPointer || el == tView {
				out = append(out, t)
			}
			continue
		}
		if pointerType(typ) || strings.HasSuffix(typ, "&") {
			out = append(out, t)
		}
	}
	for i := range s.objs {
		if !s.hasParts {
			break
		}
		c := s.objs[i]
		if c.parent != obj+1 || c.pos != posField || c.inner <= 0 || int(c.inner) > len(s.objs) {
			continue
		}
		t := c.inner - 1
		switch {
		case t == obj:
		case known && pointerType(x.resolve(facts[c.key])):
			out = append(out, t)
		case !known && x.objectLocal(s, t):
			out = append(out, t)
		}
	}
	return out
}

// objectLocal says obj is the storage of a local object of class type:
// not an array (whose name decays to a pointer a string field copies
// from), not of an arithmetic type.
func (x *exec) objectLocal(s *state, obj int32) bool {
	o := s.objs[obj]
	if o.kind != oStack || o.class == "" || o.parent != 0 || arithmetic[o.class] {
		return false
	}
	i := s.slotOf(obj)
	return i >= 0 && !s.locals[i].array && !s.locals[i].ref && s.locals[i].typ == tPlain
}

// countedCopy: v, read from a local object, is copied where the local
// does not reach (an element, a member, what a pointer points to). When
// the object's class has its own copy that gives the copy the source's
// pointer in member m (class fact "(cp=)") while its destructor frees
// what m points to, the copies share that memory and the destructor must
// count them (RefPtr, intrusive handles): the memory lives on past the
// local, in the copy.
func (x *exec) countedCopy(s *state, v value) {
	if v.moved || v.from < 0 || int(v.from) >= len(s.locals) || x.opt.Members == nil {
		return
	}
	src := s.locals[v.from]
	if src.ref || src.typ != tPlain || src.slot < 0 || int(src.slot) >= len(s.objs) || s.objs[src.slot].class == "" {
		return
	}
	shared := list(x.opt.Members(s.objs[src.slot].class), "(cp=)")
	if len(shared) == 0 {
		return
	}
	o := s.objs[src.slot]
	for i, t := range o.holds {
		if i < len(o.heldAs) && slices.Contains(shared, o.heldAs[i]) && t >= 0 && int(t) < len(s.objs) {
			s.objs[t].kept = true
			s.objs[t].frame = false
		}
	}
	// The memory the object lends through its methods (see ownedYield),
	// lent now or later.
	for _, m := range shared {
		part := s.keyedPart(src.slot, posHeld, m)
		s.objs[part].kept = true
		s.objs[part].frame = false
	}
}
