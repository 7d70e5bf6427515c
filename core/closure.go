package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// A lambda is a value: the closure it makes holds what it captured, by
// reference (a borrow of the captured local's storage, valid only while
// that local lives) or by value (a copy made when the lambda is). Calling
// it runs its body then, on the path's memory, with its parameters bound
// to the arguments: a capture whose local has died is used there.

type closure struct {
	node parser.NodeID
	caps []capture
}

type capture struct {
	name string
	l    local // the local the body sees under name
	// byRef: captured by reference; slot is the captured local's own
	// storage, by which the body finds that local while it lives.
	byRef bool
	slot  int32
}

// makeClosure records what lambda n captures on s.
func (x *exec) makeClosure(s *state, n parser.NodeID) *closure {
	c := &closure{node: n}
	x.closures = true
	byRef, byVal := false, false
	named := map[string]bool{}
	caps := x.f.Field(n, parser.FieldCaptures)
	for cp := range x.f.NamedChildren(caps) {
		t := strings.TrimSpace(x.text(cp))
		switch {
		case x.kind(cp) == parser.KindLambdaDefaultCapture:
			byRef, byVal = t == "&", t == "="
		case x.kind(cp) == parser.KindIdentifier:
			// [&name] is the token & and the identifier name.
			named[t] = true
			c.add(s, t, x.afterAmp(cp))
		case strings.HasPrefix(t, "&") && !strings.Contains(t, "="):
			name := strings.TrimSpace(strings.TrimPrefix(t, "&"))
			named[name] = true
			c.add(s, name, true)
		case strings.Contains(t, "="):
			x.movedIntoClosure(s, cp)
			// [p = std::move(p)]: an init-capture is a member of the
			// closure of its own ([expr.prim.lambda.capture]); in the
			// body its name is that member, not the local it came from.
			name, _, _ := strings.Cut(t, "=")
			name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "&"))
			if isWord(name) {
				named[name] = true
				c.caps = append(c.caps, capture{name: name, l: local{name: name, typ: tPlain, val: unknown, decl: cp}, slot: -1})
			}
		}
	}
	if !byRef && !byVal {
		return c
	}
	// A default capture takes the locals the body names, but for names
	// the lambda declares itself (its parameters, its own locals: they
	// hide the enclosing ones).
	own := x.declaredIn(n)
	body := x.f.Field(n, parser.FieldBody)
	end := x.f.End(body)
	for i := body; i < end; i++ {
		if x.f.Nodes[i].Kind != parser.KindIdentifier {
			continue
		}
		name := x.f.Text(i)
		if named[name] || own[name] || s.lookup(name) < 0 {
			continue
		}
		if p := x.f.Nodes[i].Parent; x.kind(p) == parser.KindFieldExpression && x.f.Field(p, parser.FieldArgument) != i {
			continue
		}
		if p := x.f.Nodes[i].Parent; x.kind(p) == parser.KindQualifiedIdentifier ||
			x.kind(p) == parser.KindTemplateFunction && x.kind(x.f.Nodes[p].Parent) == parser.KindQualifiedIdentifier {
			// ns::f and ns::f<T> name a function or a type of a
			// namespace or a class, not the local f.
			continue
		}
		named[name] = true
		c.add(s, name, byRef)
	}
	return c
}

// add captures local name of s, by reference or by value.
func (c *closure) add(s *state, name string, byRef bool) {
	i := s.lookup(name)
	if i < 0 {
		return
	}
	orig := s.locals[i]
	l := local{name: name, decl: orig.decl}
	switch {
	case byRef && orig.ref:
		l.ref, l.typ, l.val = true, tRef, orig.val
	case byRef:
		l.ref, l.typ, l.val = true, tRef, borrowOf(orig.slot, tRef)
	default:
		l.typ, l.tname = orig.typ, orig.tname
		switch orig.typ {
		case tPointer, tView, tIter:
			l.val = orig.val
		case tStorage:
			// The closure holds its own copy of the container.
			l.val = value{pt: -1, owns: s.newObj(object{kind: oStorage, owner: name}), kind: tStorage, from: -1}
		default:
			l.typ, l.val = tPlain, unknown
			l.val.clo = orig.val.clo
		}
	}
	slot := orig.slot
	if byRef && orig.ref {
		// A reference captured by reference names the object it is
		// bound to ([expr.prim.lambda.capture]), not the reference.
		slot = orig.val.pt
	}
	c.caps = append(c.caps, capture{name: name, l: l, byRef: byRef, slot: slot})
}

