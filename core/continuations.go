package core

import (
	"slices"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// Continuations: a closure handed to a call that runs it after the call
// returns — registered on a future or a stream (a pack's callback role:
// "runs when the future completes" / "when the stream reaches this
// point"), or handed to a method of the tree that keeps it for later (see
// deferredParams) — is work the host does not wait for. While it is
// pending, what it captured by reference (and what pointers it captured by
// value point to) must stay alive; a frame local that ends first is a
// fault (CallbackOutlives). Waiting for the future or stream, or handing
// on something the closure signals (a latch it counts down, a promise it
// sets), ends the wait in the program's favour (see mayWait).

// frameReads is the frame memory closure c uses when it runs, by the
// capture that reaches it: a local captured by reference (captured ""),
// or what a pointer, view or iterator captured by value points to
// (captured names it); memory kept by something else is left out.
func (x *exec) frameReads(s *state, c *closure) (objs []int32, captured []string) {
	add := func(obj int32, name string) {
		if obj < 0 || int(obj) >= len(s.objs) || !s.objs[obj].frame || s.objs[obj].kept || slices.Contains(objs, obj) {
			return
		}
		objs, captured = append(objs, obj), append(captured, name)
	}
	for _, cp := range c.caps {
		switch {
		case cp.byRef:
			add(cp.l.val.pt, "")
		case cp.l.typ == tPointer || cp.l.typ == tView || cp.l.typ == tIter:
			add(cp.l.val.pt, cp.name)
		case cp.l.typ == tPlain && cp.slot >= 0 && int(cp.slot) < len(s.objs) && x.memberwise(s.objs[cp.slot].class):
			// An object captured by value is copied member by member:
			// the closure's copy holds what the object's members hold.
			o := s.objs[cp.slot]
			for i, h := range o.holds {
				name := cp.name
				if i < len(o.heldAs) && o.heldAs[i] != "" {
					name += "." + strings.TrimSuffix(o.heldAs[i], "[]")
				}
				add(h, name)
			}
		}
	}
	return objs, captured
}

// pend queues w once per capture that reaches frame memory of c's, so
// the fault names how the closure reaches what ended.
func (x *exec) pend(s *state, w work, c *closure) {
	objs, captured := x.frameReads(s, c)
	for i, obj := range objs {
		w.reads, w.captured = []int32{obj}, captured[i]
		s.pending = append(s.pending, w)
	}
}

// closureArg finds the closure among the arguments of list: a lambda
// written there, or a local that holds one. mk makes it (on s, once the
// caller takes it: a lambda's captures are made on the state). ok is
// false when no argument is one.
func (x *exec) closureArg(s *state, list parser.NodeID) (mk func() *closure, arg parser.NodeID, ok bool) {
	for a := range x.f.NamedChildren(list) {
		e := x.uncast(a)
		if x.kind(e) == parser.KindCallExpression {
			// std::move(task), std::function<void()>(lambda).
			if inner := x.argAt(x.f.Field(e, parser.FieldArguments), 0); inner != parser.None {
				e = x.uncast(inner)
			}
		}
		switch x.kind(e) {
		case parser.KindLambdaExpression:
			return func() *closure { return x.makeClosure(s, e) }, a, true
		case parser.KindIdentifier:
			if i := s.lookup(x.text(e)); i >= 0 && s.locals[i].val.clo != nil {
				c := s.locals[i].val.clo
				return func() *closure { return c }, a, true
			}
		}
	}
	return nil, parser.None, false
}

// continuation executes recv.m(list) at n when a pack says m registers a
// callback and recv is a future or a stream: the closure handed to it
// runs when that completes, after the call returns. It reports whether
// the call was one.
func (x *exec) continuation(s *state, n, recv, list parser.NodeID, m string) bool {
	api := x.opt.API
	if api == nil || api.CallOn(m, true)&apimodel.Callback == 0 {
		return false
	}
	stream, ok := x.completes(s, recv)
	if !ok {
		return false
	}
	closure, arg, ok := x.closureArg(s, list)
	if !ok {
		return false
	}
	if !stream && x.completedBefore(recv, n) {
		// Registered on a future this function completed or waited for
		// already: it runs at once.
		return false
	}
	x.eval(s, recv)
	c := closure()
	for a := range x.f.NamedChildren(list) {
		if a != arg {
			x.eval(s, a)
		}
	}
	if !stream && x.waitedAt(n) {
		// f.then(cb).get(): the future of the continuation is waited
		// for in the same expression, so cb has run when it returns.
		return true
	}
	w := work{at: n, what: m, continuation: true, future: !stream, on: x.text(recv)}
	if stream {
		w.queue = queueKey(x.text(recv))
	}
	x.pend(s, w, c)
	if !stream && x.capturesThis(c.node) && x.ownMember(s, recv) != "" {
		// It reaches the object through this, and hangs on a future the
		// object keeps: it is pending until that future completes, which
		// may be after the object is gone (see objectOutlived).
		w.reads, w.captured = []int32{thisObj}, "this"
		s.pending = append(s.pending, w)
	}
	return true
}

// waitedAt says the result of call n (a continuation's future) is the
// receiver of a call that waits for a future (a pack's wait or block
// role): f.then(cb).get(), f.then(cb).wait().
func (x *exec) waitedAt(n parser.NodeID) bool {
	fe := x.f.Nodes[n].Parent
	if x.kind(fe) != parser.KindFieldExpression || x.f.Field(fe, parser.FieldArgument) != n {
		return false
	}
	call := x.f.Nodes[fe].Parent
	if x.kind(call) != parser.KindCallExpression || x.f.Field(call, parser.FieldFunction) != fe {
		return false
	}
	return x.waitsForFuture(calleeName(x.text(x.f.Field(fe, parser.FieldField))))
}

// waitsForFuture says method m, called on a future, waits for it (a
// pack's wait or block role, its future_calls first).
func (x *exec) waitsForFuture(m string) bool {
	roles := x.opt.API.CallOn(m, true)
	if r, ok := x.opt.API.FutureCall(m); ok {
		roles = r
	}
	return roles&(apimodel.Wait|apimodel.Block) != 0
}

// capturesThis says lambda n captures this (not a copy of *this) and its
// body uses the object: a member, this, or a method of the class.
func (x *exec) capturesThis(n parser.NodeID) bool {
	explicit, byDefault := false, false
	for cp := range x.f.NamedChildren(x.f.Field(n, parser.FieldCaptures)) {
		switch t := strings.TrimSpace(x.text(cp)); {
		case t == "this":
			explicit = true
		case x.kind(cp) == parser.KindLambdaDefaultCapture:
			byDefault = true
		}
	}
	if !explicit && !byDefault {
		return false
	}
	body := x.f.Field(n, parser.FieldBody)
	for j := body; j < x.f.End(body); j++ {
		switch x.f.Nodes[j].Kind {
		case parser.KindThis:
			return true
		case parser.KindIdentifier:
			name := x.text(j)
			if p := x.f.Nodes[j].Parent; x.kind(p) == parser.KindFieldExpression && x.f.Field(p, parser.FieldArgument) != j {
				continue
			}
			if x.classMembers[name] != "" || x.classMembers["("+name+")"] != "" {
				return true
			}
		}
	}
	return false
}

// ownMember is the data member of the method's object that recv names
// (m, this->m), or "".
func (x *exec) ownMember(s *state, recv parser.NodeID) string {
	name := memberName(x.f, recv)
	if name == "" || !x.hasMembers || strings.HasPrefix(name, "(") || x.classMembers[name] == "" {
		return ""
	}
	if i := s.lookup(name); i >= 0 && !s.locals[i].member {
		return "" // a local or parameter of that name hides it
	}
	return name
}

// objectOutlived reports, at a return of path s, the continuations still
// pending that reach the method's object through this: the object's
// destructor may run as soon as the method returns (its owner drops it:
// constructed then destroyed is a sequence every class allows), and when
// that destructor does not wait for the future they hang on, the
// callback runs on a destroyed object. The destructor waits when its
// code reads that member (an Await, a join through it), calls another
// method of the object (a stop() or shutdown() that may wait), or when
// the tree declares one holdfast has no code for.
func (x *exec) objectOutlived(s *state, end parser.NodeID) {
	for _, w := range s.pending {
		if !w.continuation || w.captured != "this" || x.destructorWaits(w.on) {
			continue
		}
		class := x.className()
		x.fault(Fault{Kind: CallbackOutlives, Use: w.at, End: end, Via: "~" + class, Value: w.what, Owner: class,
			Keeper: w.on, Captured: "this"})
	}
}

// destructorWaits says the destructor of the method's class may wait for
// member (as written: m or this->m), in the program's favour.
func (x *exec) destructorWaits(member string) bool {
	member = strings.TrimPrefix(member, "this->")
	facts := x.classMembers
	reads, defined := facts["(~reads)"]
	if !defined {
		// No destructor body known: the implicit one waits for nothing
		// (unless a member's own destructor does), one only declared may.
		if x.declaresDestructor("~" + x.className()) {
			return true
		}
		return x.opt.API != nil && typeName(facts[member]) == "future"
	}
	if facts["(~calls)"] != "" {
		return true
	}
	return slices.Contains(strings.Split(reads, ","), member)
}

// completes says recv is something that completes on its own and runs
// what is registered on it then: a future or event (its declared type,
// a pack's future type or a name shaped like one; or a call that yields
// one), or a stream (stream true).
func (x *exec) completes(s *state, recv parser.NodeID) (stream, ok bool) {
	api := x.opt.API
	for x.kind(recv) == parser.KindParenthesizedExpression || x.kind(recv) == parser.KindPointerExpression {
		recv = x.lastNamedChild(recv)
	}
	switch x.kind(recv) {
	case parser.KindFieldExpression, parser.KindIdentifier:
		var types []string
		if m := x.ownMember(s, recv); m != "" {
			// A data member (m, this->m), whether or not a local stands
			// for it (one of a class of another tree, held by value).
			types = append(types, typeName(x.resolve(strings.TrimRight(x.classMembers[m], "*&"))))
		} else if x.kind(recv) == parser.KindIdentifier {
			i := s.lookup(x.text(recv))
			if i < 0 {
				return false, false
			}
			if x.continuedFrom(s.locals[i].decl) {
				// auto g = f.Then(...): the future of a continuation.
				return false, true
			}
			if x.promiseOf(s, recv) >= 0 {
				// auto f = p.get_future(): a future.
				return false, true
			}
			types = append(types, s.locals[i].tname)
			if o := s.locals[i].val.owns; o >= 0 && int(o) < len(s.objs) && s.objs[o].class != "" {
				types = append(types, s.objs[o].class)
			}
		}
		for _, t := range types {
			switch {
			case t == "" || t == "auto":
			case api.IsStream(t):
				return true, true
			case api.IsFuture(t):
				return false, true
			}
		}
	case parser.KindCallExpression:
		fn := x.f.Field(recv, parser.FieldFunction)
		if x.kind(fn) == parser.KindFieldExpression {
			fn = x.f.Field(fn, parser.FieldField)
		}
		name := lastName(calleeName(x.text(fn)))
		if api.CallOn(name, true)&apimodel.Yield != 0 && api.IsFuture(name) {
			// getFuture(), GetReadyFuture(): named a future by a pack.
			return false, true
		}
	}
	return false, false
}

// awaitFutures executes a call that waits for a future (a pack's wait
// role, on a receiver that completes): continuations registered on it
// have run. Futures chain (a continuation's own future, a future
// completed from another's callback), and which one a continuation hangs
// on is not followed, so every registered continuation is taken to have
// run, in the program's favour.
func (x *exec) awaitFutures(s *state, recv parser.NodeID, m string) {
	if len(s.pending) == 0 || x.opt.API == nil {
		return
	}
	if !x.waitsForFuture(m) {
		return
	}
	if stream, ok := x.completes(s, recv); !ok || stream {
		return
	}
	s.pending = slices.DeleteFunc(s.pending, func(w work) bool { return w.future })
	if p := x.promiseOf(s, recv); p >= 0 {
		// The future of a promise a pending closure holds by reference:
		// it is ready once the closure has run to the promise's
		// set_value (std::future::get waits for the shared state,
		// [futures.unique.future]), so the wait covers that closure.
		var kept []work
		for _, w := range s.pending {
			if !(w.continuation && slices.Contains(w.reads, p)) {
				kept = append(kept, w)
			}
		}
		s.pending = kept
	}
}

// promiseOf is the object of the local promise whose future recv names:
// a local initialised with p.get_future() ([futures.promise]: the future
// shares p's state); -1 when recv is not one.
func (x *exec) promiseOf(s *state, recv parser.NodeID) int32 {
	if x.kind(recv) != parser.KindIdentifier {
		return -1
	}
	i := s.lookup(x.text(recv))
	if i < 0 || s.locals[i].decl == parser.None || x.kind(s.locals[i].decl) != parser.KindInitDeclarator {
		return -1
	}
	init := x.unparen(x.f.Field(s.locals[i].decl, parser.FieldValue))
	if x.kind(init) != parser.KindCallExpression {
		return -1
	}
	fn := x.f.Field(init, parser.FieldFunction)
	if x.kind(fn) != parser.KindFieldExpression || x.text(x.f.Field(fn, parser.FieldField)) != "get_future" {
		return -1
	}
	p := x.f.Field(fn, parser.FieldArgument)
	if x.kind(p) != parser.KindIdentifier {
		return -1
	}
	j := s.lookup(x.text(p))
	if j < 0 || s.locals[j].ref {
		return -1
	}
	return s.locals[j].slot
}

// deferredTo executes recv.m(list) at n on an object of a class of the
// tree whose method m keeps a callable parameter to run after it
// returns (class fact "(>m/N)", see deferredParams): the closure handed
// there is pending work until something waits for it. A receiver that
// is a local of the frame keeps the closure only as long as it lives, and
// runs it only when asked: nothing is pending then. It reports whether
// the call was one.
func (x *exec) deferredTo(s *state, n parser.NodeID, recv string, list parser.NodeID, m string, facts map[string]string, local bool) bool {
	nargs := 0
	for range x.f.NamedChildren(list) {
		nargs++
	}
	ks := facts[deferKey(m, nargs)]
	if ks == "" || local {
		return false
	}
	closure, arg, ok := x.closureArg(s, list)
	if !ok {
		return false
	}
	slot, found := "", false
	for _, k := range strings.Split(ks, ",") {
		k, m, _ := strings.Cut(k, "=")
		if k == x.argIndex(list, arg) {
			slot, found = m, true
		}
	}
	if !found {
		return false
	}
	c := closure()
	if slot != "" && x.inLambda == 0 {
		// Kept in a member until a method assigns it again: left there
		// when the function returns, the closure outlives its captures
		// (see leftDangling).
		for _, cp := range c.caps {
			if cp.byRef && x.frameLive(s, cp.slot) {
				s.escs = append(slices.Clip(s.escs), escStore{at: n, lhs: recv, obj: cp.slot, calls: s.calls, how: "lambda", member: slot})
			}
		}
	}
	for a := range x.f.NamedChildren(list) {
		if a != arg {
			x.eval(s, a)
		}
	}
	// Its queue is the keeper: a later call handed it or made on it (a
	// Run(), a Wait(), a drain) may run the closure, in the program's
	// favour (see mayWait, mayWaitObject).
	w := work{at: n, what: m, continuation: true, on: recv, handed: true, queue: queueKey(recv)}
	x.pend(s, w, c)
	return true
}

// argIndex is the position of argument a in list, as the class facts
// write it.
func (x *exec) argIndex(list, a parser.NodeID) string {
	k := 0
	for c := range x.f.NamedChildren(list) {
		if c == a {
			return strconv.Itoa(k)
		}
		k++
	}
	return "-"
}

// deferKey is the class-fact key of the callable parameters method (of
// arity parameters) keeps to run after it returns.
func deferKey(method string, arity int) string {
	return "(>" + method + "/" + strconv.Itoa(arity) + ")"
}

// callableWrappers are the types (by last name) of objects that hold a
// callable to call later: std::function, std::move_only_function,
// std::packaged_task (cppreference), absl::AnyInvocable
// (absl/functional/any_invocable.h).
var callableWrappers = map[string]bool{"function": true, "move_only_function": true, "packaged_task": true, "AnyInvocable": true}

// deferFacts records, as class fact deferKey(method, N), the callable
// parameters of method definition def that it keeps in the object to run
// after it returns: a parameter of a callable wrapper type, or of a
// template type parameter of def, that it moves, forwards or copies into
// a data member (assigned, or inserted into a container member), or hands
// to a method of the class that keeps it (see the facts already
// recorded), when nothing after that, on the way to the return, may wait
// for it: no loop (a spin until the work is done), no call that waits,
// joins or sleeps, no call of the member it stored. So
//
//	void Post(std::function<void()> t) { tasks_.push_back(std::move(t)); }
//
// keeps t, and a pool method that stores the callables and spins until
// its workers are idle does not.
func (x *exec) deferFacts(def parser.NodeID, method string, members map[string]string) {
	f := x.f
	fd, _ := x.funcDeclarator(def)
	body := f.Field(def, parser.FieldBody)
	if fd == parser.None || body == parser.None {
		return
	}
	tparams := map[string]bool{}
	if t := f.Ancestor(def, parser.KindTemplateDeclaration); t != parser.None && f.Nodes[def].Parent == t {
		for p := range f.NamedChildren(f.Field(t, parser.FieldParameters)) {
			for c := range f.NamedChildren(p) {
				if f.Kind(c) == parser.KindTypeIdentifier {
					tparams[f.Text(c)] = true
				}
			}
		}
	}
	params := map[string]int{}
	arity := 0
	for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
		if k := f.Kind(p); k != parser.KindParameterDeclaration && k != parser.KindOptionalParameterDeclaration {
			continue
		}
		name, ptr, _ := x.declName(f.Field(p, parser.FieldDeclarator))
		typ := strings.TrimSpace(f.Text(f.Field(p, parser.FieldType)))
		if name != "" && !ptr && (callableWrappers[typeName(typ)] || tparams[typ]) {
			params[name] = arity
		}
		arity++
	}
	key := deferKey(method, arity)
	if len(params) == 0 {
		return
	}
	data := func(m string) bool { return m != "" && !strings.HasPrefix(m, "(") && members[m] != "" }
	var kept []int
	slots := map[int]string{}
	end := f.End(body)
	for j := body + 1; j < end; j++ {
		k, stored := -1, ""
		switch f.Nodes[j].Kind {
		case parser.KindLambdaExpression, parser.KindClassSpecifier, parser.KindStructSpecifier:
			j = f.End(j) - 1
			continue
		case parser.KindAssignmentExpression:
			if m := memberName(f, f.Field(j, parser.FieldLeft)); data(m) && strings.TrimSpace(f.Text(f.Field(j, parser.FieldOperator))) == "=" {
				k, stored = paramIndex(f, params, f.Field(j, parser.FieldRight)), m
			}
		case parser.KindCallExpression:
			fn := f.Field(j, parser.FieldFunction)
			list := f.Field(j, parser.FieldArguments)
			switch {
			case f.Kind(fn) == parser.KindFieldExpression && insertMethods[f.Text(f.Field(fn, parser.FieldField))] && data(memberName(f, f.Field(fn, parser.FieldArgument))):
				for a := range f.NamedChildren(list) {
					if i := paramIndex(f, params, a); i >= 0 {
						k, stored = i, memberName(f, f.Field(fn, parser.FieldArgument))
					}
				}
			default:
				callee := memberName(f, fn)
				if callee == "" || members["("+callee+")"] == "" {
					continue
				}
				n := 0
				var args []parser.NodeID
				for a := range f.NamedChildren(list) {
					args = append(args, a)
					n++
				}
				for _, ks := range strings.Split(members[deferKey(callee, n)], ",") {
					ks, _, _ = strings.Cut(ks, "=")
					if i, err := strconv.Atoi(ks); err == nil && i < len(args) {
						if p := paramIndex(f, params, args[i]); p >= 0 {
							k = p
						}
					}
				}
			}
		}
		if k < 0 || slices.Contains(kept, k) {
			continue
		}
		stmt := j
		for f.Nodes[stmt].Parent != body && f.Nodes[stmt].Parent != parser.None {
			stmt = f.Nodes[stmt].Parent
		}
		if !x.mayWaitAfter(body, stmt, stored) {
			kept = append(kept, k)
			if f.Nodes[j].Kind == parser.KindAssignmentExpression {
				slots[k] = stored
			}
		}
	}
	if len(kept) == 0 {
		return
	}
	slices.Sort(kept)
	var ks []string
	for _, k := range kept {
		if m := slots[k]; m != "" {
			// Assigned to member m: it stays there until m is assigned
			// again (see escStore.member).
			ks = append(ks, strconv.Itoa(k)+"="+m)
			continue
		}
		ks = append(ks, strconv.Itoa(k))
	}
	v := strings.Join(ks, ",")
	if old, ok := members[key]; ok && old != v {
		v = "!" // overloads of one arity that keep differently
	}
	members[key] = v
}

