package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

// stmt executes statement n on every state that flows normally and
// returns the states after it; states that broke, continued, returned or
// exited pass through untouched.
func (x *exec) stmt(n parser.NodeID, in []*state) []*state {
	var run, out []*state
	for _, s := range in {
		if s.flow == normal {
			run = append(run, s)
		} else {
			out = append(out, s)
		}
	}
	if len(run) == 0 || n == parser.None || x.steps > maxSteps {
		// Nothing to run, or the budget is spent (the cut is recorded):
		// the statement is not entered.
		return append(out, run...)
	}
	x.visits++
	x.nest++
	defer func() { x.nest-- }()
	x.steps += len(run)
	if !x.opt.Meter.Spend(len(run)) {
		x.steps = maxSteps + 1 // the file's budget is out: so is this function's
	}
	if x.nest > maxDepth || x.steps > maxSteps {
		// Too deep, or the function's budget is spent: the rest of these
		// paths is not executed, and the result says so (the file's budget
		// out is said once for the file).
		x.cut = x.cut || !x.opt.Meter.Out()
		return append(out, run...)
	}
	run = x.exec1(n, run)
	for _, s := range run {
		x.settle(s)
	}
	return x.bound(append(out, run...))
}

func (x *exec) exec1(n parser.NodeID, ss []*state) []*state {
	f := x.f
	switch x.kind(n) {
	case parser.KindCompoundStatement:
		x.depth++
		skip := parser.None
		for c := range f.NamedChildren(n) {
			if c == skip {
				continue
			}
			ss = x.land(c, ss)
			if body := parser.MacroStatementBody(f, c); body != parser.None {
				// LIST_FOR_EACH(h, p) { ... }: a statement macro and the
				// statement it runs.
				args := parser.None
				for k := range f.NamedChildren(c) {
					args = f.Field(k, parser.FieldArguments)
					break
				}
				ss = x.macroBlock(ss, args, body)
				skip = body
				x.peak = max(x.peak, len(ss))
				continue
			}
			if x.guardBlock(c) {
				continue
			}
			ss = x.stmt(c, ss)
			x.peak = max(x.peak, len(ss))
		}
		x.depth--
		for _, s := range ss {
			if s.flow == normal || s.flow == broke || s.flow == continued || s.flow == jumped {
				x.exitScopes(s, x.depth, x.closing(n))
			}
		}
		return ss
	case parser.KindDeclaration:
		if !x.closures {
			var out []*state
			for _, s := range ss {
				out = append(out, x.armed(n, s, func(s *state) []*state { x.declaration(s, n); return []*state{s} })...)
			}
			return out
		}
		var out []*state
		for _, s := range ss {
			out = append(out, x.forked(s, n, func(s *state) []*state { x.declaration(s, n); return []*state{s} })...)
		}
		return out
	case parser.KindExpressionStatement:
		var out []*state
		if !x.closures {
			for _, s := range ss {
				out = append(out, x.armed(n, s, func(s *state) []*state { return x.exprStmt(s, n) })...)
			}
			return out
		}
		for _, s := range ss {
			out = append(out, x.forked(s, n, func(s *state) []*state {
				return x.armed(n, s, func(s *state) []*state { return x.exprStmt(s, n) })
			})...)
		}
		return out
	case parser.KindReturnStatement, parser.KindCoReturnStatement:
		if !x.closures {
			for _, s := range ss {
				x.ret(s, n)
			}
			return ss
		}
		var out []*state
		for _, s := range ss {
			out = append(out, x.forked(s, n, func(s *state) []*state { x.ret(s, n); return []*state{s} })...)
		}
		return out
	case parser.KindCoYieldStatement:
		for _, s := range ss {
			x.coYield(s, n)
		}
		return ss
	case parser.KindIfStatement:
		return x.ifStmt(n, ss)
	case parser.KindForStatement, parser.KindWhileStatement, parser.KindDoStatement, parser.KindForRangeLoop:
		return x.loop(n, ss)
	case parser.KindSwitchStatement:
		return x.switchStmt(n, ss)
	case parser.KindBreakStatement:
		for _, s := range ss {
			s.flow = broke
		}
		return ss
	case parser.KindGotoStatement:
		label := x.text(f.Field(n, parser.FieldLabel))
		for _, s := range ss {
			s.flow, s.label = jumped, label
		}
		return ss
	case parser.KindContinueStatement:
		for _, s := range ss {
			s.flow = continued
		}
		return ss
	case parser.KindThrowStatement:
		for _, s := range ss {
			for c := range f.NamedChildren(n) {
				x.eval(s, c)
			}
			s.flow = exited
		}
		return ss
	case parser.KindTryStatement:
		return x.stmt(f.Field(n, parser.FieldBody), ss)
	case parser.KindMacroBlock:
		return x.macroBlock(ss, f.Field(n, parser.FieldDeclarator), f.Field(n, parser.FieldBody))
	case parser.KindLabeledStatement, parser.KindCaseStatement:
		for c := range f.NamedChildren(n) {
			if f.Nodes[c].Field == parser.FieldValue || f.Nodes[c].Field == parser.FieldLabel || x.kind(c) == parser.KindIdentifier && f.Nodes[c].Field != parser.FieldNone {
				continue
			}
			ss = x.land(c, ss)
			ss = x.stmt(c, ss)
		}
		return ss
	case parser.KindPreprocIf, parser.KindPreprocIfdef, parser.KindPreprocElse, parser.KindPreprocElif:
		// The first branch only: a build compiles one.
		for c := range f.NamedChildren(n) {
			switch x.kind(c) {
			case parser.KindPreprocElse, parser.KindPreprocElif:
				return ss
			}
			if f.Nodes[c].Field == parser.FieldCondition || f.Nodes[c].Field == parser.FieldName {
				continue
			}
			ss = x.stmt(c, ss)
		}
		return ss
	}
	return ss
}

