package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// A pointer into this call's frame stored where the caller can reach it —
// through an out-parameter (*out = p), in a field of what a parameter
// points to or refers to (desc->data = p, cfg.buf = p), or in a data
// member of the method's object (ptr_ = p) — and left there when the
// function returns is a dangling pointer handed to the caller, as if it
// were returned. Only stores no call follows on the path count: a store
// made for a call the function goes on to make (fill a descriptor, submit
// it) is that call's business.

// The object keeps what is put into a member container in the same way
// (regs_.push_back(&x)), and a closure that captures a frame local by
// reference keeps a pointer to it: a lambda stored in a member or put in
// a member container (work_.push_back([&] { n++; })) is such a store.

// escStore is one such store on a path.
type escStore struct {
	at    parser.NodeID // the assignment or the insertion
	lhs   string        // where it was stored, as written
	obj   int32         // the frame object the pointer points into
	calls int32         // the path's calls before it (see state.calls)
	// where keeps it, when not the caller: "member" (a data member of
	// the method's object), "static" (a static local), "global" (a
	// variable of the file's namespace scope).
	where string
	// how: "" for a pointer stored, "held" for one put in a container,
	// "lambda" for a closure capturing the object's local by reference,
	// "copy" for a pointer field of an object copied there.
	how string
	// member: the data member of the object lhs that holds it, when a
	// method of the object's class stored it there (see deferFacts): it
	// stays until a method that assigns that member runs, whatever else
	// is called (else any call may take it back).
	member string
}

// stored records the store of v into lhs at n when lhs is reachable by
// the caller and v points into the frame; any store into lhs replaces
// what was recorded for it.
func (x *exec) stored(s *state, lhs parser.NodeID, v value, n parser.NodeID) {
	if x.inLambda > 0 {
		return
	}
	text := x.text(lhs)
	x.unkeep(s, text)
	if v.clo != nil && x.isMemberStore(s, lhs) {
		x.keepClosure(s, text, "member", v.clo, n)
		return
	}
	if v.clo != nil && x.callerHolds(s, lhs) {
		x.keepClosure(s, text, "", v.clo, n)
		return
	}
	reach, where := x.callerReaches(s, lhs)
	vs := []value{v}
	carried := x.fieldPointees(s, v)
	if len(carried) > 0 {
		// A copy of a local object: its pointer fields are stored too.
		reach, where = x.callerReachesCopy(s, lhs)
		for _, t := range carried {
			vs = append(vs, borrowOf(t, tPointer))
		}
	}
	if !reach {
		return
	}
	for i, v := range vs {
		if v.kind != tPointer && v.kind != tView {
			continue
		}
		how := ""
		if i > 0 {
			how = "copy"
		}
		switch {
		case x.frameLive(s, v.pt):
			s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: text, obj: v.pt, calls: s.calls, where: where, how: how})
		case x.inTemporary(s, v.pt):
			// Into a temporary of this statement: dangling from its end,
			// whatever the function does next.
			s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: text, obj: v.pt, calls: -1, where: where, how: "temp"})
		}
	}
}

// storedInArg records the store, by call n, of v into field field of
// what argument arg points to, when arg is a parameter the caller handed
// in and v points into the frame: as stored records p->field = v.
func (x *exec) storedInArg(s *state, arg parser.NodeID, field string, v value, n parser.NodeID) {
	if x.inLambda > 0 || v.kind != tPointer || !x.frameLive(s, v.pt) {
		return
	}
	l := x.param(s, arg)
	if l == nil || l.typ != tPointer || x.opt.Members == nil || !pointerType(x.opt.Members(l.tname)[field]) {
		return
	}
	lhs := x.text(arg) + "->" + field
	x.unkeep(s, lhs)
	s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: lhs, obj: v.pt, calls: s.calls})
}

// inTemporary says obj is a live temporary of the current full
// expression, or memory one owns.
func (x *exec) inTemporary(s *state, obj int32) bool {
	for obj >= 0 && int(obj) < len(s.objs) {
		o := s.objs[obj]
		if o.state != live {
			return false
		}
		if slices.Contains(s.temps, obj) {
			return true
		}
		obj = o.parent - 1
	}
	return false
}

// unkeep forgets the stores into lhs: it was given a new value, emptied,
// or changed by a method.
func (x *exec) unkeep(s *state, lhs string) {
	if !slices.ContainsFunc(s.escs, func(e escStore) bool { return e.lhs == lhs }) {
		return
	}
	s.escs = slices.DeleteFunc(slices.Clone(s.escs), func(e escStore) bool { return e.lhs == lhs })
}