// invoke runs closure c's body for a call at n with the arguments of list,
// on a copy of s: its faults are the path's, its other effects are not
// kept. It returns what the body returns, when that is memory of the path.
func (x *exec) invoke(s *state, c *closure, list, n parser.NodeID) value {
	vs := x.args(s, list)
	if x.inLambda > 2 || x.nest > maxDepth/2 || slices.Contains(x.running, c.node) {
		// A closure that calls itself (through a std::function it
		// captured) is not unrolled: its recursive call is unknown code.
		return unknown
	}
	if x.invokes == nil {
		x.invokes = map[parser.NodeID]int{}
	}
	x.invokes[c.node]++
	if x.invokes[n]++; x.invokes[n] > maxInvokes || x.invokes[c.node] > maxInvokesAll {
		// Run often enough at this call on this execution's paths (or
		// at all its calls): what its body does there has been seen;
		// further calls are unknown code.
		x.handOn(s, list, vs)
		return unknown
	}
	body := x.f.Field(c.node, parser.FieldBody)
	if body == parser.None {
		return unknown
	}
	run := s.clone()
	run.flow = normal
	// The caller's temporaries live to the end of its full expression;
	// the body's statements end only their own.
	run.temps = nil
	savedDepth, savedRet, savedRv := x.depth, x.retKind, x.retRvalue
	x.depth++
	x.inLambda++
	x.invoked = append(x.invoked, n)
	x.running = append(x.running, c.node)
	if !slices.Contains(x.ran, c.node) {
		x.ran = append(x.ran, c.node)
	}
	defer func() {
		x.depth, x.retKind, x.retRvalue = savedDepth, savedRet, savedRv
		x.inLambda--
		x.invoked = x.invoked[:len(x.invoked)-1]
		x.running = x.running[:len(x.running)-1]
	}()
	outer := len(s.locals)
	for _, cp := range c.caps {
		l := cp.l
		l.depth = x.depth
		l.slot = run.newObj(object{kind: oStack, owner: cp.name})
		if cp.byRef {
			// Captured by reference and still alive: the body works on
			// that very local (a container it grows, a pointer it sets).
			for j := outer - 1; j >= 0; j-- {
				if cp.slot >= 0 && run.locals[j].slot == cp.slot && run.objs[cp.slot].state == live {
					l.alias = j + 1
					break
				}
			}
		}
		run.locals = append(run.locals, l)
	}
	x.retKind, x.retRvalue = tPlain, false
	if d := x.f.Field(c.node, parser.FieldDeclarator); d != parser.None {
		i := 0
		for p := range x.f.NamedChildren(x.f.Field(d, parser.FieldParameters)) {
			if k := x.kind(p); k != parser.KindParameterDeclaration && k != parser.KindOptionalParameterDeclaration {
				continue
			}
			typText := x.resolve(x.text(x.f.Field(p, parser.FieldType)))
			name, ptr, ref := x.declName(x.f.Field(p, parser.FieldDeclarator))
			v := unknown
			if i < len(vs) {
				v = vs[i]
			}
			i++
			if name == "" {
				continue
			}
			l := local{name: name, typ: classify(typText), val: unknown, depth: x.depth, decl: p, tname: typeName(typText)}
			l.slot = run.newObj(object{kind: oStack, owner: name})
			switch {
			case ptr:
				l.typ = tPointer
			case ref:
				l.typ, l.ref = tRef, true
			}
			x.bind(run, &l, v, true)
			run.locals = append(run.locals, l)
		}
		_, x.retKind = x.lambdaSignature(c.node)
	}
	out := x.stmt(body, []*state{run})
	var ends []*state
	for _, st := range out {
		if st.flow == returned || st.flow == normal {
			ends = append(ends, st)
		}
	}
	if len(ends) == 0 {
		return unknown
	}
	// The call continues on one of the body's paths, with what that path
	// did to the caller's memory (the statement is executed once per path:
	// see forked).
	st := ends[x.choose(len(ends))]
	// Copied into the caller's own slices: a caller part-way through an
	// expression may hold a pointer to one of its locals.
	had := len(s.objs)
	copy(s.objs, st.objs[:had])
	s.objs = append(s.objs, st.objs[had:]...)
	copy(s.locals, st.locals[:outer])
	s.pending, s.hasParts = st.pending, st.hasParts
	if st.flow != returned {
		return unknown
	}
	r := st.ret
	if r.kind == tRef && x.retKind == tPlain && !x.retRvalue && !x.lambdaDeducesRef(c.node) {
		// A lambda returning by value (no trailing return type deduces
		// as auto does, never a reference: [expr.prim.lambda.closure];
		// -> T names a value) hands back a copy of what the reference
		// names, not the reference.
		return unknown
	}
	if x.retKind == tRef && r.kind != tRef && r.from >= 0 && int(r.from) < len(st.locals) {
		// A local of the caller's returned by reference: a reference to it.
		r = borrowOf(st.locals[r.from].slot, tRef)
	}
	if r.owns >= 0 {
		return unknown
	}
	r.from, r.clo = -1, nil
	return r
}