// land resumes, at statement c of a block, the paths that jumped to a
// label c carries (a goto before it in the block, or in a block inside
// it, whose scopes those paths left as they came out). A label before
// its goto, or in a block the goto is not inside, is never reached: such
// a path ends there, unreported (a jump back is a loop the executor does
// not unroll).
func (x *exec) land(c parser.NodeID, ss []*state) []*state {
	f := x.f
	for x.kind(c) == parser.KindLabeledStatement {
		name := x.text(f.Field(c, parser.FieldLabel))
		for _, s := range ss {
			if s.flow == jumped && s.label == name {
				s.flow, s.label = normal, ""
			}
		}
		// a: b: stmt holds two labels.
		next := parser.None
		for k := range f.NamedChildren(c) {
			if f.Nodes[k].Field != parser.FieldLabel {
				next = k
			}
		}
		c = next
	}
	return ss
}

// closing is the position a scope ends at: its closing brace.
func (x *exec) closing(n parser.NodeID) parser.NodeID {
	last := parser.None
	for c := range x.f.Children(n) {
		last = c
	}
	if last == parser.None {
		return n
	}
	return last
}

// exprStmt executes an expression statement; a failure exit forks into
// the passing path only.
func (x *exec) exprStmt(s *state, n parser.NodeID) []*state {
	e := x.f.FirstChild(n)
	for e != parser.None && !x.f.Nodes[e].Named {
		e = x.f.Nodes[e].Next
	}
	if e == parser.None {
		return []*state{s}
	}
	if x.kind(e) == parser.KindIdentifier && x.opt.Summaries != nil && s.lookup(x.text(e)) < 0 {
		// NAME; of a statement macro the tree defines (#define RETHROW
		// throw, #define BAIL return -1): it ends the path as its body
		// does.
		switch name := x.text(e); {
		case x.neverReturns(name, e):
			s.flow = exited
			return []*state{s}
		case x.opt.Summaries.MacroReturns(name):
			s.ret, s.retArg, s.retRef = unknown, 0, 0
			s.flow = returned
			return []*state{s}
		}
	}
	if x.kind(e) == parser.KindCallExpression {
		if blk := parser.BlockArgument(x.f, e); blk != parser.None {
			return x.macroBlock([]*state{s}, x.f.Field(e, parser.FieldArguments), blk)
		}
		if out, ok := x.macroReturn(s, e); ok {
			x.endTemps(s, n)
			return out
		}
	}
	x.eval(s, e)
	x.endTemps(s, n)
	return []*state{s}
}

// macroReturn executes call e when it is a macro of the tree that
// returns where a condition on its argument holds (see
// summary.Exit.ReturnIf): RET(err) is if (err != OK) return err. The
// path splits where the condition is open; each arm learns its side, and
// a status that says a call failed revives what the call was taken to
// free (see failedCall).
func (x *exec) macroReturn(s *state, e parser.NodeID) ([]*state, bool) {
	fn := x.f.Field(e, parser.FieldFunction)
	if x.kind(fn) != parser.KindIdentifier || x.opt.Summaries == nil {
		return nil, false
	}
	spec := x.opt.Summaries.MacroReturnIf(x.text(fn))
	if spec == "" {
		return nil, false
	}
	r, ok := summary.ParseReturnIf(spec)
	list := x.f.Field(e, parser.FieldArguments)
	arg := x.argAt(list, r.Param)
	if !ok || arg == list {
		return nil, false
	}
	vs := x.args(s, list)
	k := unknown
	if n, ok := number(r.Value); ok {
		k.known, k.num = true, n
	} else if n, ok := x.constant(r.Value); ok {
		k.known, k.num = true, n
	}
	var b branch
	if key := x.factKey(arg); key != "" && (r.Suffix == "" || x.kind(arg) == parser.KindIdentifier) {
		c := constraint{name: key + r.Suffix, op: r.Op, k: k.num}
		if !k.known {
			c.sym = r.Value
		}
		if c.sym == "" || c.op == "==" || c.op == "!=" {
			b = branch{t: decide(s.cons, c), yes: []constraint{c}, no: []constraint{c.negate()}}
		}
	}
	if r.Suffix == "" && r.Param < len(vs) {
		if fb, ok := failedCall(r.Op, vs[r.Param], k, x.text(arg), r.Value); ok {
			b.yesKept, b.noKept, b.yesDropped, b.noDropped = fb.yesKept, fb.noKept, fb.yesDropped, fb.noDropped
		}
	}
	returns := func(s *state) {
		s.ret, s.retArg, s.retRef = unknown, 0, 0
		s.flow = returned
	}
	switch b.t {
	case 1:
		returns(s)
		return []*state{s}, true
	case 2:
		return []*state{s}, true
	}
	other := s.clone()
	other.cons = append(other.cons, b.yes...)
	other.unfree(b.yesKept)
	other.unqueue(b.yesDropped)
	returns(other)
	s.cons = append(s.cons, b.no...)
	s.unfree(b.noKept)
	s.unqueue(b.noDropped)
	return []*state{s, other}, true
}

// armed runs statement n on s by run, once per arm of the first
// conditional expression in it one of whose arms ends memory (a delete, a
// free, a container's erase, pop, clear or insertion): c ? v.erase(it) :
// ++it runs one arm or the other, never both, so each arm is a path of
// its own (see armOf). A statement with no such expression runs once, its
// conditional expressions' arms one after the other.
func (x *exec) armed(n parser.NodeID, s *state, run func(*state) []*state) []*state {
	t := x.sideArms(n)
	if t == parser.None {
		return run(s)
	}
	other := s.clone()
	if x.arms == nil {
		x.arms = map[parser.NodeID]int8{}
	}
	x.arms[t] = 1
	out := run(s)
	x.arms[t] = 2
	out = append(out, run(other)...)
	delete(x.arms, t)
	return out
}