// keptIn records what an insertion at n puts into the container lhs that
// where keeps (see escStore), whose elements are of kind elem: pointers
// into live frame objects (when the elements are pointers or views:
// other elements copy what they are made from), and closures that
// capture frame locals by reference.
func (x *exec) keptIn(s *state, lhs, where string, elem typeKind, vs []value, n parser.NodeID) {
	if x.inLambda > 0 {
		return
	}
	for _, v := range vs {
		switch {
		case v.clo != nil:
			x.keepClosure(s, lhs, where, v.clo, n)
		case (v.kind == tPointer || v.kind == tView) && (elem == tPointer || elem == tView) && x.frameLive(s, v.pt):
			s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: lhs, obj: v.pt, calls: s.calls, where: where, how: "held"})
		case v.kind == tStorage && elem == tView && x.frameLive(s, v.owns):
			// A view made of a string or container put in (emplace_back(s)
			// on a vector of string_view) views its buffer.
			s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: lhs, obj: v.owns, calls: s.calls, where: where, how: "held"})
		}
	}
}

// keptForCaller records what a method call at n made the caller's object
// obj (what a reference or pointer parameter names) keep of the frame:
// the holds from index before on. Left there when the function returns,
// they dangle in the caller's object (recv as written).
func (x *exec) keptForCaller(s *state, obj int32, before int, recv string, n parser.NodeID) {
	if x.inLambda > 0 || obj < 0 || int(obj) >= len(s.objs) || s.objs[obj].kind != oParam {
		return
	}
	holds := s.objs[obj].holds
	for i := before; i < len(holds); i++ {
		if x.frameLive(s, holds[i]) {
			s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: recv, obj: holds[i], calls: s.calls, how: "held"})
		}
	}
}

// keepClosure records the frame locals closure c captures by reference,
// now kept by lhs, which where keeps.
func (x *exec) keepClosure(s *state, lhs, where string, c *closure, n parser.NodeID) {
	for _, cp := range c.caps {
		if cp.byRef && x.frameLive(s, cp.slot) {
			s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: lhs, obj: cp.slot, calls: s.calls, where: where, how: "lambda"})
		}
	}
}

// frameLive says obj is a live object of this call's frame that ends when
// it returns: not the heap, not a parameter's referent, not kept.
func (x *exec) frameLive(s *state, obj int32) bool {
	if obj < 0 || int(obj) >= len(s.objs) {
		return false
	}
	if o := s.objs[obj]; !o.frame || o.kept || o.state != live || o.kind == oParam || o.kind == oHeap && !s.frameOwned(obj) {
		return false
	}
	for i := range s.locals {
		if l := s.locals[i]; l.param && l.slot == obj && x.templateParam(l.tname) {
			// A parameter of a template type may be a reference (T = U&):
			// its address is then the caller's object.
			return false
		}
	}
	return true
}

// frameOwned says obj and the objects it is part of are the frame's: a
// local owns them, and no call or store took them over.
func (s *state) frameOwned(obj int32) bool {
	for obj >= 0 && int(obj) < len(s.objs) {
		o := s.objs[obj]
		if !o.frame || o.kept {
			return false
		}
		obj = o.parent - 1
	}
	return true
}

// isMemberStore says lhs names a data member of the method's object (m or
// this->m) that no local hides.
func (x *exec) isMemberStore(s *state, lhs parser.NodeID) bool {
	name := memberName(x.f, lhs)
	if !x.hasMembers || name == "" {
		return false
	}
	if i := s.lookup(name); i >= 0 && x.kind(lhs) == parser.KindIdentifier {
		return s.locals[i].member
	}
	_, ok := x.classMembers[name]
	return ok
}

