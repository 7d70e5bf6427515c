package lifetime

import (
	"slices"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// maxDepth bounds the recursion over nested statements and expressions.
// Deeper code is left out of the model and the function is marked
// Truncated, so hostile nesting cannot exhaust the stack.
const maxDepth = 2000

// maxNamedLambdas is how many nested lambdas get their full name (each
// its parent's plus "::lambda@LINE"); deeper ones are named after the
// innermost of those plus "::...", so names stay short however deep the
// nesting goes.
const maxNamedLambdas = 16

// Build returns the lifetime model of every function and lambda in f, in
// source order (a lambda follows the function that contains it).
func Build(f *parser.File, m *apimodel.Model) []*Func {
	var out []*Func
	cs := buildClasses(f, m)
	errs := errorCounts(f)
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.KindFunctionDefinition {
			continue
		}
		body := f.Field(parser.NodeID(i), parser.FieldBody)
		if body == parser.None || f.Kind(body) != parser.KindCompoundStatement {
			continue
		}
		if misreadClass(f, parser.NodeID(i)) {
			continue
		}
		fn := &Func{File: f, Node: parser.NodeID(i), classes: cs}
		b := &builder{f: f, m: m, fn: fn, env: map[string][]VarID{}, classes: cs, errs: errs}
		b.function(parser.NodeID(i), body)
		fn.Truncated = b.truncated
		if fn.Class != nil {
			fn.Class.Methods = append(fn.Class.Methods, fn)
		}
		out = append(out, fn)
		out = appendLambdas(out, fn)
	}
	annotatePairs(f, m, out)
	for _, fn := range out {
		fn.index()
	}
	return out
}

// misreadClass says function definition n is a class definition the
// grammar misread after a macro it does not know (MACRO struct S { ... }
// read as a function of return type MACRO named struct): its declarator
// is a class key (struct, or struct [[deprecated]]), which names no
// function.
func misreadClass(f *parser.File, n parser.NodeID) bool {
	w := strings.Fields(f.Text(f.Field(n, parser.FieldDeclarator)))
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "struct", "class", "union", "enum":
		return true
	}
	return false
}

func appendLambdas(out []*Func, fn *Func) []*Func {
	for _, l := range fn.Lambdas {
		out = append(out, l)
		out = appendLambdas(out, l)
	}
	return out
}

// builder builds one Func. A lambda gets its own builder whose parent is
// the enclosing function's, so names it does not declare resolve outward.
type builder struct {
	f      *parser.File
	m      *apimodel.Model
	fn     *Func
	parent *builder
	env    map[string][]VarID // visible names, innermost last
	scope  ScopeID
	depth  int
	// Truncated is set when nesting went past maxDepth.
	truncated bool
	// errs[i] counts the ERROR and MISSING nodes before node i.
	errs []int32
	// lambdas is how many lambdas enclose the function being built;
	// nameRoot is the name deeper lambdas are named after (see
	// maxNamedLambdas).
	lambdas  int
	nameRoot string
	// consumer names what the expression being visited is handed to
	// ("return", a callee), for moves found inside it.
	consumer string
	// classes are the file's classes; thisCaptured says a lambda already
	// captures this.
	classes      classes
	thisCaptured bool
	// thisExplicit says the lambda names this in its capture list.
	thisExplicit bool
	// layouts are the tensor layouts known for local values (layout.go).
	layouts map[VarID]*layoutFact
}

func (b *builder) text(n parser.NodeID) string { return b.f.Text(n) }
func (b *builder) kind(n parser.NodeID) parser.Kind {
	return b.f.Kind(n)
}
func (b *builder) at(n parser.NodeID) uint32 { return b.f.Nodes[n].Start }

func (b *builder) emit(e Event) {
	if e.Node >= 0 && e.At == 0 {
		e.At = b.at(e.Node)
	}
	e.Scope = b.scope
	b.fn.Events = append(b.fn.Events, e)
}

// function builds the model of a function_definition.
func (b *builder) function(def, body parser.NodeID) {
	f := b.f
	decl := f.Field(def, parser.FieldDeclarator)
	for decl != parser.None && b.kind(decl) != parser.KindFunctionDeclarator {
		next := f.Field(decl, parser.FieldDeclarator)
		if next == parser.None {
			// reference_declarator (T& f()) keeps its inner declarator unnamed.
			for c := range f.NamedChildren(decl) {
				next = c
			}
		}
		decl = next
	}
	name := ""
	if decl != parser.None {
		name = b.text(f.Field(decl, parser.FieldDeclarator))
	}
	class := enclosingClass(f, def)
	b.fn.Kind = Function
	last := name
	if i := strings.LastIndex(name, "::"); i >= 0 {
		last = name[i+2:]
		class = name[:i]
		if j := strings.LastIndex(class, "::"); j >= 0 {
			class = class[j+2:]
		}
		b.fn.Kind = Method
	} else if class != "" {
		name = class + "::" + name
		b.fn.Kind = Method
	}
	switch {
	case strings.HasPrefix(last, "~"):
		b.fn.Kind = Destructor
	case class != "" && stripTemplateArgs(last) == stripTemplateArgs(class):
		b.fn.Kind = Constructor
	}
	b.fn.Name = name
	b.fn.Class = b.classes.get(className(class))
	b.fn.HasErrors = b.hasErrors(def)
	b.pushScope(BodyScope, body)
	if decl != parser.None {
		b.params(f.Field(decl, parser.FieldParameters))
	}
	for c := range f.NamedChildren(def) {
		if b.kind(c) == parser.KindFieldInitializerList {
			b.visit(c)
		}
	}
	b.block(body)
	b.popScope()
}

func stripTemplateArgs(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		return s[:i]
	}
	return s
}

func enclosingClass(f *parser.File, n parser.NodeID) string {
	for m := f.Nodes[n].Parent; m != parser.None; m = f.Nodes[m].Parent {
		switch f.Nodes[m].Kind {
		case parser.KindClassSpecifier, parser.KindStructSpecifier:
			return f.Text(f.Field(m, parser.FieldName))
		case parser.KindFunctionDefinition, parser.KindCompoundStatement:
			return ""
		}
	}
	return ""
}

// errorCounts returns, for each node i (and one past the last), how many
// ERROR and MISSING nodes come before it, so that whether a subtree has
// any costs two lookups however often nested subtrees are asked.
func errorCounts(f *parser.File) []int32 {
	c := make([]int32, len(f.Nodes)+1)
	for i, nd := range f.Nodes {
		c[i+1] = c[i]
		if nd.Error || nd.Missing && !nd.Benign {
			c[i+1]++
		}
	}
	return c
}

// hasErrors reports ERROR or MISSING nodes in n's subtree.
func (b *builder) hasErrors(n parser.NodeID) bool {
	return b.errs[b.f.End(n)] > b.errs[n]
}