// sideArms is the first conditional expression of statement n (outside
// lambdas) one of whose arms ends memory (see armed), or parser.None.
func (x *exec) sideArms(n parser.NodeID) parser.NodeID {
	f := x.f
	end := f.End(n)
	for j := n; j < end; j++ {
		switch f.Nodes[j].Kind {
		case parser.KindLambdaExpression:
			j = f.End(j) - 1
		case parser.KindConditionalExpression:
			for _, arm := range []parser.NodeID{f.Field(j, parser.FieldConsequence), f.Field(j, parser.FieldAlternative)} {
				for k := arm; arm != parser.None && k < f.End(arm); k++ {
					switch f.Nodes[k].Kind {
					case parser.KindDeleteExpression:
						return j
					case parser.KindCallExpression:
						fn := f.Field(k, parser.FieldFunction)
						name := calleeName(f.Text(fn))
						if f.Kind(fn) == parser.KindFieldExpression {
							name = calleeName(f.Text(f.Field(fn, parser.FieldField)))
						}
						if frees[name] || removeMethods[name] || growMethods[name] || name == "erase" || name == "clear" {
							return j
						}
					}
				}
			}
		}
	}
	return parser.None
}

// armOf evaluates conditional expression n whose arm the path runs was
// chosen by armed (1: the consequence, 2: the alternative), unless the
// condition decides it: only that arm runs, and the path learns the
// condition's side.
func (x *exec) armOf(s *state, n parser.NodeID, arm int8) value {
	f := x.f
	b := x.cond(s, f.Field(n, parser.FieldCondition))
	if b.t != 0 {
		arm = b.t
	}
	if arm == 1 {
		s.cons = append(s.cons, b.yes...)
		s.unfree(b.yesKept)
		s.unqueue(b.yesDropped)
		return x.eval(s, f.Field(n, parser.FieldConsequence))
	}
	s.cons = append(s.cons, b.no...)
	s.unfree(b.noKept)
	s.unqueue(b.noDropped)
	return x.eval(s, f.Field(n, parser.FieldAlternative))
}

// macroBlock executes a statement macro applied to block blk, its other
// arguments args (see parser.BlockArgument, parser.KindMacroBlock): what
// the paths knew of the pointers it names outside the block is forgotten
// (a loop variable it assigns), and the block runs zero times or once
// (an iteration, a run-once guard).
func (x *exec) macroBlock(ss []*state, args, blk parser.NodeID) []*state {
	f := x.f
	var skip []*state
	for _, s := range ss {
		if s.flow != normal {
			// Returned, broke or jumped before the macro: it passes the
			// block by, once (see stmt).
			continue
		}
		for m := range parser.MacroNames(f, args, blk) {
			if i := s.lookup(x.text(m)); i >= 0 && !s.locals[i].ref {
				switch l := &s.locals[i]; l.typ {
				case tPointer, tView, tIter:
					l.val = unknown
					s.forget(l.name)
				}
			}
		}
		skip = append(skip, s.clone())
	}
	// The paths that skip the block and those that run it are one set,
	// bounded as the paths out of a branch are.
	return x.bound(append(skip, x.stmt(blk, ss)...))
}

// ret executes a return: the value is checked against the frame, then
// every local dies.
func (x *exec) ret(s *state, n parser.NodeID) {
	var v value
	e := parser.None
	for c := range x.f.NamedChildren(n) {
		e = c
	}
	v = unknown
	if e != parser.None {
		// A method that reports failure by returning false leaves the
		// object as its contract allows (see leftStale).
		s.failed = strings.TrimSpace(x.text(e)) == "false"
		if c := x.unparen(e); x.kind(c) == parser.KindConditionalExpression && (x.retKind == tRef || x.retKind == tPointer || x.retKind == tView) && x.inLambda == 0 {
			// c ? a : b returned by reference or pointer: each arm is
			// what the caller gets on its own path.
			f := x.f
			x.eval(s, f.Field(c, parser.FieldCondition))
			a := x.eval(s, f.Field(c, parser.FieldConsequence))
			b := x.eval(s, f.Field(c, parser.FieldAlternative))
			x.armReturned(s, f.Field(c, parser.FieldConsequence), a)
			x.armReturned(s, f.Field(c, parser.FieldAlternative), b)
			v = unknown
			if a.pt == b.pt && a.owns == b.owns {
				v = a
			}
		} else if w, ok := x.madeReturned(s, e); ok {
			v = w
		} else {
			v = x.eval(s, e)
		}
		if v.fromMoved {
			x.fault(Fault{Kind: UseAfterMove, Use: e, End: parser.None, Via: "return", Value: x.text(e), Owner: x.text(e)})
		}
		if (x.retKind == tRef || x.retRvalue) && v.kind != tView {
			// A reference bound to a temporary (the one a call returned by
			// value, or one the expression makes): it dies at the end of
			// the return statement. A view's conversion (reference_wrapper's
			// operator T&) binds what the view looks at instead.
			switch {
			case x.retKind == tRef && !x.retRvalue && !x.returnsConst():
				// A reference to non-const binds no temporary
				// ([dcl.init.ref]): a body that returns one does not
				// compile, so it is a template's body never
				// instantiated, or the value is not a temporary.
			case v.prvalue:
				x.fault(Fault{Kind: ReturnsLocal, Use: e, End: parser.None, Via: "temporary", Value: x.text(e), Owner: x.text(e)})
			case x.temporary(e):
				x.fault(Fault{Kind: ReturnsLocal, Use: e, End: parser.None, Via: "made", Value: x.text(e), Owner: x.text(e)})
			}
		}
		if x.kind(e) == parser.KindIdentifier {
			// The local returned is the caller's now, not destroyed here.
			x.touched(s, v)
		}
		if v.clo != nil && x.inLambda == 0 && x.retKind != tRef && x.retKind != tPointer {
			// A closure returned: what it captured by reference is the
			// frame's, and the caller calls it after the frame is gone.
			for _, cp := range v.clo.caps {
				if cp.byRef && x.frameLive(s, cp.slot) {
					x.fault(Fault{Kind: ReturnsLocal, Use: e, End: parser.None, Via: "returned lambda", Value: x.text(e), Owner: s.objs[cp.slot].owner})
				}
			}
		}
		if x.retKind == tPlain && x.inLambda == 0 && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref && v.kind == tPlain {
			x.returnedHolds(s, e, s.locals[v.from].slot)
		}
		switch {
		case x.inLambda != 0:
		case x.retKind == tPlain && v.kind == tStorage && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref:
			// A container returned by value: the caller's copy holds the
			// pointers its elements are.
			x.returnedHolds(s, e, v.owns)
		case (v.kind == tUnique || v.kind == tShared) && (x.retKind == tPlain || x.retKind == v.kind) && (v.from < 0 || v.moved):
			// An owner returned: the caller has the object, and what it
			// holds.
			x.returnedHolds(s, e, v.owns)
		}
		if obj := x.returnedByValue(s, v); obj >= 0 {
			if v.prvalue {
				x.returnedHolds(s, e, obj)
			}
			s.retHolds = x.heldParams(s, obj)
		}
		s.ret = v
		s.retArg = x.returnedArg(s, v)
		s.retRef = x.referredParam(s, v)
		if x.retKind == tPlain {
			// Returned by value: what it owns goes to the caller.
			w := v
			w.moved = w.moved || w.from >= 0
			x.escape(s, w)
		}
	}
	if e != parser.None {
		v = x.lent(s, v)
	}
	if v.pt >= 0 && int(v.pt) < len(s.objs) {
		o := s.objs[v.pt]
		ret := x.retKind
		if ret == tAuto && (v.kind == tPointer || v.kind == tView || v.kind == tIter) {
			ret = v.kind
		}
		borrows := borrowsAs(v, ret)
		// In Objective-C, @(e) boxes a copy of e; the front end reads it as (e).
		boxed := (x.f.Ext == ".m" || x.f.Ext == ".mm") && x.kind(e) == parser.KindParenthesizedExpression
		if borrows && !boxed && o.state != live && (o.kind == oStack || o.kind == oStorage || o.kind == oTemp) {
			// A pointer into memory already ended, handed to the caller:
			// a use, as handing it to any call is.
			x.use(s, v, e)
		}
		if borrows && !boxed && o.frame && o.state == live && x.inLambda == 0 {
			x.fault(Fault{Kind: ReturnsLocal, Use: e, End: parser.None, Via: "return", Value: x.text(e), Owner: o.owner})
		}
	}
	x.endTemps(s, n)
	s.flow = returned
}

