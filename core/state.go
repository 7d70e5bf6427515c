package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"github.com/holdfast-dev/holdfast/parser"
)

type objKind uint8

const (
	oStack   objKind = iota // a local's own storage
	oHeap                   // from new, malloc, make_unique, make_shared
	oStorage                // a container's or string's buffer
	oTemp                   // a temporary's buffer
	oParam                  // what a pointer parameter points to
)

type objState uint8

const (
	live     objState = iota
	freed             // delete, free, reset
	dead              // its owner's scope ended
	replaced          // its container grew, was cleared or reassigned
)

// object is one piece of memory on one path. Its fields are laid out by
// size (strings and slices, then 32-bit, then byte-sized ones): every
// path's copy of every object pays for padding.
type object struct {
	owner string // the local or expression that owned it
	via   string // what ended it
	// holds: for a container's storage, the objects the pointers put in
	// it point to; handing the container on uses them. Shared between
	// path clones: only ever appended to through slices.Clip.
	holds []int32
	// heldAs: for a class object, the member each entry of holds was
	// stored in ("" for a container's elements); a new store into the same
	// member replaces it.
	heldAs []string
	// key: for a posKeyed element, the key it was found by, as written
	// ("" for one reached by iteration).
	key string
	// class is the class of the object stored here, when known (a local
	// of class type, new T, make_unique<T>, a unique_ptr<T>'s object):
	// its facts say which methods return pointers into memory it owns.
	class string
	// cp: what an implicit copy of the object shares (nil: nothing; see
	// copyLink). Shared between path clones: replaced, never written.
	cp *copyLink

	end  parser.NodeID // where it ended
	refs int32         // shared_ptr owners alive
	// A container's storage knows its family and what its elements are;
	// an element (front, back, top) or an object an element owns (the
	// element is a smart pointer) hangs off its container's storage or
	// element: parent is that object's index + 1 (0: none).
	parent int32
	// inner: for memory that holds a pointer (what a T** points to), the
	// object (index + 1) that pointer points to (see storedPointer).
	inner int32
	// madeAt: for a counted object, the message that made it (see
	// counted); for memory an owner's method lent (see ownedYield) or a
	// temporary tensor's storage (see tensorMethod), the first call that
	// lent it; 0 when neither.
	madeAt parser.NodeID

	kind  objKind
	state objState
	fam   family
	elem  typeKind
	pos   elemPos
	// frame: the memory belongs to this call's frame (a local's storage or
	// what a local owns), so a pointer into it must not be returned.
	frame bool
	// reserved: a reserve call sized it; growth within the capacity does
	// not replace it, and the capacity is not known, so growth is taken
	// to fit.
	reserved bool
	// empty: a container declared without elements, nothing put in it
	// since; spare (plus one): the room a reserve of a known count left
	// in it, which each single insertion takes one of (0: not known).
	empty bool
	spare int16
	// every: holds names what every element of the container points to —
	// a local declared empty, each insertion one holdfast followed, its
	// elements never written, removed or handed to a call since (see
	// heldElement).
	every bool
	// kept: code holdfast cannot see may own it now (it was moved or
	// shared into an unknown call), so its owners' deaths do not end it.
	kept bool
	// pinned: page-locked host memory (device copies use it after they
	// return); device: device memory, which the host does not touch.
	pinned, device bool
	// smart: a smart pointer made with new (new unique_ptr<T>(p)), whose
	// destructor deletes what it holds (see owners.go).
	smart bool
	// stepped: pointer arithmetic or indexing walked over it (p + 1, ++p,
	// p += k, p[i]), so it is many elements and a field of it names none
	// (see fieldCell).
	stepped bool
	// counted: a reference-counted object a message returned (see
	// counted.go); rc the references this function holds of it,
	// retained whether it retained it, madeAt the message.
	counted  uint8
	rc       int8
	retained bool
	// shared: handed to a call, stored or captured, so another owner may
	// have retained it.
	shared bool
}

// step records pointer arithmetic or indexing on v.
func (s *state) step(v value) {
	if v.kind == tPointer && v.pt >= 0 && int(v.pt) < len(s.objs) {
		s.objs[v.pt].stepped = true
	}
}

// elemPos says which part of a container an object is.
type elemPos uint8

const (
	posNone  elemPos = iota
	posFront         // front(), top() of a queue or heap
	posBack          // back(), top() of a stack
	posOwned         // the object an element (a smart pointer) owns
	posHeld          // the memory an object of a class owns (see Classes)
	posKeyed         // an element of an associative container (see key)
	posField         // the pointer a field holds (see fieldPointer)
)