// params declares a parameter list's names.
func (b *builder) params(list parser.NodeID) {
	if list == parser.None {
		return
	}
	for p := range b.f.NamedChildren(list) {
		switch b.kind(p) {
		case parser.KindParameterDeclaration, parser.KindOptionalParameterDeclaration:
			v := b.declarator(p, b.f.Field(p, parser.FieldDeclarator))
			if v == NoVar {
				if b.text(p) == "void" {
					// f(void): no parameters.
					continue
				}
				// An unnamed parameter still takes its argument's
				// place: a var no name reaches keeps the positions of
				// the ones after it.
				v = VarID(len(b.fn.Vars))
				b.fn.Vars = append(b.fn.Vars, Var{Scope: b.scope, Decl: p, At: b.at(p), Outer: NoVar})
			}
			b.fn.Vars[v].Param = true
			b.fn.Vars[v].Default = collapse(b.text(b.f.Field(p, parser.FieldDefaultValue)))
		}
	}
}

// pushScope opens a scope for node n.
func (b *builder) pushScope(k ScopeKind, n parser.NodeID) {
	nd := b.f.Nodes[n]
	b.fn.Scopes = append(b.fn.Scopes, Scope{Parent: b.scope, Kind: k, Node: n, Start: nd.Start, End: nd.End})
	if len(b.fn.Scopes) == 1 {
		b.fn.Scopes[0].Parent = -1
	}
	b.scope = ScopeID(len(b.fn.Scopes) - 1)
}

// popScope closes the current scope: its values die at its end, last
// declared first.
func (b *builder) popScope() {
	s := b.fn.Scopes[b.scope]
	for v := len(b.fn.Vars) - 1; v >= 0; v-- {
		x := &b.fn.Vars[v]
		if x.Scope != b.scope || x.Outer != NoVar {
			continue
		}
		if stack := b.env[x.Name]; len(stack) > 0 && stack[len(stack)-1] == VarID(v) {
			b.env[x.Name] = stack[:len(stack)-1]
		}
		if !x.Param && !x.Static {
			b.fn.Events = append(b.fn.Events, Event{Kind: ScopeExit, Node: s.Node, At: s.End - 1, Scope: b.scope, Var: VarID(v), Other: NoVar, Owner: NoVar, Call: "}"})
		}
	}
	b.scope = s.Parent
	if b.scope < 0 {
		b.scope = 0
	}
}

// newVar adds a value to the current scope and makes its name visible.
func (b *builder) newVar(name string, n parser.NodeID, t typeInfo) VarID {
	v := VarID(len(b.fn.Vars))
	b.fn.Vars = append(b.fn.Vars, Var{
		Name: name, Type: t.text, Base: t.base, Kind: t.kind, Scope: b.scope, Decl: n, At: b.at(n),
		Elem: t.elem, ElemPointer: t.elemPointer, Hold: t.hold, Outer: NoVar,
	})
	b.env[name] = append(b.env[name], v)
	return v
}

// lookup resolves a name to a visible value, reaching into enclosing
// functions for lambdas (and recording the capture).
func (b *builder) lookup(name string, n parser.NodeID) VarID {
	if stack := b.env[name]; len(stack) > 0 {
		return stack[len(stack)-1]
	}
	if b.parent == nil || b.fn.Default == 0 {
		return NoVar
	}
	outer := b.parent.lookup(name, n)
	if outer == NoVar {
		return NoVar
	}
	// An implicit capture through a default capture.
	ov := b.parent.fn.Vars[outer]
	v := VarID(len(b.fn.Vars))
	b.fn.Vars = append(b.fn.Vars, Var{Name: ov.Name, Type: ov.Type, Base: ov.Base, Kind: ov.Kind, Scope: 0, Decl: n, At: b.at(n), Elem: ov.Elem, ElemPointer: ov.ElemPointer, Hold: ov.Hold, Outer: outer,
		Captured: true, Stream: ov.Stream, SideStream: ov.SideStream, SelfRef: ov.SelfRef, Weak: ov.Weak})
	b.env[name] = append(b.env[name][:0:0], v)
	fl := Implicit
	if b.fn.Default == '&' {
		fl |= ByRef
	}
	fl |= b.parent.selfCapture(outer, parser.None)
	b.parent.emit(Event{Kind: Capture, Node: n, Var: outer, Other: NoVar, Owner: NoVar, Call: "capture", Flags: fl, Lambda: b.fn})
	return v
}

// block visits a compound statement's statements in the current scope.
func (b *builder) block(n parser.NodeID) {
	skip := parser.None
	for c := range b.f.NamedChildren(n) {
		if c == skip {
			continue
		}
		if body := parser.MacroStatementBody(b.f, c); body != parser.None {
			b.macroBlock(c, b.macroArgs(c), body)
			skip = body
			continue
		}
		b.visit(c)
	}
}

// macroArgs is the argument list of the call statement macro stmt makes
// (see parser.MacroStatementBody).
func (b *builder) macroArgs(stmt parser.NodeID) parser.NodeID {
	for c := range b.f.NamedChildren(stmt) {
		return b.f.Field(c, parser.FieldArguments)
	}
	return parser.None
}