// madeReturned is the object return statement expression e makes of the
// function's class result type, T{a, b}, T(a, b) or {a, b}, when T's
// initialisation keeps some of the elements (see madeObject).
func (x *exec) madeReturned(s *state, e parser.NodeID) (value, bool) {
	if x.retKind != tPlain || x.inLambda != 0 || x.kind(x.def) == parser.KindLambdaExpression {
		return unknown, false
	}
	return x.madeObject(s, e, typeName(ResultType(x.f, x.def)))
}

// returnedByValue is the object a function returning by value hands the
// caller as value v: a local object, or a temporary made in the return
// statement or by a call. -1: none the path follows.
func (x *exec) returnedByValue(s *state, v value) int32 {
	if x.retKind != tPlain || x.inLambda != 0 {
		return -1
	}
	if v.prvalue && v.kind == tRef && v.owns >= 0 && int(v.owns) < len(s.objs) && s.objs[v.owns].kind == oTemp {
		return v.owns
	}
	if v.kind == tPlain && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref && s.locals[v.from].typ == tPlain {
		return s.locals[v.from].slot
	}
	return -1
}

// returnedHolds checks the object obj a function returns by value (its
// copy is the caller's): a field set to point into the frame, or a member
// its constructor or braced list made keep frame memory, dangles in the
// caller.
func (x *exec) returnedHolds(s *state, e parser.NodeID, obj int32) {
	if obj < 0 || int(obj) >= len(s.objs) {
		return
	}
	var facts map[string]string
	if c := s.objs[obj].class; c != "" && x.opt.Members != nil {
		facts = x.opt.Members(c)
	}
	if facts["(cp)"] != "" {
		// A class with a copy or move constructor of its own decides
		// what its copy keeps.
		return
	}
	if s.hasParts {
		for i := range s.objs {
			c := s.objs[i]
			if c.parent != obj+1 || c.pos != posField || c.inner <= 0 || !pointerType(x.resolve(facts[c.key])) {
				// Only a field the class declares a pointer or a view
				// keeps what it was set to (a string field copies it).
				continue
			}
			if t := c.inner - 1; t != obj && x.frameLive(s, t) {
				x.fault(Fault{Kind: ReturnsLocal, Use: e, End: parser.None, Via: "return", Value: x.text(e) + "." + c.key, Owner: s.objs[t].owner})
			}
		}
	}
	o := s.objs[obj]
	for i, t := range o.holds {
		if t == obj {
			continue
		}
		if !x.frameLive(s, t) {
			// Memory the frame gave up (a container moved into the
			// object): what it holds in turn goes with it.
			if t = x.frameHeld(s, t, obj, 3); t < 0 {
				continue
			}
		}
		what := x.text(e)
		if x.kind(e) != parser.KindIdentifier && o.class != "" {
			// An object made in the return statement: named by its class.
			what = o.class
		}
		if i < len(o.heldAs) && o.heldAs[i] != "" {
			what += "." + strings.TrimSuffix(o.heldAs[i], "[]")
		}
		x.fault(Fault{Kind: ReturnsLocal, Use: e, End: parser.None, Via: "return", Value: what, Owner: s.objs[t].owner})
	}
}