// copyLink says what an object shares with an implicit copy (see
// copies.go): twin, the object (index + 1) whose destructor frees the
// same memory; copiedAt, where a local was copied into a container; lost,
// that memory was freed at lostAt by lostVia (the copy's destructor).
// Few objects have one, so it hangs off the object instead of widening
// every object of every path.
type copyLink struct {
	lostVia          string
	twin             int32
	copiedAt, lostAt parser.NodeID
	lost             bool
	// null: the object was made by a constructor that leaves every
	// member the destructor frees null, and nothing touched it since: a
	// copy shares nothing (see madeNull).
	null bool
}

// link is what o shares with a copy.
// objClass is the class of object obj, when known ("" otherwise).
func (s *state) objClass(obj int32) string {
	if obj < 0 || int(obj) >= len(s.objs) {
		return ""
	}
	return s.objs[obj].class
}

// setUpAgain: the storage of an object whose destructor was called
// explicitly holds an object again (a method, member writes or memcpy
// set it up); what it kept before is not known.
func (o *object) setUpAgain() {
	o.state, o.end = live, parser.None
	o.letGoAll()
}

// destroyedOnly says an explicit destructor call (p->~T()) ended the
// object: its lifetime is over, its storage is still allocated
// ([basic.life]).
func (o *object) destroyedOnly() bool {
	return o.state == freed && strings.HasPrefix(o.via, "~")
}

func (o *object) link() copyLink {
	if o.cp == nil {
		return copyLink{}
	}
	return *o.cp
}

// setLink replaces what o shares with a copy.
func (o *object) setLink(c copyLink) {
	if c == (copyLink{}) {
		o.cp = nil
		return
	}
	o.cp = &c
}

// value is what an expression yields on one path (fields by size).
type value struct {
	// clo is the closure a lambda made (nil: none).
	clo *closure
	num int64 // see known
	pt  int32 // the object it borrows (points into), or -1
	// owns is the object it owns, or -1.
	owns int32
	// from is the local the value was read from (-1: none, an rvalue).
	from int32
	// status: the status a call returned that says whether it freed
	// object status-1 (0: none); a branch on its failure revives it.
	status int32
	// queued: the status a call returned that says whether it queued the
	// device work of call queued-1 (0: none); a branch on its failure
	// drops that work (a call that reports an error queued nothing).
	queued int32
	kind   typeKind // what made it: tPointer, tView, tIter, tStorage, tUnique, tShared, tPlain
	null   bool     // known to be null
	flag   int8     // a known truth value: 0 unknown, 1 true, 2 false
	// moved marks the result of std::move(x): ownership may be taken.
	moved bool
	// known says num is the value's integer value.
	known bool
	// fromMoved: the pointer a smart pointer moved from holds (null).
	fromMoved bool
	// prvalue: a call's result returned by value, a temporary.
	prvalue bool
}

var unknown = value{pt: -1, owns: -1, from: -1}

// thisObj is the object this points to: the first of every execution.
const thisObj int32 = 0

func borrowOf(obj int32, k typeKind) value {
	v := unknown
	v.pt, v.kind = obj, k
	return v
}

// local is a named value of the function (fields by size).
type local struct {
	name string
	// tname is the declared type's last name, without template arguments
	// (queue for sycl::queue), for packs that name receiver types.
	tname string
	val   value
	depth int
	// alias, when > 0, makes this local another name of local alias-1 (a
	// reference bound to a local container or smart pointer).
	alias int
	// deref, when > 0, is local deref-1: the container a pointer
	// parameter to one points to (std::vector<T>* v), named "*v", for as
	// long as the pointer still points to derefObj (see derefContainer).
	deref    int
	derefObj int32
	slot     int32 // its own storage
	decl     parser.NodeID
	// setAt is the last node that gave the local a new value or new
	// memory, or may have (a call handed it, a method of the object);
	// 0 when nothing did on the path (see stale.go).
	setAt parser.NodeID
	typ   typeKind // what it holds
	ref   bool     // a reference: val.pt is the referent
	param bool
	// array: declared as a C array (T a[n]); its elements are its storage.
	array bool
	// fam and elem: the container the local's declared type is.
	fam  family
	elem typeKind
	// movedFrom: a smart pointer moved from and not given a new object.
	movedFrom bool
	// member: a data member of the method's object (see declareMembers).
	member bool
	// auto: declared auto from a value of no known kind (see bind).
	auto bool
	// callers: a parameter declared as a reference to an owning object
	// (a container, a unique_ptr, a shared_ptr), or a local reference to
	// a container a call returned, kept as that object (ref is false):
	// what it owns, now or once given a new value, is the caller's or
	// its owner's, not the frame's.
	callers bool
}