// visit walks a statement or expression.
func (b *builder) visit(n parser.NodeID) {
	if n == parser.None {
		return
	}
	if b.depth >= maxDepth {
		b.truncated = true
		return
	}
	b.depth++
	defer func() { b.depth-- }()
	f := b.f
	switch b.kind(n) {
	case parser.KindCompoundStatement:
		b.pushScope(BlockScope, n)
		b.block(n)
		b.popScope()
	case parser.KindForStatement, parser.KindWhileStatement, parser.KindDoStatement:
		b.pushScope(LoopScope, n)
		b.children(n)
		b.popScope()
	case parser.KindForRangeLoop:
		b.pushScope(LoopScope, n)
		b.visit(f.Field(n, parser.FieldRight))
		v := b.declarator(n, f.Field(n, parser.FieldDeclarator))
		if v != NoVar {
			b.emit(Event{Kind: Declare, Node: n, Var: v, Other: NoVar, Owner: NoVar})
			b.noteElemLayout(v, f.Field(n, parser.FieldRight))
		}
		b.visit(f.Field(n, parser.FieldBody))
		b.popScope()
	case parser.KindIfStatement, parser.KindSwitchStatement:
		b.pushScope(BranchScope, n)
		b.children(n)
		b.popScope()
	case parser.KindPreprocIf, parser.KindPreprocIfdef, parser.KindPreprocElse, parser.KindPreprocElif:
		// A build compiles one arm of a conditional: the first, as the
		// core executes it. Reading the arms in sequence would run
		// "#if A free(p); #else keep(p); #endif" as both.
		for c := range f.NamedChildren(n) {
			switch b.kind(c) {
			case parser.KindPreprocElse, parser.KindPreprocElif:
				return
			}
			if f.Nodes[c].Field == parser.FieldCondition || f.Nodes[c].Field == parser.FieldName {
				continue
			}
			b.visit(c)
		}
	case parser.KindCatchClause:
		b.pushScope(CatchScope, n)
		b.params(f.Field(n, parser.FieldParameters))
		b.visit(f.Field(n, parser.FieldBody))
		b.popScope()
	case parser.KindDeclaration:
		b.declaration(n)
	case parser.KindLambdaExpression:
		b.lambda(n, NoVar)
	case parser.KindCallExpression:
		if parser.Unevaluated(b.text(f.Field(n, parser.FieldFunction))) {
			return // typeof(*p) read as a call: nothing in it is evaluated
		}
		if blk := parser.BlockArgument(f, n); blk != parser.None {
			b.macroBlock(n, f.Field(n, parser.FieldArguments), blk)
			return
		}
		b.call(n, NoVar, f.Kind(f.Nodes[n].Parent) == parser.KindExpressionStatement)
	case parser.KindMacroBlock:
		b.macroBlock(n, f.Field(n, parser.FieldDeclarator), f.Field(n, parser.FieldBody))
	case parser.KindAssignmentExpression:
		b.assign(n)
	case parser.KindReturnStatement, parser.KindCoReturnStatement:
		b.ret(n)
	case parser.KindLabeledStatement:
		if name := b.text(f.Field(n, parser.FieldLabel)); name != "" {
			if b.fn.labels == nil {
				b.fn.labels = map[string]parser.NodeID{}
			}
			if _, ok := b.fn.labels[name]; !ok {
				b.fn.labels[name] = n
			}
		}
		b.children(n)
	case parser.KindSizeofExpression, parser.KindAlignofExpression, parser.KindOffsetofExpression:
		// An unevaluated operand ([expr.sizeof], [expr.alignof]; C's
		// offsetof): sizeof(*p) uses nothing.
	case parser.KindIdentifier:
		if v := b.lookup(b.text(n), n); v != NoVar {
			b.emit(Event{Kind: Use, Node: n, Var: v, Other: NoVar, Owner: NoVar})
		} else {
			b.thisUse(n, b.text(n))
		}
	case parser.KindThis:
		b.thisUse(n, "this")
	case parser.KindNewExpression:
		b.newExpr(n)
	case parser.KindParenthesizedExpression:
		if b.unarySend(n) {
			b.call(n, NoVar, f.Kind(f.Nodes[n].Parent) == parser.KindExpressionStatement)
		} else {
			b.children(n)
		}
	case parser.KindDeleteExpression:
		for c := range f.NamedChildren(n) {
			if v := b.rootVar(c); v != NoVar {
				b.emit(Event{Kind: Free, Node: n, Var: v, Other: NoVar, Owner: NoVar, Call: "delete", Text: collapse(b.text(c))})
			} else {
				b.visit(c)
			}
		}
	case parser.KindFieldExpression:
		if arg := f.Field(n, parser.FieldArgument); b.kind(arg) == parser.KindThis {
			b.thisUse(f.Field(n, parser.FieldField), b.text(f.Field(n, parser.FieldField)))
		} else {
			b.visit(arg)
		}
	case parser.KindFunctionDefinition, parser.KindClassSpecifier, parser.KindStructSpecifier,
		parser.KindTemplateDeclaration, parser.KindComment, parser.KindStringLiteral,
		parser.KindTypeIdentifier, parser.KindFieldIdentifier, parser.KindQualifiedIdentifier:
		// Nested definitions are modelled on their own; names that are
		// not values say nothing about lifetimes.
	default:
		b.children(n)
	}
}

// macroBlock models a statement macro applied to a block (see
// parser.BlockArgument, parser.KindMacroBlock): the variables it names
// outside the block may get new values from it (a loop variable), and
// the block runs as a branch, zero or more times.
func (b *builder) macroBlock(n, args, blk parser.NodeID) {
	f := b.f
	name := parser.MacroName(f, n)
	for m := range parser.MacroNames(f, args, blk) {
		if v := b.lookup(b.text(m), m); v != NoVar {
			b.emit(Event{Kind: Result, Node: m, Var: v, Other: NoVar, Owner: NoVar, Call: name})
		}
	}
	b.pushScope(BranchScope, n)
	b.visit(blk)
	b.popScope()
}

func (b *builder) children(n parser.NodeID) {
	for c := range b.f.NamedChildren(n) {
		b.visit(c)
	}
}

// declaration declares every declarator of a declaration statement.
func (b *builder) declaration(n parser.NodeID) {
	f := b.f
	static := false
	for c := range f.Children(n) {
		switch fd := f.Nodes[c].Field; {
		case fd == parser.FieldNone:
			switch t := b.text(c); t {
			case "static", "thread_local", "extern":
				static = true
			}
		case fd == parser.FieldType && f.Kind(c) == parser.KindTypeIdentifier && f.StorageMacro(b.text(c)):
			// HALF_THREAD_LOCAL int flags: a macro the file defines as
			// thread_local or static.
			static = true
		}
	}
	for c := range f.Children(n) {
		if f.Nodes[c].Field != parser.FieldDeclarator {
			continue
		}
		d, value := c, parser.None
		if b.kind(d) == parser.KindInitDeclarator {
			value = f.Field(d, parser.FieldValue)
			d = f.Field(d, parser.FieldDeclarator)
		}
		if b.kind(d) == parser.KindFunctionDeclarator {
			b.vexing(n, d) // T x(a): a value, unless a prototype
			continue
		}
		v := b.declarator(n, d)
		if v == NoVar {
			b.visit(value)
			continue
		}
		b.fn.Vars[v].Static = static
		b.emit(Event{Kind: Declare, Node: d, Var: v, Other: NoVar, Owner: NoVar})
		if value != parser.None {
			b.init(v, value)
		}
	}
}

// declarator declares the name inside declarator d, whose type is the type
// field of decl, and returns it (NoVar when there is no name).
func (b *builder) declarator(decl, d parser.NodeID) VarID {
	f := b.f
	ptr, ref := false, false
	for d != parser.None {
		switch b.kind(d) {
		case parser.KindPointerDeclarator:
			ptr = true
		case parser.KindReferenceDeclarator:
			ref = true
		case parser.KindArrayDeclarator, parser.KindInitDeclarator:
		case parser.KindIdentifier:
			typ := f.Field(decl, parser.FieldType)
			primitive := b.kind(typ) == parser.KindPrimitiveType || b.kind(typ) == parser.KindSizedTypeSpecifier
			t := classify(b.m, b.text(typ), ptr, ref, primitive, b.text(d))
			switch {
			case ptr:
				t.text += "*"
			case ref:
				t.text += "&"
			}
			v := b.newVar(b.text(d), d, t)
			b.typed(v, typ)
			b.fn.Vars[v].Const = declaredConst(f, decl)
			return v
		case parser.KindStructuredBindingDeclarator:
			for c := range f.NamedChildren(d) {
				if b.kind(c) == parser.KindIdentifier {
					b.newVar(b.text(c), c, typeInfo{kind: Plain})
				}
			}
			return NoVar
		default:
			return NoVar
		}
		next := f.Field(d, parser.FieldDeclarator)
		if next == parser.None {
			// reference_declarator keeps its inner declarator unnamed.
			for c := range f.NamedChildren(d) {
				next = c
			}
		}
		d = next
	}
	return NoVar
}

