package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// Objects that own what they are given. An object of a class keeps the
// pointers its constructor or a method stores in its members (see keep and
// the "(<m/N)" class facts); when the class's destructor gives up such a
// member (deletes it, frees it, hands it back to a pool: "(~)"), the object
// owns that memory, and the memory ends when the object does: at the end
// of a local's scope, when a heap object is deleted, or at the end of the
// statement for a temporary. A smart pointer made with new from a raw
// pointer (new std::unique_ptr<T>(p)) owns p's object the same way: its
// destructor deletes what it owns (cppreference, unique_ptr::~unique_ptr).
// A destructor that gives a member up only under a condition on another
// member (an "owns" flag: "(~?)") decides ownership by state not followed
// here, and is not taken to own it.

// ownerGone ends, as freed at n, the memory obj holds in members its
// class's destructor gives up; who names the object for the report.
func (x *exec) ownerGone(s *state, obj int32, n parser.NodeID, who string) {
	if obj < 0 || int(obj) >= len(s.objs) {
		return
	}
	o := s.objs[obj]
	if len(o.holds) == 0 || o.class == "" {
		return
	}
	var gone []string
	if !o.smart {
		if x.opt.Members == nil {
			return
		}
		facts := x.opt.Members(o.class)
		guarded := guardedByDestructor(facts)
		for _, m := range freedBy(facts, "~") {
			if !slices.Contains(guarded, m) {
				gone = append(gone, m)
			}
		}
		if len(gone) == 0 {
			return
		}
	}
	for i, t := range o.holds {
		if i >= len(o.heldAs) || t < 0 || int(t) >= len(s.objs) {
			continue
		}
		if !o.smart && !slices.Contains(gone, strings.TrimSuffix(o.heldAs[i], "[]")) {
			continue
		}
		tg := &s.objs[t]
		if tg.state != live || tg.kept || tg.kind != oHeap && tg.kind != oParam {
			continue
		}
		tg.owner = who
		s.end(t, freed, n, "~"+o.class)
	}
}

// destructorRuns: the destructor of obj's class runs at n (a local's
// scope ends, its owner deletes it; who names the object), and reads what the object keeps in
// the members its body reads, and those the methods it calls on the
// object read. Locals end in the reverse order of their declarations
// (C++ [stmt.dcl]/[basic.life]), so an object declared first that keeps
// a pointer to one declared later reads ended memory here. Only a
// destructor whose code is known is followed, and a method it calls
// whose code is not known reads nothing: an object's own teardown is the
// one reading not taken on trust.
func (x *exec) destructorRuns(s *state, obj int32, n parser.NodeID, who string) {
	if obj < 0 || int(obj) >= len(s.objs) || x.opt.Members == nil {
		return
	}
	o := s.objs[obj]
	if len(o.holds) == 0 || o.class == "" || o.smart {
		return
	}
	facts := x.opt.Members(o.class)
	if _, ok := facts["(~ureads)"]; !ok {
		return
	}
	// What every run of the destructor reads: a read under a test of
	// another member (if (built_) Clear(p_)) depends on state the path
	// does not follow, and is left out.
	read := map[string]bool{}
	for _, m := range list(facts, "(~ureads)") {
		read[m] = true
	}
	for _, c := range list(facts, "(~calls)") {
		if r, unknown := viaMethods(facts, "ureads", c); !unknown {
			for m := range r {
				read[m] = true
			}
		}
	}
	x.dtor, x.dtorOf = dtor(o.class), who
	x.useRead(s, obj, n, read, func(t int32, m string) bool { return x.detached(s, facts, t, m) })
	x.dtor, x.dtorOf = "", ""
}

// constructed reads e as T(args) or T{args} of class T whose constructor
// of that many arguments keeps some of them: the argument list and what
// the constructor keeps ("" when e is not one).
func (x *exec) constructed(e parser.NodeID, class string) (parser.NodeID, string) {
	if class == "" || x.opt.Members == nil {
		return parser.None, ""
	}
	var fn, list parser.NodeID
	switch x.kind(e) {
	case parser.KindFunctionDeclarator:
		// T obj(a) read as a function declaration (see objectArgs).
		list = x.f.Field(e, parser.FieldParameters)
		if p := x.f.Nodes[e].Parent; x.kind(p) == parser.KindDeclaration {
			fn = x.f.Field(p, parser.FieldType)
		}
	case parser.KindCallExpression:
		fn, list = x.f.Field(e, parser.FieldFunction), x.f.Field(e, parser.FieldArguments)
	case parser.KindCompoundLiteralExpression:
		fn, list = x.f.Field(e, parser.FieldType), x.f.Field(e, parser.FieldValue)
	default:
		return parser.None, ""
	}
	if typeName(x.text(fn)) != class {
		return parser.None, ""
	}
	n := 0
	for range x.f.NamedChildren(list) {
		n++
	}
	stores := x.expandStores(x.opt.Members(class)[storesKey(class, n)], 0)
	if stores == "" {
		return parser.None, ""
	}
	return list, stores
}

// newOwner records what new T(args) keeps of its arguments in the heap
// object obj: what T's constructor stores, or for a smart pointer T, the
// object its raw pointer argument points to.
func (x *exec) newOwner(s *state, obj int32, typ string, list parser.NodeID, vs []value) {
	if list == parser.None || obj < 0 || int(obj) >= len(s.objs) {
		return
	}
	switch classify(typ) {
	case tUnique, tShared:
		if len(vs) == 1 && vs[0].kind == tPointer && vs[0].pt >= 0 {
			o := &s.objs[obj]
			o.class, o.smart = typeName(typ), true
			o.holds = append(slices.Clip(o.holds), vs[0].pt)
			o.heldAs = append(slices.Clip(o.heldAs), "")
		}
		return
	}
	if x.opt.Members == nil {
		return
	}
	class := s.objs[obj].class
	if stores := x.expandStores(x.opt.Members(class)[storesKey(class, len(vs))], 0); stores != "" {
		x.keep(s, obj, stores, list, vs)
	}
}

// detached says object t, which member m of an object of a class with
// facts keeper points to, unlinked itself from that object as it ended:
// t's destructor calls a method of the keeper's class that gives m a new
// value (~Child() { parent_->SetChild(nullptr); }), so the keeper's
// destructor finds m cleared. Mutually linked objects do this; which
// object the call reached is not followed, and taken to be the keeper.
func (x *exec) detached(s *state, keeper map[string]string, t int32, m string) bool {
	class := s.objs[t].class
	if class == "" {
		return false
	}
	for _, meth := range list(x.opt.Members(class), "(~out)") {
		if set, _ := viaMethods(keeper, "set", meth); set[m] {
			return true
		}
	}
	return false
}