// frameHeld is a live object of the frame that obj holds, directly or
// through what it holds (depth levels, never back to from), or -1.
func (x *exec) frameHeld(s *state, obj, from int32, depth int) int32 {
	if depth == 0 || obj < 0 || int(obj) >= len(s.objs) {
		return -1
	}
	for _, h := range s.objs[obj].holds {
		if h == obj || h == from {
			continue
		}
		if x.frameLive(s, h) {
			return h
		}
		if t := x.frameHeld(s, h, obj, depth-1); t >= 0 {
			return t
		}
	}
	return -1
}

// lent is what returning v hands the caller: a local itself returned by
// reference, or a local container returned as a view, lends the local's
// memory; anything else is v.
func (x *exec) lent(s *state, v value) value {
	if v.from < 0 || int(v.from) >= len(s.locals) || v.kind == tRef {
		return v
	}
	l := s.locals[v.from]
	switch {
	case x.retKind == tRef && l.typ == tView && l.depth >= 0 && x.convertsOnReturn(l):
		// A view returned as a reference to another type: the view's
		// conversion (reference_wrapper<T>'s operator T&,
		// [refwrap.access]) refers to what it looks at.
		if v.pt < 0 {
			return unknown
		}
		return borrowOf(v.pt, tRef)
	case x.retKind == tRef && !l.param && l.depth >= 0:
		return borrowOf(l.slot, tRef)
	case x.retKind == tView && v.kind == tStorage && v.owns >= 0:
		return borrowOf(v.owns, tPointer)
	}
	return v
}

// convertsOnReturn says the function returns a type other than local l's
// own: returning l converts it.
func (x *exec) convertsOnReturn(l local) bool {
	def := x.def
	if x.kind(def) == parser.KindLambdaExpression {
		return false
	}
	ret := typeName(x.resolve(x.text(x.f.Field(def, parser.FieldType))))
	return ret != "" && l.tname != "" && ret != l.tname && ret != "auto"
}

// borrowsAs says returning v as ret hands the caller a pointer into v's
// memory. Returning an element (v[i], *p, p->x) by pointer or view returns
// the value stored there, not a pointer into the storage.
func borrowsAs(v value, ret typeKind) bool {
	return v.kind == tRef && ret == tRef || v.kind != tRef && (ret == tPointer || ret == tView)
}

// unparen strips the parentheses around expression e.
func (x *exec) unparen(e parser.NodeID) parser.NodeID {
	for x.kind(e) == parser.KindParenthesizedExpression {
		e = x.lastNamedChild(e)
	}
	return e
}

// armReturned checks arm e (of value v) of a conditional expression the
// function returns by reference, pointer or view: a local of the frame, or
// memory it owns, handed to the caller.
func (x *exec) armReturned(s *state, e parser.NodeID, v value) {
	v = x.lent(s, v)
	if v.pt < 0 || int(v.pt) >= len(s.objs) {
		return
	}
	if o := s.objs[v.pt]; borrowsAs(v, x.retKind) && o.frame && o.state == live {
		x.fault(Fault{Kind: ReturnsLocal, Use: e, End: parser.None, Via: "return", Value: x.text(e), Owner: o.owner})
	}
}

// returnsConst says the function's declared result is const (const T&,
// T const&).
func (x *exec) returnsConst() bool {
	if x.inLambda != 0 || x.kind(x.def) != parser.KindFunctionDefinition {
		return true
	}
	for c := range x.f.NamedChildren(x.def) {
		if x.kind(c) == parser.KindTypeQualifier && x.text(c) == "const" {
			return true
		}
	}
	t := strings.TrimSpace(x.text(x.f.Field(x.def, parser.FieldType)))
	return strings.HasPrefix(t, "const ") || strings.HasSuffix(t, " const")
}

// cond evaluates a condition on s: what it is there, and what each arm
// learns.
func (x *exec) cond(s *state, n parser.NodeID) branch {
	if n == parser.None {
		return branch{}
	}
	f := x.f
	switch x.kind(n) {
	case parser.KindConditionClause, parser.KindParenthesizedExpression:
		var r branch
		for c := range f.NamedChildren(n) {
			switch x.kind(c) {
			case parser.KindDeclaration:
				x.declaration(s, c)
				r = branch{}
				continue
			case parser.KindInitStatement:
				// if (T v = e; cond): the declaration (or expression)
				// runs first, in the statement's scope.
				for d := range f.NamedChildren(c) {
					if x.kind(d) == parser.KindDeclaration {
						x.declaration(s, d)
					} else {
						x.eval(s, d)
					}
				}
				r = branch{}
				continue
			}
			r = x.cond(s, c)
		}
		return r
	case parser.KindDeclaration:
		x.declaration(s, n)
		return branch{}
	case parser.KindUnaryExpression:
		if strings.HasPrefix(x.text(n), "!") {
			return x.cond(s, f.Field(n, parser.FieldArgument)).negate()
		}
	case parser.KindBinaryExpression:
		op := x.text(f.Field(n, parser.FieldOperator))
		l, r := f.Field(n, parser.FieldLeft), f.Field(n, parser.FieldRight)
		switch op {
		case "&&", "||":
			return x.logical(s, op, l, r)
		case "==", "!=":
			other := parser.None
			switch {
			case x.kind(r) == parser.KindNullptr || x.text(r) == "NULL":
				other = l
			case x.kind(l) == parser.KindNullptr || x.text(l) == "NULL":
				other = r
			}
			if other != parser.None {
				return maybeNegate(x.truth(s, other), op == "==")
			}
		}
		if b, ok := x.compare(s, n); ok {
			return b
		}
	case parser.KindIdentifier, parser.KindFieldExpression:
		return x.truth(s, n)
	case parser.KindPointerExpression:
		if x.factKey(n) != "" {
			// if (*out): what the path stored there decides.
			return x.truth(s, n)
		}
	case parser.KindCallExpression:
		if fn := x.text(f.Field(n, parser.FieldFunction)); x.factKey(n) != "" && !strings.Contains(fn, "->") && !strings.Contains(fn, "<") {
			// v.empty(), t.is_contiguous(): the arm learns the answer,
			// until a call that may change v (see method) forgets it.
			// Not through a pointer (what it points to may change
			// unseen), nor with template arguments (the key leaves
			// them out: t.is<A>() is not t.is<B>()).
			return x.truth(s, n)
		}
	}
	v := x.eval(s, n)
	switch {
	case v.flag != 0:
		return branch{t: v.flag}
	case v.known:
		if v.num != 0 {
			return branch{t: 1}
		}
		return branch{t: 2}
	}
	return branch{t: nullness(v)}
}