// init evaluates the initialiser of v (also the right side of v = ...).
func (b *builder) init(v VarID, value parser.NodeID) {
	b.initFacts(v, value)
	if b.unarySend(value) {
		b.call(value, v, false)
		return
	}
	value = b.strip(value)
	switch b.kind(value) {
	case parser.KindCallExpression:
		b.call(value, v, false)
	case parser.KindIdentifier:
		if x := b.lookup(b.text(value), value); x != NoVar {
			if b.viewOf(v, x, value) {
				return
			}
			b.emit(Event{Kind: Assign, Node: value, Var: v, Other: x, Owner: NoVar})
			if b.fn.Vars[v].Kind == Plain && b.fn.Vars[v].Type == "auto" {
				b.fn.Vars[v].Kind = b.fn.Vars[x].Kind
			}
		}
	case parser.KindPointerExpression:
		if b.operator(value) == "&" {
			if o := b.borrowRoot(b.f.Field(value, parser.FieldArgument)); o != NoVar {
				b.emit(Event{Kind: Borrow, Node: value, Var: v, Other: NoVar, Owner: o, Call: "&"})
				return
			}
		}
		b.visit(value)
	case parser.KindLambdaExpression:
		b.fn.Vars[v].Kind = Lambda
		b.lambda(value, v)
	case parser.KindArgumentList, parser.KindInitializerList:
		// T x(args) and T x{args}: a constructor call taking the arguments.
		for a := range b.f.NamedChildren(value) {
			if a = b.strip(a); b.kind(a) == parser.KindIdentifier {
				if x := b.lookup(b.text(a), a); x != NoVar && b.viewOf(v, x, a) {
					return // std::string_view name(s), absl::Span<T> view{v}
				}
			}
			break
		}
		for a := range b.f.NamedChildren(value) {
			b.arg(a, b.fn.Vars[v].Base, ToConsumer, v)
		}
		b.constructedFrom(v, value, func(a parser.NodeID) parser.NodeID { return a })
	default:
		b.visit(value)
	}
}

// viewOf records view v (a value of a view type: a span, a string view,
// an array ref) made over local owner x at node n as a borrow of x, as a
// raw pointer into x would be, and reports whether it did: x must be a
// local container or string whose elements the view then points into.
func (b *builder) viewOf(v, x VarID, n parser.NodeID) bool {
	t, o := &b.fn.Vars[v], &b.fn.Vars[x]
	if !b.m.IsView(t.Base) || o.Param || o.Static {
		return false
	}
	if o.Kind != Container && (o.Kind != Owner || !b.m.Reallocates(o.Base)) {
		return false
	}
	b.emit(Event{Kind: Borrow, Node: n, Var: v, Other: NoVar, Owner: x, Call: t.Base})
	t.Kind = Pointer
	return true
}

// strip removes parentheses and casts around an expression.
func (b *builder) strip(n parser.NodeID) parser.NodeID {
	for n != parser.None {
		switch b.kind(n) {
		case parser.KindParenthesizedExpression:
			inner := parser.None
			for c := range b.f.NamedChildren(n) {
				inner = c
			}
			n = inner
		case parser.KindCastExpression:
			n = b.f.Field(n, parser.FieldValue)
		default:
			return n
		}
	}
	return n
}

func (b *builder) operator(n parser.NodeID) string {
	return b.text(b.f.Field(n, parser.FieldOperator))
}

// rootVar returns the local value an lvalue expression is rooted in:
// x, *x, x.f, x->f, x[i], (x).
func (b *builder) rootVar(n parser.NodeID) VarID { return b.root(n, false) }

// chainRoot returns the local value a call chain starts from: what rootVar
// accepts, and method calls on it, x.a().b(), x->a().
func (b *builder) chainRoot(n parser.NodeID) VarID { return b.root(n, true) }

// root walks from an expression to the local value it starts from,
// through dereferences, member accesses and subscripts, and through method
// calls when calls is set.
func (b *builder) root(n parser.NodeID, calls bool) VarID {
	for depth := 0; n != parser.None && depth < maxDepth; depth++ {
		n = b.strip(n)
		switch b.kind(n) {
		case parser.KindIdentifier:
			if calls && b.f.Nodes[n].Parent >= 0 && b.kind(b.f.Nodes[n].Parent) == parser.KindCallExpression && b.f.Nodes[n].Field == parser.FieldFunction {
				return NoVar // the callee of f(x), not a value
			}
			return b.lookup(b.text(n), n)
		case parser.KindTypeIdentifier:
			if !calls {
				return NoVar
			}
			// T x(a) read from a prototype: a is a type name there.
			return b.lookup(b.text(n), n)
		case parser.KindCallExpression:
			fn := b.f.Field(n, parser.FieldFunction)
			if !calls || b.kind(fn) != parser.KindFieldExpression {
				return NoVar
			}
			n = fn
		case parser.KindPointerExpression, parser.KindFieldExpression, parser.KindSubscriptExpression:
			n = b.f.Field(n, parser.FieldArgument)
		default:
			return NoVar
		}
	}
	return NoVar
}

// borrowRoot returns the local owner whose own storage the lvalue n lies
// in: x, x.f, x[i], and x->f or *x only when x is a smart pointer. A path
// through a raw pointer or an iterator leads to memory x does not own.
func (b *builder) borrowRoot(n parser.NodeID) VarID {
	for depth := 0; n != parser.None && depth < maxDepth; depth++ {
		n = b.strip(n)
		switch b.kind(n) {
		case parser.KindIdentifier:
			return b.ownerOf(n)
		case parser.KindFieldExpression:
			arg := b.f.Field(n, parser.FieldArgument)
			if b.operator(n) == "->" {
				return b.smartOwner(arg)
			}
			n = arg
		case parser.KindSubscriptExpression:
			arg := b.f.Field(n, parser.FieldArgument)
			if o := b.ownerOf(arg); o != NoVar && b.fn.Vars[o].Kind != Container {
				return NoVar // operator[] of a class: unknown storage
			}
			n = arg
		case parser.KindPointerExpression:
			if b.operator(n) != "*" {
				return NoVar
			}
			return b.smartOwner(b.f.Field(n, parser.FieldArgument))
		default:
			return NoVar
		}
	}
	return NoVar
}

// smartOwner returns n's value when it is a local owning smart pointer.
func (b *builder) smartOwner(n parser.NodeID) VarID {
	o := b.ownerOf(n)
	if o != NoVar && b.m.IsSmartPtr(b.fn.Vars[o].Base) {
		return o
	}
	return NoVar
}