// paramIndex is the callable parameter expression e hands on: the
// parameter itself, std::move or std::forward of it; -1 when none.
func paramIndex(f *parser.File, params map[string]int, e parser.NodeID) int {
	if f.Kind(e) == parser.KindCallExpression {
		switch name := calleeName(f.Text(f.Field(e, parser.FieldFunction))); lastName(name) {
		case "move", "forward":
			list := f.Field(e, parser.FieldArguments)
			e = parser.None
			for a := range f.NamedChildren(list) {
				e = a
				break
			}
		}
	}
	if e == parser.None || f.Kind(e) != parser.KindIdentifier {
		return -1
	}
	if k, ok := params[f.Text(e)]; ok {
		return k
	}
	return -1
}

// mayWaitAfter says something after statement stmt of body, on the way
// to the return, may wait for what was stored: a loop, a call that
// waits, joins, sleeps or synchronises (by a pack's wait or block role,
// or its name), or a call of member stored itself (it runs now).
func (x *exec) mayWaitAfter(body, stmt parser.NodeID, stored string) bool {
	f := x.f
	for j := f.End(stmt); j < f.End(body); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindLambdaExpression, parser.KindClassSpecifier, parser.KindStructSpecifier:
			j = f.End(j) - 1
		case parser.KindForStatement, parser.KindForRangeLoop, parser.KindWhileStatement, parser.KindDoStatement:
			return true
		case parser.KindCallExpression:
			fn := f.Field(j, parser.FieldFunction)
			if stored != "" && memberName(f, fn) == stored {
				return true
			}
			name := lastName(calleeName(f.Text(fn)))
			if f.Kind(fn) == parser.KindFieldExpression {
				name = f.Text(f.Field(fn, parser.FieldField))
			}
			if x.opt.API != nil && x.opt.API.Call(name)&(apimodel.Wait|apimodel.Block) != 0 {
				return true
			}
			low := strings.ToLower(name)
			for _, w := range []string{"wait", "join", "sleep", "sync", "drain", "flush", "barrier"} {
				if strings.Contains(low, w) {
					return true
				}
			}
		}
	}
	return false
}