// maxInvokes bounds the runs of one closure's body at one call in one
// execution of the function that makes it (over all its paths), and
// maxInvokesAll those at all its calls: each call runs it on every path
// the calls before it left (two calls of a body of two paths run it six
// times), so a bound over all calls would leave the later calls unrun.
const (
	maxInvokes    = 16
	maxInvokesAll = 128
)

// choices are the paths taken through the closures a statement calls,
// one per call in the order they run (see forked).
type choices struct {
	picks, counts []int
	at            int
}

// choose picks which of n paths a closure call continues on.
func (x *exec) choose(n int) int {
	c := x.choice
	if c == nil || n <= 1 {
		return 0
	}
	i := c.at
	c.at++
	if i >= len(c.counts) {
		c.counts = append(c.counts, n)
		c.picks = append(c.picks, 0)
	}
	return min(c.picks[i], n-1)
}

// next moves to the next combination of paths; false when every one was
// taken.
func (c *choices) next() bool {
	for i := len(c.picks) - 1; i >= 0; i-- {
		if c.picks[i]+1 < c.counts[i] {
			c.picks[i]++
			clear(c.picks[i+1:])
			c.at = 0
			return true
		}
	}
	return false
}

// maxForks bounds the runs of one statement through its closures' paths.
const maxForks = 8

// forked executes a simple statement (an expression, a declaration, a
// return) on s, and again on a copy of s for each other path through the
// closures it calls, so that a closure whose body branches (a container
// grown on one path, not on the other) is followed on each branch.
func (x *exec) forked(s *state, n parser.NodeID, run func(*state) []*state) []*state {
	if x.inLambda > 0 || !x.callsClosure(s, n) {
		// Inside a closure's body the statement runs once, on the paths
		// the outermost statement's choices pick (see choose): forking
		// again at each level would multiply the runs by maxForks per
		// level.
		return run(s)
	}
	saved := x.choice
	defer func() { x.choice = saved }()
	c := &choices{}
	x.choice = c
	base := s.clone()
	out := run(s)
	for k := 1; k < maxForks && c.next(); k++ {
		out = append(out, run(base.clone())...)
	}
	return out
}

// callsClosure says statement n calls a local that holds a closure.
func (x *exec) callsClosure(s *state, n parser.NodeID) bool {
	if !x.closures {
		return false
	}
	for i := n; i < x.f.End(n); i++ {
		if x.f.Nodes[i].Kind != parser.KindCallExpression {
			continue
		}
		fn := x.f.Field(i, parser.FieldFunction)
		if x.kind(fn) != parser.KindIdentifier {
			continue
		}
		if j := s.lookup(x.text(fn)); j >= 0 && s.locals[j].val.clo != nil && x.branches(s.locals[j].val.clo.node) {
			return true
		}
	}
	return false
}

// branches says lambda n's body has more than one path: a branch, a loop
// or a conditional. A body with one path needs no second run.
func (x *exec) branches(n parser.NodeID) bool {
	if b, ok := x.branchy[n]; ok {
		return b
	}
	b := false
	body := x.f.Field(n, parser.FieldBody)
	for i := body; body != parser.None && i < x.f.End(body) && !b; i++ {
		switch x.f.Nodes[i].Kind {
		case parser.KindIfStatement, parser.KindSwitchStatement, parser.KindConditionalExpression,
			parser.KindForStatement, parser.KindForRangeLoop, parser.KindWhileStatement, parser.KindDoStatement,
			parser.KindTryStatement:
			b = true
		}
	}
	if x.branchy == nil {
		x.branchy = map[parser.NodeID]bool{}
	}
	x.branchy[n] = b
	return b
}

// afterAmp says the source before node n (spaces aside) ends with '&'.
func (x *exec) afterAmp(n parser.NodeID) bool {
	src := x.f.Src[:x.f.Nodes[n].Start]
	i := len(src) - 1
	for i >= 0 && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') {
		i--
	}
	return i >= 0 && src[i] == '&'
}