// callee returns a call's name (qualified as written, template arguments
// dropped) and, for a method call, the receiver expression.
func (b *builder) callee(fn parser.NodeID) (name string, recv parser.NodeID) {
	f := b.f
	switch b.kind(fn) {
	case parser.KindIdentifier, parser.KindQualifiedIdentifier:
		return stripTemplateArgs(b.text(fn)), parser.None
	case parser.KindTemplateFunction:
		return b.text(f.Field(fn, parser.FieldName)), parser.None
	case parser.KindFieldExpression:
		field := f.Field(fn, parser.FieldField)
		if b.kind(field) == parser.KindTemplateMethod {
			field = f.Field(field, parser.FieldName)
		}
		return b.text(field), f.Field(fn, parser.FieldArgument)
	}
	return "", parser.None
}

// isBorrowCall reports whether call n borrows from a local owner and
// returns that owner. Pack-named borrowing calls count on any receiver
// kind; so does any method whose result is stored in a raw pointer or
// reference (targetKind) when the receiver is a local class value.
func (b *builder) isBorrowCall(n parser.NodeID, targetKind VarKind) VarID {
	name, recv := b.callee(b.f.Field(n, parser.FieldFunction))
	roles := b.m.CallOn(name, recv != parser.None)
	if recv == parser.None {
		if roles&apimodel.Borrow == 0 {
			return NoVar
		}
		// A borrowing free function borrows from its first argument.
		for a := range b.f.NamedChildren(b.f.Field(n, parser.FieldArguments)) {
			return b.ownerOf(a)
		}
		return NoVar
	}
	o := b.ownerOf(recv)
	if o == NoVar {
		return NoVar
	}
	if roles&apimodel.Borrow != 0 || targetKind == Pointer || targetKind == Reference {
		return o
	}
	return NoVar
}

// ownerOf returns the local owner an expression denotes: a class value, a
// smart pointer or a container that is neither a parameter nor static.
func (b *builder) ownerOf(n parser.NodeID) VarID {
	n = b.strip(n)
	if b.kind(n) != parser.KindIdentifier {
		return NoVar
	}
	v := b.lookup(b.text(n), n)
	if v == NoVar {
		return NoVar
	}
	switch b.fn.Vars[v].Kind {
	case Owner, Container:
		return v
	}
	return NoVar
}

// call models a call. target is the value its result initialises (NoVar
// if none); discarded says the result is dropped.
func (b *builder) call(n parser.NodeID, target VarID, discarded bool) {
	f := b.f
	name, recv := b.callee(b.callFunction(n))
	roles := b.futureRoles(name, recv, b.m.CallOn(name, recv != parser.None))
	mark := len(b.fn.Events)
	args := f.Field(n, parser.FieldArguments)
	tkind := Plain
	if target != NoVar {
		tkind = b.fn.Vars[target].Kind
	}

	if roles&apimodel.Move != 0 {
		for a := range f.NamedChildren(args) {
			if v := b.rootVar(a); v != NoVar {
				into := b.consumer
				if into == "" {
					into = "="
				}
				b.emit(Event{Kind: Move, Node: n, Var: v, Other: target, Owner: NoVar, Call: into})
				if target != NoVar && b.fn.Vars[target].Type == "auto" {
					b.fn.Vars[target].Kind = b.fn.Vars[v].Kind
				}
			} else {
				b.visit(a)
			}
			break
		}
		return
	}

	recvVar := NoVar
	if recv != parser.None {
		recvVar = b.rootVar(recv)
		if recvVar == NoVar {
			b.visit(recv)
		}
	}
	if roles&apimodel.Callback != 0 && recvVar != NoVar && !b.mayComplete(recvVar) {
		// A builder's Map, a container's visitor: a value of a declared
		// type that is neither a future, an event nor a stream runs the
		// lambda before the call returns, if at all.
		roles &^= apimodel.Callback
	}
	if roles&apimodel.Callback != 0 && recv != parser.None && recvVar == NoVar && !b.yieldsFuture(recv) {
		// The receiver is the result of a call that is not known to
		// return a future (f(x).then(g) of a function combinator): a
		// name alone does not make it one.
		roles &^= apimodel.Callback
	}
	first := NoVar // the first argument, when it is a value
	for a := range f.NamedChildren(args) {
		first = b.rootVar(a)
		break
	}
	subject := recvVar
	if subject == NoVar {
		subject = first
	}

	if target != NoVar {
		b.temporaryBorrow(n, target, tkind, name, recv, roles)
	}
	if m := b.memberReceiver(recv); m != "" {
		// A member container of the class: what a reference into it and a
		// removal from it do is recorded against the member's name.
		if target != NoVar && tkind == Reference && roles&apimodel.Borrow != 0 {
			b.emit(Event{Kind: Borrow, Node: n, Var: target, Other: NoVar, Owner: NoVar, Call: name, Flags: Member, Text: m})
		}
		if roles&(apimodel.Remove|apimodel.Fill) != 0 {
			b.emit(Event{Kind: Use, Node: n, Var: NoVar, Other: NoVar, Owner: NoVar, Call: name, Flags: Member | Receiver, Text: m})
		}
	}
	if target != NoVar && (tkind == Pointer || tkind == Reference || tkind == Plain) {
		if owner := b.isBorrowCall(n, tkind); owner != NoVar {
			b.emit(Event{Kind: Borrow, Node: n, Var: target, Other: NoVar, Owner: owner, Call: name})
			if b.fn.Vars[target].Kind == Plain {
				b.fn.Vars[target].Kind = Pointer
			}
		}
	}
	switch {
	case roles&apimodel.Async != 0 || (target != NoVar && tkind == Future && roles&(apimodel.Callback|apimodel.Wait|apimodel.Yield) == 0):
		fl := Flags(0)
		if discarded {
			fl |= Discarded
		}
		if b.inferredAsync(roles, target) {
			fl |= Inferred
		}
		if target != NoVar && b.fn.Vars[target].Kind == Plain {
			b.fn.Vars[target].Kind = Future
		}
		b.emit(Event{Kind: Async, Node: n, Var: target, Other: subject, Owner: NoVar, Call: name, Flags: fl})
	case roles&apimodel.Materialise != 0:
		if target != NoVar && b.fn.Vars[target].Kind == Plain {
			b.fn.Vars[target].Kind = Owner
		}
		fl := Flags(0)
		if discarded {
			fl |= Discarded
		}
		b.emit(Event{Kind: Materialise, Node: n, Var: target, Other: subject, Owner: NoVar, Call: name, Flags: fl})
	}
	if roles&apimodel.Wait != 0 && subject != NoVar {
		b.emit(Event{Kind: Wait, Node: n, Var: subject, Other: NoVar, Owner: NoVar, Call: name})
	} else if roles&apimodel.Wait != 0 {
		b.emit(Event{Kind: Wait, Node: n, Var: NoVar, Other: NoVar, Owner: NoVar, Call: name})
	}
	if roles&apimodel.Block != 0 {
		b.emit(Event{Kind: Block, Node: n, Var: subject, Other: NoVar, Owner: NoVar, Call: name})
	}
	if roles&apimodel.Sync != 0 {
		b.sync(n, name, recvVar)
	}
	if roles&apimodel.Free != 0 {
		b.free(n, name, recv, recvVar)
	}
	if roles&apimodel.Switch != 0 {
		b.switchTo(n, name)
	}
	b.onStream(n, name)
	b.factory(n, target)
	if fn := b.callFunction(n); recv == parser.None && b.kind(fn) == parser.KindIdentifier {
		if l := b.lookup(name, fn); l == NoVar {
			b.thisUse(fn, name) // a call of a method of the class
		} else if b.fn.Vars[l].Kind == Lambda {
			// A call of a named lambda: its result and effects are its
			// model's (Vars[l].Fn).
			b.emit(Event{Kind: Use, Node: n, Var: l, Other: target, Owner: NoVar, Call: name, Flags: Receiver})
		}
	}
	mutating := roles&apimodel.Mutate != 0 || (recvVar != NoVar && len(name) > 1 && strings.HasSuffix(name, "_") && !strings.HasPrefix(name, "_"))
	if mutating && subject != NoVar {
		b.emit(Event{Kind: Mutate, Node: n, Var: subject, Other: NoVar, Owner: NoVar, Call: name})
	}
	if recvVar != NoVar {
		b.emit(Event{Kind: Use, Node: recv, Var: recvVar, Other: NoVar, Owner: NoVar, Call: name, Flags: Receiver})
	}

	fill := roles&apimodel.Fill != 0 && recvVar != NoVar
	consumeFlags := Flags(0)
	if roles&apimodel.Consume != 0 {
		consumeFlags = ToConsumer
	}
	cbFlags, on := Flags(0), ""
	if discarded {
		cbFlags = Discarded
	}
	if subject == NoVar && recv != parser.None {
		on = collapse(b.text(recv))
	}
	// A lambda handed to a call that a pack says runs it later, or to one
	// no pack names (the rules judge those by the callee's body or name).
	deferFlags, defers := Flags(0), roles&apimodel.Defer != 0
	if roles == 0 {
		deferFlags, defers = Inferred, true
	}
	for a := range f.NamedChildren(args) {
		if roles&apimodel.Compare != 0 && b.kind(b.strip(a)) == parser.KindIdentifier {
			// Its value compared, as by ==: no use of what it points to.
			continue
		}
		if roles&apimodel.Callback != 0 && b.kind(b.strip(a)) == parser.KindLambdaExpression {
			l := b.lambda(b.strip(a), NoVar)
			b.emit(Event{Kind: Callback, Node: n, Var: subject, Other: NoVar, Owner: NoVar, Call: name, Flags: cbFlags, Lambda: l, Text: on})
			continue
		}
		if defers && roles&apimodel.Callback == 0 && b.kind(b.strip(a)) == parser.KindLambdaExpression {
			l := b.lambda(b.strip(a), NoVar)
			b.emit(Event{Kind: Defer, Node: a, Var: recvVar, Other: NoVar, Owner: NoVar, Call: name, Flags: deferFlags, Lambda: l, Text: on})
			continue
		}
		before := len(b.fn.Lambdas)
		v, owner := b.arg(a, name, consumeFlags, NoVar)
		if roles&apimodel.Callback != 0 {
			b.wrappedCallbacks(n, a, before, subject, name, cbFlags, on)
		}
		if fill {
			b.emit(Event{Kind: Store, Node: a, Var: recvVar, Other: v, Owner: owner, Call: name})
		}
		if roles&apimodel.Callback != 0 && v != NoVar && b.fn.Vars[v].Kind == Lambda {
			b.emit(Event{Kind: Callback, Node: n, Var: subject, Other: v, Owner: NoVar, Call: name, Flags: cbFlags, Lambda: b.fn.Vars[v].Fn, Text: on})
		}
		if defers && roles&apimodel.Callback == 0 && v != NoVar && b.fn.Vars[v].Kind == Lambda && b.fn.Vars[v].Fn != nil {
			b.emit(Event{Kind: Defer, Node: a, Var: recvVar, Other: v, Owner: NoVar, Call: name, Flags: deferFlags, Lambda: b.fn.Vars[v].Fn, Text: on})
		}
	}
	if target != NoVar {
		b.result(n, target, name, roles, recvVar)
	}
	b.effects(n, mark, name, roles, recv, recvVar, target)
}