// truth is the outcome of testing a value for non-zero (a pointer for
// non-null); a name learns != 0 on the true arm and == 0 on the other.
func (x *exec) truth(s *state, n parser.NodeID) branch {
	v := x.eval(s, n)
	switch {
	case v.flag != 0:
		return branch{t: v.flag}
	case v.known:
		if v.num != 0 {
			return branch{t: 1}
		}
		return branch{t: 2}
	}
	if t := nullness(v); t != 0 {
		return branch{t: t}
	}
	key := x.factKey(n)
	if key == "" {
		return branch{}
	}
	c := constraint{name: key, op: "!="}
	return branch{t: decide(s.cons, c), yes: []constraint{c}, no: []constraint{c.negate()}}
}

// logical is a && b or a || b: b is judged knowing what a's arm learned.
// a || b is !(!a && !b).
func (x *exec) logical(s *state, op string, l, r parser.NodeID) branch {
	or := op == "||"
	a := x.cond(s, l)
	if or {
		a = a.negate()
	}
	if a.t == 2 {
		return maybeNegate(a, or)
	}
	saved := s.cons
	s.cons = append(s.cons[:len(s.cons):len(s.cons)], a.yes...)
	b := x.cond(s, r)
	s.cons = saved
	if or {
		b = b.negate()
	}
	var out branch
	switch {
	case a.t == 1:
		out.t = b.t
	case b.t == 2:
		out.t = 2
	}
	out.yes = append(append(out.yes, a.yes...), b.yes...)
	switch {
	case a.t == 1:
		out.no = b.no
	case b.t == 1:
		out.no = a.no
	}
	return maybeNegate(out, or)
}

func maybeNegate(b branch, neg bool) branch {
	if neg {
		return b.negate()
	}
	return b
}

// nullness is a pointer value's truth: 1 non-null, 2 null, 0 unknown.
func nullness(v value) int8 {
	switch {
	case v.null:
		return 2
	case v.pt >= 0 && v.kind == tPointer, v.owns >= 0 && (v.kind == tUnique || v.kind == tShared):
		return 1
	}
	return 0
}

func (x *exec) ifStmt(n parser.NodeID, ss []*state) []*state {
	f := x.f
	var yes, no []*state
	x.depth++
	for _, s := range ss {
		b := x.cond(s, f.Field(n, parser.FieldCondition))
		x.endTemps(s, n)
		switch b.t {
		case 1:
			yes = append(yes, s)
		case 2:
			no = append(no, s)
		default:
			other := s.clone()
			s.cons = append(s.cons, b.yes...)
			other.cons = append(other.cons, b.no...)
			s.unfree(b.yesKept)
			other.unfree(b.noKept)
			s.unqueue(b.yesDropped)
			other.unqueue(b.noDropped)
			yes = append(yes, s)
			no = append(no, other)
		}
	}
	yes = x.stmt(f.Field(n, parser.FieldConsequence), yes)
	if alt := f.Field(n, parser.FieldAlternative); alt != parser.None {
		for c := range f.NamedChildren(alt) {
			no = x.stmt(c, no)
		}
	}
	x.depth--
	out := make([]*state, 0, len(yes)+len(no))
	out = append(append(out, yes...), no...)
	for _, s := range out {
		if s.flow == normal {
			x.exitScopes(s, x.depth, n)
		}
	}
	return out
}

// rangeIterName names the hidden iterator of a range-based for loop.
const rangeIterName = "(range)"

// rangeIter declares the iterator a range-based for loop over a container
// keeps from its start ([stmt.ranged]: __begin, incremented after each
// iteration): growing the container in the body leaves it pointing into
// the old buffer.
func (x *exec) rangeIter(s *state, n parser.NodeID) {
	right := x.f.Field(n, parser.FieldRight)
	if x.kind(right) != parser.KindIdentifier && x.kind(right) != parser.KindFieldExpression {
		// Only a named container: a call's result is evaluated again at
		// each iteration by the loop's own execution.
		return
	}
	rng := x.eval(s, right)
	if rng.kind != tStorage || rng.owns < 0 || int(rng.owns) >= len(s.objs) {
		return
	}
	it := borrowOf(rng.owns, tIter)
	s.locals = append(s.locals, local{name: rangeIterName, typ: tIter, val: it, depth: x.depth, slot: s.newObj(object{kind: oStack, owner: rangeIterName})})
}

// rangeStep steps the hidden iterator of range-based for loop n on: a
// fault when the body replaced the buffer it points into.
func (x *exec) rangeStep(s *state, n parser.NodeID) {
	i := s.lookup(rangeIterName)
	if i < 0 {
		return
	}
	obj := s.locals[i].val.pt
	if obj < 0 || int(obj) >= len(s.objs) || s.objs[obj].state == live {
		return
	}
	o := s.objs[obj]
	right := x.f.Field(n, parser.FieldRight)
	x.fault(Fault{Kind: UseAfterInvalidate, Use: right, End: o.end, Via: o.via, Value: x.text(right), Owner: o.owner, Keeper: "(range)"})
	// One report per path.
	s.locals[i].val.pt = -1
}