// continuedFrom says declaration d declares a local from a future: the
// result of a call that registers a continuation (a pack's callback
// role: a future that completes when the continuation has run), or an
// object made of a future type (make_intrusive<ivalue::Future>(...)).
func (x *exec) continuedFrom(d parser.NodeID) bool {
	if d == parser.None || x.opt.API == nil {
		return false
	}
	for j := d; j < x.f.End(d); j++ {
		switch x.f.Nodes[j].Kind {
		case parser.KindFieldExpression:
			if p := x.f.Nodes[j].Parent; x.kind(p) == parser.KindCallExpression && x.f.Field(p, parser.FieldFunction) == j &&
				x.opt.API.CallOn(x.text(x.f.Field(j, parser.FieldField)), true)&apimodel.Callback != 0 {
				return true
			}
		case parser.KindTemplateFunction:
			if t := templateArg(x.text(j)); t != "" && x.opt.API.IsFuture(typeName(t)) {
				return true
			}
		}
	}
	return false
}

// completedBefore says a call written before n in the function waits for
// or completes the future recv names (a pack's wait role on the same
// receiver, as written): a continuation registered after it runs at
// once. Read from the text, whatever the path, in the program's favour.
func (x *exec) completedBefore(recv, n parser.NodeID) bool {
	body := x.f.Field(x.def, parser.FieldBody)
	if body == parser.None {
		return false
	}
	want := strings.Join(strings.Fields(x.text(recv)), "")
	for j := body; j < n; j++ {
		if x.f.Nodes[j].Kind != parser.KindFieldExpression {
			continue
		}
		p := x.f.Nodes[j].Parent
		if x.kind(p) != parser.KindCallExpression || x.f.Field(p, parser.FieldFunction) != j ||
			strings.Join(strings.Fields(x.text(x.f.Field(j, parser.FieldArgument))), "") != want {
			continue
		}
		m := x.text(x.f.Field(j, parser.FieldField))
		roles := x.opt.API.CallOn(m, true)
		if r, ok := x.opt.API.FutureCall(m); ok {
			roles = r
		}
		if roles&(apimodel.Wait|apimodel.Block) != 0 {
			return true
		}
	}
	return false
}