// lambdaSignature reads lambda n's declarator (its parameters) and what it
// returns: tRef for a trailing "-> T&", with retRvalue set for "-> T&&";
// tPlain otherwise (a lambda without a trailing type returns by value).
func (x *exec) lambdaSignature(n parser.NodeID) (parser.NodeID, typeKind) {
	d := x.f.Field(n, parser.FieldDeclarator)
	if d == parser.None {
		return parser.None, tPlain
	}
	rk := tPlain
	for t := range x.f.NamedChildren(d) {
		if x.kind(t) != parser.KindTrailingReturnType {
			continue
		}
		// Only the type's own declarator counts: -> const T& returns a
		// reference, -> Maybe<const T&> returns a Maybe by value.
		switch tt := strings.TrimSpace(x.text(t)); {
		case strings.HasSuffix(tt, "&&"):
			x.retRvalue = true
		case strings.HasSuffix(tt, "&"):
			rk = tRef
		}
	}
	return d, rk
}

// lambdaDeducesRef says lambda n's trailing return type is
// decltype(auto), which deduces a reference from a returned lvalue
// ([dcl.type.decltype]).
func (x *exec) lambdaDeducesRef(n parser.NodeID) bool {
	d := x.f.Field(n, parser.FieldDeclarator)
	if d == parser.None {
		return false
	}
	for t := range x.f.NamedChildren(d) {
		if x.kind(t) == parser.KindTrailingReturnType && strings.Contains(strings.ReplaceAll(x.text(t), " ", ""), "decltype(auto)") {
			return true
		}
	}
	return false
}

// detach executes t.detach() at n on the local t of a thread class that
// runs a closure: the thread runs on its own from now on (cppreference:
// std::thread::detach, "the thread of execution continues independently"),
// using what the closure captured by reference and the memory the
// pointers it captured by value point into, until it ends; nothing joins
// it. It is work no stream waits for.
func (x *exec) detach(s *state, t *local, n parser.NodeID) {
	c := t.val.clo
	if c == nil {
		return
	}
	w := work{queue: "thread " + t.name, at: n, what: t.name, thread: true}
	w.reads, _ = x.frameReads(s, c)
	if len(w.reads) > 0 {
		s.pending = append(s.pending, w)
	}
}

// detachTemporary executes std::thread(lambda, ...).detach() at n: the
// temporary thread runs the lambda on its own. It reports whether recv
// was such a temporary.
func (x *exec) detachTemporary(s *state, recv, n parser.NodeID) bool {
	if x.kind(recv) != parser.KindCallExpression {
		return false
	}
	if lastName(calleeName(x.text(x.f.Field(recv, parser.FieldFunction)))) != "thread" {
		return false
	}
	lambda := parser.None
	for a := range x.f.NamedChildren(x.f.Field(recv, parser.FieldArguments)) {
		if x.kind(a) == parser.KindLambdaExpression {
			lambda = a
		}
		break
	}
	if lambda == parser.None {
		return false
	}
	t := local{name: x.text(x.f.Field(recv, parser.FieldFunction)), val: unknown}
	t.val.clo = x.makeClosure(s, lambda)
	x.detach(s, &t, n)
	return true
}

// movedIntoClosure executes an init capture [v = std::move(owner)] of
// capture cp: the closure owns what owner owned (a container's buffer,
// a smart pointer's object) from now on, as long as it lives.
func (x *exec) movedIntoClosure(s *state, cp parser.NodeID) {
	for j := cp; j < x.f.End(cp); j++ {
		if x.f.Nodes[j].Kind != parser.KindCallExpression || movedName(x.f, j) == "" {
			continue
		}
		i := s.lookup(movedName(x.f, j))
		if i < 0 || s.locals[i].ref {
			continue
		}
		if o := s.locals[i].val.owns; o >= 0 && int(o) < len(s.objs) {
			s.objs[o].kept = true
			s.objs[o].frame = false
		}
	}
}

// declaredIn lists the names lambda n declares: its parameters and the
// variables its body declares (at any depth; an inner one hides the
// enclosing local only in its block, which is taken as the whole body, in
// the program's favour).
func (x *exec) declaredIn(n parser.NodeID) map[string]bool {
	own := map[string]bool{}
	for j := n; j < x.f.End(n); j++ {
		switch x.f.Nodes[j].Kind {
		case parser.KindParameterDeclaration, parser.KindOptionalParameterDeclaration, parser.KindDeclaration:
			for d := range x.f.NamedChildren(j) {
				if x.f.Nodes[d].Field != parser.FieldDeclarator {
					continue
				}
				if name, _, _ := x.declName(d); name != "" {
					own[name] = true
				}
			}
		}
	}
	return own
}
