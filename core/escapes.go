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

// escStore is one such store on a path.
type escStore struct {
	at    parser.NodeID // the assignment
	lhs   string        // where it was stored, as written
	obj   int32         // the frame object the pointer points into
	calls int32         // the path's calls before it (see state.calls)
	// member: lhs is a data member of the method's object.
	member bool
}

// stored records the store of v into lhs at n when lhs is reachable by
// the caller and v points into the frame; any store into lhs replaces
// what was recorded for it.
func (x *exec) stored(s *state, lhs parser.NodeID, v value, n parser.NodeID) {
	if x.inLambda > 0 {
		return
	}
	reach, member := x.callerReaches(s, lhs)
	if !reach {
		return
	}
	text := x.text(lhs)
	s.escs = slices.DeleteFunc(slices.Clone(s.escs), func(e escStore) bool { return e.lhs == text })
	if v.kind != tPointer && v.kind != tView || v.pt < 0 || int(v.pt) >= len(s.objs) {
		return
	}
	if o := s.objs[v.pt]; !o.frame || o.kept || o.state != live || o.kind == oHeap || o.kind == oParam {
		return
	}
	for i := range s.locals {
		if l := s.locals[i]; l.param && l.slot == v.pt && x.templateParam(l.tname) {
			// A parameter of a template type may be a reference (T = U&):
			// its address is then the caller's object.
			return
		}
	}
	s.escs = append(s.escs, escStore{at: n, lhs: text, obj: v.pt, calls: s.calls, member: member})
}

// callerReaches says an lvalue is a pointer or view the caller can
// reach: *p of a pointer-to-pointer parameter, p->f or r.f of a pointer or
// reference parameter whose class declares f as a pointer or view, a data
// member so declared (m, this->m). "member" says it is the object's.
func (x *exec) callerReaches(s *state, lhs parser.NodeID) (ok, member bool) {
	f := x.f
	switch x.kind(lhs) {
	case parser.KindIdentifier:
		i := s.lookup(x.text(lhs))
		if i < 0 || !s.locals[i].member || s.locals[i].depth >= 0 {
			return false, false
		}
		k := s.locals[i].typ
		return k == tPointer || k == tView, true
	case parser.KindPointerExpression:
		if !x.isDeref(lhs) {
			return false, false
		}
		l := x.param(s, f.Field(lhs, parser.FieldArgument))
		if l == nil || l.typ != tPointer || l.decl == parser.None {
			return false, false
		}
		// T** p or T*& p: what *p holds is itself a pointer.
		t := strings.ReplaceAll(x.text(l.decl), " ", "")
		return strings.Contains(t, "**") || strings.Contains(t, "*&"), false
	case parser.KindFieldExpression:
		arg := f.Field(lhs, parser.FieldArgument)
		field := x.text(f.Field(lhs, parser.FieldField))
		if x.kind(arg) == parser.KindThis {
			return x.hasMembers && pointerType(x.classMembers[field]), true
		}
		l := x.param(s, arg)
		if l == nil || !(l.typ == tPointer || l.ref) || x.opt.Members == nil {
			return false, false
		}
		return pointerType(x.opt.Members(l.tname)[field]), false
	}
	return false, false
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
		if e.calls != s.calls || int(e.obj) >= len(s.objs) {
			continue
		}
		// The frame's locals have ended at the body's closing brace (or
		// earlier, in an inner block): either way the pointer dangles.
		o := s.objs[e.obj]
		if !o.frame || o.kept || o.state == freed {
			continue
		}
		via := "left"
		if e.member {
			via = "left in member"
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