// callerHolds says lvalue lhs is an object of the caller's, whatever its
// type: a reference parameter itself (cb for F& cb), what a pointer
// parameter points to (*out), or a field of either (r.f, p->f).
func (x *exec) callerHolds(s *state, lhs parser.NodeID) bool {
	f := x.f
	switch x.kind(lhs) {
	case parser.KindIdentifier:
		i := s.lookup(x.text(lhs))
		return i >= 0 && s.locals[i].param && s.locals[i].ref && !s.locals[i].member
	case parser.KindPointerExpression:
		if !x.isDeref(lhs) {
			return false
		}
		l := x.param(s, f.Field(lhs, parser.FieldArgument))
		return l != nil && l.typ == tPointer
	case parser.KindFieldExpression:
		arg := f.Field(lhs, parser.FieldArgument)
		if x.kind(arg) == parser.KindThis {
			return false
		}
		l := x.param(s, arg)
		return l != nil && (l.typ == tPointer && strings.Contains(x.text(f.Field(lhs, parser.FieldOperator)), "->") || l.ref)
	}
	return false
}

// callerReaches says an lvalue is a pointer or view that outlives the
// call: *p of a pointer-to-pointer parameter, p->f or r.f of a pointer or
// reference parameter whose class declares f as a pointer or view (the
// caller's: where ""), a data member so declared (m, this->m: "member"),
// a static local ("static"), a variable of the file's namespace scope
// ("global").
func (x *exec) callerReaches(s *state, lhs parser.NodeID) (ok bool, where string) {
	f := x.f
	switch x.kind(lhs) {
	case parser.KindIdentifier:
		name := x.text(lhs)
		i := s.lookup(name)
		if i < 0 {
			if pointerType(x.globalType(s, name)) {
				return true, "global"
			}
			return false, ""
		}
		l := s.locals[i]
		if l.depth >= 0 || l.param || l.typ != tPointer && l.typ != tView {
			return false, ""
		}
		if l.member {
			return true, "member"
		}
		return true, "static"
	case parser.KindPointerExpression:
		if !x.isDeref(lhs) {
			return false, ""
		}
		l := x.param(s, f.Field(lhs, parser.FieldArgument))
		if l == nil || l.typ != tPointer || l.decl == parser.None {
			return false, ""
		}
		// T** p or T*& p: what *p holds is itself a pointer.
		t := strings.ReplaceAll(x.text(l.decl), " ", "")
		return strings.Contains(t, "**") || strings.Contains(t, "*&"), ""
	case parser.KindFieldExpression:
		arg := f.Field(lhs, parser.FieldArgument)
		field := x.text(f.Field(lhs, parser.FieldField))
		if x.kind(arg) == parser.KindThis {
			return x.hasMembers && pointerType(x.classMembers[field]), "member"
		}
		l := x.param(s, arg)
		if l == nil || !(l.typ == tPointer || l.ref) || x.opt.Members == nil {
			return false, ""
		}
		return pointerType(x.opt.Members(l.tname)[field]), ""
	}
	return false, ""
}

// callerReachesCopy says lhs, assigned a copy of an object, is an
// object the caller reaches (as callerReaches says of a pointer): a
// member or static of class type, what a pointer parameter points to, a
// reference parameter, or a field of one of those.
func (x *exec) callerReachesCopy(s *state, lhs parser.NodeID) (ok bool, where string) {
	f := x.f
	switch x.kind(lhs) {
	case parser.KindIdentifier:
		i := s.lookup(x.text(lhs))
		if i < 0 {
			return false, ""
		}
		switch l := s.locals[i]; {
		case l.param:
			return l.ref && l.typ == tPlain, ""
		case l.depth >= 0 || l.typ != tPlain || l.ref:
			return false, ""
		case l.member:
			return true, "member"
		default:
			return true, "static"
		}
	case parser.KindPointerExpression:
		if !x.isDeref(lhs) {
			return false, ""
		}
		l := x.param(s, f.Field(lhs, parser.FieldArgument))
		return l != nil && l.typ == tPointer, ""
	case parser.KindFieldExpression:
		arg := f.Field(lhs, parser.FieldArgument)
		field := x.text(f.Field(lhs, parser.FieldField))
		if x.kind(arg) == parser.KindThis {
			typ := x.classMembers[field]
			return x.hasMembers && typ != "" && !pointerType(typ) && !strings.HasSuffix(typ, "&"), "member"
		}
		l := x.param(s, arg)
		return l != nil && (l.typ == tPointer || l.ref), ""
	}
	return false, ""
}

// globalType is the declared type of name when it is a variable of the
// file's namespace scope that no local hides, or "".
func (x *exec) globalType(s *state, name string) string {
	if s.lookup(name) >= 0 {
		return ""
	}
	if typ := x.opt.Globals[name]; typ != "" {
		return x.resolve(typ)
	}
	return ""
}