// spinWait executes a loop condition cond: a loop that tests a local a
// pending closure captured by reference (a flag or counter it sets) waits
// for that closure, in the program's favour (while (!done) {}).
func (x *exec) spinWait(s *state, cond parser.NodeID) {
	if len(s.pending) == 0 || cond == parser.None {
		return
	}
	var closures []parser.NodeID
	for j := cond; j < x.f.End(cond); j++ {
		if x.f.Nodes[j].Kind != parser.KindIdentifier {
			continue
		}
		i := s.lookup(x.text(j))
		if i < 0 {
			continue
		}
		slot := s.locals[i].slot
		if s.locals[i].ref {
			slot = s.locals[i].val.pt
		}
		for _, w := range s.pending {
			if (w.continuation || w.thread) && slices.Contains(w.reads, slot) {
				closures = append(closures, w.at)
			}
		}
	}
	ran(s, closures)
}

// ran drops the pending work of the closures registered or started at
// calls: they have run. A closure's work is one item per capture (see
// pend): waiting for it through one of them waits for all.
func ran(s *state, calls []parser.NodeID) {
	if len(calls) > 0 {
		s.pending = slices.DeleteFunc(s.pending, func(w work) bool {
			return (w.continuation || w.thread) && slices.Contains(calls, w.at)
		})
	}
}