type flow uint8

const (
	normal flow = iota
	broke
	continued
	returned
	exited // a throw or a failure exit: not a path to report from
	// jumped: a goto; the path goes on from the label state.label names,
	// once a block that holds that label after the goto reaches it.
	jumped
)

// state is one path's memory.
type state struct {
	objs   []object
	locals []local
	temps  []int32 // temporaries of the current full expression
	cons   []constraint
	flow   flow
	label  string // the label a jumped path goes to
	// failed: the path returned false (a method reporting failure).
	failed   bool
	pending  []work     // device work queued and not waited for
	hasParts bool       // some object is a part of another (see part)
	ret      value      // what a return statement returned
	retArg   int        // the container parameter (+1) it points into (see returnedArg)
	retRef   int        // the parameter (+1) whose object it points to or into (see referredArg)
	retHolds []string   // what the object it returned by value holds of the parameters (see heldParams)
	calls    int32      // calls executed on the path
	escs     []escStore // frame pointers stored where the caller reaches (escapes.go)
}

func (s *state) clone() *state {
	return &state{
		objs:     slices.Clone(s.objs),
		locals:   slices.Clone(s.locals),
		temps:    slices.Clone(s.temps),
		cons:     slices.Clone(s.cons),
		flow:     s.flow,
		label:    s.label,
		ret:      s.ret,
		retArg:   s.retArg,
		retRef:   s.retRef,
		retHolds: s.retHolds,
		pending:  slices.Clone(s.pending),
		hasParts: s.hasParts,
		calls:    s.calls,
		escs:     slices.Clip(s.escs),
	}
}

func (s *state) newObj(o object) int32 {
	s.objs = append(s.objs, o)
	return int32(len(s.objs) - 1)
}

// lookup finds the innermost local named name, or -1, through aliases.
func (s *state) lookup(name string) int {
	for i := len(s.locals) - 1; i >= 0; i-- {
		if s.locals[i].name == name {
			for s.locals[i].alias > 0 && s.locals[i].alias-1 < i {
				i = s.locals[i].alias - 1
			}
			return i
		}
	}
	return -1
}

// slotOf is the local whose own storage is obj (&p names it), or -1.
func (s *state) slotOf(obj int32) int {
	if obj < 0 {
		return -1
	}
	for i := len(s.locals) - 1; i >= 0; i-- {
		if s.locals[i].slot == obj && !s.locals[i].ref {
			return i
		}
	}
	return -1
}

// end marks obj ended at n by via, unless it already ended.
func (s *state) end(obj int32, st objState, n parser.NodeID, via string) {
	if obj < 0 {
		return
	}
	o := &s.objs[obj]
	if o.state != live || o.kept && st != freed {
		return
	}
	o.state, o.end, o.via = st, n, via
	s.endParts(obj, st, n, via)
}

// movedOut: obj was moved from. What it owned (its owned and held parts)
// went with the move to an object this path does not follow, so its own
// end no longer ends that memory. (A class whose move is a copy keeps
// its memory; taking it as moved is in the program's favour.)
func (s *state) movedOut(obj int32) {
	if !s.hasParts {
		return
	}
	for i := range s.objs {
		if c := &s.objs[i]; c.parent == obj+1 && (c.pos == posHeld || c.pos == posOwned) && c.state == live {
			c.parent, c.frame, c.kept = 0, false, true
		}
	}
}

// endParts ends what hangs off obj as it ends: references to its elements
// end with it; an object an element owns ends with the element (freed),
// except when the storage only moved (growth moves the owners, not what
// they own).
func (s *state) endParts(obj int32, st objState, n parser.NodeID, via string) {
	if !s.hasParts {
		// Most paths take no element or owned part: no walk over the
		// objects on every end.
		return
	}
	moved := st == replaced && via != "clear" && via != "operator=" && via != "assign" && !removeMethods[via]
	for i := range s.objs {
		c := &s.objs[i]
		if c.parent != obj+1 || c.state != live {
			continue
		}
		cst := st
		switch {
		case (c.pos == posOwned || c.pos == posHeld) && moved:
			// Moving the owner moves the pointer, not the memory.
			continue
		case c.pos == posOwned || c.pos == posHeld && st == replaced:
			cst = freed
		}
		c.state, c.end, c.via = cst, n, via
		s.endParts(int32(i), cst, n, via)
	}
}