// globalKept records an insertion into, or forgets what was kept by, a
// container of the file's namespace scope that recv names
// (g_list.push_back(&x)).
func (x *exec) globalKept(s *state, recv parser.NodeID, m string, vs []value, n parser.NodeID) {
	if x.kind(recv) != parser.KindIdentifier || len(x.opt.Globals) == 0 {
		return
	}
	name := x.text(recv)
	typ := x.globalType(s, name)
	if classify(typ) != tStorage {
		return
	}
	switch {
	case insertMethods[m]:
		_, elem := containerOf(typ)
		x.keptIn(s, name, "global", elem, vs, n)
	case !readOnly[m]:
		x.unkeep(s, name)
	}
}

// pointerType says a member's declared type (see Classes) is a pointer
// or a view.
func pointerType(typ string) bool {
	return strings.HasSuffix(typ, "*") || typ != "" && classify(typ) == tView
}

// param is the parameter e names, or nil.
func (x *exec) param(s *state, e parser.NodeID) *local {
	if x.kind(e) != parser.KindIdentifier {
		return nil
	}
	i := s.lookup(x.text(e))
	if i < 0 || !s.locals[i].param {
		return nil
	}
	return &s.locals[i]
}

func (x *exec) isDeref(n parser.NodeID) bool {
	t := x.text(n)
	return len(t) > 0 && t[0] == '*'
}

// leftDangling reports the stores of s still in place when its path
// leaves the function, with no call after them.
func (x *exec) leftDangling(s *state) {
	for _, e := range s.escs {
		if int(e.obj) >= len(s.objs) {
			continue
		}
		if e.how == "temp" {
			if o := s.objs[e.obj]; o.state != live {
				via := "temp"
				if e.where != "" {
					via += " in " + e.where
				}
				x.fault(Fault{Kind: ReturnsLocal, Use: e.at, End: parser.None, Via: via, Value: e.lhs, Owner: o.owner})
			}
			continue
		}
		if e.member == "" && e.calls != s.calls {
			continue
		}
		// The frame's locals have ended at the body's closing brace (or
		// earlier, in an inner block): either way the pointer dangles.
		o := s.objs[e.obj]
		if !o.frame || o.kept || o.state == freed {
			continue
		}
		if o.kind == oHeap && (o.state != dead || !s.frameOwned(e.obj)) {
			// Heap memory is the frame's only while a local owns it: its
			// owner's death ended it, and no one took it over.
			continue
		}
		// Via: how it was stored ("left": assigned, "held": put into a
		// container, "lambda": captured by a closure, "copy": a field of
		// an object copied there) and, unless the
		// caller reaches it, " in " where.
		via := "left"
		if e.how != "" {
			via = e.how
		}
		if e.where != "" {
			via += " in " + e.where
		}
		x.fault(Fault{Kind: ReturnsLocal, Use: e.at, End: parser.None, Via: via, Value: e.lhs, Owner: o.owner})
	}
}

// templateParam says name is a type parameter of a template the function
// is declared in.
func (x *exec) templateParam(name string) bool {
	if name == "" {
		return false
	}
	f := x.f
	for a := f.Nodes[x.def].Parent; a != parser.None; a = f.Nodes[a].Parent {
		if f.Kind(a) != parser.KindTemplateDeclaration {
			continue
		}
		for _, w := range strings.FieldsFunc(x.text(f.Field(a, parser.FieldParameters)), func(r rune) bool {
			return r == '<' || r == '>' || r == ',' || r == ' ' || r == '=' || r == '.' || r == '\n' || r == '\t'
		}) {
			if w == name {
				return true
			}
		}
	}
	return false
}

// reassigned drops what the object recv (as written) keeps in members
// that method m of its class (class facts facts) assigns: the "(set:m)"
// fact, or any member when nothing is known of m.
func (x *exec) reassignsKept(s *state, recv string, facts map[string]string, m string) {
	if !slices.ContainsFunc(s.escs, func(e escStore) bool { return e.member != "" && e.lhs == recv }) {
		return
	}
	set, known := facts["(set:"+m+")"]
	if !known && facts["("+m+")"] != "" {
		// A method of the class whose body assigns none.
		known = true
	}
	sets := strings.Split(set, ",")
	s.escs = slices.DeleteFunc(slices.Clone(s.escs), func(e escStore) bool {
		return e.member != "" && e.lhs == recv && (!known || slices.Contains(sets, e.member))
	})
}