// arg models one argument of call name and returns the value it passes
// (NoVar for an expression) and, for a borrowing expression, the owner.
func (b *builder) arg(a parser.NodeID, name string, fl Flags, into VarID) (VarID, VarID) {
	f := b.f
	a = b.strip(a)
	switch b.kind(a) {
	case parser.KindIdentifier:
		v := b.lookup(b.text(a), a)
		if v != NoVar {
			b.emit(Event{Kind: Use, Node: a, Var: v, Other: NoVar, Owner: NoVar, Call: name, Flags: Argument | fl})
		} else {
			b.thisUse(a, b.text(a))
		}
		return v, NoVar
	case parser.KindPointerExpression:
		if b.operator(a) == "&" {
			if o := b.rootVar(f.Field(a, parser.FieldArgument)); o != NoVar {
				if b.borrowRoot(f.Field(a, parser.FieldArgument)) == o {
					b.emit(Event{Kind: Borrow, Node: a, Var: NoVar, Other: NoVar, Owner: o, Call: "&"})
				}
				b.emit(Event{Kind: PassRef, Node: a, Var: o, Other: NoVar, Owner: NoVar, Call: name, Flags: Argument | AddressOf | fl})
				return NoVar, o
			}
		}
	case parser.KindCallExpression:
		cname, _ := b.callee(f.Field(a, parser.FieldFunction))
		if b.m.Call(cname)&apimodel.Move != 0 {
			for x := range f.NamedChildren(f.Field(a, parser.FieldArguments)) {
				if v := b.rootVar(x); v != NoVar {
					b.emit(Event{Kind: Move, Node: a, Var: v, Other: into, Owner: NoVar, Call: name, Flags: Argument | fl})
					return v, NoVar
				}
				break
			}
		}
		if owner := b.isBorrowCall(a, Plain); owner != NoVar && b.m.Call(cname)&apimodel.Borrow != 0 {
			b.emit(Event{Kind: Borrow, Node: a, Var: NoVar, Other: NoVar, Owner: owner, Call: cname})
			b.call(a, NoVar, false)
			return NoVar, owner
		}
		b.call(a, NoVar, false)
		return NoVar, NoVar
	case parser.KindLambdaExpression:
		b.lambda(a, NoVar)
		return NoVar, NoVar
	}
	saved := b.consumer
	b.consumer = name
	b.visit(a)
	b.consumer = saved
	return NoVar, NoVar
}