// loop executes a loop's body zero, one and two times.
func (x *exec) loop(n parser.NodeID, ss []*state) []*state {
	f := x.f
	x.depth++
	isDo := x.kind(n) == parser.KindDoStatement
	body := f.Field(n, parser.FieldBody)
	elem := parser.None
	if init := f.Field(n, parser.FieldInitializer); init != parser.None {
		for _, s := range ss {
			if x.kind(init) == parser.KindDeclaration {
				x.declaration(s, init)
			} else {
				x.eval(s, init)
			}
		}
	}
	if x.kind(n) == parser.KindForRangeLoop {
		elem = n
		for _, s := range ss {
			x.rangeIter(s, n)
		}
	}
	var exits []*state
	cur := ss
	// Loops run zero, one and two times; nested deeper than two loops,
	// zero and one time, so the work stays linear in the nesting.
	x.loops++
	defer func() { x.loops-- }()
	last := 2
	if x.loops > 2 || x.inLambda > 0 {
		// A closure's body runs at each call of it: its loops run zero
		// and one time there.
		last = 1
	}
	empty := elem != parser.None && x.emptyMemberRange(n)
	seen := map[uint64]bool{}
	for iter := 0; iter <= last && len(cur) > 0; iter++ {
		var next []*state
		for _, s := range cur {
			if x.repeats(s, seen, iter > 0) {
				// The body left memory as an earlier iteration found it:
				// this iteration would run as that one did.
				continue
			}
			if isDo && iter == 0 {
				next = append(next, s)
				continue
			}
			if elem != parser.None {
				if iter > 0 {
					x.rangeStep(s, n)
				}
				rng := x.eval(s, f.Field(n, parser.FieldRight))
				x.endRangeTemps(s, rng, f.Field(n, parser.FieldRight))
				if empty {
					exits = append(exits, s)
					continue
				}
				exits = append(exits, s.clone())
				x.rangeElem(s, n, rng)
				next = append(next, s)
				continue
			}
			b := x.cond(s, f.Field(n, parser.FieldCondition))
			x.endTemps(s, n)
			x.spinWait(s, f.Field(n, parser.FieldCondition))
			switch b.t {
			case 2:
				exits = append(exits, s)
			case 1:
				next = append(next, s)
			default:
				out := s.clone()
				out.cons = append(out.cons, b.no...)
				s.cons = append(s.cons, b.yes...)
				exits = append(exits, out)
				next = append(next, s)
			}
		}
		if iter == last {
			break
		}
		next = x.stmt(body, next)
		cur = cur[:0:0]
		for _, s := range next {
			switch s.flow {
			case broke:
				s.flow = normal
				exits = append(exits, s)
			case continued, normal:
				s.flow = normal
				if u := f.Field(n, parser.FieldUpdate); u != parser.None {
					x.eval(s, u)
				}
				x.exitScopes(s, x.depth, n)
				cur = append(cur, s)
			default:
				exits = append(exits, s)
			}
		}
		cur = x.bound(cur)
	}
	x.depth--
	for _, s := range exits {
		if s.flow == normal || s.flow == jumped {
			x.exitScopes(s, x.depth, n)
		}
	}
	return x.bound(exits)
}

// repeats says state s, entering a loop's next iteration, has the memory
// of a state that entered an earlier one (see stateHasher.sum), and
// records it in seen.
func (x *exec) repeats(s *state, seen map[uint64]bool, again bool) bool {
	if x.merger == nil {
		x.merger = newMerger(x.entryObjs)
	}
	k := x.merger.w.sum(x.merger.seed, s)
	if again && seen[k] {
		return true
	}
	seen[k] = true
	return false
}

// endRangeTemps ends the temporaries of a range-for's range-initializer
// at n, but the range itself: the standard binds the range to a
// reference (auto&& __range = range-init), which extends the life of the
// temporary it is bound to and of no other ([stmt.ranged], [class.temporary]
// before C++23's P2718), so for (x : make().items()) iterates a member of
// a temporary that died before the loop ran.
func (x *exec) endRangeTemps(s *state, rng value, n parser.NodeID) {
	for _, t := range s.temps {
		if t != rng.owns && t != rng.pt {
			s.end(t, dead, n, "for")
		}
	}
	s.temps = s.temps[:0]
}

// rangeElem declares a range-for's element: a reference into the range's
// storage, or a copy.
func (x *exec) rangeElem(s *state, n parser.NodeID, rng value) {
	name, _, ref := x.declName(x.f.Field(n, parser.FieldDeclarator))
	if name == "" {
		return
	}
	l := local{name: name, typ: tPlain, val: unknown, depth: x.depth, decl: n, ref: ref}
	if ref {
		l.typ = tRef
	}
	l.slot = s.newObj(object{kind: oStack, owner: name, frame: true})
	if store := rng.owns; store >= 0 && rng.kind == tStorage {
		x.use(s, borrowOf(store, tRef), x.f.Field(n, parser.FieldRight))
		switch w, ok := x.elementVisited(s, store, n); {
		case ref:
			// An element bound by reference may be written through it.
			l.ref, l.typ, l.val = true, tRef, borrowOf(store, tRef)
			s.untrack(store)
		case ok:
			l.typ, l.val = w.kind, w
		}
	} else if rng.pt >= 0 {
		x.use(s, rng, x.f.Field(n, parser.FieldRight))
	}
	s.locals = append(s.locals, l)
}

// anyNormal reports whether some state still runs on to the next
// statement.
func anyNormal(ss []*state) bool {
	for _, s := range ss {
		if s.flow == normal {
			return true
		}
	}
	return false
}

