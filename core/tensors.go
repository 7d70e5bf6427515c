package core

import (
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"github.com/holdfast-dev/holdfast/parser"
)

// Tensors, as the packs describe them (aten.yaml: a tensor type's
// factories and copies own fresh memory, "alloc"; contiguous() and the
// like may return a fresh copy, "materialise"; data_ptr() and the like
// point into the tensor's storage, "borrow"). A tensor is a counted
// handle: a named one may share its storage with others, so only the
// result of a call that made fresh memory, while it is still a
// temporary, is taken to be its storage's one owner. A pointer borrowed
// from it dangles once the full expression ends.

// tensorTemp is the temporary tensor call n returns, the one owner of
// fresh storage.
func (x *exec) tensorTemp(s *state, n parser.NodeID) value {
	t := s.newObj(object{kind: oTemp, owner: x.text(n)})
	s.temps = append(s.temps, t)
	return value{pt: -1, owns: t, kind: tStorage, from: -1, prvalue: true}
}

// tensorFactory says a free function call named name makes a tensor of
// fresh memory: a pack's alloc role, qualified by a namespace other than
// std's (at::empty; an unqualified empty(c) may be std::empty).
func (x *exec) tensorFactory(name string) bool {
	i := strings.LastIndex(name, "::")
	if x.opt.API == nil || i <= 0 || strings.TrimPrefix(name[:i], "::") == "std" {
		return false
	}
	return x.opt.API.CallOn(name, false)&apimodel.Alloc != 0
}

// tensorMethod executes recv.m(args) (the value of recv is rv) when the
// packs say what m does to a tensor: on a tensor the packs name (by its
// declared type) or a temporary tensor, a copy (alloc, materialise)
// returns a temporary of fresh storage; on a temporary tensor, a borrow
// points into its storage.
func (x *exec) tensorMethod(s *state, n, recv, list parser.NodeID, rv value, m string, arrow bool) (value, bool) {
	if x.opt.API == nil {
		return unknown, false
	}
	roles := x.opt.API.CallOn(m, true)
	if roles&(apimodel.Alloc|apimodel.Materialise|apimodel.Borrow) == 0 {
		return unknown, false
	}
	temp := !arrow && rv.from < 0 && rv.kind == tStorage && rv.owns >= 0 && int(rv.owns) < len(s.objs) && s.objs[rv.owns].kind == oTemp && x.tensorTemporary(recv)
	switch {
	case roles&(apimodel.Alloc|apimodel.Materialise) != 0 && (temp || x.tensorTyped(s, recv, arrow)):
		x.handOn(s, list, x.args(s, list))
		if roles&apimodel.Alloc == 0 && !arrow && decide(s.cons, contiguous(x.text(recv))) == 1 {
			// Known contiguous on this path: contiguous() "returns the
			// self tensor" (ATen, Tensor.contiguous), no fresh storage.
			return unknown, true
		}
		return x.tensorTemp(s, n), true
	case roles&apimodel.Borrow != 0 && temp:
		x.handOn(s, list, x.args(s, list))
		if s.objs[rv.owns].madeAt == 0 {
			s.objs[rv.owns].madeAt = n
		}
		return borrowOf(rv.owns, tPointer), true
	}
	return unknown, false
}

// tensorTemporary says e is a call that made a temporary tensor (see
// tensorFactory, tensorMethod).
func (x *exec) tensorTemporary(e parser.NodeID) bool {
	e = x.unparen(e)
	if x.kind(e) != parser.KindCallExpression {
		return false
	}
	name, method := x.callName(e)
	if method {
		return x.opt.API.CallOn(name, true)&(apimodel.Alloc|apimodel.Materialise) != 0
	}
	return x.tensorFactory(name)
}

// callName is the name call n calls, and whether it is a method call
// (recv.m(), recv->m(): the name is m).
func (x *exec) callName(n parser.NodeID) (string, bool) {
	fn := x.f.Field(n, parser.FieldFunction)
	if x.kind(fn) == parser.KindFieldExpression {
		return calleeName(x.text(x.f.Field(fn, parser.FieldField))), true
	}
	return calleeName(x.text(fn)), false
}

// contiguous is the fact that the tensor named name is contiguous, as a
// test of is_contiguous() on it learns it (see cond).
func contiguous(name string) constraint {
	return constraint{name: name + ".is_contiguous()", op: "!="}
}

// tensorTyped says recv names a local or parameter whose declared type
// is a tensor type of the packs; with arrow (recv->m()), an optional of
// one or a pointer to one.
func (x *exec) tensorTyped(s *state, recv parser.NodeID, arrow bool) bool {
	if x.kind(recv) != parser.KindIdentifier {
		return false
	}
	i := s.lookup(x.text(recv))
	if i < 0 || s.locals[i].tname == "" {
		return false
	}
	if !arrow {
		return x.opt.API.IsTensor(s.locals[i].tname)
	}
	typ := x.declaredType(&s.locals[i])
	if strings.HasSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(typ), "const")), "*") {
		return x.opt.API.IsTensor(s.locals[i].tname)
	}
	base, args, _, ok := splitTemplate(typ)
	return ok && wrapperTypes[base] && x.opt.API.IsTensor(typeName(cxxtype.FirstArg(args)))
}

// learnLayout: a tensor local initialised from a call whose result the
// packs say is contiguous (a factory, contiguous(): aten.yaml's layout
// entries) is contiguous on the path, until a call that may change it
// (see method) forgets it.
func (x *exec) learnLayout(s *state, l *local, init parser.NodeID) {
	if x.opt.API == nil || init == parser.None || !(x.opt.API.IsTensor(l.tname) || l.tname == "auto") {
		return
	}
	init = x.unparen(init)
	if x.kind(init) != parser.KindCallExpression {
		return
	}
	name, _ := x.callName(init)
	if op, ok := x.opt.API.Layout(name); ok && op.Result == "contiguous" {
		s.cons = append(s.cons, contiguous(l.name))
	}
}
