package core

import (
	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// maxDepth bounds how deeply nested code is followed.
const maxDepth = 200

// maxSteps bounds the statements one function's execution runs, summed
// over its paths: a unit of work, so the result never depends on the
// machine.
const maxSteps = 20000

type faultKey struct {
	kind FaultKind
	use  parser.NodeID
}

// exec executes one function.
type exec struct {
	// held is set while useHeld reports the pointers a container holds.
	held   bool
	keeper string // set while useHeld reports what a class object keeps
	dtor   string // set while destructorRuns reports what a destructor reads
	dtorOf string // and the object it destroys, as written
	// mergeFails counts the times the bound was still exceeded after
	// paths were merged (see bound).
	mergeFails int
	f          *parser.File
	def        parser.NodeID
	opt        Options
	// scopeOf is the namespace scope calls are made from (see scope),
	// read once: scopeRead.
	scopeOf   string
	scopeRead bool
	// refAliases: the names the file declares as aliases of a reference
	// or a dependent member type (see opaqueAlias), read once.
	refAliases map[string]bool
	faults     []Fault
	seen       map[faultKey]bool
	cut        bool
	merged     bool // some paths were merged, widened (see bound)
	// entryObjs counts the objects made before the body ran (see
	// stateHasher.entry).
	entryObjs int32
	merger    *merger // made at the first merge
	depth     int     // scope depth while executing
	nest      int     // syntactic nesting, bounded by maxDepth
	// retKind is what the function returns: tPointer, tRef, tView, tAuto
	// or tPlain (a value: a copy).
	retKind typeKind
	// retRvalue: the function returns an rvalue reference (T&&).
	retRvalue bool
	// returns collects the states that returned, for summaries.
	returns []*state
	params  []int32 // the objects pointer parameters point to, by position (-1: none)
	// referents: the objects parameters refer to, by position: what a
	// pointer points to, what a reference (to neither a container nor a
	// smart pointer) is bound to (-1: none).
	referents  []int32
	paramTypes []string // the parameters' type names (see typeName), by position
	// reached: the objects read or written through a pointer on some path
	// (see Call.Derefs).
	reached      map[int32]bool
	stores       []int32  // the storage container parameters by reference own, by position (-1: none)
	storeNames   []string // the parameters' names, by position
	paramNames   []string // every parameter's name, by position
	dtors        map[string]bool
	shared       map[string][]string    // sharedMembers by class (copies.go)
	members      map[string]bool        // see isMember
	classMembers map[string]string      // the method's class: data members and "(method)" names (see declareMembers)
	classSeen    bool                   // the file defines the method's class
	steps        int                    // statements executed, summed over paths (bounded by maxSteps)
	visits       int                    // statements entered with a path to run (the work done, for tests of growth)
	peak         int                    // the most paths alive after a statement of a block (for tests of growth)
	loops        int                    // loops being executed, nested
	writing      parser.NodeID          // the assignment target being evaluated (None: none)
	addressed    parser.NodeID          // the operand of & being evaluated (None: none)
	inLambda     int                    // lambda bodies being run, nested (see invoke)
	invoked      []parser.NodeID        // the calls of the closures being run, outermost first
	running      []parser.NodeID        // and those closures' lambdas
	invokes      map[parser.NodeID]int  // the runs of each closure's body, and at each call (see maxInvokes)
	ran          []parser.NodeID        // the lambdas whose bodies ran on some path
	choice       *choices               // the closure paths of the statement being forked
	branchy      map[parser.NodeID]bool // per lambda: its body has more than one path
	closures     bool                   // a closure was made on some path (see callsClosure)
	// arms: the arm each path takes of a conditional expression that
	// armed forks on (see armed).
	arms       map[parser.NodeID]int8
	hasMembers bool                       // the method\'s object has data members the path follows
	stale      []staleWatch               // pointer members set from owning ones (see stale.go)
	setBy      map[string]map[string]bool // mayBeSet by method (nil: any member)
	released   map[[2]string][]string     // releases by class and method
}

func newExec(f *parser.File, def parser.NodeID, opt Options) *exec {
	return &exec{f: f, def: def, opt: opt, seen: map[faultKey]bool{}, writing: parser.None, addressed: parser.None}
}

func (x *exec) kind(n parser.NodeID) parser.Kind { return x.f.Kind(n) }
func (x *exec) text(n parser.NodeID) string      { return x.f.Text(n) }

// funcDeclarator finds the function_declarator of a definition and says
// whether a pointer or reference declarator wraps it (the return type is
// then a pointer or a reference).
func (x *exec) funcDeclarator(def parser.NodeID) (parser.NodeID, typeKind) {
	k := tPlain
	d := x.f.Field(def, parser.FieldDeclarator)
	for d != parser.None && x.kind(d) != parser.KindFunctionDeclarator {
		switch x.kind(d) {
		case parser.KindPointerDeclarator:
			k = tPointer
		case parser.KindReferenceDeclarator:
			if !strings.HasPrefix(x.text(d), "&&") {
				k = tRef
			} else {
				x.retRvalue = true
			}
		}
		next := x.f.Field(d, parser.FieldDeclarator)
		if next == parser.None {
			next = x.lastNamedChild(d)
		}
		d = next
	}
	if k == tPlain {
		// The type may say it: std::enable_if_t<C, T> or typename
		// std::enable_if<C, T>::type is T ([meta.trans.other]). Aliases
		// are not followed here: they are read tree-wide by last name
		// (a class's 'reference' or 'String' is not every other's), and
		// a callee's result (Returns) is read without them, so the two
		// sides of a call would disagree.
		switch t := strings.TrimSpace(resultOfEnableIf(x.text(x.f.Field(def, parser.FieldType)))); {
		case strings.HasSuffix(t, "&&"):
		case strings.HasSuffix(t, "&"):
			k = tRef
		case strings.HasSuffix(t, "*"):
			k = tPointer
		}
	}
	return d, k
}

// resultOfEnableIf is T of std::enable_if_t<C, T> or typename
// std::enable_if<C, T>::type, or typ itself.
func resultOfEnableIf(typ string) string {
	base, args, tail, ok := splitTemplate(typ)
	if !ok {
		return typ
	}
	switch {
	case lastName(base) == "enable_if_t" && tail == "", lastName(base) == "enable_if" && tail == "::type":
		if r := strings.TrimSpace(cxxtype.Rest(args)); r != "" {
			return r
		}
	}
	return typ
}

// scope returns the namespace scope of the function executed (see
// parser.File.Scope), which names its calls resolve from.
func (x *exec) scope() string {
	if !x.scopeRead {
		x.scopeOf, x.scopeRead = x.f.Scope(x.def), true
	}
	return x.scopeOf
}

func (x *exec) lastNamedChild(n parser.NodeID) parser.NodeID {
	last := parser.None
	for c := range x.f.NamedChildren(n) {
		last = c
	}
	return last
}

func (x *exec) run() {
	var fd parser.NodeID
	var rk typeKind
	if x.kind(x.def) == parser.KindLambdaExpression {
		fd, rk = x.lambdaSignature(x.def)
	} else if fd, rk = x.funcDeclarator(x.def); rk == tPlain {
		switch classify(x.text(x.f.Field(x.def, parser.FieldType))) {
		case tView:
			rk = tView
		case tAuto:
			rk = tAuto
		}
	}
	x.retKind = rk
	s := &state{}
	// Object 0 is what this points to (in a method): delete this and
	// this->~T() end it, and members are used through it.
	s.newObj(object{kind: oParam, owner: "this", class: x.className()})
	x.declareMembers(s)
	x.watchStale(s)
	if fd != parser.None {
		x.declareParams(s, x.f.Field(fd, parser.FieldParameters))
	}
	body := x.f.Field(x.def, parser.FieldBody)
	if body == parser.None {
		return
	}
	x.entryObjs = int32(len(s.objs))
	out := x.stmt(body, []*state{s})
	for _, st := range out {
		if st.flow == normal || st.flow == returned {
			x.leftDangling(st)
			x.leftStale(st)
			x.exitScopes(st, -1, body)
			x.objectOutlived(st, body)
			x.returns = append(x.returns, st)
			x.overReleasedMembers(st)
			if x.keepsMembers(st) {
				x.endMembers(st.clone(), fd)
			}
		}
	}
}

// keepsMembers says a data member of the method's object keeps a pointer
// on path s (see endMembers).
func (x *exec) keepsMembers(s *state) bool {
	if !x.hasMembers || x.classMembers["(order)"] == "" {
		return false
	}
	for i := range s.locals {
		l := &s.locals[i]
		if !l.member {
			continue
		}
		for _, obj := range [2]int32{l.slot, l.val.owns} {
			if obj >= 0 && int(obj) < len(s.objs) && len(s.objs[obj].holds) > 0 {
				return true
			}
		}
	}
	return false
}

// declareParams makes a local for every parameter; a pointer parameter
// points to an object of the caller's, a container parameter owns (by
// value) or refers to (by reference) a buffer.
func (x *exec) declareParams(s *state, list parser.NodeID) {
	for p := range x.f.NamedChildren(list) {
		k := x.kind(p)
		if k != parser.KindParameterDeclaration && k != parser.KindOptionalParameterDeclaration {
			continue
		}
		typText := x.resolve(x.text(x.f.Field(p, parser.FieldType)))
		typ := classify(typText)
		d := x.f.Field(p, parser.FieldDeclarator)
		name, ptr, ref := x.declName(d)
		l := local{name: name, typ: typ, val: unknown, depth: 0, param: true, decl: p, tname: typeName(typText)}
		l.fam, l.elem = containerOf(typText)
		l.slot = s.newObj(object{kind: oStack, owner: name, frame: !ref})
		obj := int32(-1)
		var pointee *local // the container a pointer parameter points to
		switch {
		case ptr:
			l.typ = tPointer
			obj = s.newObj(object{kind: oParam, owner: "*" + name, class: typeName(typText)})
			l.val = borrowOf(obj, tPointer)
			if typ == tStorage && name != "" && x.kind(d) == parser.KindPointerDeclarator && x.kind(x.f.Field(d, parser.FieldDeclarator)) == parser.KindIdentifier {
				// A pointer to a container of the caller's: *name is
				// that container, its buffer the caller's.
				pointee = &local{name: "*" + name, typ: tStorage, depth: 0, param: true, decl: p, tname: l.tname, fam: l.fam, elem: l.elem, derefObj: obj}
				pointee.slot = s.newObj(object{kind: oParam, owner: "*" + name})
				pointee.val = value{pt: -1, owns: s.storage(pointee, false), kind: tStorage, from: -1}
			}
		case typ == tStorage || typ == tUnique || typ == tShared:
			owned := s.storage(&l, !ref)
			if typ != tStorage {
				s.objs[owned].kind = oHeap
			}
			if typ == tShared {
				// The caller holds the other owners.
				s.objs[owned].frame, s.objs[owned].kept, s.objs[owned].refs = false, true, 1
			}
			l.val = value{pt: -1, owns: owned, kind: typ, from: -1}
			l.ref, l.callers = false, ref
		case ref:
			l.ref = true
			l.val = borrowOf(s.newObj(object{kind: oParam, owner: name, class: typeName(typText)}), tRef)
		case typ == tView:
			// A view by value (string_view, span) points into the
			// caller's memory as a pointer does: what reads it reads that.
			obj = s.newObj(object{kind: oParam, owner: "*" + name})
			l.val = borrowOf(obj, tView)
		}
		x.params = append(x.params, obj)
		referent := obj
		if ref && !ptr && typ != tStorage && typ != tUnique && typ != tShared {
			referent = l.val.pt
		}
		x.referents = append(x.referents, referent)
		x.paramTypes = append(x.paramTypes, l.tname)
		store := int32(-1)
		switch {
		case ref && typ == tStorage:
			store = l.val.owns
		case pointee != nil:
			store = pointee.val.owns
		}
		x.stores = append(x.stores, store)
		x.storeNames = append(x.storeNames, name)
		x.paramNames = append(x.paramNames, name)
		if name != "" {
			if pointee != nil {
				l.deref = len(s.locals) + 2 // the local after l
			}
			s.locals = append(s.locals, l)
		}
		if pointee != nil {
			s.locals = append(s.locals, *pointee)
		}
	}
}

// declName reads a declarator: its name and whether it declares a pointer
// or a reference.
func (x *exec) declName(d parser.NodeID) (name string, ptr, ref bool) {
	for d != parser.None {
		switch x.kind(d) {
		case parser.KindIdentifier, parser.KindFieldIdentifier:
			return x.text(d), ptr, ref
		case parser.KindPointerDeclarator:
			ptr = true
		case parser.KindReferenceDeclarator:
			ref = true
		case parser.KindInitDeclarator, parser.KindArrayDeclarator:
		case parser.KindQualifiedIdentifier, parser.KindStructuredBindingDeclarator:
			return "", ptr, ref
		default:
			if x.kind(d) == parser.KindFunctionDeclarator {
				return "", ptr, ref
			}
		}
		next := x.f.Field(d, parser.FieldDeclarator)
		if next == parser.None {
			next = x.lastNamedChild(d)
		}
		d = next
	}
	return "", ptr, ref
}

// Where a use is, for callSite.
const (
	argumentSite = 1 // an argument of a call
	methodSite   = 2 // the object a method is called on
)

// callSite says whether n is an argument of a call (argumentSite), or the
// object a method is called on (methodSite: p->f(), or f() in a method,
// the call itself); 0 for any other use.
func (x *exec) callSite(n parser.NodeID) int {
	if n == parser.None {
		return 0
	}
	if x.kind(n) == parser.KindCallExpression {
		return methodSite
	}
	p := x.f.Nodes[n].Parent
	switch {
	case p == parser.None:
		return 0
	case x.kind(p) == parser.KindArgumentList:
		return argumentSite
	case x.kind(p) == parser.KindCallExpression && x.f.Field(p, parser.FieldFunction) == n:
		return methodSite
	}
	return 0
}

// argumentOf says use lies in the arguments of call expression call, and
// not in the body of a lambda written there (which the call may run
// after what it ends).
func (x *exec) argumentOf(use, call parser.NodeID) bool {
	if use == parser.None || call == parser.None || x.kind(call) != parser.KindCallExpression {
		return false
	}
	args := x.f.Field(call, parser.FieldArguments)
	if args == parser.None {
		return false
	}
	for a := use; a != parser.None; a = x.f.Nodes[a].Parent {
		switch {
		case a == args:
			return true
		case a == call:
			return false
		case x.kind(a) == parser.KindLambdaExpression:
			return false
		}
	}
	return false
}

// fault records a fault once per (kind, use).
func (x *exec) fault(fl Fault) {
	fl.Call = parser.None
	if len(x.invoked) > 0 {
		fl.Call = x.invoked[0]
	}
	k := faultKey{fl.Kind, fl.Use}
	if x.seen[k] {
		return
	}
	x.seen[k] = true
	x.faults = append(x.faults, fl)
}

// explicitDestructor says n is an explicit destructor call (p->~T(),
// this->~T(), o.~T()), not the implicit end of an object whose
// destructor freed memory.
func (x *exec) explicitDestructor(n parser.NodeID) bool {
	if x.kind(n) != parser.KindCallExpression {
		return false
	}
	fn := x.f.Field(n, parser.FieldFunction)
	return x.kind(fn) == parser.KindFieldExpression && strings.HasPrefix(strings.TrimSpace(x.text(x.f.Field(fn, parser.FieldField))), "~")
}

// assignedTo says n is what an assignment writes (m = v, this->m = v,
// p->m = v), not a read.
func (x *exec) assignedTo(n parser.NodeID) bool {
	for {
		p := x.f.Nodes[n].Parent
		switch x.kind(p) {
		case parser.KindAssignmentExpression:
			return x.f.Field(p, parser.FieldLeft) == n
		case parser.KindFieldExpression:
			if x.f.Field(p, parser.FieldArgument) != n {
				return false
			}
			n = p
		default:
			return false
		}
	}
}

// use checks a read or write through v at n.
func (x *exec) use(s *state, v value, n parser.NodeID) {
	for _, obj := range [2]int32{v.pt, v.owns} {
		if obj < 0 || int(obj) >= len(s.objs) {
			continue
		}
		if x.reached == nil {
			x.reached = map[int32]bool{}
		}
		x.reached[obj] = true
		o := s.objs[obj]
		if o.state == live || x.argumentOf(n, o.end) {
			// A call's arguments are evaluated before its body runs
			// ([expr.call]): what the call ends, its arguments read
			// first.
			continue
		}
		if o.destroyedOnly() && (x.explicitDestructor(o.end) || x.kind(o.end) == parser.KindDeleteExpression) && (x.assignedTo(n) || n == x.addressed) {
			// Taking a member's address (&p->m, for a placement new)
			// forms a pointer into the storage, which is allowed
			// ([basic.life]); writing a member sets the storage up
			// again (this->~T(); tag_ = k; new (buf_) U;): what the
			// object kept before is not known now.
			if x.assignedTo(n) {
				s.objs[obj].setUpAgain()
			}
			continue
		}
		if site := x.callSite(n); site != 0 && o.destroyedOnly() {
			// An explicit destructor call ends the object's lifetime but
			// not its storage ([basic.life]): handing the pointer to a
			// call (a deallocation, a placement new) is not a read of the
			// dead object, and a method called on it may set it up again
			// (this->~T(); Assign(v); return *this;).
			if site == methodSite {
				// What the object kept before is not known now.
				s.objs[obj].setUpAgain()
			}
			continue
		}
		fl := Fault{Use: n, End: o.end, Via: o.via, Value: x.text(n), Owner: o.owner, Held: x.held && x.keeper == "", Keeper: x.keeper}
		if o.counted == notCounted && o.madeAt > 0 {
			fl.Lent = o.madeAt
		}
		if x.dtor != "" {
			fl.Value, fl.Keeper = x.dtor, x.dtorOf
		}
		switch {
		case o.kind == oTemp || o.state == dead && (o.via == ";" || o.via == "for"):
			// A temporary, or memory it owned, after its full expression.
			fl.Kind = UseOfTemporary
		case o.state == freed:
			fl.Kind = UseAfterFree
		case o.state == replaced:
			fl.Kind = UseAfterInvalidate
		default:
			fl.Kind = UseAfterScope
		}
		x.fault(fl)
		// One report per ended object and path is enough.
		s.objs[obj].state = live
		s.objs[obj].end = parser.None
	}
}

// exitScopes ends every local deeper than depth (-1: every local and
// parameter): what it owns dies with it.
func (x *exec) exitScopes(s *state, depth int, at parser.NodeID) {
	for i := len(s.locals) - 1; i >= 0 && s.locals[i].depth > depth; i-- {
		x.release(s, &s.locals[i], at)
		s.locals = s.locals[:i]
	}
	x.settle(s)
}

func (x *exec) release(s *state, l *local, at parser.NodeID) {
	if !l.param && !l.ref && l.depth >= 0 {
		switch {
		case l.typ == tPlain:
			if !l.movedFrom {
				x.destructorRuns(s, l.slot, x.closing(at), l.name)
			}
			x.destroyed(s, l, at)
			if !l.movedFrom {
				x.ownerGone(s, l.slot, at, l.name)
			}
		case l.typ == tUnique && l.val.owns >= 0 && int(l.val.owns) < len(s.objs) && s.objs[l.val.owns].state == live:
			x.destructorRuns(s, l.val.owns, x.closing(at), l.name)
		}
	}
	if !(l.param && l.ref) && !l.callers {
		s.end(l.slot, dead, at, "}")
	}
	if l.val.owns < 0 || (l.param && l.ref) {
		return
	}
	switch l.typ {
	case tStorage:
		if !l.param && !l.callers || s.objs[l.val.owns].frame {
			// A container parameter taken by reference names the
			// caller's container: its buffer outlives the call.
			s.end(l.val.owns, dead, at, "}")
		}
	case tUnique:
		if o := &s.objs[l.val.owns]; !l.param && o.state != live && (o.via == "}" || strings.HasSuffix(o.via, "'s destructor")) && o.owner != l.name && !o.kept {
			// Another smart pointer that adopted the same object deleted
			// it as its scope ended; this one deletes it again.
			x.fault(Fault{Kind: DoubleFree, Use: x.closing(at), End: o.end, Via: o.owner + "'s destructor", Value: l.name, Owner: o.owner})
		}
		if !l.param {
			if s.objs[l.val.owns].kind == oParam {
				// What the caller handed in and this smart pointer
				// adopted is deleted: the caller's pointer is freed.
				s.end(l.val.owns, freed, at, l.name+"'s destructor")
			} else {
				s.end(l.val.owns, dead, at, "}")
			}
		}
	case tShared:
		o := &s.objs[l.val.owns]
		o.refs--
		if o.refs <= 0 && !o.kept {
			s.end(l.val.owns, dead, at, "}")
		}
	case tRef:
		// A reference bound to a temporary extends its life to its own.
		s.end(l.val.owns, dead, at, "}")
	}
}

// endTemps ends the temporaries of the full expression just executed.
func (x *exec) endTemps(s *state, at parser.NodeID) {
	for _, t := range s.temps {
		s.end(t, dead, at, ";")
	}
	s.temps = s.temps[:0]
}

// bound keeps the paths alive within the bound: past it, paths that are
// equal but for the way they went are merged (see merge), and only when
// that is not enough are the paths past the bound dropped.
func (x *exec) bound(ss []*state) []*state {
	if len(ss) <= x.opt.MaxStates {
		return ss
	}
	if x.mergeFails < maxMergeFails {
		if x.merger == nil {
			x.merger = newMerger(x.entryObjs)
		}
		var widened bool
		ss, widened = x.merger.merge(ss)
		x.merged = x.merged || widened
		if len(ss) > x.opt.MaxStates {
			x.mergeFails++
		}
	}
	if len(ss) > x.opt.MaxStates {
		x.cut = true
		return ss[:x.opt.MaxStates]
	}
	return ss
}

// maxMergeFails: in a function where merging paths left more than the
// bound this many times, the paths mostly differ in memory, and hashing
// them at every branch costs more than it keeps.
const maxMergeFails = 4