func (x *exec) switchStmt(n parser.NodeID, ss []*state) []*state {
	f := x.f
	for _, s := range ss {
		x.eval(s, f.Field(n, parser.FieldCondition))
		x.endTemps(s, n)
	}
	body := f.Field(n, parser.FieldBody)
	var out []*state
	// Each case starts from the states before the switch and falls through
	// into the cases after it until a break; no default case means the
	// switch may do nothing.
	var cases []parser.NodeID
	hasDefault := false
	for c := range f.NamedChildren(body) {
		if x.kind(c) == parser.KindCaseStatement {
			cases = append(cases, c)
			if strings.HasPrefix(x.text(c), "default") {
				hasDefault = true
			}
		}
	}
	x.depth++
	for i := range cases {
		if x.steps > maxSteps {
			// The function's budget is spent: the cases not yet started
			// are not executed (the cut is already recorded), instead of
			// each carrying its paths through every case after it.
			break
		}
		run := make([]*state, 0, len(ss))
		for _, s := range ss {
			run = append(run, s.clone())
		}
		for _, c := range cases[i:] {
			run = x.stmt(c, run)
			if !anyNormal(run) || x.steps > maxSteps {
				// Every path broke, returned or was cut: nothing falls
				// through to the cases after this one. Stopping here keeps
				// a switch of many short cases linear in its size.
				break
			}
		}
		for _, s := range run {
			if s.flow == broke {
				s.flow = normal
			}
		}
		out = x.bound(append(out, run...))
	}
	x.depth--
	if !hasDefault || len(cases) == 0 {
		out = append(out, ss...)
	}
	for _, s := range out {
		if s.flow == normal || s.flow == jumped {
			x.exitScopes(s, x.depth, n)
		}
	}
	return x.bound(out)
}

// guardBlock says block n is the body of an object a macro declares,
// NAME { ... }; : a word blanked before the parse (see
// parser.File.Blanked) directly before the block, and an empty statement
// directly after it. A plain block needs no semicolon; one that ends a
// declaration is the body of a lambda the declared object holds, which
// an object no one names runs from its destructor at the end of the scope
// or never (folly's SCOPE_EXIT, SCOPE_FAIL and SCOPE_SUCCESS are such
// macros). When it runs is not in the code: it is not run here.
func (x *exec) guardBlock(n parser.NodeID) bool {
	f := x.f
	if x.kind(n) != parser.KindCompoundStatement || len(f.Blanked) == 0 {
		return false
	}
	start := f.Nodes[n].Start
	words := f.BlankedIn(0, start)
	if len(words) == 0 {
		return false
	}
	w := words[len(words)-1]
	for i := w.At + uint32(len(w.Name)); i < start; i++ {
		if c := f.Src[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	next := f.Nodes[n].End
	for int(next) < len(f.Src) && (f.Src[next] == ' ' || f.Src[next] == '\t') {
		next++
	}
	return int(next) < len(f.Src) && f.Src[next] == ';'
}

// emptyMemberRange says range-for loop n, in a constructor of the
// method's class, ranges over a data member of standard container type
// the constructor leaves empty: the member has no default member
// initialiser and the constructor's initialiser list names neither it
// nor the class (a delegating constructor), so it is default-initialised
// ([class.base.init]), and a default-constructed container is empty.
// Nothing before the loop, in the constructor's body, may have put
// anything in it: no name of it, no call of a method the class declares,
// no this handed on. A loop around n, or a lambda, could run it after
// the member was filled. The loop's body runs no time.
func (x *exec) emptyMemberRange(n parser.NodeID) bool {
	f := x.f
	if !x.hasMembers || x.kind(x.def) != parser.KindFunctionDefinition {
		return false
	}
	name := memberName(f, f.Field(n, parser.FieldRight))
	typ := x.classMembers[name]
	if name == "" || typ == "" || strings.HasPrefix(name, "(") {
		return false
	}
	if fam, _ := containerOf(x.resolve(typ)); fam == famNone || strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") {
		return false
	}
	class := x.className()
	fd, _ := x.funcDeclarator(x.def)
	if class == "" || fd == parser.None || lastName(calleeName(x.text(f.Field(fd, parser.FieldDeclarator)))) != class {
		return false
	}
	if slices.Contains(list(x.classMembers, "(init)"), name) {
		return false
	}
	for c := range f.NamedChildren(x.def) {
		if x.kind(c) != parser.KindFieldInitializerList {
			continue
		}
		for fi := range f.NamedChildren(c) {
			for a := range f.NamedChildren(fi) {
				if t := lastName(x.text(a)); t == name || t == class {
					return false
				}
				break
			}
		}
	}
	for p := f.Nodes[n].Parent; p != x.def && p != parser.None; p = f.Nodes[p].Parent {
		switch x.kind(p) {
		case parser.KindForStatement, parser.KindWhileStatement, parser.KindDoStatement, parser.KindForRangeLoop, parser.KindLambdaExpression:
			return false
		}
	}
	body := f.Field(x.def, parser.FieldBody)
	if body == parser.None {
		return false
	}
	for j := body; j < n; j++ {
		switch f.Nodes[j].Kind {
		case parser.KindIdentifier, parser.KindFieldIdentifier:
			if f.Text(j) == name {
				return false
			}
		case parser.KindThis:
			if p := f.Nodes[j].Parent; x.kind(p) != parser.KindFieldExpression {
				return false // this handed on, or *this
			}
		case parser.KindCallExpression:
			fn := f.Field(j, parser.FieldFunction)
			if x.kind(fn) == parser.KindFieldExpression {
				if x.kind(f.Field(fn, parser.FieldArgument)) == parser.KindThis {
					return false
				}
				continue
			}
			if x.classMembers["("+lastName(x.text(fn))+")"] != "" {
				return false
			}
		}
	}
	return true
}

// coYield runs co_yield statement n: its operand is evaluated, and a
// value of a call whose co_yield completes the coroutine (the API's role
// complete: folly::coro's co_error) ends the path as a return does; any
// other co_yield suspends the coroutine and goes on when it is resumed.
func (x *exec) coYield(s *state, n parser.NodeID) {
	e := parser.None
	for c := range x.f.NamedChildren(n) {
		if x.kind(c) != parser.KindComment {
			e = c
			break
		}
	}
	if e == parser.None {
		return
	}
	x.eval(s, e)
	x.endTemps(s, n)
	if x.kind(e) != parser.KindCallExpression || x.opt.API == nil {
		return
	}
	name, _ := x.callName(e)
	if x.opt.API.Call(name)&apimodel.Complete == 0 {
		return
	}
	s.ret, s.retArg, s.retRef = unknown, 0, 0
	s.flow = returned
}