// assign models left = right.
func (b *builder) assign(n parser.NodeID) {
	f := b.f
	left, right := f.Field(n, parser.FieldLeft), f.Field(n, parser.FieldRight)
	if b.operator(n) != "=" {
		b.visit(left)
		b.visit(right)
		return
	}
	l := b.strip(left)
	switch b.kind(l) {
	case parser.KindIdentifier:
		if v := b.lookup(b.text(l), l); v != NoVar {
			if b.fn.Vars[v].Kind == Reference {
				// Assigning through a reference copies into its referent.
				b.arg(right, "=", 0, NoVar)
				b.emit(Event{Kind: Use, Node: l, Var: v, Other: NoVar, Owner: NoVar, Call: "="})
				return
			}
			mark := len(b.fn.Events)
			b.init(v, right)
			if !slices.ContainsFunc(b.fn.Events[mark:], func(e Event) bool { return e.Var == v && (e.Kind == Assign || e.Kind == Result) }) {
				// v holds a new value from here on, whatever made it.
				b.emit(Event{Kind: Result, Node: right, Var: v, Other: NoVar, Owner: NoVar, Call: "="})
			}
			return
		}
		// A member or global: what goes there outlives the call.
		b.thisUse(l, b.text(l))
		v, owner := b.arg(right, "=", 0, NoVar)
		b.emit(Event{Kind: Store, Node: n, Var: NoVar, Other: v, Owner: owner, Call: b.text(l), Flags: Member})
		return
	case parser.KindSubscriptExpression, parser.KindFieldExpression, parser.KindPointerExpression:
		root := b.rootVar(l)
		if root == NoVar {
			b.memberRoot(l)
		}
		if root != NoVar && b.fn.Vars[root].Kind == Pointer {
			// Storing through a pointer reads the pointer.
			b.emit(Event{Kind: Use, Node: l, Var: root, Other: NoVar, Owner: NoVar, Call: "->"})
		}
		v, owner := b.arg(right, "=", 0, NoVar)
		fl := Flags(0)
		if root == NoVar || b.fn.Vars[root].Kind == Pointer && b.fn.Vars[root].Param || b.fn.Vars[root].Kind == Reference && b.fn.Vars[root].Param {
			fl = Member
			root = NoVar
		}
		b.emit(Event{Kind: Store, Node: n, Var: root, Other: v, Owner: owner, Call: b.text(l), Flags: fl})
		if b.kind(l) == parser.KindSubscriptExpression {
			b.visit(f.Field(l, parser.FieldIndices))
		}
		return
	}
	b.visit(left)
	b.visit(right)
}

// ret models a return statement.
func (b *builder) ret(n parser.NodeID) {
	for c := range b.f.NamedChildren(n) {
		v, owner := b.arg(c, "return", 0, NoVar)
		b.emit(Event{Kind: Return, Node: n, Var: v, Other: NoVar, Owner: owner, Call: "return"})
		return
	}
	b.emit(Event{Kind: Return, Node: n, Var: NoVar, Other: NoVar, Owner: NoVar, Call: "return"})
}

// lambda builds the model of a lambda and records its captures in the
// enclosing function. target is the named value it initialises, if any.
func (b *builder) lambda(n parser.NodeID, target VarID) *Func {
	f := b.f
	line, _ := f.Position(int(f.Nodes[n].Start))
	prefix := b.fn.Name
	if b.lambdas >= maxNamedLambdas {
		prefix = b.nameRoot + "::..."
	}
	lf := &Func{File: f, Node: n, Kind: LambdaFunc, Parent: b.fn, Name: prefix + "::lambda@" + strconv.Itoa(line), Class: b.fn.Class, classes: b.classes}
	lf.HasErrors = b.hasErrors(n)
	b.fn.Lambdas = append(b.fn.Lambdas, lf)
	// The lambda's body is nested in the enclosing code: its depth counts
	// on from here, so maxDepth bounds the whole nest, not each lambda.
	lb := &builder{f: f, m: b.m, fn: lf, parent: b, env: map[string][]VarID{}, classes: b.classes, errs: b.errs,
		depth: b.depth, lambdas: b.lambdas + 1, nameRoot: b.nameRoot}
	if lb.lambdas == maxNamedLambdas {
		lb.nameRoot = lf.Name
	}
	body := f.Field(n, parser.FieldBody)
	if body == parser.None {
		body = n
	}
	lb.pushScope(BodyScope, body)

	if caps := f.Field(n, parser.FieldCaptures); caps != parser.None {
		byRef := false
		for c := range f.Children(caps) {
			nd := f.Nodes[c]
			if !nd.Named {
				byRef = b.text(c) == "&"
				continue
			}
			switch b.kind(c) {
			case parser.KindLambdaDefaultCapture:
				lf.Default = b.text(c)[0]
			case parser.KindThis:
				lb.thisCaptured, lb.thisExplicit = true, true
				b.emit(Event{Kind: Capture, Node: c, Var: NoVar, Other: NoVar, Owner: NoVar, Call: "this", Flags: CapThis, Lambda: lf})
			case parser.KindIdentifier:
				outer := b.lookup(b.text(c), c)
				fl := Flags(0)
				if byRef {
					fl = ByRef
				}
				if outer != NoVar {
					b.emit(Event{Kind: Capture, Node: c, Var: outer, Other: NoVar, Owner: NoVar, Call: "capture", Flags: fl | b.selfCapture(outer, parser.None), Lambda: lf})
					ov := b.fn.Vars[outer]
					lv := lb.newVar(ov.Name, c, typeInfo{text: ov.Type, base: ov.Base, kind: ov.Kind, elem: ov.Elem, elemPointer: ov.ElemPointer, hold: ov.Hold})
					x := &lf.Vars[lv]
					x.Outer, x.Captured, x.Stream, x.SideStream, x.SelfRef, x.Weak = outer, true, ov.Stream, ov.SideStream, ov.SelfRef, ov.Weak
				}
			default:
				// name = expr, an init-capture.
				left, right := f.Field(c, parser.FieldLeft), f.Field(c, parser.FieldRight)
				if left == parser.None {
					if b.kind(c) == parser.KindPointerExpression && b.kind(f.Field(c, parser.FieldArgument)) == parser.KindThis {
						lb.thisCaptured = true // *this: a copy of the object
						break
					}
					b.visit(c)
					break
				}
				src, owner := b.arg(right, "a lambda", 0, NoVar)
				k := Plain
				ti := typeInfo{}
				if src != NoVar {
					k = b.fn.Vars[src].Kind
					sv := b.fn.Vars[src]
					ti = typeInfo{text: sv.Type, base: sv.Base, elem: sv.Elem, elemPointer: sv.ElemPointer, hold: sv.Hold}
				} else if t, ok := b.memberType(right); ok {
					k, ti = t.kind, t
				}
				fl := InitCap
				if byRef {
					fl |= ByRef
				}
				capVar := src
				if capVar == NoVar {
					capVar = owner
				}
				if owner == NoVar && src == NoVar {
					owner = b.chainRoot(right) // [list = ref.device_buffer_list()]
				}
				self := b.selfCapture(src, right)
				b.emit(Event{Kind: Capture, Node: c, Var: capVar, Other: NoVar, Owner: owner, Call: b.text(left), Flags: fl | self, Lambda: lf})
				ti.kind = k
				lv := lb.newVar(b.text(left), left, ti)
				x := &lf.Vars[lv]
				x.Captured, x.SelfRef, x.Weak = true, self&SelfRef != 0, self&Weak != 0
				if src != NoVar {
					x.Stream, x.SideStream = b.fn.Vars[src].Stream, b.fn.Vars[src].SideStream
				} else if ti.text != "" {
					x.Stream = isStreamType(b.m, strings.TrimSuffix(ti.text, "*"))
				}
			}
			byRef = false
		}
	}
	b.blockCapture(lf, n)
	if decl := f.Field(n, parser.FieldDeclarator); decl != parser.None {
		lb.params(f.Field(decl, parser.FieldParameters))
	}
	if body != n {
		lb.block(body)
	}
	lb.popScope()
	lf.Truncated = lb.truncated
	if target != NoVar {
		b.fn.Vars[target].Fn = lf
	}
	return lf
}