// part finds or makes the part pos of obj (an element of a container's
// storage, or the object an element owns).
func (s *state) part(obj int32, pos elemPos) int32 {
	if obj < 0 || int(obj) >= len(s.objs) {
		return -1
	}
	for i := range s.objs {
		// An ended part (a popped element) is not the part there now.
		if s.objs[i].parent == obj+1 && s.objs[i].pos == pos && (s.objs[i].state == live || s.objs[obj].state != live) {
			return int32(i)
		}
	}
	p := s.objs[obj]
	c := object{kind: p.kind, state: p.state, owner: p.owner, end: p.end, via: p.via, frame: p.frame,
		elem: p.elem, parent: obj + 1, pos: pos}
	s.hasParts = true
	c.kept = p.kept
	if pos == posOwned {
		c.kind, c.elem = oHeap, tPlain
	}
	return s.newObj(c)
}

// keyedPart finds or makes the part of obj at pos named by key: the
// memory one member lends, or its buffer (posHeld, see ownedYield), or the
// element of an associative container found by a key (posKeyed; "" is one
// reached by iteration, which is always a new one). A part is a buffer,
// like a container's: handing a pointer into it on after it ended is a
// use.
func (s *state) keyedPart(obj int32, pos elemPos, key string) int32 {
	if obj < 0 || int(obj) >= len(s.objs) {
		return -1
	}
	if key != "" {
		for i := range s.objs {
			if c := s.objs[i]; c.parent == obj+1 && c.pos == pos && c.key == key && (c.state == live || s.objs[obj].state != live) {
				return int32(i)
			}
		}
	}
	p := s.objs[obj]
	s.hasParts = true
	return s.newObj(object{kind: oStorage, state: p.state, owner: p.owner, end: p.end, via: p.via, frame: p.frame,
		parent: obj + 1, pos: pos, key: key, kept: p.kept})
}

// storage makes a new buffer for container local l.
func (s *state) storage(l *local, frame bool) int32 {
	fam := l.fam
	if fam == famNone {
		fam = famContiguous
	}
	return s.newObj(object{kind: oStorage, owner: l.name, frame: frame, fam: fam, elem: l.elem})
}

// templateArg is the class named by the first template argument of
// text: "std::make_unique<Slab>" and "unique_ptr<const Slab>" give Slab.
func templateArg(text string) string {
	i, j := strings.IndexByte(text, '<'), strings.LastIndexByte(text, '>')
	if i < 0 || j <= i {
		return ""
	}
	return typeName(cxxtype.FirstArg(text[i+1 : j]))
}

// splitTemplate splits a type written base<args>tail (a leading const or
// typename left out): "const std::optional<T>&" is std::optional, T, &.
func splitTemplate(typ string) (base, args, tail string, ok bool) {
	t := strings.TrimSpace(typ)
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "const "), "typename "))
	i, j := strings.IndexByte(t, '<'), strings.LastIndexByte(t, '>')
	if i < 0 || j <= i {
		return "", "", "", false
	}
	return strings.TrimSpace(t[:i]), t[i+1 : j], strings.TrimSpace(t[j+1:]), true
}

// typeName is a declared type's last name without qualifiers and template
// arguments: "const sycl::queue&" is queue.
func typeName(typ string) string {
	t := strings.TrimSpace(typ)
	if i := strings.IndexByte(t, '<'); i >= 0 {
		// ns::C<T>::Kind names Kind, a member of C<T>; C<T> names C.
		t = strings.TrimPrefix(strings.TrimSpace(cxxtype.WithoutArgs(t)), "typename ")
	}
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(t, " const"), "const "))
	t = strings.TrimRight(t, " &*")
	return lastName(t)
}

// frameOwner says what l owns belongs to the call's frame: not a data
// member's, a static's, or a caller's (a parameter by reference).
func (l *local) frameOwner() bool {
	return !l.member && l.depth >= 0 && !(l.param && l.ref) && !l.callers
}

// unfree makes the objects live again that a call was taken to free but,
// on this path, did not.
// unqueue drops the device work the calls at calls queued: each reported
// a failure on this path.
func (s *state) unqueue(calls []int32) {
	if len(calls) == 0 {
		return
	}
	var kept []work
	for _, w := range s.pending {
		if !slices.Contains(calls, w.at) {
			kept = append(kept, w)
		}
	}
	s.pending = kept
}

func (s *state) unfree(objs []int32) {
	for _, o := range objs {
		if o >= 0 && int(o) < len(s.objs) && s.objs[o].state == freed {
			s.objs[o].state, s.objs[o].end, s.objs[o].via = live, parser.None, ""
		}
	}
}
