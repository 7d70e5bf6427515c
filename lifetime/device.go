package lifetime

import (
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// This file models what device code does around streams: which values
// are streams, which calls free device memory and what they free, which
// order work against a stream, which switch the current stream or issue
// work on an explicit one, and which build work objects.

// typed marks a declared value by what its type says beyond its kind:
// a stream, or a weak reference.
func (b *builder) typed(v VarID, typ parser.NodeID) {
	x := &b.fn.Vars[v]
	raw := b.text(typ)
	if isStreamType(b.m, raw) {
		x.Stream = true
	}
	if strings.Contains(strings.ToLower(x.Base), "weak") {
		x.Weak = true
	}
}

// throughMember reports whether an expression is rooted in a member or in
// this rather than in a local value.
func (b *builder) throughMember(n parser.NodeID) bool {
	for depth := 0; n != parser.None && depth < maxDepth; depth++ {
		n = b.strip(n)
		switch b.kind(n) {
		case parser.KindThis:
			return true
		case parser.KindIdentifier:
			return b.fn.Class.Member(b.text(n)) != nil && b.env[b.text(n)] == nil
		case parser.KindCallExpression:
			fn := b.f.Field(n, parser.FieldFunction)
			if b.kind(fn) == parser.KindIdentifier {
				// A call of a method of the class: mem(), buffer().
				m := b.fn.Class.Member(b.text(fn))
				return m != nil && m.Method
			}
			if b.kind(fn) != parser.KindFieldExpression {
				return false
			}
			n = fn
		case parser.KindPointerExpression, parser.KindFieldExpression, parser.KindSubscriptExpression:
			n = b.f.Field(n, parser.FieldArgument)
		default:
			return false
		}
	}
	return false
}

// argList returns the argument nodes of a call.
func (b *builder) argList(n parser.NodeID) []parser.NodeID {
	var out []parser.NodeID
	for a := range b.f.NamedChildren(b.f.Field(n, parser.FieldArguments)) {
		out = append(out, a)
	}
	return out
}

// free models a call that returns memory to an allocator. The memory is
// the last argument of a method call with arguments (Deallocate(ordinal,
// mem), pool.recycle(buf)), the receiver of one without (buf.Free()), and
// the first argument of a free function (cudaFree(p)). Var is the local
// value freed, Other the local allocator, Text the freed expression.
func (b *builder) free(n parser.NodeID, name string, recv parser.NodeID, recvVar VarID) {
	args := b.argList(n)
	freed := parser.None
	switch {
	case recv != parser.None && len(args) > 0:
		freed = args[len(args)-1]
	case recv != parser.None:
		freed, recvVar = recv, NoVar
	case len(args) > 0:
		freed = args[0]
		if i, ok := b.m.FreeArg(name); ok && i < len(args) {
			freed = args[i]
		}
	}
	if freed == parser.None {
		return
	}
	v := b.chainRoot(freed)
	fl := Flags(0)
	if v == NoVar && b.throughMember(freed) {
		fl |= Member
	}
	b.emit(Event{Kind: Free, Node: n, Var: v, Other: recvVar, Owner: NoVar, Call: name, Flags: fl, Text: collapse(b.text(freed))})
}

// sync models a call that orders device work against a stream: the value
// ordered is the receiver (t.record_stream(s), ev.block(s)) or the first
// argument (cudaStreamWaitEvent(s, ev), recordStream(t.storage()...)).
func (b *builder) sync(n parser.NodeID, name string, recvVar VarID) {
	v := recvVar
	if v == NoVar {
		if args := b.argList(n); len(args) > 0 {
			v = b.chainRoot(args[0])
		}
	}
	b.emit(Event{Kind: Sync, Node: n, Var: v, Other: NoVar, Owner: NoVar, Call: name})
}

// result records that target holds the result of call name, and what
// that result is: a reference to the enclosing object, a stream. The
// Result event is kept for calls a pack names and for tensors and streams
// (where an allocation or a stream comes from).
func (b *builder) result(n parser.NodeID, target VarID, name string, roles apimodel.Role, recvVar VarID) {
	x := &b.fn.Vars[target]
	if roles&apimodel.Self != 0 {
		x.SelfRef = true
		if strings.Contains(strings.ToLower(name), "weak") {
			x.Weak = true
		}
	}
	if roles&apimodel.Stream != 0 {
		x.Stream, x.SideStream = true, true
	}
	if recvVar != NoVar && b.fn.Vars[recvVar].Stream && (x.Stream || x.Type == "auto") {
		// side.stream(): the raw handle of a stream is that stream.
		x.Stream = true
		x.SideStream = x.SideStream || b.fn.Vars[recvVar].SideStream
	}
	if roles != 0 || x.Stream || b.m.IsTensor(x.Base) {
		b.emit(Event{Kind: Result, Node: n, Var: target, Other: NoVar, Owner: NoVar, Call: name})
	}
}

// streamArg returns the first stream among a call's arguments: a stream
// value, or a call chain on one (side.stream()).
func (b *builder) streamArg(args []parser.NodeID) (VarID, parser.NodeID) {
	for _, a := range args {
		if v := b.chainRoot(a); v != NoVar && b.fn.Vars[v].Stream {
			return v, a
		}
	}
	return NoVar, parser.None
}

// onStream models a call that issues work on an explicit stream: an
// argument that is a stream (cudaMemcpyAsync(..., s), launch(..., s)) or,
// for a CUDA kernel launch k<<<g, b, m, s>>>(args) (read as k(g, b, m,
// s)(args)), the launch configuration's stream. Every other argument
// rooted in a local value is used by that work.
func (b *builder) onStream(n parser.NodeID, name string) {
	args := b.argList(n)
	fn := b.f.Field(n, parser.FieldFunction)
	s, sn := b.streamArg(args)
	if s == NoVar && b.kind(fn) == parser.KindCallExpression {
		s, sn = b.streamArg(b.argList(fn))
		if name == "" {
			name = stripTemplateArgs(b.text(b.f.Field(fn, parser.FieldFunction)))
		}
	}
	if s == NoVar {
		return
	}
	seen := map[VarID]bool{s: true}
	for _, a := range args {
		if a == sn {
			continue
		}
		v := b.chainRoot(a)
		if v == NoVar {
			v = b.borrowedFrom(a)
		}
		if v == NoVar || seen[v] {
			continue
		}
		seen[v] = true
		b.emit(Event{Kind: OnStream, Node: a, Var: v, Other: s, Owner: NoVar, Call: name})
	}
}

// borrowedFrom returns the local value an argument expression borrows
// from through a call of its own: t.data_ptr<float>() inside f(...).
func (b *builder) borrowedFrom(a parser.NodeID) VarID {
	a = b.strip(a)
	if b.kind(a) != parser.KindCallExpression {
		return NoVar
	}
	return b.chainRoot(a)
}

// switchTo models a call that makes its argument the current stream.
func (b *builder) switchTo(n parser.NodeID, name string) {
	s := NoVar
	if args := b.argList(n); len(args) > 0 {
		s = b.chainRoot(args[0])
	}
	b.emit(Event{Kind: Switch, Node: n, Var: s, Other: NoVar, Owner: NoVar, Call: name})
}

// factory models make_shared<T>(args), make_intrusive<T>(args) and the
// like: a template function named make... with an explicit type builds a T.
func (b *builder) factory(n parser.NodeID, target VarID) {
	fn := b.f.Field(n, parser.FieldFunction)
	if b.kind(fn) == parser.KindQualifiedIdentifier {
		for depth := 0; b.kind(fn) == parser.KindQualifiedIdentifier && depth < maxDepth; depth++ {
			fn = b.f.Field(fn, parser.FieldName)
		}
	}
	if b.kind(fn) != parser.KindTemplateFunction {
		return
	}
	name := b.text(b.f.Field(fn, parser.FieldName))
	if !strings.HasPrefix(strings.ToLower(name), "make") {
		return
	}
	typ := ""
	for a := range b.f.NamedChildren(b.f.Field(fn, parser.FieldArguments)) {
		typ = stripQualifiers(stripTemplateArgs(collapse(b.text(a))))
		break
	}
	if typ == "" {
		return
	}
	b.emit(Event{Kind: Construct, Node: n, Var: target, Other: NoVar, Owner: NoVar, Call: name, Flags: b.futureArgs(b.argList(n)), Text: typ})
}

// newExpr models new T(args).
func (b *builder) newExpr(n parser.NodeID) {
	typ := stripQualifiers(stripTemplateArgs(collapse(b.text(b.f.Field(n, parser.FieldType)))))
	var list []parser.NodeID
	for a := range b.f.NamedChildren(b.f.Field(n, parser.FieldArguments)) {
		list = append(list, a)
	}
	if typ != "" {
		b.emit(Event{Kind: Construct, Node: n, Var: NoVar, Other: NoVar, Owner: NoVar, Call: "new", Flags: b.futureArgs(list), Text: typ})
	}
	b.children(n)
}

// futureArgs returns WithFuture when an argument is a future: a future
// value (moved or not), a member future, or a call that starts async work.
func (b *builder) futureArgs(args []parser.NodeID) Flags {
	for _, a := range args {
		a = b.strip(a)
		if b.kind(a) == parser.KindCallExpression {
			name, recv := b.callee(b.f.Field(a, parser.FieldFunction))
			roles := b.m.CallOn(name, recv != parser.None)
			if roles&(apimodel.Async|apimodel.Yield) != 0 {
				return WithFuture
			}
			if roles&apimodel.Move != 0 {
				for x := range b.f.NamedChildren(b.f.Field(a, parser.FieldArguments)) {
					a = b.strip(x)
					break
				}
			}
		}
		if v := b.rootVar(a); v != NoVar {
			if b.fn.Vars[v].Kind == Future {
				return WithFuture
			}
			continue
		}
		if t, ok := b.memberType(a); ok && t.kind == Future {
			return WithFuture
		}
	}
	return 0
}

// vexing reads "T x(a, b);" that the grammar parsed as a function
// prototype (every parameter a bare type name) as the declaration of x
// constructed from a and b, when every such name is a value in scope.
// It reports whether it did.
func (b *builder) vexing(decl, d parser.NodeID) bool {
	f := b.f
	params := f.Field(d, parser.FieldParameters)
	name := f.Field(d, parser.FieldDeclarator)
	if params == parser.None || b.kind(name) != parser.KindIdentifier {
		return false
	}
	count := 0
	for p := range f.NamedChildren(params) {
		if b.kind(p) != parser.KindParameterDeclaration || f.Field(p, parser.FieldDeclarator) != parser.None {
			return false
		}
		t := f.Field(p, parser.FieldType)
		if b.kind(t) != parser.KindTypeIdentifier || f.FirstChild(p) != t || f.Nodes[t].Next != parser.None {
			return false
		}
		if _, ok := b.env[b.text(t)]; !ok && b.fn.Class.Member(b.text(t)) == nil {
			return false
		}
		count++
	}
	if count == 0 {
		return false
	}
	typ := f.Field(decl, parser.FieldType)
	t := classify(b.m, b.text(typ), false, false, false, b.text(name))
	v := b.newVar(b.text(name), name, t)
	b.typed(v, typ)
	b.emit(Event{Kind: Declare, Node: name, Var: v, Other: NoVar, Owner: NoVar})
	for p := range f.NamedChildren(params) {
		t := f.Field(p, parser.FieldType)
		if x := b.lookup(b.text(t), t); x != NoVar {
			b.emit(Event{Kind: Use, Node: t, Var: x, Other: NoVar, Owner: NoVar, Call: b.fn.Vars[v].Base, Flags: Argument | ToConsumer})
		} else {
			b.thisUse(t, b.text(t))
		}
	}
	b.constructedFrom(v, params, func(p parser.NodeID) parser.NodeID { return f.Field(p, parser.FieldType) })
	return true
}

// constructedFrom models T x(args) and T x{args}, whose argument
// expressions arg finds in list: a Construct of T, and for a stream guard
// a Switch to its stream until x dies.
func (b *builder) constructedFrom(v VarID, list parser.NodeID, arg func(parser.NodeID) parser.NodeID) {
	x := b.fn.Vars[v]
	var args []parser.NodeID
	for p := range b.f.NamedChildren(list) {
		args = append(args, arg(p))
	}
	b.emit(Event{Kind: Construct, Node: list, Var: v, Other: NoVar, Owner: NoVar, Call: x.Base, Flags: b.futureArgs(args), Text: x.Base})
	if b.m.IsStreamGuard(x.Base) {
		s := NoVar
		if len(args) > 0 {
			s = b.chainRoot(args[0])
		}
		b.emit(Event{Kind: Switch, Node: list, Var: s, Other: v, Owner: NoVar, Call: x.Base})
	}
}

// unarySend reports whether n is an Objective-C unary message send as the
// neutraliser leaves it, "(obj.name)", whose selector a pack names: such a
// parenthesised member access is modelled as the call obj.name().
func (b *builder) unarySend(n parser.NodeID) bool {
	if b.f.Ext != ".mm" && b.f.Ext != ".m" || b.kind(n) != parser.KindParenthesizedExpression {
		return false
	}
	inner := parser.None
	for c := range b.f.NamedChildren(n) {
		inner = c
	}
	if b.kind(inner) != parser.KindFieldExpression || b.operator(inner) != "." {
		return false
	}
	return b.m.Call(b.text(b.f.Field(inner, parser.FieldField))) != 0
}

// callFunction returns the callee expression of a call, or, for a unary
// send, its member access.
func (b *builder) callFunction(n parser.NodeID) parser.NodeID {
	if b.kind(n) == parser.KindParenthesizedExpression {
		for c := range b.f.NamedChildren(n) {
			return c
		}
	}
	return b.f.Field(n, parser.FieldFunction)
}

// selfCapture returns the flags of capturing value v, or the result of
// init expression right: SelfRef (and Weak) when it refers to the
// enclosing object.
func (b *builder) selfCapture(v VarID, right parser.NodeID) Flags {
	if v != NoVar {
		x := b.fn.Vars[v]
		switch {
		case x.SelfRef && x.Weak:
			return SelfRef | Weak
		case x.SelfRef:
			return SelfRef
		}
		return 0
	}
	right = b.strip(right)
	if b.kind(right) != parser.KindCallExpression {
		return 0
	}
	name, _ := b.callee(b.f.Field(right, parser.FieldFunction))
	if b.m.Call(name)&apimodel.Self == 0 {
		// std::weak_ptr<T>(shared_from_this()) and the like.
		for a := range b.f.NamedChildren(b.f.Field(right, parser.FieldArguments)) {
			if fl := b.selfCapture(b.rootVar(a), a); fl != 0 {
				if strings.Contains(strings.ToLower(b.text(b.f.Field(right, parser.FieldFunction))), "weak") {
					fl |= Weak
				}
				return fl
			}
		}
		return 0
	}
	if strings.Contains(strings.ToLower(name), "weak") {
		return SelfRef | Weak
	}
	return SelfRef
}

// blockCapture gives a lambda with an empty capture list in an
// Objective-C++ file the capture of the block it was neutralised from:
// everything it uses, by copy. (An empty capture list cannot use outer
// names in C++, so a real lambda is not changed by this.)
func (b *builder) blockCapture(lf *Func, n parser.NodeID) {
	if b.f.Ext != ".mm" && b.f.Ext != ".m" || lf.Default != 0 {
		return
	}
	caps := b.f.Field(n, parser.FieldCaptures)
	for c := range b.f.NamedChildren(caps) {
		_ = c
		return
	}
	lf.Default = '='
}

// memberRoot records the member (or this) an lvalue such as this->x.y,
// x_[i] or *p_ is rooted in, as a use through this.
func (b *builder) memberRoot(n parser.NodeID) {
	for depth := 0; n != parser.None && depth < maxDepth; depth++ {
		n = b.strip(n)
		switch b.kind(n) {
		case parser.KindThis:
			b.thisUse(n, "this")
			return
		case parser.KindIdentifier:
			b.thisUse(n, b.text(n))
			return
		case parser.KindFieldExpression:
			if arg := b.f.Field(n, parser.FieldArgument); b.kind(arg) == parser.KindThis {
				field := b.f.Field(n, parser.FieldField)
				b.thisUse(field, b.text(field))
				return
			}
			n = b.f.Field(n, parser.FieldArgument)
		case parser.KindPointerExpression, parser.KindSubscriptExpression:
			n = b.f.Field(n, parser.FieldArgument)
		default:
			return
		}
	}
}

// wrappedCallbacks registers, as continuations of callback call n, the
// lambdas written directly as arguments of a wrapper call that is the
// argument a (addCallback(wrapPropagateTLSState([..](..){..}))): the
// wrapper returns a callable that runs the lambda. before is the number of
// lambdas the function had before a was modelled.
func (b *builder) wrappedCallbacks(n, a parser.NodeID, before int, subject VarID, name string, fl Flags, on string) {
	a = b.strip(a)
	if b.kind(a) != parser.KindCallExpression {
		return
	}
	args := b.f.Field(a, parser.FieldArguments)
	for _, l := range b.fn.Lambdas[before:] {
		if b.f.Nodes[l.Node].Parent == args {
			b.emit(Event{Kind: Callback, Node: n, Var: subject, Other: NoVar, Owner: NoVar, Call: name, Flags: fl, Lambda: l, Text: on})
		}
	}
}