// inferredAsync reports whether a call taken for async work is so only by
// guess: no pack says it is async, or a pack does but its result, which
// initialises target, is not a future (a declared value, or a value whose
// type is not written of a call the pack does not give the Yield role).
func (b *builder) inferredAsync(roles apimodel.Role, target VarID) bool {
	if roles&apimodel.Async == 0 {
		return true
	}
	if target == NoVar {
		return false
	}
	t := &b.fn.Vars[target]
	return t.Type != "" && !b.mayComplete(target) || roles&apimodel.Yield == 0 && !MayComplete(b.m, t.Type)
}

// mayComplete reports whether value v can complete later and run a
// continuation: a future, event or stream, a pointer or smart pointer to
// one, or a value whose type is not written (auto, a parameter of a
// template).
// yieldsFuture says the receiver expression recv, the result of a call,
// may be a future: the call's name has a role that returns one (yield,
// async) or is named like a future, event or stream. A receiver that is
// not a call (a member, an element) is given the benefit of the doubt.
func (b *builder) yieldsFuture(recv parser.NodeID) bool {
	recv = b.strip(recv)
	if b.kind(recv) != parser.KindCallExpression {
		return true
	}
	fn := b.f.Field(recv, parser.FieldFunction)
	name := b.text(fn)
	if i := strings.LastIndexAny(name, ".>:"); i >= 0 {
		name = name[i+1:]
	}
	if b.m.Call(name)&(apimodel.Yield|apimodel.Async) != 0 {
		return true
	}
	return MayComplete(b.m, name)
}

func (b *builder) mayComplete(v VarID) bool {
	x := &b.fn.Vars[v]
	if x.Kind == Future || x.Stream || x.Type == "" || x.Base == "auto" || x.Kind == Lambda {
		return true
	}
	return MayComplete(b.m, x.Type)
}

// MayComplete reports whether a type as written can complete later and
// run a continuation: it names a future, event or stream type of the
// packs, or is named like one (future, event, async, stream, command
// buffer, queue).
func MayComplete(m *apimodel.Model, typ string) bool {
	for _, w := range strings.FieldsFunc(typ, func(r rune) bool { return !isWord(byte(r)) || r > 127 }) {
		if m.IsFuture(w) || m.IsStream(w) {
			return true
		}
	}
	lt := strings.ToLower(typ)
	for _, w := range []string{"future", "event", "async", "stream", "command", "queue", "promise"} {
		if strings.Contains(lt, w) {
			return true
		}
	}
	return false
}

// temporaryBorrow models a value taken from an owner that exists only for
// the statement: a fresh copy or allocation made in the same expression
// (t.contiguous().data_ptr(), at::empty(...).data()). A pointer or
// reference from a borrowing method of it is a Borrow flagged Temporary
// (Text: the temporary); a value of a class made by a call holdfast cannot
// see from such a temporary (h = to_handle(t.contiguous())) may borrow it,
// a Borrow flagged Temporary and Inferred.
func (b *builder) temporaryBorrow(n parser.NodeID, target VarID, tkind VarKind, name string, recv parser.NodeID, roles apimodel.Role) {
	if recv != parser.None {
		// t.contiguous().data_ptr(), not f()->get(): through "->" the
		// temporary is a pointer, which owns nothing.
		if fe := b.f.Field(n, parser.FieldFunction); b.kind(fe) == parser.KindFieldExpression && b.operator(fe) == "->" {
			return
		}
		if (tkind == Pointer || tkind == Reference || tkind == Plain && roles&apimodel.Borrow != 0) && b.freshTemporary(recv) {
			b.emit(Event{Kind: Borrow, Node: n, Var: target, Other: NoVar, Owner: NoVar, Call: name, Flags: Temporary,
				Text: strings.Join(strings.Fields(b.text(b.strip(recv))), " ")})
		}
		return
	}
	args := b.layoutArgs(n)
	if roles != 0 || tkind != Owner || len(args) != 1 {
		return // only a conversion of one temporary: h = to_handle(t.contiguous())
	}
	for _, a := range args {
		// Only a packed copy converted to a handle: a function of a fresh
		// allocation (abs(randn(...))) most often returns a new owner.
		if b.freshTemporary(a) && b.m.Call(b.calleeName(a))&apimodel.Materialise != 0 {
			b.emit(Event{Kind: Borrow, Node: n, Var: target, Other: NoVar, Owner: NoVar, Call: name, Flags: Temporary | Inferred,
				Text: strings.Join(strings.Fields(b.text(b.strip(a))), " ")})
			return
		}
	}
}

// freshTemporary reports whether expression n is a call that returns a
// fresh owner by value: a materialising copy (contiguous) or an
// allocation (a tensor factory, clone) the API model names.
func (b *builder) freshTemporary(n parser.NodeID) bool {
	n = b.strip(n)
	if b.kind(n) != parser.KindCallExpression {
		return false
	}
	name, _ := b.callee(b.f.Field(n, parser.FieldFunction))
	return b.m.Call(name)&(apimodel.Materialise|apimodel.Alloc) != 0
}

// memberReceiver returns the name of the class member a call's receiver is
// (member_.f(), this->member_.f()), or "".
func (b *builder) memberReceiver(recv parser.NodeID) string {
	if recv == parser.None {
		return ""
	}
	r := b.strip(recv)
	switch b.kind(r) {
	case parser.KindIdentifier:
	case parser.KindFieldExpression:
		if b.kind(b.f.Field(r, parser.FieldArgument)) != parser.KindThis {
			return ""
		}
		r = b.f.Field(r, parser.FieldField)
	default:
		return ""
	}
	name := b.text(r)
	if b.env[name] != nil {
		return "" // a local
	}
	if m := b.fn.Class.Member(name); m != nil && !m.Method && !m.Static && m.Kind == Container {
		return name
	}
	return ""
}

// calleeName returns the name of the function call expression n calls.
func (b *builder) calleeName(n parser.NodeID) string {
	name, _ := b.callee(b.f.Field(b.strip(n), parser.FieldFunction))
	return name
}
