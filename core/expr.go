package core

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"github.com/holdfast-dev/holdfast/parser"
)

// declaration executes a declaration: every declarator makes a local whose
// value comes from its initialiser as the declared type reads it.
func (x *exec) declaration(s *state, n parser.NodeID) {
	f := x.f
	typText := x.resolve(x.text(f.Field(n, parser.FieldType)))
	tk := classify(typText)
	switch {
	case x.objcObject(typText):
		tk = tPointer
	case x.objcOpaque(typText, tk):
		// A type an Objective-C file names without holdfast reading it
		// (a typedef made by a macro, an object type): the value it is
		// given decides what it holds.
		tk = tAuto
	}
	fam, elem := containerOf(typText)
	static := x.isStatic(n)
	for d := range f.NamedChildren(n) {
		if f.Nodes[d].Field != parser.FieldDeclarator {
			continue
		}
		init := parser.None
		if x.kind(d) == parser.KindInitDeclarator {
			init = f.Field(d, parser.FieldValue)
		}
		name, ptr, ref := x.declName(d)
		v := unknown
		var ctorArgs []value
		ctorStores := ""
		if k := x.kind(init); (k == parser.KindArgumentList || k == parser.KindInitializerList) && !ptr && !ref && x.opt.Members != nil {
			if tn := typeName(typText); tn != "" {
				n := 0
				for range x.f.NamedChildren(init) {
					n++
				}
				ctorStores = x.expandStores(x.opt.Members(tn)[storesKey(tn, n)], 0)
				if n == 1 && x.sameClassArg(s, x.argAt(init, 0), tn) {
					// T obj(t) of a T: the copy or move constructor,
					// not the one that keeps its argument.
					ctorStores = ""
				}
			}
		}
		if ctorStores == "" && !ptr && init != parser.None {
			// T obj = T(args), const T& obj = T(args): the temporary is
			// the object, living as long as the local.
			if list, stores := x.constructed(init, typeName(typText)); stores != "" {
				init, ctorStores, ref = list, stores, false
			}
		}
		if ctorStores != "" {
			// T obj(args) of a class whose constructor keeps what it is
			// given: the arguments one by one, kept below.
			ctorArgs = x.elements(s, init)
		} else if init != parser.None && !ptr && !ref && tk == tView && x.kind(init) == parser.KindInitializerList {
			v = x.bracedView(s, init)
		} else if init != parser.None {
			v = x.eval(s, init)
			if ref && !v.known && v.pt < 0 && v.owns < 0 && (x.prvalue(s, init) || v.prvalue) && x.bindsTemporary(n, d) {
				// A reference bound to a literal, an arithmetic result or a
				// call's result by value binds a temporary that lives as
				// long as the reference: an object of the declared type.
				v = borrowOf(s.newObj(object{kind: oStack, owner: name, frame: !static, class: typeName(typText)}), tRef)
				v.owns = v.pt
			} else if ref && v.known {
				v = borrowOf(s.newObj(object{kind: oStack, owner: name, frame: !static}), tRef)
			}
		} else if args, ok := x.objectArgs(s, d); ok {
			// T x(a, b) inside a body, with a and b values of the function, is
			// an object made from them, whatever the grammar took it for.
			name, init = x.text(f.Field(d, parser.FieldDeclarator)), args
			if _, stores := x.constructed(d, typeName(typText)); stores != "" && !ptr && !ref {
				ctorStores = stores
				for p := range f.NamedChildren(args) {
					if x.madeByCall(p) {
						v := unknown
						v.prvalue = true
						ctorArgs = append(ctorArgs, v)
						continue
					}
					if a := x.movedLocal(s, p); a != parser.None {
						v := x.read(s, a)
						v.moved = true
						ctorArgs = append(ctorArgs, v)
						continue
					}
					ctorArgs = append(ctorArgs, x.read(s, f.Field(p, parser.FieldType)))
				}
			} else {
				v = x.eval(s, args)
			}
		}
		if name == "" {
			if b, names := x.bindingNames(d); len(names) > 0 && !ptr {
				x.bindStructured(s, b, names, v, ref, static)
			}
			continue
		}
		s.forget(name)
		l := local{name: name, typ: tk, val: unknown, depth: x.depth, decl: d, array: x.isArray(d), fam: fam, elem: elem, tname: typeName(typText)}
		l.slot = s.newObj(object{kind: oStack, owner: name, frame: !static})
		switch {
		case ptr && ref:
			// T*& r: a reference to a pointer. Bound to a local, it is
			// that local under another name; otherwise what it refers to
			// is not known.
			if v.from >= 0 && int(v.from) < len(s.locals) {
				l.alias = int(v.from) + 1
			} else {
				l.ref = true
			}
			l.typ, v = tRef, unknown
		case ptr:
			l.typ = tPointer
		case ref && tk == tStorage && init != parser.None && v.pt < 0 && v.owns < 0 && !v.known && v.from < 0:
			// std::vector<T>& v = registry(): a container whose owner is
			// not known (a static, another object's member). Its own
			// growth and erasure still move or end its elements, so it
			// is followed as a container the frame does not own, as a
			// parameter by reference is.
			l.callers = true
			s.objs[l.slot].frame = false // the container object, which is not the frame's
			v = value{pt: -1, owns: s.storage(&l, false), kind: tStorage, from: -1}
		case ref:
			l.typ, l.ref = tRef, true
			if v.kind == tRef && v.pt >= 0 && int(v.pt) < len(s.objs) && s.objs[v.pt].parent > 0 && s.objs[v.pt].elem == tView && tk != tView {
				// const T& r = views.top() of a container of views
				// (reference_wrapper<T>): r binds what the element views,
				// through its conversion ([refwrap.access]), not the
				// element.
				v = unknown
			}
		}
		x.bind(s, &l, v, init != parser.None)
		if !ref && !static && init != parser.None {
			x.learnAssigned(s, name, init, v)
		}
		if init == parser.None && !ptr && !ref && !static && madeEmpty(typText) && l.val.owns < 0 && l.val.pt < 0 {
			// std::exception_ptr e; std::unique_ptr<T> p;: empty until
			// assigned, so if (e) is false on a path that never set it.
			l.val.null = true
		}
		x.learnLayout(s, &l, init)
		if l.typ == tUnique && l.val.owns >= 0 && s.objs[l.val.owns].kind == oParam && customDeleter(typText) {
			// unique_ptr<T, D>: what D does with the caller's object is
			// D's to say; this one owns nothing of the caller's.
			l.val.owns = s.newObj(object{kind: oHeap, owner: name, frame: true})
		}
		x.classOf(s, &l, typText, ptr || ref)
		if !ptr && !ref && s.objs[l.slot].class != "" {
			x.madeNull(s, l.slot, s.objs[l.slot].class, init)
		}
		if !ptr && !ref && l.typ == tPlain && v.from >= 0 && int(v.from) < len(s.locals) {
			// T b = a, T b(a), auto b = a: a copy of a's object.
			if src := s.locals[v.from]; l.auto && !src.ref && src.typ == tPlain {
				s.objs[l.slot].class = s.objs[src.slot].class
			}
			x.copied(s, l.slot, v, parser.None, parser.None)
			x.copyHeld(s, l.slot, v)
		}
		if !ptr && !ref && l.typ == tPlain {
			x.takeHeld(s, l.slot, v, l.auto || tk == tAuto)
		}
		if ctorStores != "" {
			x.keep(s, l.slot, ctorStores, init, ctorArgs)
		}
		if static {
			// A static outlives the call: neither it nor what it owns is
			// the frame's, and it is not ended at the scope's end.
			l.depth = -1
			if l.val.owns >= 0 {
				s.objs[l.val.owns].frame = false
				s.objs[l.val.owns].kept = true
			}
		}
		s.locals = append(s.locals, l)
	}
	x.endTemps(s, n)
}

// bindingNames are the names a structured binding declarator (auto [a,
// b], auto& [a, b]) introduces, with the binding's node, or none when d
// is not one.
func (x *exec) bindingNames(d parser.NodeID) (parser.NodeID, []string) {
	for d != parser.None {
		switch x.kind(d) {
		case parser.KindStructuredBindingDeclarator:
			var names []string
			for c := range x.f.NamedChildren(d) {
				if x.kind(c) == parser.KindIdentifier {
					names = append(names, x.text(c))
				}
			}
			return d, names
		case parser.KindInitDeclarator, parser.KindReferenceDeclarator:
			next := x.f.Field(d, parser.FieldDeclarator)
			if next == parser.None {
				next = x.lastNamedChild(d)
			}
			d = next
		default:
			return parser.None, nil
		}
	}
	return parser.None, nil
}

// bindStructured declares the names of structured binding b of value v
// ([dcl.struct.bind]): they name the parts of a hidden variable, a copy of
// the initializer that lives as a local of the scope (auto [a, b] = e), or
// a reference bound to it (auto& [a, b] = e). Each name is a reference to
// that variable's object, so &a points into the frame when it is a copy.
func (x *exec) bindStructured(s *state, b parser.NodeID, names []string, v value, ref, static bool) {
	target := int32(-1)
	switch {
	case ref && v.kind == tRef && v.pt >= 0:
		target = v.pt
	case ref && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref:
		target = s.locals[v.from].slot
	case !ref:
		hidden := local{name: x.text(b), typ: tPlain, val: unknown, depth: x.depth, decl: b}
		if static {
			hidden.depth = -1
		}
		hidden.slot = s.newObj(object{kind: oStack, owner: hidden.name, frame: !static})
		s.locals = append(s.locals, hidden)
		target = hidden.slot
	}
	for _, name := range names {
		s.forget(name)
		l := local{name: name, typ: tRef, ref: true, val: unknown, depth: x.depth, decl: b}
		if static {
			l.depth = -1
		}
		l.slot = s.newObj(object{kind: oStack, owner: name, frame: !static})
		if target >= 0 {
			l.val = borrowOf(target, tRef)
		}
		s.locals = append(s.locals, l)
	}
}

// customDeleter says a unique_ptr type names its deleter
// (unique_ptr<T, D>).
func customDeleter(typ string) bool {
	i, j := strings.IndexByte(typ, '<'), strings.LastIndexByte(typ, '>')
	return i >= 0 && j > i && cxxtype.FirstArg(typ[i+1:j]) != strings.TrimSpace(typ[i+1:j])
}

// classOf records the class of the object a new local stores or owns:
// a local of class type, or the object of a unique_ptr<T> or
// shared_ptr<T> whose class its initialiser did not say.
func (x *exec) classOf(s *state, l *local, typText string, indirect bool) {
	switch {
	case indirect:
	case l.typ == tPlain && !l.auto && l.tname != "":
		s.objs[l.slot].class = l.tname
	case (l.typ == tUnique || l.typ == tShared) && l.val.owns >= 0 && s.objs[l.val.owns].class == "":
		s.objs[l.val.owns].class = templateArg(typText)
	}
}

// isMember says name is a data member of the class the function is a
// method of, as the file's definition of that class declares it.
func (x *exec) isMember(name string, n parser.NodeID) bool {
	if x.members == nil {
		x.members = map[string]bool{}
		class := x.className()
		for i := range x.f.Nodes {
			k := x.f.Nodes[i].Kind
			if k != parser.KindClassSpecifier && k != parser.KindStructSpecifier {
				continue
			}
			if class == "" || x.f.Text(x.f.Field(parser.NodeID(i), parser.FieldName)) != class {
				continue
			}
			if x.f.Field(parser.NodeID(i), parser.FieldBody) != parser.None {
				x.classSeen = true
			}
			end := x.f.End(parser.NodeID(i))
			for j := parser.NodeID(i); j < end; j++ {
				if x.f.Nodes[j].Kind != parser.KindFieldIdentifier || x.f.Kind(x.f.Nodes[j].Parent) == parser.KindFunctionDeclarator {
					continue
				}
				if fd := x.f.Ancestor(j, parser.KindFieldDeclaration); fd != parser.None && !x.isStatic(fd) {
					// A static member is no part of the object
					// ([class.static]): reading it reads no object.
					x.members[x.f.Text(j)] = true
				}
			}
		}
	}
	if x.classSeen {
		return x.members[name]
	}
	// The class is defined elsewhere (a header): a name used as an object
	// (its member read, an element taken, assigned to) is taken for a
	// member; a bare value (an enumerator, a constant) is not.
	switch p := x.f.Nodes[n].Parent; x.f.Kind(p) {
	case parser.KindFieldExpression, parser.KindSubscriptExpression:
		return x.f.Field(p, parser.FieldArgument) == n
	case parser.KindAssignmentExpression:
		return x.f.Field(p, parser.FieldLeft) == n
	}
	return false
}

// className is the class the function is a method of: the scope of its
// qualified name, or the class its definition is written in.
func (x *exec) className() string {
	def := x.def
	if x.kind(def) == parser.KindLambdaExpression {
		// A lambda's this is its enclosing method's.
		if a := x.f.Ancestor(def, parser.KindFunctionDefinition); a != parser.None {
			def = a
		}
	}
	rv := x.retRvalue
	fd, _ := x.funcDeclarator(def)
	x.retRvalue = rv
	if fd != parser.None {
		name := calleeName(x.text(x.f.Field(fd, parser.FieldDeclarator)))
		if i := strings.LastIndex(name, "::"); i > 0 {
			return lastName(name[:i])
		}
	}
	for _, k := range []parser.Kind{parser.KindClassSpecifier, parser.KindStructSpecifier} {
		if c := x.f.Ancestor(x.def, k); c != parser.None {
			return className(x.text(x.f.Field(c, parser.FieldName)))
		}
	}
	return ""
}

// declaresDestructor says the file declares destructor name (~T).
func (x *exec) declaresDestructor(name string) bool {
	if x.dtors == nil {
		x.dtors = map[string]bool{}
		for i := range x.f.Nodes {
			if x.f.Nodes[i].Kind == parser.KindDestructorName && x.f.Kind(x.f.Nodes[i].Parent) != parser.KindFieldExpression {
				x.dtors[strings.ReplaceAll(x.f.Text(parser.NodeID(i)), " ", "")] = true
			}
		}
	}
	return x.dtors[name]
}

// isStatic says a declaration has static or thread storage: a specifier
// before its declarators says so. extern at block scope declares a
// variable defined elsewhere, of static storage ([basic.link],
// [basic.stc.static]): not one of the frame.
func (x *exec) isStatic(n parser.NodeID) bool {
	for c := range x.f.Children(n) {
		if x.f.Nodes[c].Field == parser.FieldDeclarator {
			break
		}
		switch x.text(c) {
		case "static", "thread_local", "static thread_local", "thread_local static", "extern":
			return true
		}
		if x.f.Nodes[c].Field == parser.FieldType && x.kind(c) == parser.KindTypeIdentifier && x.storageMacro(x.text(c)) {
			return true // a macro defined as thread_local or static
		}
	}
	return x.splitStatic(n)
}

// storageMacro says name is a macro the file defines as storage class
// specifiers (static, thread_local), or, when the file defines no macro
// of that name, one the tree does (see aliases).
func (x *exec) storageMacro(name string) bool {
	if x.f.StorageMacro(name) {
		return true
	}
	if x.f.DefinesMacro(name) || x.opt.Alias == nil {
		return false
	}
	words := strings.Fields(x.opt.Alias(name))
	for _, w := range words {
		switch w {
		case "static", "thread_local", "__thread", "_Thread_local":
		default:
			return false
		}
	}
	return len(words) > 0
}

// splitStatic says declaration n is the rest of a static declaration the
// grammar split at a macro call (static ALIGNED(16) T v; reads as static
// ALIGNED(16) without its semicolon, then T v;): the declaration just
// before it, on the same line, is static and has no semicolon of its own.
func (x *exec) splitStatic(n parser.NodeID) bool {
	f := x.f
	p := f.Nodes[n].Parent
	if p == parser.None {
		return false
	}
	prev := parser.None
	for c := range f.NamedChildren(p) {
		if c == n {
			break
		}
		prev = c
	}
	if prev == parser.None || x.kind(prev) != parser.KindDeclaration || strings.HasSuffix(strings.TrimSpace(x.text(prev)), ";") {
		return false
	}
	if between := string(f.Src[f.Nodes[prev].End:f.Nodes[n].Start]); strings.Contains(between, "\n") || strings.Contains(between, ";") {
		return false
	}
	for c := range f.Children(prev) {
		switch x.text(c) {
		case "static", "thread_local", "extern":
			return true
		}
	}
	return false
}

// isArray says a declarator declares a C array.
func (x *exec) isArray(d parser.NodeID) bool {
	for ; d != parser.None; d = x.f.Field(d, parser.FieldDeclarator) {
		if x.kind(d) == parser.KindArrayDeclarator {
			return true
		}
	}
	return false
}

// prvalue says an initialiser makes a new value rather than naming one.
// A shift is one only on numbers: on an object (a stream's <<, >>) it is
// an overloaded operator's result, by convention a reference to its left
// operand.
func (x *exec) prvalue(s *state, n parser.NodeID) bool {
	switch x.kind(n) {
	case parser.KindNumberLiteral, parser.KindStringLiteral, parser.KindTrue, parser.KindFalse:
		return true
	case parser.KindBinaryExpression:
		switch strings.TrimSpace(x.text(x.f.Field(n, parser.FieldOperator))) {
		case "<<", ">>":
			return x.numeric(s, n)
		}
		return true
	}
	return false
}

// numeric says the leftmost operand of a chain of binary operators is a
// number: a literal, or a local of an arithmetic type.
func (x *exec) numeric(s *state, n parser.NodeID) bool {
	for x.kind(n) == parser.KindBinaryExpression || x.kind(n) == parser.KindParenthesizedExpression {
		if x.kind(n) == parser.KindParenthesizedExpression {
			n = x.lastNamedChild(n)
			continue
		}
		n = x.f.Field(n, parser.FieldLeft)
	}
	switch x.kind(n) {
	case parser.KindNumberLiteral, parser.KindCharLiteral:
		return true
	case parser.KindIdentifier:
		i := s.lookup(x.text(n))
		return i >= 0 && !s.locals[i].ref && arithmetic[s.locals[i].tname]
	}
	return false
}

// temporary says expression n makes a new object that lives only until the
// end of its full expression: a literal, an arithmetic or comparison
// result, T{...}, a constructor call T(...) of a class the tree defines or
// of the standard library, or std::move or std::forward of one of these.
func (x *exec) temporary(n parser.NodeID) bool {
	f := x.f
	switch x.kind(n) {
	case parser.KindNumberLiteral, parser.KindCharLiteral, parser.KindStringLiteral,
		parser.KindTrue, parser.KindFalse, parser.KindCompoundLiteralExpression:
		return true
	case parser.KindParenthesizedExpression:
		return x.temporary(x.lastNamedChild(n))
	case parser.KindBinaryExpression:
		if _, ok := x.operatorCall(n); ok {
			// What an operator function returns is its declaration's.
			return false
		}
		if x.misreadTemplateCall(n) {
			return false
		}
		switch op := x.text(f.Field(n, parser.FieldOperator)); op {
		case "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||":
			return !x.operatorReturnsRef(op)
		}
	case parser.KindCallExpression:
		for c := range f.NamedChildren(n) {
			if x.kind(c) == parser.KindError {
				// Misread (p->operator[](i) reads as p, an error, then
				// the arguments): what is called is not known.
				return false
			}
		}
		name := calleeName(x.text(f.Field(n, parser.FieldFunction)))
		args := f.Field(n, parser.FieldArguments)
		if x.macroCall(n) {
			// What a macro's expansion makes is not a class of the
			// macro's name: Null(T) expanding to a call that returns a
			// reference to a static object is no temporary.
			return false
		}
		if name == "std::move" || name == "std::forward" {
			for a := range f.NamedChildren(args) {
				return x.temporary(a)
			}
			return false
		}
		if stdClasses[name] {
			return true
		}
		if scope, last, ok := strings.Cut(name, "::"+lastName(name)); ok && last == "" && x.opt.Members != nil && x.opt.Members(lastName(scope))["("+lastName(name)+")"] != "" {
			// C::f(...) of a class C that declares a method f: a call
			// of its static member function, whatever else is named f.
			return false
		}
		if fn := f.Field(n, parser.FieldFunction); x.kind(fn) == parser.KindIdentifier && x.classMembers[name] != "" {
			// m(args) of a data member m: its operator(), whatever
			// class of that name the tree has ([basic.lookup.unqual]: the
			// class's scope is searched first).
			return false
		}
		if x.opt.Members != nil && !strings.HasPrefix(name, "std::") && x.classMembers["("+lastName(name)+")"] == "" && x.opt.Members(lastName(name)) != nil {
			// A class of that name, unless a function of that name and
			// arity is declared: ns::Value() then calls it.
			return x.opt.Summaries == nil || !x.opt.Summaries.Call(name, x.argCount(args), x.scope()).Known
		}
	}
	return false
}

// macroCall says call n names a function-like macro, of this file or
// (when the file defines no macro of that name) of the tree: the
// preprocessor replaces it before any class or function of that name is
// looked up.
func (x *exec) macroCall(n parser.NodeID) bool {
	fn := x.f.Field(n, parser.FieldFunction)
	if x.kind(fn) != parser.KindIdentifier {
		return false
	}
	name := x.text(fn)
	if x.f.DefinesFunctionMacro(name) {
		return true
	}
	return !x.f.DefinesMacro(name) && x.opt.Alias != nil && x.opt.Alias(name+"()") != ""
}

// bindsTemporary says declarator d of declaration n declares a reference
// that can bind a temporary: an rvalue reference or a reference to const.
// A non-const lvalue reference binds only lvalues ([dcl.init.ref]), so
// what initialises one is an object that lives on, not a temporary, even
// when the call's declaration holdfast read says it returns a value.
func (x *exec) bindsTemporary(n, d parser.NodeID) bool {
	f := x.f
	for c := range f.NamedChildren(n) {
		if x.kind(c) == parser.KindTypeQualifier && x.text(c) == "const" {
			return true
		}
	}
	if t := f.Field(n, parser.FieldType); strings.HasPrefix(x.text(t), "const ") || strings.HasSuffix(x.text(t), " const") {
		return true
	}
	for d != parser.None {
		switch x.kind(d) {
		case parser.KindReferenceDeclarator:
			return strings.HasPrefix(x.text(d), "&&")
		case parser.KindInitDeclarator:
			d = f.Field(d, parser.FieldDeclarator)
		default:
			return true
		}
	}
	return true
}

// misreadTemplateCall says binary expression n is a < b > (c): the
// grammar's reading of a call of a member template with explicit
// arguments (this->f<0>(i), p->get<N>(x)) whose name it does not know to
// be a template. Comparing a comparison's bool with > is what the text
// would otherwise mean, which no code writes so.
func (x *exec) misreadTemplateCall(n parser.NodeID) bool {
	f := x.f
	if x.text(f.Field(n, parser.FieldOperator)) != ">" {
		return false
	}
	l, r := f.Field(n, parser.FieldLeft), f.Field(n, parser.FieldRight)
	return x.kind(l) == parser.KindBinaryExpression && x.text(f.Field(l, parser.FieldOperator)) == "<" &&
		x.kind(r) == parser.KindParenthesizedExpression
}

// objectArgs reads a function declarator that is an object declaration:
// every "parameter" is a name of a local or parameter of the function.
func (x *exec) objectArgs(s *state, d parser.NodeID) (parser.NodeID, bool) {
	if x.kind(d) != parser.KindFunctionDeclarator || x.kind(x.f.Field(d, parser.FieldDeclarator)) != parser.KindIdentifier {
		return parser.None, false
	}
	list := x.f.Field(d, parser.FieldParameters)
	n := 0
	for p := range x.f.NamedChildren(list) {
		n++
		if x.kind(p) != parser.KindParameterDeclaration {
			return parser.None, false
		}
		if x.madeByCall(p) || x.movedLocal(s, p) != parser.None {
			continue
		}
		if x.f.Field(p, parser.FieldDeclarator) != parser.None || s.lookup(x.text(x.f.Field(p, parser.FieldType))) < 0 {
			return parser.None, false
		}
	}
	return list, n > 0
}

// hold records that the object holds t, as member m ("" when not known).
func (o *object) hold(t int32, m string) {
	for len(o.heldAs) < len(o.holds) {
		o.heldAs = append(slices.Clip(o.heldAs), "")
	}
	o.holds = append(slices.Clip(o.holds), t)
	o.heldAs = append(slices.Clip(o.heldAs), m)
}

// letGoAll: the object holds nothing it was given any more (each member
// has a new value).
func (o *object) letGoAll() {
	o.holds, o.heldAs = nil, nil
}

// holdAll records that the object holds what from holds, as the same
// members.
func (o *object) holdAll(from *object) {
	for i, h := range from.holds {
		m := ""
		if i < len(from.heldAs) {
			m = from.heldAs[i]
		}
		o.hold(h, m)
	}
}

// madeValue is the value of temporary object t of a class, made by the
// expression being evaluated.
func madeValue(t int32) value {
	v := borrowOf(t, tRef)
	v.owns, v.prvalue = t, true
	return v
}

// movedLocal reads "parameter" p of an object declaration read as a
// function declaration, T obj(std::move(a)), as std::move or std::forward
// of local a: a call, since std::move names a function, not a type
// ([stmt.ambig]). It gives the node naming a, or None.
func (x *exec) movedLocal(s *state, p parser.NodeID) parser.NodeID {
	d := x.f.Field(p, parser.FieldDeclarator)
	if x.kind(d) != parser.KindAbstractFunctionDeclarator {
		return parser.None
	}
	switch x.text(x.f.Field(p, parser.FieldType)) {
	case "std::move", "std::forward":
	default:
		return parser.None
	}
	a := parser.None
	for q := range x.f.NamedChildren(x.f.Field(d, parser.FieldParameters)) {
		t := x.f.Field(q, parser.FieldType)
		if a != parser.None || x.kind(q) != parser.KindParameterDeclaration || x.f.Field(q, parser.FieldDeclarator) != parser.None ||
			x.kind(t) != parser.KindTypeIdentifier || s.lookup(x.text(t)) < 0 {
			return parser.None
		}
		a = t
	}
	return a
}

// madeByCall says "parameter" p of an object declaration read as a
// function declaration, T obj(Make()), is a call of a function the tree
// declares that returns by value ([stmt.ambig] settles such a statement by
// what the names are: Make names a function, so obj is an object made
// from a temporary).
func (x *exec) madeByCall(p parser.NodeID) bool {
	d := x.f.Field(p, parser.FieldDeclarator)
	t := x.f.Field(p, parser.FieldType)
	if x.kind(d) != parser.KindAbstractFunctionDeclarator || x.opt.Summaries == nil || x.hasElements(x.f.Field(d, parser.FieldParameters)) {
		return false
	}
	if k := x.kind(t); k != parser.KindTypeIdentifier && k != parser.KindQualifiedIdentifier {
		return false
	}
	c := x.opt.Summaries.Call(x.text(t), 0, x.scope())
	return c.Known && c.ByValue && c.RetParam <= 0
}

// bind gives a new local its value.
func (x *exec) bind(s *state, l *local, v value, hasInit bool) {
	if l.typ == tAuto {
		switch v.kind {
		case tStorage, tUnique, tShared, tPointer, tView, tIter:
			l.typ = v.kind
		case tRef:
			// auto copies what a reference refers to.
			l.typ = tPlain
		default:
			// Initialised from a value holdfast cannot read (a constant, a
			// call it cannot see): what is assigned to it later decides.
			l.typ, l.auto = tPlain, true
		}
	}
	switch l.typ {
	case tStorage:
		if v.owns >= 0 && v.kind == tStorage && (v.from < 0 || v.moved) {
			x.take(s, l, v)
		} else {
			l.val = value{pt: -1, owns: s.storage(l, true), kind: tStorage, from: -1}
			s.objs[l.val.owns].empty = !hasInit
			s.objs[l.val.owns].every = !hasInit && !l.param
		}
	case tUnique, tShared:
		switch {
		case v.owns >= 0 && (v.kind == tUnique || v.kind == tShared) && (v.from < 0 || v.moved || l.typ == tShared):
			if v.from >= 0 && v.moved {
				x.take(s, l, v)
			} else {
				l.val = value{pt: -1, owns: v.owns, kind: l.typ, from: -1}
				x.untemp(s, v.owns)
			}
		case v.pt >= 0 && v.kind == tPointer && (s.objs[v.pt].kind == oHeap || s.objs[v.pt].kind == oParam && v.pt != thisObj && s.objs[v.pt].counted == notCounted):
			// A smart pointer made from a raw pointer adopts its object:
			// what new made, or what the caller handed in (its destructor
			// deletes it). Two of them adopting one object delete it twice.
			l.val = value{pt: -1, owns: v.pt, kind: l.typ, from: -1}
		case v.null || !hasInit:
			l.val = value{pt: -1, owns: -1, kind: l.typ, null: true, from: -1}
		default:
			// Whatever made it, a smart pointer owns its object; a shared one
			// made by code holdfast cannot see may share it with owners there.
			shared := l.typ == tShared
			l.val = value{pt: -1, owns: s.newObj(object{kind: oHeap, owner: l.name, frame: !shared, kept: shared}), kind: l.typ, from: -1}
		}
		if l.typ == tShared && l.val.owns >= 0 {
			s.objs[l.val.owns].refs++
		}
		if l.typ == tUnique && l.val.owns >= 0 && !s.objs[l.val.owns].kept {
			// A local unique_ptr is its object's one owner: the object
			// is the frame's, as a local's storage is, until it is moved
			// or released.
			s.objs[l.val.owns].frame = l.frameOwner()
		}
		if l.val.owns >= 0 {
			s.objs[l.val.owns].owner = l.name
		}
	case tView:
		switch {
		case v.kind == tStorage && v.owns >= 0:
			l.val = borrowOf(v.owns, tView)
		case v.kind == tRef && v.pt >= 0 && int(v.pt) < len(s.objs) && s.objs[v.pt].fam != famNone && (s.objs[v.pt].elem == tView || s.objs[v.pt].elem == tPointer):
			// string_view f = parts[0] of a container of views or
			// pointers: a copy of the element, viewing what the element
			// views, not the container's storage.
			l.val = unknown
			l.val.kind = tView
		case v.pt >= 0:
			l.val = borrowOf(v.pt, tView)
		case l.tname == "reference_wrapper" && v.kind == tPlain && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref && s.locals[v.from].alias == 0:
			// reference_wrapper<T> r = obj: it stores a pointer to obj
			// ([refwrap.const]).
			l.val = borrowOf(s.locals[v.from].slot, tView)
		default:
			l.val = unknown
			l.val.kind = tView
		}
	case tPointer, tIter:
		l.val = v
		l.val.from, l.val.moved = -1, false
		if v.kind == tRef || v.kind == tStorage || v.kind == tUnique || v.kind == tShared {
			// The pointer stored in an object (p->next, v[i]) is not
			// the object itself; what it points to is not known.
			l.val = unknown
			l.val.kind = tPointer
		}
		if l.typ == tIter || v.kind == tIter {
			l.val.kind = tIter
			l.typ = tIter
		}
		if l.val.kind == tPlain {
			// A value of no kind the path follows (a call's unknown
			// result): still a pointer, which arithmetic steps.
			l.val.kind = l.typ
		}
		if hasInit {
			x.pointee(s, l)
		}
	case tRef:
		switch {
		case v.from >= 0 && v.pt < 0 && v.owns >= 0:
			// A reference to a local owner: the same local under a new name.
			l.alias = int(v.from) + 1
			l.ref = false
			l.typ = v.kind
		case v.pt >= 0 && (v.owns != v.pt || v.from >= 0 || !v.prvalue):
			l.val = borrowOf(v.pt, tRef)
		case v.owns >= 0 && v.from < 0:
			// A reference bound to a temporary extends its life to its own.
			x.untemp(s, v.owns)
			s.objs[v.owns].frame, s.objs[v.owns].owner = true, l.name
			l.val = value{pt: v.owns, owns: v.owns, kind: tRef, from: -1}
		default:
			l.val = unknown
		}
	default:
		l.val = value{pt: -1, owns: -1, flag: v.flag, null: v.null, from: -1, known: v.known, num: v.num}
	}
	keepClosure(l, v)
	keepStatus(l, v)
}

// keepStatus gives l the status v carries (see value.status, value.queued).
func keepStatus(l *local, v value) {
	if v.status > 0 {
		l.val.status = v.status
	}
	if v.queued > 0 {
		l.val.queued = v.queued
	}
}

// keepClosure gives l the closure v holds, whatever l's type reads as.
func keepClosure(l *local, v value) {
	if v.clo != nil {
		l.val.clo = v.clo
	}
}

// take moves the ownership of v's object into l.
func (x *exec) take(s *state, l *local, v value) {
	kind := v.kind
	if (l.typ == tShared || l.typ == tUnique) && kind != l.typ {
		// shared_ptr<T> s = std::move(u): s is a shared pointer, the
		// object's one owner now.
		kind = l.typ
	}
	l.val = value{pt: -1, owns: v.owns, kind: kind, from: -1}
	x.untemp(s, v.owns)
	s.objs[v.owns].owner = l.name
	if v.from >= 0 && int(v.from) < len(s.locals) {
		src := &s.locals[v.from]
		if src.typ == tStorage {
			// A moved-from container is valid and empty; the buffer moved.
			src.val.owns = s.storage(src, true)
		} else {
			src.val.owns, src.val.null = -1, true
			src.movedFrom = true
		}
	}
	s.objs[v.owns].frame = l.frameOwner()
	if l.fam != famNone {
		s.objs[v.owns].fam, s.objs[v.owns].elem = l.fam, l.elem
	}
	l.movedFrom = false
}

// untemp keeps a temporary past its full expression.
func (x *exec) untemp(s *state, obj int32) {
	for i, t := range s.temps {
		if t == obj {
			s.temps = append(s.temps[:i], s.temps[i+1:]...)
			if s.objs[obj].kind == oTemp {
				s.objs[obj].kind = oStorage
			}
			return
		}
	}
}

// eval evaluates expression n on s.
func (x *exec) eval(s *state, n parser.NodeID) value {
	if n == parser.None {
		return unknown
	}
	x.nest++
	defer func() { x.nest-- }()
	if x.nest > maxDepth {
		x.cut = true
		return unknown
	}
	f := x.f
	switch x.kind(n) {
	case parser.KindIdentifier:
		if x.text(n) == "NULL" {
			return value{pt: -1, owns: -1, null: true, from: -1}
		}
		if s.lookup(x.text(n)) < 0 {
			if k, ok := x.constant(x.text(n)); ok {
				return value{pt: -1, owns: -1, from: -1, known: true, num: k}
			}
		}
		return x.read(s, n)
	case parser.KindQualifiedIdentifier:
		// Color::Red, ns::kLimit: an enumerator's value when known.
		if k, ok := x.constant(x.text(n)); ok {
			return value{pt: -1, owns: -1, from: -1, known: true, num: k}
		}
		return unknown
	case parser.KindNullptr:
		return value{pt: -1, owns: -1, null: true, from: -1}
	case parser.KindCompoundLiteralExpression:
		if typ := x.resolve(x.text(f.Field(n, parser.FieldType))); classify(typ) == tPlain {
			// T{&a, b} of a class that keeps some of its elements: a
			// temporary holding what they point to.
			if v, ok := x.madeObject(s, n, typeName(typ)); ok {
				return v
			}
		}
		x.args(s, f.Field(n, parser.FieldValue))
		if classify(x.resolve(x.text(f.Field(n, parser.FieldType)))) != tStorage {
			return unknown
		}
		// T{elements} of a string or container type: a temporary that
		// owns a buffer of its own, holding copies of the elements.
		t := s.newObj(object{kind: oTemp, owner: x.text(n)})
		s.temps = append(s.temps, t)
		return value{pt: -1, owns: t, kind: tStorage, from: -1, prvalue: true}
	case parser.KindSizeofExpression, parser.KindAlignofExpression, parser.KindOffsetofExpression:
		// An unevaluated operand ([expr.sizeof], [expr.alignof]; C's
		// offsetof): sizeof(*p) reads nothing.
		return unknown
	case parser.KindTrue:
		return value{pt: -1, owns: -1, flag: 1, from: -1}
	case parser.KindFalse:
		return value{pt: -1, owns: -1, flag: 2, from: -1}
	case parser.KindParenthesizedExpression:
		if recv, m, ok := x.unarySend(n); ok {
			return x.unaryMessage(s, n, recv, m)
		}
		if x.f.IsBoxed(n) {
			// @(e) in Objective-C boxes a copy of e's value (a C string's
			// bytes, a number) in a new object; the grammar reads (e).
			for c := range f.NamedChildren(n) {
				x.eval(s, c)
			}
			return unknown
		}
		v := unknown
		for c := range f.NamedChildren(n) {
			v = x.eval(s, c)
		}
		return v
	case parser.KindPointerExpression:
		arg := f.Field(n, parser.FieldArgument)
		if strings.HasPrefix(x.text(n), "&") {
			return x.addressOf(s, arg)
		}
		v := x.throughField(s, arg, x.eval(s, arg))
		x.derefMoved(s, v, n)
		x.use(s, v, n)
		if w, ok := x.derefContainer(s, v); ok {
			return w
		}
		x.hostAccess(s, pointee(v), n, x.writing == n)
		return borrowOf(pointee(v), tRef)
	case parser.KindFieldExpression:
		arg := f.Field(n, parser.FieldArgument)
		if x.kind(arg) == parser.KindThis {
			// this->m is the member m.
			if i := s.lookup(x.text(f.Field(n, parser.FieldField))); i >= 0 && s.locals[i].member {
				x.use(s, borrowOf(thisObj, tPointer), n)
				return x.readName(s, s.locals[i].name, n)
			}
		}
		v := x.eval(s, arg)
		field := x.text(f.Field(n, parser.FieldField))
		if strings.HasPrefix(strings.TrimSpace(x.text(f.Field(n, parser.FieldOperator))), "->") || strings.Contains(x.between(arg, f.Field(n, parser.FieldField)), "->") {
			if i := s.slotOf(v.pt); v.kind == tPointer && i >= 0 && s.locals[i].typ == tPointer && !s.locals[i].ref && !s.locals[i].array {
				// q->m where q points to a pointer (q = &p): a pointer
				// has no members, so the code does not compile (a
				// variant of a build the scan reads all of): nothing is
				// read here.
				return unknown
			}
			// p->m reads or writes through p: a smart pointer std::move
			// emptied is null.
			x.derefMoved(s, v, n)
			v = x.throughField(s, arg, v)
			x.use(s, v, n)
			if x.referenceField(x.objectClass(s, pointee(v)), field) {
				return unknown
			}
			return borrowOf(pointee(v), tRef)
		}
		if v.kind == tRef {
			x.use(s, v, n)
			if x.referenceField(x.objectClass(s, v.pt), field) {
				return unknown
			}
			return borrowOf(v.pt, tRef)
		}
		if v.from >= 0 && int(v.from) < len(s.locals) && x.writing != n && (x.viewField(s.objClass(s.locals[v.from].slot), field) || x.viewField(s.locals[v.from].tname, field)) {
			// o.v of a view member v, read: the range v views (what the
			// object was given), not a part of o.
			return unknown
		}
		if v.from >= 0 && int(v.from) < len(s.locals) && (x.referenceField(s.objClass(s.locals[v.from].slot), field) || x.referenceField(s.locals[v.from].tname, field)) {
			// m.r of a reference member r: the object r is bound to,
			// not a part of m ([dcl.ref]: a reference is not an object
			// of its own).
			return unknown
		}
		if v.from >= 0 && int(v.from) < len(s.locals) {
			if w, ok := x.sharedField(s, v, field); ok && x.writing != n {
				return w
			}
			return borrowOf(s.locals[v.from].slot, tRef)
		}
		return unknown
	case parser.KindSubscriptExpression:
		arg := f.Field(n, parser.FieldArgument)
		v := x.eval(s, arg)
		// p->arr[i] of an array member: an element inside p's object,
		// which indexing does not walk over.
		inside := x.insideField(s, uncast(f, arg), v)
		if !inside {
			if w, ok := x.fieldPointer(s, arg, v, true); ok {
				// p->items[i]: an element of the array the field points
				// to, not of p's object.
				v = w
			}
			// Indexing walks over the memory: a field of it names no
			// one element (see fieldCell).
			s.step(v)
		}
		idx := f.Field(n, parser.FieldIndices)
		if iv := x.eval(s, idx); inside && !iv.known && !x.constIndex(idx) && v.pt >= 0 && int(v.pt) < len(s.objs) {
			// p->arr[i] by an index the path does not know: which
			// element is not known either, so a field read through it
			// names no one cell (the next iteration's i is another).
			s.objs[v.pt].stepped = true
		}
		switch v.kind {
		case tStorage:
			if v.owns >= 0 && int(v.owns) < len(s.objs) && s.objs[v.owns].fam == famAssoc {
				return borrowOf(x.keyed(s, v.owns, x.text(f.Field(n, parser.FieldIndices))), tRef)
			}
			x.hostAccess(s, v.owns, n, x.writing == n)
			if w, ok := x.elementRead(s, v.owns, n); ok {
				return w
			}
			return borrowOf(v.owns, tRef)
		case tPointer, tView, tIter, tRef:
			x.use(s, v, n)
			x.hostAccess(s, v.pt, n, x.writing == n)
			return borrowOf(v.pt, tRef)
		}
		if v.from >= 0 && int(v.from) < len(s.locals) && s.locals[v.from].array {
			// A local array: its elements are its own storage.
			return borrowOf(s.locals[v.from].slot, tRef)
		}
		return unknown
	case parser.KindCallExpression:
		return x.call(s, n)
	case parser.KindNewExpression:
		if pl := f.Field(n, parser.FieldPlacement); pl != parser.None {
			// Placement new makes a new object in the memory it is given.
			v := x.eval(s, pl)
			if v.pt >= 0 && int(v.pt) < len(s.objs) {
				s.objs[v.pt].state = live
			}
			return v
		}
		list := parser.None
		var vs []value
		for c := range f.NamedChildren(n) {
			if x.kind(c) == parser.KindArgumentList || x.kind(c) == parser.KindInitializerList {
				list, vs = c, x.args(s, c)
			}
		}
		typ := x.text(f.Field(n, parser.FieldType))
		obj := s.newObj(object{kind: oHeap, owner: x.text(n), class: typeName(typ)})
		x.newOwner(s, obj, typ, list, vs)
		return borrowOf(obj, tPointer)
	case parser.KindDeleteExpression:
		v := unknown
		operand := parser.None
		for c := range f.NamedChildren(n) {
			v, operand = x.eval(s, c), c
		}
		if x.misreadArrayDelete(n, operand) {
			// delete[] *pp, which the grammar reads as delete followed by
			// a lambda's [] and pp: what the pointer *pp holds is freed.
			x.use(s, v, operand)
			x.free(s, x.pointerIn(s, pointee(v)), n, "delete")
			return unknown
		}
		via := x.deleteVia(s, operand)
		if x.asBytes(operand) || x.misreadBytesDelete(n) {
			// delete[] (uint8_t*)p: the storage is deleted as an array
			// of bytes, whose destruction does nothing ([expr.delete]:
			// the destructor called is the operand's static type's).
			via = "delete of its bytes"
		}
		x.free(s, x.storedPointer(s, operand, v), n, via)
		return unknown
	case parser.KindAssignmentExpression:
		return x.assign(s, n)
	case parser.KindBinaryExpression:
		if args, ok := x.operatorCall(n); ok {
			return x.callOperator(s, args)
		}
		l := x.eval(s, f.Field(n, parser.FieldLeft))
		r := x.eval(s, f.Field(n, parser.FieldRight))
		op := x.text(f.Field(n, parser.FieldOperator))
		for _, v := range []value{l, r} {
			if v.kind == tView {
				x.use(s, v, n)
			}
		}
		if (op == "+" || op == "-") && (l.kind == tPointer || l.kind == tIter) {
			s.step(l)
			l.from = -1
			return l
		}
		if op == "+" && (x.isString(s, l) || x.isString(s, r)) {
			// std::string's operator+ returns a new string by value
			// (cppreference, std::operator+ of basic_string): a temporary.
			t := s.newObj(object{kind: oTemp, owner: x.text(n)})
			s.temps = append(s.temps, t)
			return value{pt: -1, owns: t, kind: tStorage, from: -1, prvalue: true}
		}
		if l.known && r.known {
			v := unknown
			if num, ok := arith(l.num, op, r.num); ok {
				v.num, v.known = num, true
			} else if op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" {
				v.flag = 2
				if cmp(l.num, op, r.num) {
					v.flag = 1
				}
			}
			return v
		}
		return unknown
	case parser.KindUnaryExpression:
		v := x.eval(s, f.Field(n, parser.FieldArgument))
		switch {
		case strings.HasPrefix(x.text(n), "!") && v.flag != 0:
			return value{pt: -1, owns: -1, flag: 3 - v.flag, from: -1}
		case strings.HasPrefix(x.text(n), "-") && v.known:
			w := unknown
			w.num, w.known = -v.num, true
			return w
		}
		return unknown
	case parser.KindUpdateExpression:
		arg := f.Field(n, parser.FieldArgument)
		v := x.eval(s, arg)
		if v.kind == tIter {
			x.use(s, v, n)
		}
		if next, ok := x.nextNode(s, v); ok && x.kind(arg) == parser.KindIdentifier {
			// ++it over a map, set or list: it names the next node, not
			// the one a copy of it (erase(cur)) may end.
			if i := s.lookup(x.text(arg)); i >= 0 && !s.locals[i].ref {
				s.locals[i].val.pt = next
			}
			return unknown
		}
		s.step(v)
		if x.kind(arg) == parser.KindIdentifier {
			// i++ and i-- move what the path knows of i by one: a test
			// i == 0 taken on one iteration of a counting loop is false
			// on the next.
			d := int64(1)
			if strings.Contains(x.text(n), "--") {
				d = -1
			}
			name := x.text(arg)
			s.shift(name, d)
			if i := s.lookup(name); i >= 0 {
				if l := &s.locals[i]; l.val.known && l.val.num != math.MaxInt64 && l.val.num != math.MinInt64 {
					l.val.num += d
				} else {
					l.val.known = false
				}
			}
		} else if key := x.factKey(arg); key != "" {
			// p->n++ moves what the path knows of p->n as well.
			d := int64(1)
			if strings.Contains(x.text(n), "--") {
				d = -1
			}
			s.shift(key, d)
		}
		return unknown
	case parser.KindCastExpression:
		v := x.eval(s, f.Field(n, parser.FieldValue))
		v.from = -1
		return v
	case parser.KindConditionalExpression:
		if arm := x.arms[n]; arm != 0 {
			return x.armOf(s, n, arm)
		}
		x.eval(s, f.Field(n, parser.FieldCondition))
		a := x.eval(s, f.Field(n, parser.FieldConsequence))
		b := x.eval(s, f.Field(n, parser.FieldAlternative))
		if a.pt == b.pt && a.owns == b.owns {
			return a
		}
		return unknown
	case parser.KindCommaExpression:
		x.eval(s, f.Field(n, parser.FieldLeft))
		return x.eval(s, f.Field(n, parser.FieldRight))
	case parser.KindParameterList:
		// The arguments of an object declaration the grammar read as a
		// function's (see objectArgs): each is a name.
		var vs []value
		for p := range f.NamedChildren(n) {
			vs = append(vs, x.readName(s, x.text(f.Field(p, parser.FieldType)), p))
		}
		if len(vs) == 1 {
			return vs[0]
		}
		return unknown
	case parser.KindInitializerList, parser.KindArgumentList:
		vs := x.args(s, n)
		if len(vs) == 1 {
			return vs[0]
		}
		for _, v := range vs {
			if v.moved {
				// {key, std::move(owner)}: the object the list makes (a
				// pair, an aggregate, an element) takes the owner over.
				x.escape(s, v)
			}
		}
		return unknown
	case parser.KindNumberLiteral:
		v := unknown
		v.num, v.known = number(x.text(n))
		return v
	case parser.KindThis:
		return borrowOf(thisObj, tPointer)
	case parser.KindLambdaExpression:
		c := x.makeClosure(s, n)
		x.capture(s, n)
		v := unknown
		v.clo = c
		return v
	case parser.KindStringLiteral:
		return unknown
	}
	for c := range f.NamedChildren(n) {
		x.eval(s, c)
	}
	return unknown
}

// pointee is the object *v is: what a pointer or smart pointer points
// to. An element or member (v.kind tRef) holds a pointer whose target is
// not known.
func pointee(v value) int32 {
	switch v.kind {
	case tUnique, tShared:
		return v.owns
	case tPointer, tIter, tView:
		return v.pt
	}
	return -1
}

// between is the source text between two sibling nodes.
func (x *exec) between(a, b parser.NodeID) string {
	if a == parser.None || b == parser.None {
		return ""
	}
	s, e := x.f.Nodes[a].End, x.f.Nodes[b].Start
	if s >= e {
		return ""
	}
	return string(x.f.Src[s:e])
}

// read is the value of a name.
func (x *exec) read(s *state, n parser.NodeID) value {
	return x.readName(s, x.text(n), n)
}

func (x *exec) readName(s *state, name string, n parser.NodeID) value {
	i := s.lookup(name)
	if i < 0 {
		if s.objs[thisObj].state != live && x.kind(n) == parser.KindIdentifier && x.isMember(name, n) {
			// A name that is no local, after the object ended itself: a
			// member read through the dead this.
			x.use(s, borrowOf(thisObj, tPointer), n)
		}
		return unknown
	}
	l := s.locals[i]
	if l.member && s.objs[thisObj].state != live {
		// A member read through the object that ended itself.
		x.use(s, borrowOf(thisObj, tPointer), n)
	}
	v := l.val
	if l.array && !l.ref && !l.param {
		// A local array decays to a pointer to its own storage.
		v = borrowOf(l.slot, tPointer)
	}
	v.from = int32(i)
	v.moved = false
	if l.ref {
		x.use(s, l.val, n)
		v.kind = tRef
		return v
	}
	if v.kind == tPlain {
		v.kind = l.typ
	}
	return v
}

// addressOf is &e.
func (x *exec) addressOf(s *state, e parser.NodeID) value {
	if x.kind(e) == parser.KindIdentifier {
		i := s.lookup(x.text(e))
		if i < 0 {
			return unknown
		}
		l := s.locals[i]
		if l.ref {
			return borrowOf(l.val.pt, tPointer)
		}
		if l.typ == tStorage {
			// Through the pointer anything may be put in it.
			s.untrack(l.val.owns)
		}
		return borrowOf(l.slot, tPointer)
	}
	saved := x.addressed
	e = uncast(x.f, e)
	x.addressed = e
	v := x.eval(s, e)
	x.addressed = saved
	if v.pt >= 0 {
		return borrowOf(v.pt, tPointer)
	}
	return unknown
}

// args evaluates an argument list.
func (x *exec) args(s *state, list parser.NodeID) []value {
	var vs []value
	for c := range x.f.NamedChildren(list) {
		vs = append(vs, x.eval(s, c))
	}
	return vs
}

// elements evaluates the arguments of a constructor or the elements of
// an aggregate's braced list: a braced element that initialises a view
// is an initializer_list whose array is a temporary (see bracedView).
func (x *exec) elements(s *state, list parser.NodeID) []value {
	var vs []value
	for c := range x.f.NamedChildren(list) {
		if x.kind(c) == parser.KindInitializerList {
			vs = append(vs, x.bracedView(s, c))
			continue
		}
		vs = append(vs, x.eval(s, c))
	}
	return vs
}

// handOn checks the arguments of a call holdfast cannot see: a reference or
// view it is handed, or a pointer into a container's or a local's storage,
// is read there; what is moved or shared into it may be kept there.
func (x *exec) handOn(s *state, list parser.NodeID, vs []value) {
	x.handOnUnread(s, list, vs, nil, nil)
}

// handOnUnread is handOn where unread (when set) lists the pointer
// arguments the callee is known never to follow: handing one of them
// memory that ended is no use; and fields (when set) the fields the
// callee reads of the objects it is handed (see FieldReads): only what
// those members hold is used.
func (x *exec) handOnUnread(s *state, list parser.NodeID, vs []value, unread []bool, fields map[int]map[string]bool) {
	i := 0
	for c := range x.f.NamedChildren(list) {
		if i >= len(vs) {
			break
		}
		v := vs[i]
		skip := i < len(unread) && unread[i] || Printed(x.f, c)
		read, onlyFields := fields[i]
		i++
		// The callee may set a member handed to it by reference, or
		// store through a pointer handed to it.
		x.setMember(s, c, c)
		if x.kind(c) == parser.KindIdentifier {
			s.forgetPointee(x.text(c))
			// A counting handle handed on is copied there (by value), or
			// may be (by reference), or may be given a copy of another.
			x.countedCopy(s, v)
		}
		if !v.moved && v.from >= 0 && int(v.from) < len(s.locals) && s.locals[v.from].movedFrom && x.kind(c) == parser.KindIdentifier {
			// A moved-from smart pointer handed on as itself (by
			// reference, as an out-parameter) may be given a new object.
			s.locals[v.from].movedFrom = false
		}
		if v.kind == tStorage {
			// The callee may put in it what holdfast does not follow.
			s.untrack(v.owns)
		}
		if v.moved && v.kind == tPlain && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref {
			s.movedOut(s.locals[v.from].slot)
		}
		switch v.kind {
		case tView:
			x.use(s, v, c)
		case tRef:
			// A reference to an object the callee may only hold or compare;
			// one into a buffer or a local is read there.
			s.forgetFields(v.pt)
			if v.pt >= 0 && int(v.pt) < len(s.objs) && s.objs[v.pt].kind != oHeap && s.objs[v.pt].kind != oParam {
				x.use(s, v, c)
			}
		case tPointer:
			s.forgetFields(v.pt)
			if v.pt >= 0 && int(v.pt) < len(s.objs) {
				switch s.objs[v.pt].kind {
				case oStorage, oStack, oTemp:
					if !skip {
						x.use(s, v, c)
					}
					if o := s.objs[v.pt]; o.kind == oStorage && o.parent == 0 && !skip {
						// A container's buffer (v.data()): the callee reads
						// the pointers its elements are.
						x.useHeldAs(s, v.pt, c, "")
					}
				}
				if s.isCounted(v.pt) {
					// A counted object handed on: released, it is a
					// dangling use; live, the callee may retain it.
					x.use(s, v, c)
					s.objs[v.pt].shared = true
				}
				x.mayAssign(s, v.pt, c)
			}
		case tUnique, tShared:
			// A unique_ptr named as an argument is passed by reference (it
			// cannot be copied): code holdfast cannot see may release or
			// move it, taking the object.
			if v.owns >= 0 && (v.moved || v.kind == tShared || v.kind == tUnique && unread == nil && x.kind(c) == parser.KindIdentifier) {
				// Code holdfast cannot see may own it now, past the frame.
				s.objs[v.owns].kept = true
				s.objs[v.owns].frame = false
				if v.moved && v.from >= 0 && int(v.from) < len(s.locals) {
					s.locals[v.from].val.owns = -1
					s.locals[v.from].val.null = true
					s.locals[v.from].movedFrom = true
				}
			}
		case tStorage:
			if v.moved && v.owns >= 0 {
				s.objs[v.owns].kept = true
				s.objs[v.owns].frame = false
			}
			x.useHeld(s, v.owns, c)
		}
		// An object handed on (by reference, or its address) may be read
		// by the callee: what it holds is used.
		switch {
		case onlyFields && (v.kind == tPointer || v.kind == tRef) && v.pt >= 0 && int(v.pt) < len(s.objs):
			x.useRead(s, v.pt, c, read, nil)
			continue
		case onlyFields && v.kind == tPlain && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref:
			x.useRead(s, s.locals[v.from].slot, c, read, nil)
			continue
		case (v.kind == tPointer || v.kind == tRef) && v.pt >= 0 && int(v.pt) < len(s.objs) && s.objs[v.pt].class != "":
			x.useHeld(s, v.pt, c)
		case v.kind == tPlain && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref:
			x.useHeld(s, s.locals[v.from].slot, c)
			x.touched(s, v)
		}
		// Then it may call the object's methods, which may let go of
		// what it keeps.
		switch {
		case v.kind == tPlain && v.from >= 0 && int(v.from) < len(s.locals) && !s.locals[v.from].ref:
			x.mayLetGo(s, s.locals[v.from].slot)
		case v.kind == tPointer || v.kind == tRef:
			x.mayLetGo(s, v.pt)
		}
	}
}

// mayAssign: the address of a local pointer (&p) is handed to a call at
// n, which may store a new value in it: what the path knew of p is
// forgotten.
func (x *exec) mayAssign(s *state, slot int32, n parser.NodeID) {
	n = x.uncast(n)
	if x.kind(n) != parser.KindPointerExpression || !strings.HasPrefix(x.text(n), "&") {
		return
	}
	for i := range s.locals {
		l := &s.locals[i]
		if l.slot != slot || l.ref {
			continue
		}
		switch l.typ {
		case tPointer:
			// It points to what the call stored there (see reassigned).
			l.val = unknown
			l.val.kind = tPointer
			s.forget(l.name)
			x.pointee(s, l)
		case tView, tIter:
			l.val = unknown
			s.forget(l.name)
		}
		return
	}
}

// keep records that object obj holds what a call's arguments (list, their
// values vs) name, as the class fact stores ("(<m)": "k:M" or "k.buf:M")
// says: a pointer argument's pointee, the object a reference argument
// names (a local, or a temporary the argument makes), or the buffer of a
// container argument. A new store into member M replaces what M held.
func (x *exec) keep(s *state, obj int32, stores string, list parser.NodeID, vs []value) {
	var args []parser.NodeID
	for c := range x.f.NamedChildren(list) {
		if x.kind(c) == parser.KindParameterDeclaration {
			// T obj(a) read as a function declaration (see objectArgs).
			c = x.f.Field(c, parser.FieldType)
		}
		args = append(args, c)
	}
	class := s.objs[obj].class
	for _, st := range strings.Split(stores, ",") {
		arg, member, ok := strings.Cut(st, ":")
		if !ok || x.unread(class, member) {
			continue
		}
		idx, own := strings.CutSuffix(arg, ".own")
		idx, cp := strings.CutSuffix(idx, ".cp")
		idx, buf := strings.CutSuffix(idx, ".buf")
		idx, named := strings.CutSuffix(idx, "&")
		idx, ranged := strings.CutSuffix(idx, "*")
		k, err := strconv.Atoi(idx)
		if err != nil || k >= len(vs) || k >= len(args) {
			continue
		}
		a := vs[k]
		target := int32(-1)
		switch {
		case cp:
			// A copy of the argument's object: the member keeps what its
			// pointer fields point to.
			for _, t := range x.fieldPointees(s, a) {
				s.objs[obj].hold(t, member)
			}
			continue
		case (own || buf && a.moved) && a.kind == tStorage && a.owns >= 0 && int(a.owns) < len(s.objs):
			// A copy of the container, or its buffer moved into the
			// owning member (the object owns it now, and the local's end
			// no longer ends it): the elements point where the
			// argument's do.
			if a.moved {
				s.objs[a.owns].kept = true
				s.objs[a.owns].frame = false
			}
			for _, h := range s.objs[a.owns].holds {
				s.objs[obj].hold(h, member)
			}
			continue
		case own || buf || ranged && a.kind == tStorage:
			if a.kind == tStorage {
				target = a.owns
			}
		case named && x.kind(args[k]) == parser.KindInitializerList && a.pt >= 0 && slices.Contains(s.temps, a.pt) && x.bracedAggregate(s, obj, list):
			// {..} bound to a reference member by an aggregate's braced
			// list: the temporary it makes lives as long as the object
			// (see below).
			x.untemp(s, a.pt)
			target = a.pt
		case x.kind(args[k]) == parser.KindInitializerList && !named && a.pt >= 0 && slices.Contains(s.temps, a.pt) &&
			s.objs[a.pt].owner == x.text(args[k]) && !ranged && !x.listView(class, member):
			// {..} for a member that is neither a view nor a reference (an
			// array, a nested aggregate, a scalar in braces) initialises
			// that member in place ([dcl.init.aggr]): no initializer_list
			// array is made, and nothing refers to one.
			x.untemp(s, a.pt)
		case a.pt >= 0 && (a.kind == tPointer || a.kind == tView || a.kind == tRef && named):
			// A pointer parameter keeps what its argument points to; a
			// reference parameter the object its argument names (an
			// element read out of a container, passed to a pointer
			// parameter, is a pointer value: what it points to is not
			// known).
			target = a.pt
		case ranged && x.kind(args[k]) == parser.KindInitializerList && x.hasElements(args[k]) && x.listView(s.objs[obj].class, member):
			// A view member made from a braced list views the list's
			// backing array, a temporary that ends with the full
			// expression ([dcl.init.list]: the array lives as the
			// initializer_list object does, and only a reference or an
			// initializer_list bound to it would extend that).
			target = s.newObj(object{kind: oTemp, owner: x.text(args[k])})
			s.temps = append(s.temps, target)
		case !named:
			// A pointer parameter keeps what its argument points to; an
			// argument that names no memory (a literal, an integer) gives
			// nothing to keep.
		case a.from >= 0 && int(a.from) < len(s.locals) && !s.locals[a.from].ref && (x.kind(args[k]) == parser.KindIdentifier || x.kind(args[k]) == parser.KindTypeIdentifier):
			// A local named (a type name where T obj(a) was read as a
			// function declaration): the object keeps that local.
			target = s.locals[a.from].slot
		case (a.prvalue || x.temporary(args[k])) && named && x.bracedAggregate(s, obj, list):
			// A temporary bound to a reference member by an aggregate's
			// braced list lives as long as the object ([class.temporary]:
			// not so for a constructor's parameter, nor for a
			// parenthesised aggregate initialisation).
			s.hasParts = true
			target = s.newObj(object{kind: oTemp, owner: x.text(args[k]), frame: s.objs[obj].frame, parent: obj + 1, pos: posOwned})
		case a.prvalue || x.temporary(args[k]):
			// A temporary the argument makes: it dies at the end of the
			// full expression, and the object keeps a reference to it.
			target = s.newObj(object{kind: oTemp, owner: x.text(args[k])})
			s.temps = append(s.temps, target)
		}
		o := &s.objs[obj]
		holds, as := slices.Clip(o.holds), slices.Clip(o.heldAs)
		if !strings.HasSuffix(member, "[]") {
			// Whatever the new value is (nullptr, memory not followed),
			// the member no longer holds the old one.
			for i := len(as) - 1; i >= 0; i-- {
				if as[i] == member {
					holds, as = slices.Delete(slices.Clone(holds), i, i+1), slices.Delete(slices.Clone(as), i, i+1)
				}
			}
		}
		if target < 0 || int(target) >= len(s.objs) {
			o.holds, o.heldAs = holds, as
			continue
		}
		for len(as) < len(holds) {
			as = append(as, "")
		}
		holds = append(holds, target)
		as = append(as, member)
		o.holds, o.heldAs = holds, as
	}
}

// unread says class's member is one no code reads once an object of the
// class is made (unreadMember): what a constructor stores there is not
// kept.
func (x *exec) unread(class, member string) bool {
	return class != "" && x.opt.Members != nil && unreadMember(x.opt.Members(class), class, member)
}

// readStores is a class's stores fact without the stores into members no
// code reads once an object is made.
func (x *exec) readStores(class, stores string) string {
	var out []string
	for _, st := range strings.Split(stores, ",") {
		if _, member, ok := strings.Cut(st, ":"); ok && x.unread(class, member) {
			continue
		}
		out = append(out, st)
	}
	return strings.Join(out, ",")
}

// hasElements says braced list n is not empty ({} value-initialises:
// an empty view of nothing).
func (x *exec) hasElements(n parser.NodeID) bool {
	return hasNamedChild(x.f, n)
}

// listView says member of class is of a view type a pack says views the
// backing array of a braced list it is made from (Model.IsListView).
func (x *exec) listView(class, member string) bool {
	if x.opt.Members == nil || x.opt.API == nil || class == "" {
		return false
	}
	return x.opt.API.IsListView(typeName(x.resolve(x.opt.Members(class)[member])))
}

// useHeldBy: method m of obj's class is called at n; it may read the
// pointers the object holds in the members its code reads (any, when
// its code or that of a method it calls is not known).
func (x *exec) useHeldBy(s *state, obj int32, n parser.NodeID, facts map[string]string, m string) {
	read, all := mayRead(facts, m)
	if all {
		x.useHeld(s, obj, n)
		return
	}
	x.useRead(s, obj, n, read, nil)
}

// letGo: method m of obj's class was called; the members its code (or
// that of the methods it calls, when known) sets anew, clears or hands
// to a call no longer hold what they held. A method whose code is not
// known lets go of nothing; one handed the object itself, of everything.
func (x *exec) letGo(s *state, obj int32, facts map[string]string, m string) {
	o := &s.objs[obj]
	if len(o.holds) == 0 {
		return
	}
	set, _ := viaMethods(facts, "set", m)
	if len(set) == 0 {
		return
	}
	o.letGoOf(func(member string) bool { return set["*"] || set[member] })
}

// letGoOf drops what the object holds in the members gone names.
func (o *object) letGoOf(gone func(member string) bool) {
	var holds []int32
	var as []string
	for i, t := range o.holds {
		h := ""
		if i < len(o.heldAs) {
			h = o.heldAs[i]
		}
		if gone(strings.TrimSuffix(h, "[]")) {
			continue
		}
		holds, as = append(holds, t), append(as, h)
	}
	o.holds, o.heldAs = holds, as
}

// useRead uses at n the pointers obj holds in the members read names.
// A hold skip says is left unread (nil: none).
func (x *exec) useRead(s *state, obj int32, n parser.NodeID, read map[string]bool, skip func(t int32, m string) bool) {
	o := s.objs[obj]
	for i, p := range o.holds {
		if i >= len(o.heldAs) || !read[strings.TrimSuffix(o.heldAs[i], "[]")] {
			continue
		}
		if p >= 0 && int(p) < len(s.objs) && s.objs[p].state != live {
			if skip != nil && skip(p, strings.TrimSuffix(o.heldAs[i], "[]")) {
				continue
			}
			x.held = true
			if o.class != "" {
				x.keeper = o.owner
			}
			x.use(s, borrowOf(p, tPointer), n)
			x.held, x.keeper = false, ""
		}
	}
}

// useHeld: the container whose storage is obj is handed on at n, so the
// callee may read the pointers in it; any whose memory ended is used.
func (x *exec) useHeld(s *state, obj int32, n parser.NodeID) {
	if obj < 0 || int(obj) >= len(s.objs) {
		return
	}
	keeper := ""
	if s.objs[obj].class != "" {
		keeper = s.objs[obj].owner
	}
	x.useHeldAs(s, obj, n, keeper)
}

// useHeldAs is useHeld with the keeper named: the object the message
// says keeps the pointers ("" for a container handed on).
func (x *exec) useHeldAs(s *state, obj int32, n parser.NodeID, keeper string) {
	for _, p := range s.objs[obj].holds {
		if p >= 0 && int(p) < len(s.objs) && s.objs[p].state != live {
			x.held = true
			x.keeper = keeper
			x.use(s, borrowOf(p, tPointer), n)
			x.held, x.keeper = false, ""
		}
	}
}

// escape records that v went somewhere that outlives the frame (a member,
// a global, the caller, a closure): what it owns by a move or a shared
// copy is no longer the frame's to end.
func (x *exec) escape(s *state, v value) {
	if s.isCounted(v.pt) {
		s.objs[v.pt].shared = true
	}
	if v.owns < 0 || int(v.owns) >= len(s.objs) {
		return
	}
	if !(v.moved || v.kind == tShared || v.from < 0) {
		return
	}
	s.objs[v.owns].kept = true
	s.objs[v.owns].frame = false
	if v.moved && v.from >= 0 && int(v.from) < len(s.locals) {
		src := &s.locals[v.from]
		if src.typ == tStorage {
			src.val.owns = s.storage(src, true)
		} else {
			src.val.owns, src.val.null = -1, true
			src.movedFrom = true
		}
	}
}

// capture records what a lambda takes by value or by move: the closure
// may outlive the frame and keep it.
func (x *exec) capture(s *state, n parser.NodeID) {
	x.shareCounted(s, n)
	caps := x.f.Field(n, parser.FieldCaptures)
	for c := range x.f.NamedChildren(caps) {
		if strings.HasPrefix(strings.TrimSpace(x.text(c)), "&") || x.kind(c) == parser.KindIdentifier && x.afterAmp(c) {
			continue
		}
		var v value
		switch x.kind(c) {
		case parser.KindIdentifier:
			v = x.read(s, c)
			if v.kind == tShared {
				x.escape(s, v)
			}
			continue
		case parser.KindAssignmentExpression:
			v = x.eval(s, x.f.Field(c, parser.FieldRight))
		default:
			// An init-capture (name = expr) the grammar does not name.
			last := parser.None
			for d := range x.f.NamedChildren(c) {
				last = d
			}
			v = x.eval(s, last)
		}
		x.escape(s, v)
	}
}

// pointee gives pointer local l, just given a value whose memory is not
// known (a call's result, a pointer read out of an object), an object of
// its own: the memory it points to, from elsewhere. Copies of the pointer
// point to it too, so freeing it through one (delete p, free(p)) leaves
// them all dangling. A null pointer, a number and an iterator point to
// nothing.
func (x *exec) pointee(s *state, l *local) {
	if l.typ != tPointer || l.val.pt >= 0 || l.val.owns >= 0 || l.val.null || l.val.known {
		return
	}
	l.val.pt = s.newObj(object{kind: oParam, owner: "*" + l.name})
}

// storedPointer is the pointer a freeing operand e (of value v) names
// when e is *pp: the pointer stored in the memory pp points to, which
// points to an object of its own (made on first use), so that a function
// freeing *pp frees its caller's pointee (see Call.FreesDeref). Any other
// operand is v itself; a field (free(y->a)) is the pointer the field
// holds (see fieldPointer).
func (x *exec) storedPointer(s *state, e parser.NodeID, v value) value {
	e = uncast(x.f, e)
	if w, ok := x.fieldPointer(s, e, v, true); ok {
		return w
	}
	if v.kind != tRef || v.pt < 0 || int(v.pt) >= len(s.objs) || x.kind(e) != parser.KindPointerExpression || strings.HasPrefix(x.text(e), "&") {
		return v
	}
	if w := x.pointerIn(s, v.pt); w.pt >= 0 {
		return w
	}
	return v
}

// storedThrough: *pp = v stores v in the memory pp points to, the pointer
// later reads of *pp give (see pointerIn): what v points to when followed,
// else a new object made at the next read.
func (x *exec) storedThrough(s *state, left parser.NodeID, lv, rv value) {
	left = x.unparen(left)
	if x.kind(left) != parser.KindPointerExpression || strings.HasPrefix(x.text(left), "&") {
		return
	}
	if lv.kind != tRef || lv.pt < 0 || int(lv.pt) >= len(s.objs) || s.objs[lv.pt].inner == 0 {
		return
	}
	s.objs[lv.pt].inner = 0
	if rv.kind == tPointer && rv.pt >= 0 && int(rv.pt) < len(s.objs) {
		s.objs[lv.pt].inner = rv.pt + 1
	}
}

// pointerIn is the pointer stored in object obj (the memory a pointer to a
// pointer points to): the memory it points to, an object of its own made
// on first use. A container's buffer or an element of one (*it,
// *v.begin()), or an array a pointer steps through (p++ in a loop over
// argv), holds no one known pointer — each iteration of a loop reaches
// another — and gives unknown.
func (x *exec) pointerIn(s *state, obj int32) value {
	if obj < 0 || int(obj) >= len(s.objs) {
		return unknown
	}
	o := &s.objs[obj]
	if o.kind == oStorage || o.kind == oTemp || o.parent != 0 || o.stepped {
		return unknown
	}
	if o.inner == 0 {
		owner := "*" + o.owner
		in := s.newObj(object{kind: oParam, owner: owner})
		s.objs[obj].inner = in + 1
	}
	return borrowOf(s.objs[obj].inner-1, tPointer)
}

// misreadArrayDelete says delete expression n was parsed from delete[] *p
// as delete, an erroneous lambda introducer [] and p (tree-sitter-cpp
// reads "[] *p" as the start of a lambda): its text puts one * between
// the brackets and operand.
func (x *exec) misreadArrayDelete(n, operand parser.NodeID) bool {
	if operand == parser.None || x.kind(operand) != parser.KindIdentifier {
		return false
	}
	hasErr := false
	for c := range x.f.NamedChildren(n) {
		if x.kind(c) == parser.KindError {
			hasErr = true
		}
	}
	if !hasErr {
		return false
	}
	pre := string(x.f.Src[x.f.Nodes[n].Start:x.f.Nodes[operand].Start])
	i := strings.LastIndexByte(pre, ']')
	if i < 0 {
		return false
	}
	return strings.TrimSpace(pre[i+1:]) == "*"
}

// Fields. The pointer a field of an object holds (p->buf, s.data) is a
// cell of the object (a keyed part, posField), made when the path frees
// it or stores a pointer holdfast follows in it; the cell's inner is the
// memory the pointer points to. So free(p->buf) followed by p->buf[0],
// *p->buf or p->buf->n on the same object is a use of freed memory, and a
// second free(p->buf) a double free. Storing anything in the field
// (p->buf = NULL, p->buf = malloc(n)) points the cell elsewhere; handing
// the object to a call, or calling a method on it, may store anything,
// so its cells are forgotten.

// fieldPointer is the pointer field expression e (of value v: a reference
// to the field's object) holds: its cell's pointee, made on first use
// when make is set.
func (x *exec) fieldPointer(s *state, e parser.NodeID, v value, make bool) (value, bool) {
	cell, ok := x.fieldCell(s, e, v, make)
	if !make && (!ok || s.objs[cell].inner == 0) {
		return x.heldField(s, e, v)
	}
	if !ok {
		return unknown, false
	}
	if s.objs[cell].inner == 0 {
		in := s.newObj(object{kind: oParam, owner: x.text(e)})
		s.objs[cell].inner = in + 1
	}
	return borrowOf(s.objs[cell].inner-1, tPointer), true
}

// heldField is the pointer pointer member e names holds when the object
// v refers to was given it whole (an aggregate's braced list, a
// constructor that keeps its argument, a copy of such an object): the
// one memory the object holds as that member.
func (x *exec) heldField(s *state, e parser.NodeID, v value) (value, bool) {
	if x.kind(e) != parser.KindFieldExpression || v.kind != tRef || v.pt < 0 || int(v.pt) >= len(s.objs) {
		return unknown, false
	}
	o := s.objs[v.pt]
	field := x.text(x.f.Field(e, parser.FieldField))
	if o.state != live || !slices.Contains(o.heldAs, field) {
		return unknown, false
	}
	if class := s.objClass(v.pt); class == "" || x.opt.Members == nil || !strings.HasSuffix(strings.TrimSpace(x.opt.Members(class)[field]), "*") {
		return unknown, false
	}
	held := int32(-1)
	for i, h := range o.holds {
		if i < len(o.heldAs) && o.heldAs[i] == field {
			if held >= 0 || h < 0 || int(h) >= len(s.objs) {
				return unknown, false
			}
			held = h
		}
	}
	if held < 0 {
		return unknown, false
	}
	return borrowOf(held, tPointer), true
}

// insideField says field expression e (of value v) names a member
// whose elements are inside the object, as its class declares it: an
// array (T a[n], std::array) or a container, indexed through the object
// rather than through a pointer it holds.
func (x *exec) insideField(s *state, e parser.NodeID, v value) bool {
	class := s.objClass(v.pt)
	if v.kind != tRef || class == "" || x.opt.Members == nil || x.kind(e) != parser.KindFieldExpression {
		return false
	}
	typ := strings.TrimSpace(x.opt.Members(class)[x.text(x.f.Field(e, parser.FieldField))])
	if typ == "" || strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") {
		return false
	}
	if strings.HasSuffix(typ, "]") || typeName(typ) == "array" {
		return true
	}
	fam, _ := containerOf(typ)
	return fam != famNone
}

// throughField is the value a field expression e (of value v) yields
// when the path follows the pointer the field holds; v otherwise.
func (x *exec) throughField(s *state, e parser.NodeID, v value) value {
	if w, ok := x.fieldPointer(s, e, v, false); ok {
		return w
	}
	return v
}

// fieldCell finds (or, with make, makes) the cell of field expression e
// whose object v refers to. Only an object of its own, named directly, is
// followed: not a container's buffer, an element, or a temporary.
func (x *exec) fieldCell(s *state, e parser.NodeID, v value, make bool) (int32, bool) {
	if x.kind(e) != parser.KindFieldExpression || v.kind != tRef || v.pt < 0 || int(v.pt) >= len(s.objs) {
		return -1, false
	}
	switch x.kind(x.f.Field(e, parser.FieldArgument)) {
	case parser.KindIdentifier, parser.KindThis:
		// p->buf, s.buf: a field of the object a name refers to. One
		// reached through an element (a[i].buf) or another field
		// (a->b->buf) is not told apart from its neighbours.
	default:
		return -1, false
	}
	o := s.objs[v.pt]
	if o.kind == oStorage || o.kind == oTemp || o.parent != 0 || o.state != live || o.stepped {
		return -1, false
	}
	field := x.text(x.f.Field(e, parser.FieldField))
	if c := fieldCellOf(s, v.pt, field); c >= 0 {
		return c, true
	}
	if !make {
		return -1, false
	}
	s.hasParts = true
	c := s.newObj(object{kind: oStack, owner: x.text(e), parent: v.pt + 1, pos: posField, key: field, kept: o.kept})
	return c, true
}

// argFieldPointer is the pointer field of object obj (an argument named
// arg) holds, as fieldPointer makes it: the cell's pointee.
func (x *exec) argFieldPointer(s *state, obj int32, field, arg string) (value, bool) {
	cell := argField(s, obj, field, arg)
	if cell < 0 {
		return unknown, false
	}
	if s.objs[cell].inner == 0 {
		in := s.newObj(object{kind: oParam, owner: arg + "->" + field})
		s.objs[cell].inner = in + 1
	}
	return borrowOf(s.objs[cell].inner-1, tPointer), true
}

// referenceField says field is a data member class declares as a
// reference (see referenceMember).
func (x *exec) referenceField(class, field string) bool {
	return class != "" && x.opt.Members != nil && referenceMember(x.opt.Members(class), field)
}

// viewField says field of class is declared a view (span, string_view).
func (x *exec) viewField(class, field string) bool {
	if class == "" || x.opt.Members == nil {
		return false
	}
	typ := x.opt.Members(class)[field]
	return typ != "" && !strings.HasSuffix(typ, "&") && !strings.HasSuffix(typ, "*") && classify(x.resolve(typ)) == tView
}

// elementOf says expression e names an element of an array through a
// subscript or pointer arithmetic (p[i], *(p + i), (p + i); uncast
// takes the parentheses off).
func (x *exec) elementOf(e parser.NodeID) bool {
	for {
		e = uncast(x.f, e)
		switch x.kind(e) {
		case parser.KindSubscriptExpression, parser.KindBinaryExpression:
			return true
		case parser.KindPointerExpression:
			if strings.HasPrefix(x.text(e), "&") {
				return false
			}
			e = x.f.Field(e, parser.FieldArgument)
		default:
			return false
		}
	}
}

// memberAddress says argument e is the address of a member (&p->m,
// &s.m): a subobject, which the core does not tell apart from the object
// holding it, so what the member's own fields held is not known.
func (x *exec) memberAddress(e parser.NodeID) bool {
	e = uncast(x.f, e)
	if x.kind(e) != parser.KindPointerExpression || !strings.HasPrefix(x.text(e), "&") {
		return false
	}
	return x.kind(uncast(x.f, x.f.Field(e, parser.FieldArgument))) == parser.KindFieldExpression
}

// freedField reads a FreesFields entry ("k.field") against the call's
// argument values: the argument, a pointer to an object, and the field.
func freedField(ff string, vs []value, s *state) (int, string, bool) {
	k, field, ok := strings.Cut(ff, ".")
	i, err := strconv.Atoi(k)
	if !ok || err != nil || i < 0 || i >= len(vs) || vs[i].kind != tPointer || vs[i].pt < 0 || int(vs[i].pt) >= len(s.objs) {
		return 0, "", false
	}
	return i, field, true
}

// fieldCellOf is the cell of field field of object obj, or -1 when the
// path has made none.
func fieldCellOf(s *state, obj int32, field string) int32 {
	if !s.hasParts {
		return -1
	}
	for i := range s.objs {
		if c := s.objs[i]; c.parent == obj+1 && c.pos == posField && c.key == field {
			return int32(i)
		}
	}
	return -1
}

// argField is the cell of field field of object obj, which a call's
// argument arg points to (made when there is none); -1 when obj is not
// an object whose fields are told apart.
func argField(s *state, obj int32, field, arg string) int32 {
	o := s.objs[obj]
	if o.kind == oStorage || o.kind == oTemp || o.parent != 0 || o.state != live || o.stepped {
		return -1
	}
	if c := fieldCellOf(s, obj, field); c >= 0 {
		return c
	}
	s.hasParts = true
	return s.newObj(object{kind: oStack, owner: arg + "->" + field, parent: obj + 1, pos: posField, key: field, kept: o.kept})
}

// fieldStored: v is stored in the field e names.
func (x *exec) fieldStored(s *state, e parser.NodeID, obj value, v value) {
	tracked := v.kind == tPointer && v.pt >= 0 && int(v.pt) < len(s.objs)
	if obj.kind == tRef && obj.pt >= 0 && int(obj.pt) < len(s.objs) && x.kind(e) == parser.KindFieldExpression {
		// The member no longer holds what a constructor or an earlier
		// store put there.
		field := x.text(x.f.Field(e, parser.FieldField))
		if o := &s.objs[obj.pt]; slices.Contains(o.heldAs, field) {
			o.letGoOf(func(m string) bool { return m == field })
		}
	}
	cell, ok := x.fieldCell(s, e, obj, tracked)
	if !ok {
		return
	}
	s.objs[cell].inner = 0
	if tracked {
		s.objs[cell].inner = v.pt + 1
	}
}

// forgetFields: a call may store anything in the fields of obj.
func (s *state) forgetFields(obj int32) {
	if !s.hasParts || obj < 0 {
		return
	}
	for i := range s.objs {
		if c := &s.objs[i]; c.parent == obj+1 && c.pos == posField {
			c.inner = 0
		}
	}
}

// free ends what v points to, by via at n.
func (x *exec) free(s *state, v value, n parser.NodeID, via string) {
	if v.kind == tRef {
		// The pointer stored in an object (delete y->a): not known.
		return
	}
	obj := v.pt
	if obj < 0 || int(obj) >= len(s.objs) {
		return
	}
	o := s.objs[obj]
	switch {
	case o.destroyedOnly() && via != "delete":
		// p->~T() then free(p): the destructor ended the object's life,
		// and its storage is released now, as placement new into
		// malloc'd memory must be undone ([basic.life]: the storage an
		// object occupied may be released after its lifetime ends).
		// delete would run the destructor a second time.
		s.objs[obj].via, s.objs[obj].end = via, n
	case o.state == freed:
		x.fault(Fault{Kind: DoubleFree, Use: n, End: o.end, Via: o.via, Value: x.text(n), Owner: o.owner})
	case o.state != live:
		x.use(s, v, n)
	case o.kind == oHeap || o.kind == oParam:
		if via == "delete" || strings.HasPrefix(via, "~") && x.kind(n) == parser.KindDeleteExpression {
			x.destructorRuns(s, obj, n, x.text(x.lastNamedChild(n)))
			if x.keepsStorage(o.class, 0) {
				// See deleteVia.
				via = "~" + o.class
			}
		}
		s.end(obj, freed, n, via)
		x.ownerGone(s, obj, n, o.owner)
	}
}

// assign executes an assignment. Its value is the left operand's: never
// the temporary the right side made.
// operatorCall says n, an assignment or a binary expression, is a call
// of an operator function by its name, operator=(v) or operator+(v): the
// grammar reads the keyword operator there as a name on the left and the
// argument list as a parenthesised right side, which it returns. No name
// can be operator ([lex.key]), so such an expression is always a call.
func (x *exec) operatorCall(n parser.NodeID) (args parser.NodeID, ok bool) {
	l, r := x.f.Field(n, parser.FieldLeft), x.f.Field(n, parser.FieldRight)
	if x.kind(l) != parser.KindIdentifier || x.text(l) != "operator" || x.kind(r) != parser.KindParenthesizedExpression {
		return parser.None, false
	}
	return r, true
}

// operatorReturnsRef says every operator op function the file declares
// (as a free function of two parameters or a member of one) returns a
// reference or pointer: a + b of such an operator makes no temporary.
func (x *exec) operatorReturnsRef(op string) bool {
	if x.opt.Summaries == nil {
		return false
	}
	known := false
	for nargs := 1; nargs <= 2; nargs++ {
		c := x.opt.Summaries.Call("operator"+op, nargs, x.scope())
		if !c.Known {
			continue
		}
		if c.ByValue {
			return false
		}
		known = true
	}
	return known
}

// callOperator executes a call of an operator function by name (see
// operatorCall) with arguments args. Which overload runs is not known
// (an operator is overloaded per class): its arguments are evaluated and
// what it returns is an unknown value, not one of them.
func (x *exec) callOperator(s *state, args parser.NodeID) value {
	s.calls++
	x.eval(s, args)
	return unknown
}

func (x *exec) assign(s *state, n parser.NodeID) value {
	if args, ok := x.operatorCall(n); ok {
		return x.callOperator(s, args)
	}
	v := x.assign1(s, n)
	if op := strings.TrimSpace(x.text(x.f.Field(n, parser.FieldOperator))); op != "=" {
		// x op= y is the left operand ([expr.ass]; a class's compound
		// operator returns *this by convention), never y: a reference
		// local is what it refers to, anything else not followed.
		v = unknown
		if l := x.f.Field(n, parser.FieldLeft); x.kind(l) == parser.KindIdentifier {
			if i := s.lookup(x.text(l)); i >= 0 && s.locals[i].ref {
				v = s.locals[i].val
			}
		}
	}
	v.prvalue = false
	return v
}

func (x *exec) assign1(s *state, n parser.NodeID) value {
	f := x.f
	left, right := f.Field(n, parser.FieldLeft), f.Field(n, parser.FieldRight)
	op := strings.TrimSpace(x.text(f.Field(n, parser.FieldOperator)))
	var rv value
	var elems []value // x = {a, b}: the elements, as an aggregate's
	braced := op == "=" && x.kind(right) == parser.KindInitializerList && x.kind(left) == parser.KindIdentifier
	made, stores := x.assignedMade(s, left, right, op)
	switch {
	case braced:
		elems = x.elements(s, right)
		rv = unknown
		if len(elems) == 1 {
			rv = elems[0]
		}
	case made != parser.None:
		// x = T{a, b}: the temporary's members are copied into x.
		elems = x.elements(s, made)
		rv = unknown
		rv.prvalue = true
	default:
		rv = x.eval(s, right)
	}
	x.setMember(s, left, n)
	if x.kind(left) == parser.KindFieldExpression && x.kind(f.Field(left, parser.FieldArgument)) == parser.KindIdentifier {
		// a.m = ...: what a holds changes.
		if i := s.lookup(x.text(f.Field(left, parser.FieldArgument))); i >= 0 {
			x.touched(s, value{pt: -1, owns: -1, from: int32(i)})
		}
	}
	if op == "=" {
		x.stored(s, left, rv, n)
		if x.kind(left) != parser.KindIdentifier {
			x.countedCopy(s, rv)
		}
	}
	if key := x.factKey(left); key != "" && x.kind(left) == parser.KindFieldExpression {
		// p->a->n = k: what the path knew of p->a->n is gone.
		s.forget(key)
	}
	if key := x.factKey(left); key != "" && x.kind(left) == parser.KindPointerExpression {
		// *out = nullptr: the path knows what it stored there, until
		// out or *out is assigned again or handed to a call.
		s.forget(key)
		switch {
		case rv.known:
			s.cons = append(s.cons, constraint{name: key, op: "==", k: rv.num})
		case rv.null:
			s.cons = append(s.cons, constraint{name: key, op: "=="})
		case nullness(rv) == 1:
			s.cons = append(s.cons, constraint{name: key, op: "!="})
		}
	}
	name, named := x.text(left), x.kind(left) == parser.KindIdentifier
	if m, ok := x.thisMember(s, left); ok {
		// this->m = v assigns the member m, as m = v does.
		name, named = m, true
	}
	if !named {
		saved := x.writing
		x.writing = left
		lv := x.eval(s, left)
		x.writing = saved
		if op == "=" {
			x.fieldStored(s, left, lv, rv)
			x.storedThrough(s, left, lv, rv)
			x.mapAssigned(s, lv, rv)
			if rv.kind == tShared || rv.moved {
				// m[k] = sp, o.f = sp: a copy of a shared pointer (or
				// what was moved) is owned where the path does not
				// follow, and keeps the object alive.
				x.escape(s, rv)
			}
		}
		x.escape(s, rv)
		if rv.kind != tPointer && rv.kind != tView && rv.kind != tIter {
			// An object assigned to ([expr.ass]: the result is the left
			// operand, an lvalue; a class's operator= returns *this by
			// convention): *this = m refers to *this, not to m, and
			// m[k] = std::move(local) to the element, whether or not
			// holdfast follows it.
			if lv.kind == tRef {
				return lv
			}
			return unknown
		}
		return rv
	}
	s.forget(name)
	i := s.lookup(name)
	if i < 0 {
		x.readName(s, name, left)
		x.escape(s, rv)
		return rv
	}
	l := &s.locals[i]
	if l.ref {
		x.use(s, l.val, left)
		return rv
	}
	if l.auto && l.typ == tPlain && op == "=" && (rv.kind == tPointer || rv.kind == tView || rv.kind == tIter) {
		// An auto local of an unread type holds what it is given.
		l.typ = rv.kind
	}
	switch l.typ {
	case tPointer, tIter, tView:
		if op != "=" {
			s.step(l.val)
			return rv
		}
		k := l.typ
		l.val = rv
		l.val.from, l.val.moved = -1, false
		switch {
		case k == tView && rv.kind == tStorage && rv.owns >= 0:
			l.val = borrowOf(rv.owns, tView)
		case k != tView && (rv.kind == tRef || rv.kind == tStorage || rv.kind == tUnique || rv.kind == tShared):
			l.val = unknown
		}
		l.val.kind = k
		x.pointee(s, l)
	case tStorage:
		old := l.val.owns
		if rv.owns >= 0 && rv.kind == tStorage && (rv.from < 0 || rv.moved) && op == "=" {
			x.take(s, l, rv)
		} else {
			l.val.owns = s.storage(l, true)
		}
		if old >= 0 {
			// The buffer changes; whose it is does not.
			s.objs[l.val.owns].frame = s.objs[old].frame
			s.objs[l.val.owns].kept = s.objs[old].kept
		}
		s.end(old, replaced, n, "operator"+op)
	case tUnique, tShared:
		l.movedFrom = false
		old := l.val.owns
		if old >= 0 {
			if l.typ == tShared {
				s.objs[old].refs--
				if s.objs[old].refs <= 0 && !s.objs[old].kept {
					s.end(old, freed, n, "operator=")
				}
			} else {
				s.end(old, freed, n, "operator=")
			}
		}
		switch {
		case rv.null:
			l.val.owns, l.val.null = -1, true
		case rv.owns >= 0 && (rv.from < 0 || rv.moved || l.typ == tShared):
			l.val.null = false
			if rv.moved {
				x.take(s, l, rv)
			} else {
				l.val.owns = rv.owns
				x.untemp(s, rv.owns)
			}
			if l.typ == tShared {
				s.objs[rv.owns].refs++
			}
		default:
			l.val.owns = s.newObj(object{kind: oHeap, owner: l.name, frame: l.frameOwner()})
			if l.typ == tShared {
				// As in bind: a shared object made by code holdfast cannot
				// see may have owners there.
				s.objs[l.val.owns].refs = 1
				s.objs[l.val.owns].kept = true
				s.objs[l.val.owns].frame = false
			}
		}
		l.val.kind = l.typ
	default:
		was := l.val
		l.val = value{pt: -1, owns: -1, from: -1}
		if a := strings.TrimSuffix(op, "="); op != "=" && was.known && rv.known {
			// n -= k of a number the path knows: the number it is now
			// (not below zero, where an unsigned n would wrap).
			if num, ok := arith(was.num, a, rv.num); ok && (num >= 0 || was.num < 0) {
				l.val.num, l.val.known = num, true
			}
		}
		if op == "=" {
			l.val = value{pt: -1, owns: -1, flag: rv.flag, null: rv.null, from: -1, known: rv.known, num: rv.num}
			keepClosure(l, rv)
			keepStatus(l, rv)
			x.learnAssigned(s, l.name, right, rv)
			if l.typ == tPlain {
				x.copied(s, l.slot, rv, right, n)
			}
			switch {
			case braced && l.typ == tPlain:
				x.reinit(s, l, right, elems)
			case made != parser.None:
				// Every member gets what the temporary was given.
				s.objs[l.slot].letGoAll()
				x.keep(s, l.slot, stores, made, elems)
			case l.typ == tPlain && x.madeTemp(s, rv) >= 0:
				s.objs[l.slot].letGoAll()
				x.takeHeld(s, l.slot, rv, false)
			case l.typ == tPlain && rv.from >= 0 && int(rv.from) < len(s.locals) && rv.from != int32(i):
				if x.memberwise(s.objs[l.slot].class) {
					s.objs[l.slot].letGoAll()
				}
				x.copyHeld(s, l.slot, rv)
			}
		}
	}
	return rv
}

// assignedMade reads x = T{a, b} or x = T(a, b), a local x of class T
// whose constructor or aggregate initialisation keeps some of the
// arguments: the argument list and what is kept (None when it is not).
func (x *exec) assignedMade(s *state, left, right parser.NodeID, op string) (parser.NodeID, string) {
	if op != "=" || x.kind(left) != parser.KindIdentifier {
		return parser.None, ""
	}
	i := s.lookup(x.text(left))
	if i < 0 || s.locals[i].ref || s.locals[i].typ != tPlain {
		return parser.None, ""
	}
	return x.constructed(uncast(x.f, right), s.objs[s.locals[i].slot].class)
}

// madeObject is the temporary expression e makes of class: T{a, b} or
// T(a, b) naming the class, or a braced list {a, b} initialising it,
// when its constructor or aggregate initialisation keeps some of the
// elements; it holds what they are kept as. The elements are evaluated
// here, in e's stead.
func (x *exec) madeObject(s *state, e parser.NodeID, class string) (value, bool) {
	if class == "" || x.opt.Members == nil {
		return unknown, false
	}
	e = uncast(x.f, e)
	list, stores := x.constructed(e, class)
	if list == parser.None && x.kind(e) == parser.KindInitializerList {
		n := 0
		for range x.f.NamedChildren(e) {
			n++
		}
		list, stores = e, x.expandStores(x.opt.Members(class)[storesKey(class, n)], 0)
	}
	if list == parser.None || stores == "" {
		return unknown, false
	}
	elems := x.elements(s, list)
	t := s.newObj(object{kind: oTemp, owner: x.text(e), class: class})
	s.temps = append(s.temps, t)
	x.keep(s, t, stores, list, elems)
	return madeValue(t), true
}

// madeHolds is the temporary a call returns by value that holds what
// the callee's result keeps of the arguments vs (Call.Holds), of class
// (the result type's name).
func (x *exec) madeHolds(s *state, n, list parser.NodeID, vs []value, c Call) (value, bool) {
	class := typeName(c.Type)
	if class == "" {
		return unknown, false
	}
	t := int32(-1)
	for _, h := range c.Holds {
		arg, m, _ := strings.Cut(h, ":")
		arg, ptr := strings.CutSuffix(arg, "*")
		k, err := strconv.Atoi(arg)
		if err != nil || k < 0 || k >= len(vs) {
			continue
		}
		obj := x.referent(s, x.argAt(list, k), vs[k], ptr)
		if obj < 0 || int(obj) >= len(s.objs) {
			continue
		}
		if t < 0 {
			t = s.newObj(object{kind: oTemp, owner: x.text(n), class: class})
			s.temps = append(s.temps, t)
		}
		s.objs[t].hold(obj, m)
	}
	if t < 0 {
		return unknown, false
	}
	return madeValue(t), true
}

// memberwise says objects of class are copied member by member: the tree
// defines the class and it declares no copy or move constructor or
// assignment of its own ([class.copy.ctor], [class.copy.assign]: the
// implicit ones copy each member).
func (x *exec) memberwise(class string) bool {
	if class == "" || x.opt.Members == nil {
		return false
	}
	facts := x.opt.Members(class)
	return len(facts) > 0 && facts["(cp)"] == ""
}

// copyHeld: the object at slot dst was made or assigned from v, a local
// object of the same class, copied member by member, so it holds what
// the source's members hold, as the same members.
func (x *exec) copyHeld(s *state, dst int32, v value) {
	if v.from < 0 || int(v.from) >= len(s.locals) || dst < 0 || int(dst) >= len(s.objs) {
		return
	}
	src := s.locals[v.from]
	if src.ref || src.typ != tPlain || src.slot == dst || src.slot < 0 || int(src.slot) >= len(s.objs) {
		return
	}
	from := &s.objs[src.slot]
	if from.class == "" || from.class != s.objs[dst].class || !x.memberwise(from.class) {
		return
	}
	s.objs[dst].holdAll(from)
}

// madeTemp is the temporary object of a class that value v is, made by
// a call or an expression that says what it holds (see madeObject,
// madeHolds), or -1.
func (x *exec) madeTemp(s *state, v value) int32 {
	if !v.prvalue || v.kind != tRef || v.owns < 0 || int(v.owns) >= len(s.objs) || v.owns != v.pt {
		return -1
	}
	if o := s.objs[v.owns]; o.kind != oTemp || o.class == "" || len(o.holds) == 0 {
		return -1
	}
	return v.owns
}

// takeHeld: the object at slot dst is initialised or assigned from the
// temporary v (see madeTemp), an object of its own class, so it holds what
// the temporary holds ([class.copy.elision]: the temporary may be dst
// itself; a copy or move of it is made from it). A local declared auto
// is of the temporary's class; any other must be declared of it (an
// assignment from another class runs a converting operator= that
// decides).
func (x *exec) takeHeld(s *state, dst int32, v value, auto bool) {
	t := x.madeTemp(s, v)
	if t < 0 || dst < 0 || int(dst) >= len(s.objs) {
		return
	}
	from := &s.objs[t]
	if c := s.objs[dst].class; c != from.class && !(auto && c == "") {
		return
	}
	s.objs[dst].class = from.class
	s.objs[dst].holdAll(from)
}

// reinit: x = {elements} gives every member of l's object a new value
// (the braced list makes an object of its class, as its declaration's
// list does): what its members held is let go, and what the new elements
// are kept is kept.
func (x *exec) reinit(s *state, l *local, list parser.NodeID, elems []value) {
	s.objs[l.slot].letGoAll()
	if l.tname == "" || x.opt.Members == nil {
		return
	}
	if stores := x.expandStores(x.opt.Members(l.tname)[storesKey(l.tname, len(elems))], 0); stores != "" {
		x.keep(s, l.slot, stores, list, elems)
	}
}

// call executes a call.
// uncast is expression e without the parentheses and casts around it:
// (void**)&p, reinterpret_cast<void**>(&p) and (&p) hand on &p.
func (x *exec) uncast(e parser.NodeID) parser.NodeID {
	f := x.f
	for {
		switch x.kind(e) {
		case parser.KindParenthesizedExpression:
			e = x.lastNamedChild(e)
			continue
		case parser.KindCastExpression:
			e = f.Field(e, parser.FieldValue)
			continue
		case parser.KindCallExpression:
			fnCall := e
			fn := f.Field(e, parser.FieldFunction)
			if x.kind(fn) == parser.KindTemplateFunction {
				switch x.text(f.Field(fn, parser.FieldName)) {
				case "static_cast", "reinterpret_cast", "const_cast":
					for a := range f.NamedChildren(f.Field(e, parser.FieldArguments)) {
						e = a
						break
					}
					if e != fnCall {
						continue
					}
				}
			}
		}
		return e
	}
}

// deleteVia is what delete p does: "delete", or "~T" when T, p's
// declared class, has an operator delete of its own that does nothing
// ([expr.delete]: delete calls the class's deallocation function): the
// object is destroyed, and its storage stays the buffer's it was placed
// in.
func (x *exec) deleteVia(s *state, operand parser.NodeID) string {
	operand = x.unparen(operand)
	if x.kind(operand) != parser.KindIdentifier {
		return "delete"
	}
	if i := s.lookup(x.text(operand)); i >= 0 && x.keepsStorage(s.locals[i].tname, 0) {
		return "~" + s.locals[i].tname
	}
	return "delete"
}

// declaringBase is class, or the base of it (through depth levels of
// base clauses) that declares a method named m, or "".
func (x *exec) declaringBase(class, m string, depth int) string {
	if class == "" || x.opt.Members == nil || depth > 4 {
		return ""
	}
	facts := x.opt.Members(class)
	if facts["("+m+")"] != "" {
		return class
	}
	for _, b := range list(facts, "(bases)") {
		if c := x.declaringBase(b, m, depth+1); c != "" {
			return c
		}
	}
	return ""
}

// keepsStorage says class's own operator delete, or a base's, does
// nothing (see "(delete)").
func (x *exec) keepsStorage(class string, depth int) bool {
	if class == "" || x.opt.Members == nil || depth > 4 {
		return false
	}
	facts := x.opt.Members(class)
	switch facts["(delete)"] {
	case "none":
		return true
	case "frees":
		return false
	}
	for _, b := range list(facts, "(bases)") {
		if x.keepsStorage(b, depth+1) {
			return true
		}
	}
	return false
}

// asBytes says e is a cast of a pointer to a pointer to bytes (char,
// unsigned char, signed char, std::byte, uint8_t, int8_t), outermost
// parentheses aside.
func (x *exec) asBytes(e parser.NodeID) bool {
	f := x.f
	for x.kind(e) == parser.KindParenthesizedExpression {
		e = x.lastNamedChild(e)
	}
	var typ string
	switch x.kind(e) {
	case parser.KindCastExpression:
		typ = x.text(f.Field(e, parser.FieldType))
	case parser.KindCallExpression:
		fn := f.Field(e, parser.FieldFunction)
		if x.kind(fn) != parser.KindTemplateFunction {
			return false
		}
		switch x.text(f.Field(fn, parser.FieldName)) {
		case "static_cast", "reinterpret_cast":
			typ = strings.Trim(x.text(f.Field(fn, parser.FieldArguments)), "<>")
		default:
			return false
		}
	default:
		return false
	}
	return bytePointer(typ)
}

// misreadBytesDelete says delete expression n is delete[] (T*)p with T a
// byte type, which the grammar reads as delete, a lambda's [] and (T*)
// as its parameters (an error), then p.
func (x *exec) misreadBytesDelete(n parser.NodeID) bool {
	f := x.f
	for c := range f.NamedChildren(n) {
		if x.kind(c) != parser.KindError {
			continue
		}
		for p := range f.NamedChildren(c) {
			if x.kind(p) == parser.KindParameterList {
				return bytePointer(strings.Trim(x.text(p), "()"))
			}
		}
	}
	return false
}

// bytePointer says type text typ is a pointer to bytes.
func bytePointer(typ string) bool {
	typ = strings.Join(strings.Fields(typ), " ")
	base, ok := strings.CutSuffix(typ, "*")
	if !ok || strings.Contains(base, "*") {
		return false
	}
	base = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(base), "const "))
	switch strings.TrimPrefix(base, "std::") {
	case "char", "unsigned char", "signed char", "byte", "uint8_t", "int8_t":
		return true
	}
	return false
}

// castTarget returns the type a C++ cast (static_cast<T>) names, without
// const and std::, or "" when it is a pointer or a reference.
func (x *exec) castTarget(fn parser.NodeID) string {
	t := strings.TrimSpace(strings.Trim(x.text(x.f.Field(fn, parser.FieldArguments)), "<>"))
	if strings.ContainsAny(t, "*&") {
		return ""
	}
	t = strings.TrimSpace(strings.TrimPrefix(t, "const "))
	return strings.TrimPrefix(t, "std::")
}

func (x *exec) call(s *state, n parser.NodeID) value {
	s.calls++
	f := x.f
	fn := f.Field(n, parser.FieldFunction)
	list := f.Field(n, parser.FieldArguments)
	if x.kind(fn) == parser.KindFieldExpression {
		return x.message(s, n, fn, list)
	}
	name := calleeName(x.text(fn))
	if x.kind(fn) == parser.KindIdentifier && len(s.objs) > int(thisObj) {
		if o := &s.objs[thisObj]; o.destroyedOnly() {
			// this->~T() then f(...): f may be a method that sets the
			// object up again in its storage (see use).
			o.state, o.end = live, parser.None
		}
	}
	if parser.Unevaluated(name) {
		// typeof(*p) read as a call: its operand is not evaluated.
		return unknown
	}
	if x.countedCreate(name) {
		x.handOn(s, list, x.args(s, list))
		return x.ownedObject(s, n, name)
	}
	if x.kind(fn) == parser.KindIdentifier {
		if i := s.lookup(name); i >= 0 && s.locals[i].val.clo != nil {
			return x.invoke(s, s.locals[i].val.clo, list, n)
		} else if i >= 0 && !s.locals[i].param && s.locals[i].typ == tPlain && !s.locals[i].ref && s.locals[i].slot >= 0 && int(s.locals[i].slot) < len(s.objs) && s.objs[s.locals[i].slot].class != "" {
			// g(1) of a local object: its operator(), whatever a
			// function of that name elsewhere returns (T g(n); in a
			// body declares an object when n is a value, [stmt.ambig]).
			x.handOn(s, list, x.args(s, list))
			return unknown
		}
		if i := s.lookup(name); (i < 0 || s.locals[i].member) && x.classMembers[name] != "" && !strings.HasPrefix(name, "(") && x.classMembers["("+name+")"] == "" {
			// m(args) of a data member m of the method's class: the
			// member's operator(), not a function of that name.
			x.handOn(s, list, x.args(s, list))
			return unknown
		}
		if x.classMembers["("+name+")"] != "" && x.deferredTo(s, n, "this", list, name, x.classMembers, false) {
			return unknown
		}
		if x.classMembers["("+name+")"] != "" {
			// m() in a method: a method of the same object.
			if part, ok := ownedYield(x.classMembers, name); ok {
				x.handOn(s, list, x.args(s, list))
				return borrowOf(s.keyedPart(thisObj, posHeld, part), yieldKind(x.classMembers, name))
			}
			x.endHeld(s, thisObj, x.releasesOf("(this)", x.classMembers, name), n, name)
		}
	}
	// method: an unqualified name the method's class declares a method of
	// calls it, not a namespace's function or type of that name
	// ([basic.lookup.unqual]: the class's scope is searched first).
	method := x.kind(fn) == parser.KindIdentifier && x.classMembers["("+name+")"] != ""
	inherited := ""
	if !method && x.kind(fn) == parser.KindIdentifier && x.classMembers["(bases)"] != "" && s.lookup(name) < 0 {
		// ... or a base class declares it: the base's method.
		for _, b := range strings.Split(x.classMembers["(bases)"], ",") {
			if inherited = x.declaringBase(b, name, 0); inherited != "" {
				method = true
				break
			}
		}
	}
	switch {
	case name == "std::move" || name == "move" || name == "std::forward":
		vs := x.args(s, list)
		if len(vs) == 0 {
			return unknown
		}
		v := vs[0]
		v.moved = true
		return v
	case name == "std::launder" || name == "launder":
		// std::launder(p) points to the object at p's address
		// ([ptr.launder]): the same memory.
		vs := x.args(s, list)
		if len(vs) != 1 {
			return unknown
		}
		v := vs[0]
		v.from = -1
		return v
	case frees[name] && !method:
		// free(p) in a method of a class that declares a free of its own
		// calls that method ([basic.lookup.unqual]: the class's scope is
		// searched before the namespace's).
		vs := x.args(s, list)
		if len(vs) > 0 {
			x.free(s, x.storedPointer(s, x.argAt(list, 0), vs[0]), n, name)
		}
		return unknown
	case allocs[name]:
		x.args(s, list)
		return borrowOf(s.newObj(object{kind: oHeap, owner: x.text(n)}), tPointer)
	case x.tensorFactory(name):
		x.handOn(s, list, x.args(s, list))
		return x.tensorTemp(s, n)
	case callableHolders[name]:
		// The object keeps the callable it is made from.
		v := unknown
		for _, a := range x.args(s, list) {
			if a.clo != nil {
				v.clo = a.clo
			}
		}
		return v
	case makeUnique[name], makeShared[name]:
		// The arguments go to T's constructor: what is moved into it is
		// its now, and it keeps what its constructor keeps.
		vs := x.args(s, list)
		x.handOn(s, list, vs)
		k := tUnique
		if makeShared[name] {
			k = tShared
		}
		class := templateArg(x.text(fn))
		obj := s.newObj(object{kind: oHeap, owner: x.text(n), class: class})
		x.newOwner(s, obj, class, list, vs)
		return value{pt: -1, owns: obj, kind: k, from: -1}
	case (stringReturns[name] || storageTypes[name]) && !method && !x.treeFunction(fn, name, list):
		x.handOn(s, list, x.args(s, list))
		t := s.newObj(object{kind: oTemp, owner: x.text(n)})
		s.temps = append(s.temps, t)
		return value{pt: -1, owns: t, kind: tStorage, from: -1}
	case (viewMakers[name] || viewTypes[name]) && !method && !x.treeFunction(fn, name, list):
		vs := x.args(s, list)
		if len(vs) > 0 {
			switch {
			case vs[0].kind == tStorage && vs[0].owns >= 0:
				return borrowOf(vs[0].owns, tView)
			case vs[0].pt >= 0 && vs[0].kind != tRef:
				return borrowOf(vs[0].pt, tView)
			}
		}
		return value{pt: -1, owns: -1, kind: tView, from: -1}
	case name == "static_cast" || name == "reinterpret_cast" || name == "const_cast" || name == "dynamic_cast":
		// A C++ cast yields its operand's value; a cast to an arithmetic
		// type a new number, which refers to nothing ([expr.static.cast]:
		// a prvalue of the target type).
		vs := x.args(s, list)
		if len(vs) != 1 || x.kind(fn) == parser.KindTemplateFunction && arithmetic[x.castTarget(fn)] {
			return unknown
		}
		v := vs[0]
		v.from = -1
		return v
	case boundStd[name]:
		// The result is a reference to one of the arguments (see
		// boundStd): a temporary among them may be the one returned.
		vs := x.args(s, list)
		if len(vs) < 2 || x.kind(x.argAt(list, 0)) == parser.KindInitializerList {
			// The initializer_list overloads return by value.
			return unknown
		}
		c := Call{}
		for i := range vs {
			c.Bound = append(c.Bound, i)
		}
		if v, ok := x.boundResult(s, list, vs, c); ok {
			return v
		}
		return unknown
	case x.checkedArg(name, fn) > 0:
		// VERIFY(c) of a macro the tree defines to end the path where c
		// is false: as CHECK below, on its argument k.
		if c := x.argAt(list, x.checkedArg(name, fn)-1); c != list {
			return x.checked(s, list, c, false)
		}
		x.args(s, list)
		return unknown
	case failureExit(name):
		if neg, ok := checkMacros[name]; ok {
			if c := x.argAt(list, 0); c != list {
				return x.checked(s, list, c, neg)
			}
		}
		x.args(s, list)
		return unknown
	case x.neverReturns(name, fn):
		x.args(s, list)
		s.flow = exited
		return unknown
	case x.kind(fn) == parser.KindIdentifier && x.opt.Summaries != nil && x.opt.Summaries.MacroReturns(name):
		// A statement macro that ends in a return (do { log(e); return
		// e; } while (0)): the function returns here, its value unknown.
		x.args(s, list)
		s.ret, s.retArg, s.retRef = unknown, 0, 0
		s.flow = returned
		return unknown
	case x.kind(fn) == parser.KindIdentifier && x.opt.Summaries != nil && len(x.opt.Summaries.MacroNotRun(name)) > 0:
		// A macro that names some arguments only where it returns or in a
		// lambda it makes (a cleanup block before its return, a deferred
		// call): the path that goes on past it has not run them there.
		skip := x.opt.Summaries.MacroNotRun(name)
		i := 0
		for c := range x.f.NamedChildren(list) {
			if !slices.Contains(skip, i) {
				x.eval(s, c)
			}
			i++
		}
		return unknown
	case x.kind(fn) == parser.KindIdentifier && testEnds[name]:
		// FAIL(...) of a test: the test case ends here, failed or
		// skipped; what would follow is not a path to report from.
		x.args(s, list)
		s.flow = exited
		return unknown
	}
	if v, ok := x.deviceCall(s, n, parser.None, list, name); ok {
		return v
	}
	if src, ok := hostCopy(name); ok {
		vs := x.args(s, list)
		x.handOn(s, list, vs)
		if src >= 0 && src < len(vs) {
			x.hostAccess(s, pointee(vs[src]), n, false)
		}
		if len(vs) > 0 {
			x.hostAccess(s, pointee(vs[0]), n, true)
			if o := pointee(vs[0]); o >= 0 && int(o) < len(s.objs) && s.objs[o].destroyedOnly() {
				// memcpy(this, &other, sizeof(*this)) after this->~T():
				// the bytes written set the object up again in its
				// storage (a trivially copyable one; [basic.types]).
				s.objs[o].setUpAgain()
			}
		}
		return unknown
	}
	vs := x.args(s, list)
	x.mayWait(s, x.argTexts(list), vs)
	if x.opt.Summaries == nil {
		x.handOn(s, list, vs)
		if x.reachesThis(fn, list) {
			x.membersMayChange(s, n, x.thisCallee(fn, list))
		}
		return unknown
	}
	lookup := name
	if inherited != "" {
		lookup = inherited + "::" + name
	}
	var c Call
	if !method && x.kind(fn) == parser.KindIdentifier {
		c = x.opt.Summaries.Unqualified(lookup, len(vs), x.scope())
	} else {
		c = x.opt.Summaries.Call(lookup, len(vs), x.scope())
	}
	for _, k := range c.Derefs {
		// The callee reads or writes what the argument points to (before
		// it frees anything).
		if k < len(vs) && (vs[k].kind == tPointer || vs[k].kind == tView) {
			x.use(s, borrowOf(vs[k].pt, tPointer), x.argAt(list, k))
		}
	}
	for _, k := range c.Frees {
		if k < len(vs) {
			x.free(s, x.storedPointer(s, x.argAt(list, k), vs[k]), n, name)
			vs[k] = unknown
		}
	}
	for _, k := range c.FreesDeref {
		// f(&p) of a function that frees *pp: what p points to.
		if k < len(vs) && vs[k].kind == tPointer {
			if i := s.slotOf(vs[k].pt); i >= 0 && s.locals[i].typ == tPointer {
				x.free(s, s.locals[i].val, n, name)
			}
		}
	}
	for _, k := range c.Grows {
		if k < len(vs) {
			x.grow(s, x.pointedContainer(s, vs[k]), n, name)
		}
	}
	x.enqueue(s, n, list, name, c.Queues, vs)
	if x.reachesThis(fn, list) {
		x.membersMayChange(s, n, x.thisCallee(fn, list))
	}
	var unread []bool
	if c.Ran {
		unread = make([]bool, len(vs))
		for k := range vs {
			unread[k] = !slices.Contains(c.Derefs, k)
		}
	}
	// What the fields the callee frees held when it was called: the
	// memory it frees, which a copy of the pointer read before the call
	// (float* p = c->buf) still points to.
	held := make([]int32, len(c.FreesFields))
	for j, ff := range c.FreesFields {
		held[j] = -1
		if i, field, ok := freedField(ff, vs, s); ok && !x.memberAddress(x.argAt(list, i)) {
			if cell := fieldCellOf(s, vs[i].pt, field); cell >= 0 && s.objs[cell].inner > 0 {
				held[j] = s.objs[cell].inner - 1
			}
		}
	}
	x.handOnUnread(s, list, vs, unread, readFields(c.Fields))
	for j, ff := range c.FreesFields {
		// f(c) of a function that frees c->field: the memory the
		// field of the argument's object points to (after handOn, which
		// forgets what the fields held: this one the callee left freed).
		i, field, ok := freedField(ff, vs, s)
		if !ok {
			continue
		}
		if held[j] >= 0 {
			if cell := argField(s, vs[i].pt, field, x.text(x.argAt(list, i))); cell >= 0 {
				s.objs[cell].inner = held[j] + 1
			}
		}
		if p, ok := x.argFieldPointer(s, vs[i].pt, field, x.text(x.argAt(list, i))); ok {
			x.free(s, p, n, name)
		}
	}
	for _, st := range c.StoresIn {
		// f(p, q) of a function that stores p in q->field: that field
		// of what q points to now points to what p points to.
		from, to, field, ok := parseStoresIn(st)
		if !ok || from >= len(vs) || to >= len(vs) || vs[from].kind != tPointer || vs[to].kind != tPointer ||
			vs[from].pt < 0 || int(vs[from].pt) >= len(s.objs) || vs[to].pt < 0 || int(vs[to].pt) >= len(s.objs) {
			continue
		}
		if cell := argField(s, vs[to].pt, field, x.text(x.argAt(list, to))); cell >= 0 {
			s.objs[cell].inner = vs[from].pt + 1
		}
		x.storedInArg(s, x.argAt(list, to), field, vs[from], n)
	}
	for _, k := range c.Reassigns {
		x.reassigned(s, x.argAt(list, k))
	}
	if c.Borrows > 0 && c.Borrows <= len(vs) {
		if a := vs[c.Borrows-1]; a.kind == tStorage && a.from >= 0 && int(a.from) < len(s.locals) {
			// Into the storage the container has after the call.
			return borrowOf(s.locals[a.from].val.owns, tRef)
		}
	}
	if c.Refers > 0 && c.Refers <= len(vs) && x.argOfType(s, x.argAt(list, c.Refers-1), c.ReferType) {
		if obj := x.referent(s, x.argAt(list, c.Refers-1), vs[c.Refers-1], c.ReferDeref); obj >= 0 {
			if c.RefersPtr {
				return borrowOf(obj, tPointer)
			}
			return borrowOf(obj, tRef)
		}
	}
	if v, ok := x.boundResult(s, list, vs, c); ok {
		return v
	}
	byValue, storage, typ := returnsAt(x.f, n, c)
	if byValue && !storage && len(c.Holds) > 0 {
		if v, ok := x.madeHolds(s, n, list, vs, c); ok {
			return v
		}
	}
	if byValue && !storage && typ != "" {
		if v, ok := x.typedTemp(s, n, typ); ok {
			return v
		}
	}
	return x.returned(s, n, byValue, storage)
}

// boundResult is what the result of a call whose parameters are marked
// lifetimebound (Call.Bound) refers to: a temporary handed to one of
// them (it ends with the full expression, and Clang's -Wdangling warns
// of the same), or else the one argument when one parameter is marked.
func (x *exec) boundResult(s *state, list parser.NodeID, vs []value, c Call) (value, bool) {
	pick := -1
	for _, k := range c.Bound {
		if k < len(vs) && (vs[k].prvalue || x.temporary(x.argAt(list, k))) {
			pick = k
			break
		}
	}
	if pick < 0 && len(c.Bound) == 1 {
		pick = c.Bound[0]
	}
	if pick < 0 || pick >= len(vs) {
		return unknown, false
	}
	obj := x.referent(s, x.argAt(list, pick), vs[pick], false)
	if obj < 0 {
		return unknown, false
	}
	if v := vs[pick]; c.RefersView && v.kind == tStorage && v.owns >= 0 {
		// A view of a string or container: of its buffer, which growth
		// replaces.
		obj = v.owns
	}
	switch {
	case c.RefersView:
		return borrowOf(obj, tView), true
	case c.RefersPtr:
		return borrowOf(obj, tPointer), true
	}
	return borrowOf(obj, tRef), true
}

// argOfType says argument e may be of the type named typ: not a local
// (or parameter) declared with another type.
func (x *exec) argOfType(s *state, e parser.NodeID, typ string) bool {
	if x.kind(e) == parser.KindPointerExpression && strings.HasPrefix(x.text(e), "&") {
		e = x.lastNamedChild(e)
	}
	if x.kind(e) != parser.KindIdentifier {
		return true
	}
	i := s.lookup(x.text(e))
	if i < 0 {
		return true
	}
	l := s.locals[i]
	return l.auto || l.tname == "" || typ == "" || l.tname == typ
}

// referent is the object argument e (of value v) hands a parameter that
// the callee's result refers to (see Call.Refers): what a pointer points
// to, the local or element a reference binds, or the temporary a prvalue
// makes, which ends with the caller's full expression ([class.temporary]:
// a temporary bound to a reference parameter lives until the end of the
// full-expression containing the call). -1: not known.
func (x *exec) referent(s *state, e parser.NodeID, v value, deref bool) int32 {
	switch {
	case deref || v.kind == tPointer:
		// A pointer parameter: what the argument points to, when known.
		if v.kind != tPointer {
			return -1
		}
		return v.pt
	case v.kind == tView || v.kind == tIter:
		// A view, even a temporary one, refers to the memory it views.
		return v.pt
	case v.prvalue || x.temporary(e):
		if v.owns >= 0 && slices.Contains(s.temps, v.owns) {
			return v.owns
		}
		t := s.newObj(object{kind: oTemp, owner: x.text(e)})
		s.temps = append(s.temps, t)
		return t
	case v.kind == tRef:
		return v.pt
	case v.from >= 0 && int(v.from) < len(s.locals):
		if l := s.locals[v.from]; !l.ref {
			return l.slot
		}
	}
	return -1
}

// typedTemp is the temporary a call at n returns by value when its
// declared type says what the object owns: a unique_ptr owns its object
// and deletes it at the end of the full expression; an object of a class
// whose destructor frees what a method yields (see ownedYield) takes that
// memory with it. A reference bound to the temporary, or a local made
// from it, keeps it (see untemp).
func (x *exec) typedTemp(s *state, n parser.NodeID, typ string) (value, bool) {
	typ = x.resolve(typ)
	switch classify(typ) {
	case tUnique:
		t := s.newObj(object{kind: oHeap, owner: x.text(n), class: templateArg(typ)})
		s.temps = append(s.temps, t)
		return value{pt: -1, owns: t, kind: tUnique, from: -1, prvalue: true}, true
	case tPlain:
		class := typeName(typ)
		if class == "" || x.opt.Members == nil || !owningClass(x.opt.Members(class)) {
			return unknown, false
		}
		t := s.newObj(object{kind: oTemp, owner: x.text(n), class: class})
		s.temps = append(s.temps, t)
		return madeValue(t), true
	case tView:
		// A view returned by value (a span, a reference_wrapper) looks at
		// memory the call does not say: a reference bound through its
		// conversion (reference_wrapper's operator T&) refers there, not
		// to the temporary view.
		return value{pt: -1, owns: -1, kind: tView, from: -1}, true
	}
	return unknown, false
}

// pointedContainer is the container local a pointer argument points to
// (f(&v), f(p) for a pointer parameter p to a container), or v itself.
func (x *exec) pointedContainer(s *state, v value) value {
	if v.kind != tPointer {
		return v
	}
	if w, ok := x.derefContainer(s, v); ok {
		return w
	}
	for i := range s.locals {
		if l := s.locals[i]; v.pt >= 0 && l.slot == v.pt && l.typ == tStorage && !l.ref {
			w := l.val
			w.from = int32(i)
			return w
		}
	}
	return v
}

// derefContainer is the container v points to, when v is a pointer
// parameter to a container that still points where it did on entry (see
// local.deref).
func (x *exec) derefContainer(s *state, v value) (value, bool) {
	if v.kind != tPointer || v.from < 0 || int(v.from) >= len(s.locals) {
		return unknown, false
	}
	h := s.locals[v.from].deref - 1
	if h < 0 || h >= len(s.locals) || s.locals[h].derefObj != v.pt || s.locals[h].typ != tStorage {
		return unknown, false
	}
	w := s.locals[h].val
	w.from = int32(h)
	return w, true
}

// returned is the value of call n of a function that returns by value (a
// temporary, that owns a buffer when storage says so), or unknown.
func (x *exec) returned(s *state, n parser.NodeID, byValue, storage bool) value {
	if byValue && x.referenceTemplateArg(n) {
		// f<const T&>(...): a template whose return type is one of its
		// parameters returns what the argument names, a reference here;
		// which parameter it returns is not known, so no temporary is.
		byValue = false
	}
	switch {
	case byValue && storage:
		t := s.newObj(object{kind: oTemp, owner: x.text(n)})
		s.temps = append(s.temps, t)
		return value{pt: -1, owns: t, kind: tStorage, from: -1, prvalue: true}
	case byValue:
		v := unknown
		v.prvalue = true
		return v
	}
	return unknown
}

// referenceTemplateArg says call n names its function with an explicit
// template argument that is a reference type (op.fold<const Schema&>(f,
// g), get<T&>(t)).
func (x *exec) referenceTemplateArg(n parser.NodeID) bool {
	f := x.f
	if x.kind(n) != parser.KindCallExpression {
		return false
	}
	fn := f.Field(n, parser.FieldFunction)
	if x.kind(fn) == parser.KindFieldExpression {
		fn = f.Field(fn, parser.FieldField)
	}
	if k := x.kind(fn); k != parser.KindTemplateFunction && k != parser.KindTemplateMethod {
		return false
	}
	for a := range f.NamedChildren(f.Field(fn, parser.FieldArguments)) {
		if t := strings.TrimSpace(x.text(a)); strings.HasSuffix(t, "&") {
			return true
		}
	}
	return false
}

// grow replaces the storage of container v, as a call that grows it on
// every path does.
func (x *exec) grow(s *state, v value, n parser.NodeID, via string) {
	if v.kind != tStorage || v.owns < 0 || v.from < 0 || int(v.from) >= len(s.locals) {
		return
	}
	loc := &s.locals[v.from]
	old := s.objs[v.owns]
	if old.reserved || old.fam == famEnds || old.fam == famQueue || old.fam == famNodes {
		return
	}
	s.end(v.owns, replaced, n, via)
	loc.val.owns = s.storage(loc, old.frame)
	s.objs[loc.val.owns].kept = old.kept
	s.objs[loc.val.owns].fam, s.objs[loc.val.owns].elem = old.fam, old.elem
}

// outgrows takes one element of the room a reserve left in container
// obj for a single insertion m (of arguments vs), and says whether the
// insertion needs more than that room: then it reallocates. Any other
// change of the count leaves the room unknown.
func (x *exec) outgrows(s *state, obj int32, m string) bool {
	o := &s.objs[obj]
	if o.spare == 0 {
		return false
	}
	if m != "push_back" && m != "emplace_back" {
		o.spare = 0
		return false
	}
	if o.spare == 1 {
		return true
	}
	o.spare--
	return false
}

// method executes recv.m(args) or recv->m(args).
func (x *exec) method(s *state, n, fn, list parser.NodeID) value {
	f := x.f
	recv := f.Field(fn, parser.FieldArgument)
	m := calleeName(x.text(f.Field(fn, parser.FieldField)))
	if v, ok := x.deviceCall(s, n, recv, list, m); ok {
		return v
	}
	if x.continuation(s, n, recv, list, m) {
		return unknown
	}
	x.awaitFutures(s, recv, m)
	arrow := strings.Contains(x.between(recv, f.Field(fn, parser.FieldField)), "->")
	if m == "detach" && x.detachTemporary(s, recv, n) {
		return unknown
	}
	rv := x.eval(s, recv)
	if v, ok := x.tensorMethod(s, n, recv, list, rv, m, arrow); ok {
		return v
	}
	if !arrow {
		if rv.kind == tPointer && (m == "value" || m == "ValueOrDie") && rv.pt >= 0 {
			// A pointer called a method of with '.' is a pointer held in
			// a result or optional (StatusOr<T*>, optional<T*>): value()
			// returns it (absl/status/statusor.h, [optional.observe]).
			x.args(s, list)
			return rv
		}
	}
	if w, ok := x.derefContainer(s, rv); ok && arrow {
		// p->push_back(x) on a pointer to a container: the container's
		// own method.
		x.use(s, rv, fn)
		rv, arrow = w, false
	}
	if w, ok := x.heapContainer(s, rv, arrow); ok {
		// p->data(), u->push_back(x), (*u).data() on a container made
		// on the heap: the method of the container, whose buffer the
		// heap object owns.
		if arrow {
			x.derefMoved(s, rv, fn)
			x.use(s, rv, fn)
		}
		rv, arrow = w, false
	}
	if strings.HasPrefix(m, "~") {
		// An explicit destructor call ends the object's lifetime; one
		// the file does not declare is implicit, and taken to do nothing
		// the function could see.
		x.args(s, list)
		if !x.declaresDestructor(m) && x.sharedMembers(strings.TrimPrefix(m, "~")) == nil {
			// Neither the file nor the tree's class facts say it frees.
			return unknown
		}
		if x.elementOf(recv) {
			// p[i].~T(), (p + i)->~T(): one element of an array, which
			// one is not known (a loop ends each once).
			return unknown
		}
		if !arrow && x.kind(uncast(f, recv)) == parser.KindFieldExpression {
			// p->m.~T(): the member subobject m, not the object that
			// holds it ([class.dtor]).
			return unknown
		}
		if arrow {
			x.free(s, rv, n, m)
		} else if rv.from >= 0 && int(rv.from) < len(s.locals) && !s.locals[rv.from].ref {
			x.destroyed(s, &s.locals[rv.from], n)
			s.end(s.locals[rv.from].slot, freed, n, m)
		} else if rv.kind == tRef {
			x.free(s, borrowOf(rv.pt, tPointer), n, m)
		}
		return unknown
	}
	x.touched(s, rv)
	if rv.kind == tPointer || rv.kind == tRef {
		// A method of the object may store anything in its fields.
		s.forgetFields(rv.pt)
	} else if rv.from >= 0 && int(rv.from) < len(s.locals) && !s.locals[rv.from].ref {
		// o.f(): a method of a local object, likewise.
		slot := s.locals[rv.from].slot
		s.forgetFields(slot)
		if o := &s.objs[slot]; o.destroyedOnly() && !strings.HasPrefix(m, "~") {
			// o.~T(); o.reinit(...): the method may set the object up
			// again in its storage; what it kept before is not known.
			o.setUpAgain()
		}
	}
	byValue, storage, typ := false, false, ""
	result := func() value {
		if byValue && !storage && typ != "" {
			if v, ok := x.typedTemp(s, n, typ); ok {
				return v
			}
		}
		return x.returned(s, n, byValue, storage)
	}
	if obj := x.receiverObj(s, rv, arrow); obj >= 0 && x.opt.Members != nil {
		facts := x.opt.Members(s.objs[obj].class)
		byValue, storage, typ = returnsByValue(facts, m, x.constness(s, rv))
		nargs := 0
		for range f.NamedChildren(list) {
			nargs++
		}
		x.reassignsKept(s, x.text(recv), facts, m)
		if x.deferredTo(s, n, x.text(recv), list, m, facts, s.objs[obj].frame) {
			if arrow {
				x.derefMoved(s, rv, fn)
				x.use(s, rv, fn)
			}
			return result()
		}
		if stores := x.expandStores(facts[storesKey(m, nargs)], 0); stores != "" {
			// A method that keeps what it is given: the object holds it
			// from now on.
			if arrow {
				x.derefMoved(s, rv, fn)
				x.use(s, rv, fn)
			}
			vs := x.args(s, list)
			before := len(s.objs[obj].holds)
			x.keep(s, obj, stores, list, vs)
			x.handOn(s, list, vs)
			x.keptForCaller(s, obj, before, x.text(x.f.Field(fn, parser.FieldArgument)), n)
			return result()
		}
		// Any other method may read what the object holds: what its
		// code (and the methods it calls) names of the members.
		x.useHeldBy(s, obj, fn, facts, m)
		x.reachHeld(s, obj, facts, m)
		x.letGo(s, obj, facts, m)
		if part, ok := ownedYield(facts, m); ok {
			// A method of the object's class that returns a pointer into
			// memory the object owns: the pointer lives as long as the
			// object, or until a method gives the memory up.
			if arrow {
				x.derefMoved(s, rv, fn)
				x.use(s, rv, fn)
			}
			x.handOn(s, list, x.args(s, list))
			lent := s.keyedPart(obj, posHeld, part)
			if s.objs[lent].madeAt == 0 {
				s.objs[lent].madeAt = n
			}
			return borrowOf(lent, yieldKind(facts, m))
		}
		// A method that frees or replaces memory the object lent: what
		// was lent before dangles.
		x.endHeld(s, obj, x.releasesOf(s.objs[obj].class, facts, m), n, m)
	}
	if !arrow && rv.kind == tRef && rv.pt >= 0 && int(rv.pt) < len(s.objs) && s.objs[rv.pt].kind == oStorage && len(s.objs[rv.pt].holds) > 0 {
		// A method of an element of a container whose elements keep
		// references (see elementStores): it may read what they keep.
		x.useHeldAs(s, rv.pt, fn, x.text(recv))
	}
	if arrow {
		x.derefMoved(s, rv, fn)
		if w, ok := x.elemOwned(s, rv); ok {
			rv = w
		}
		x.use(s, rv, fn)
		vs := x.args(s, list)
		x.mayWait(s, append(x.argTexts(list), x.text(recv)), vs)
		x.handOn(s, list, vs)
		if x.hasMembers && (x.kind(recv) == parser.KindThis || x.reachesThis(fn, list)) {
			// this->f(): another method of the object runs.
			callee := ""
			if x.kind(recv) == parser.KindThis && !x.handsThis(list) {
				callee = m
			}
			x.membersMayChange(s, n, callee)
		}
		return result()
	}
	var loc *local
	if rv.from >= 0 && int(rv.from) < len(s.locals) {
		loc = &s.locals[rv.from]
		if !readOnly[m] {
			// The call may change what the path knew of the receiver.
			s.forget(loc.name)
			if !insertMethods[m] && loc.typ == tStorage {
				s.untrack(loc.val.owns)
			}
			if loc.member {
				loc.setAt = n
			}
			if loc.depth < 0 && !loc.param || loc.param && loc.typ == tStorage {
				if !insertMethods[m] {
					// Emptied, erased from, swapped: what it kept is
					// not known now.
					x.unkeep(s, x.text(recv))
				}
			}
		}
		if m == "detach" && loc.tname == "thread" {
			x.detach(s, loc, n)
			return unknown
		}
	}
	switch rv.kind {
	case tStorage:
		fam := famContiguous
		if rv.owns >= 0 && int(rv.owns) < len(s.objs) && s.objs[rv.owns].fam != famNone {
			fam = s.objs[rv.owns].fam
		}
		if fam == famAssoc && rv.owns >= 0 {
			return x.assocMethod(s, rv.owns, n, list, m)
		}
		if newStringMethods[m] && x.isString(s, rv) {
			// A new string, returned by value: a temporary.
			x.handOn(s, list, x.args(s, list))
			t := s.newObj(object{kind: oTemp, owner: x.text(n)})
			s.temps = append(s.temps, t)
			return value{pt: -1, owns: t, kind: tStorage, from: -1, prvalue: true}
		}
		if m == "erase" && rv.owns >= 0 {
			return x.erase(s, rv.owns, fam, loc, n, list)
		}
		switch {
		case borrowMethods[m]:
			x.args(s, list)
			k := borrowKind(m)
			obj := rv.owns
			switch {
			case m == "front" || m == "top" && fam == famHeap:
				obj = s.part(rv.owns, posFront)
			case m == "back" || m == "top":
				obj = s.part(rv.owns, posBack)
			}
			if k == tRef {
				if w, ok := x.elementRead(s, rv.owns, n); ok {
					return w
				}
			}
			return borrowOf(obj, k)
		case removeMethods[m]:
			x.args(s, list)
			if rv.owns >= 0 {
				s.objs[rv.owns].spare = 0
				switch {
				case fam == famHeap:
					// pop_heap moves every element: references to any end.
					s.end(s.part(rv.owns, posFront), replaced, n, m)
					s.end(s.part(rv.owns, posBack), replaced, n, m)
				case m == "pop_front" || m == "pop" && fam == famQueue:
					s.end(s.part(rv.owns, posFront), replaced, n, m)
				default:
					s.end(s.part(rv.owns, posBack), replaced, n, m)
				}
			}
			return unknown
		case m == "resize" && x.shrinks(recv, list):
			// resize(c.size() - k) erases the last k elements: the buffer
			// stays ([vector.capacity]: "If n < size(), erases the last
			// size() - n elements"; no standard library's string
			// reallocates to shrink on resize either).
			x.args(s, list)
			return unknown
		case growMethods[m] || m == "push" && fam == famHeap:
			vs := x.args(s, list)
			null := len(vs) == 1 && s.nullObject(vs[0])
			x.handOn(s, list, vs)
			if insertMethods[m] && len(vs) == 1 && rv.owns >= 0 && !null {
				x.copiedInto(s, rv.owns, x.text(recv), list, vs[0], n)
			}
			if insertMethods[m] && len(vs) > 0 {
				x.countedCopy(s, vs[len(vs)-1])
			}
			var carried []value
			if insertMethods[m] && len(vs) > 0 && rv.owns >= 0 {
				// A copy of a local object put in: the element's pointer
				// fields point where the local's do, and the container
				// holds that memory.
				for _, t := range x.fieldPointees(s, vs[len(vs)-1]) {
					s.objs[rv.owns].holds = append(slices.Clip(s.objs[rv.owns].holds), t)
					carried = append(carried, borrowOf(t, tPointer))
				}
			}
			if insertMethods[m] && loc != nil && loc.depth < 0 && !loc.param && rv.owns >= 0 {
				// A member's or a static's container outlives the call.
				where := "static"
				if loc.member {
					where = "member"
				}
				x.keptIn(s, x.text(recv), where, s.objs[rv.owns].elem, vs, n)
				x.keptIn(s, x.text(recv), where, tPointer, carried, n)
			}
			if insertMethods[m] && loc != nil && loc.param && rv.owns >= 0 && !s.objs[rv.owns].frame {
				// A container the caller handed in by reference or by
				// pointer: the caller keeps what is put in it.
				x.keptIn(s, x.text(recv), "", s.objs[rv.owns].elem, vs, n)
				x.keptIn(s, x.text(recv), "", tPointer, carried, n)
			}
			followed := false
			if el := s.objs[max(rv.owns, 0)].elem; rv.owns >= 0 && insertMethods[m] && (el == tPointer || el == tView) && len(vs) <= 2 {
				// Pointers put in a container of pointers, views in one of
				// views (of a string or container: of its buffer): it holds
				// them now. (A container of values copies what it is given;
				// a range insert copies the range's elements.) The element
				// is the last argument (insert(pos, p)).
				for i, v := range vs {
					switch {
					case (v.kind == tPointer || v.kind == tView) && v.pt >= 0 && int(v.pt) < len(s.objs):
						s.objs[rv.owns].holds = append(slices.Clip(s.objs[rv.owns].holds), v.pt)
						followed = i == len(vs)-1
					case el == tView && v.kind == tStorage && v.owns >= 0 && int(v.owns) < len(s.objs):
						s.objs[rv.owns].holds = append(slices.Clip(s.objs[rv.owns].holds), v.owns)
						followed = i == len(vs)-1
					}
				}
			}
			if (m == "emplace_back" || m == "emplace_front") && loc != nil && rv.owns >= 0 && loc.elem == tPlain && x.opt.Members != nil {
				// The element is built in place from the arguments: the
				// container keeps what its constructor keeps.
				if class := templateArg(x.declaredType(loc)); class != "" && !x.copyOf(s, list, vs, class) {
					if stores := x.readStores(class, x.expandStores(x.opt.Members(class)[storesKey(class, len(vs))], 0)); stores != "" {
						x.keep(s, rv.owns, elementStores(stores), list, vs)
					}
				}
			}
			if !followed {
				s.untrack(rv.owns)
			}
			if loc == nil && rv.owns >= 0 && s.objs[rv.owns].pos == posHeld && s.objs[rv.owns].key == heapBuffer {
				// The buffer of a container on the heap: growth moves its
				// elements to a new one, unless reserved room takes it.
				if !s.objs[rv.owns].reserved || m == "clear" || m == "shrink_to_fit" || m == "reserve" {
					s.end(rv.owns, replaced, n, m)
				}
				if m == "reserve" {
					s.objs[x.bufferOf(s, s.objs[rv.owns].parent-1)].reserved = true
				}
				return unknown
			}
			if (fam == famEnds || fam == famQueue || fam == famNodes) && m != "clear" && m != "assign" && m != "resize" {
				// Insertion keeps references to the elements.
				return unknown
			}
			if loc != nil && loc.typ == tStorage && rv.owns >= 0 {
				old := s.objs[rv.owns]
				if old.reserved && m != "clear" && m != "shrink_to_fit" && !x.outgrows(s, rv.owns, m) {
					s.objs[rv.owns].empty = false
					return unknown
				}
				s.end(rv.owns, replaced, n, m)
				loc.val.owns = s.storage(loc, old.frame)
				s.objs[loc.val.owns].reserved = m == "reserve"
				if m == "reserve" && old.empty && len(vs) == 1 && vs[0].known && vs[0].num >= 0 && vs[0].num < math.MaxInt16 {
					// reserve(n) of an empty vector: room for n elements
					// exactly as the standard libraries allocate it
					// ([vector.capacity]: capacity() >= n; libstdc++, libc++
					// and MSVC allocate n when growing from less).
					s.objs[loc.val.owns].empty = true
					s.objs[loc.val.owns].spare = int16(vs[0].num) + 1
				}
				s.objs[loc.val.owns].kept = old.kept
				s.objs[loc.val.owns].fam, s.objs[loc.val.owns].elem = old.fam, old.elem
				if m != "clear" && m != "assign" {
					// The elements move to the new buffer with what
					// they point to.
					s.objs[loc.val.owns].holds = s.objs[rv.owns].holds
					s.objs[loc.val.owns].every = s.objs[rv.owns].every
				}
			}
			return unknown
		}
	case tUnique, tShared:
		switch m {
		case "get":
			v := borrowOf(rv.owns, tPointer)
			if loc != nil && loc.movedFrom {
				v.null, v.fromMoved = true, true
			}
			return v
		case "release":
			if loc != nil && rv.kind == tUnique {
				loc.val.owns, loc.val.null = -1, true
			}
			if rv.owns >= 0 {
				// Released: the caller owns it now, not the frame.
				s.objs[rv.owns].kept = true
				s.objs[rv.owns].frame = false
			}
			return borrowOf(rv.owns, tPointer)
		case "swap":
			// Each takes the other's object (cppreference unique_ptr::swap).
			vs := x.args(s, list)
			if loc != nil && len(vs) == 1 && vs[0].from >= 0 && int(vs[0].from) < len(s.locals) {
				other := &s.locals[vs[0].from]
				if other.typ == loc.typ {
					loc.val.owns, other.val.owns = other.val.owns, loc.val.owns
					loc.val.null, other.val.null = other.val.null, loc.val.null
				}
			}
			return unknown
		case "reset":
			vs := x.args(s, list)
			if loc != nil {
				loc.movedFrom = false
			}
			if loc != nil && rv.owns >= 0 {
				if rv.kind == tShared {
					s.objs[rv.owns].refs--
					if s.objs[rv.owns].refs <= 0 && !s.objs[rv.owns].kept {
						s.end(rv.owns, freed, n, "reset")
					}
				} else {
					s.end(rv.owns, freed, n, "reset")
				}
			}
			if loc != nil {
				loc.val.owns, loc.val.null = -1, true
				if len(vs) == 1 && vs[0].pt >= 0 && s.objs[vs[0].pt].kind == oHeap {
					loc.val.owns, loc.val.null = vs[0].pt, false
				}
			}
			return unknown
		}
	case tView:
		vs := x.args(s, list)
		if viewReads[m] {
			x.use(s, rv, fn)
		}
		x.handOn(s, list, vs)
		return unknown
	case tRef:
		vs := x.args(s, list)
		if rv.pt >= 0 && int(rv.pt) < len(s.objs) {
			// An element of a container: what it owns or borrows is the
			// element's, and ends with it.
			switch el := s.objs[rv.pt].elem; {
			case (el == tUnique || el == tShared) && m == "get":
				return borrowOf(s.part(rv.pt, posOwned), tPointer)
			case el == tStorage && borrowMethods[m] && x.elementKeepsBuffer(s, rv.pt):
				// An element that is a vector: its buffer is its own,
				// and moves with it when the outer container grows.
				x.use(s, rv, fn)
				return borrowOf(s.part(rv.pt, posOwned), borrowKind(m))
			case el == tStorage && borrowMethods[m]:
				x.use(s, rv, fn)
				return borrowOf(rv.pt, borrowKind(m))
			}
		}
		x.mayWait(s, append(x.argTexts(list), x.text(recv)), append(vs, rv))
		x.handOn(s, list, vs)
		return result()
	}
	vs := x.args(s, list)
	x.globalKept(s, recv, m, vs, n)
	x.mayWait(s, append(x.argTexts(list), x.text(recv)), append(vs, rv))
	x.handOn(s, list, vs)
	return result()
}

// heapBuffer keys the buffer part of a container made on the heap.
const heapBuffer = "[buffer]"

// heapContainer is the container a method is called on when receiver v
// (reached with -> when arrow) is a container made on the heap (new
// std::vector<T>, make_unique<std::string>): its buffer, a part of the
// heap object, which ends when the object is freed.
func (x *exec) heapContainer(s *state, v value, arrow bool) (value, bool) {
	obj := int32(-1)
	switch {
	case arrow && (v.kind == tPointer || v.kind == tUnique || v.kind == tShared):
		obj = pointee(v)
	case !arrow && v.kind == tRef:
		obj = v.pt
	}
	if obj < 0 || int(obj) >= len(s.objs) || s.objs[obj].kind != oHeap || s.objs[obj].parent != 0 {
		return unknown, false
	}
	if fam, _ := containerOf(s.objs[obj].class); fam == famNone {
		return unknown, false
	}
	return value{pt: -1, owns: x.bufferOf(s, obj), kind: tStorage, from: -1}, true
}

// bufferOf is the buffer of container obj made on the heap, made on
// first use.
func (x *exec) bufferOf(s *state, obj int32) int32 {
	buf := s.keyedPart(obj, posHeld, heapBuffer)
	fam, elem := containerOf(s.objs[obj].class)
	s.objs[buf].fam, s.objs[buf].elem = fam, elem
	// Whose the buffer is follows the heap object wherever it is
	// moved (into a member, a container), which the part does not
	// track: it is not taken for the frame's.
	s.objs[buf].frame = false
	return buf
}

// keyed is the element of associative container storage obj found by
// key, as written (see keyedPart).
func (x *exec) keyed(s *state, obj int32, key string) int32 {
	k := s.keyedPart(obj, posKeyed, strings.Join(strings.Fields(strings.Trim(key, "[]")), " "))
	if k >= 0 && obj >= 0 && int(obj) < len(s.objs) {
		// The element is of the container's element kind (a map's
		// mapped type): a string element owns a buffer.
		s.objs[k].elem = s.objs[obj].elem
	}
	return k
}

// assocMethod runs method m of associative container storage obj (see
// famAssoc).
func (x *exec) assocMethod(s *state, obj int32, n, list parser.NodeID, m string) value {
	texts := x.argTexts(list)
	if mapInserts[m] {
		x.mapInsert(s, obj, list, m)
		return unknown
	}
	vs := x.args(s, list)
	switch m {
	case "find", "lower_bound", "upper_bound", "at":
		key := ""
		if len(texts) == 1 {
			key = texts[0]
		}
		k := tIter
		if m == "at" {
			k = tRef
		}
		return borrowOf(x.keyed(s, obj, key), k)
	case "begin", "cbegin", "rbegin":
		return borrowOf(x.keyed(s, obj, ""), tIter)
	case "erase":
		// Which of the pointers it held went is not known.
		s.objs[obj].holds = nil
		s.untrack(obj)
		if len(vs) >= 1 {
			if p := vs[0].pt; vs[0].kind == tIter && p >= 0 && int(p) < len(s.objs) && s.objs[p].parent == obj+1 {
				x.use(s, vs[0], n)
				s.end(p, replaced, n, "erase")
			} else if len(texts) == 1 {
				key := strings.Join(strings.Fields(texts[0]), " ")
				for i := range s.objs {
					if c := s.objs[i]; c.parent == obj+1 && c.pos == posKeyed && c.key == key && c.state == live {
						s.end(int32(i), replaced, n, "erase")
					}
				}
			}
		}
		// erase(iterator) returns the iterator after the erased element.
		return borrowOf(x.keyed(s, obj, ""), tIter)
	case "clear":
		s.endParts(obj, replaced, n, "clear")
		// It holds nothing now.
		s.objs[obj].holds = nil
		return unknown
	}
	x.handOn(s, list, vs)
	return unknown
}

// mapInserts are the methods that put an element in an associative
// container (cppreference: insert, emplace, emplace_hint, try_emplace,
// insert_or_assign).
var mapInserts = map[string]bool{
	"insert": true, "emplace": true, "emplace_hint": true, "try_emplace": true, "insert_or_assign": true,
}

// pairMakers make a std::pair of their two arguments (unqualified: under
// using namespace std).
var pairMakers = map[string]bool{"std::make_pair": true, "std::pair": true, "make_pair": true, "pair": true}

// mapInsert runs insertion method m of associative container storage obj
// (an object of s) with the arguments list. A map of pointers (or of views) holds what the
// mapped value it is given points to, as a vector of pointers holds what
// push_back is given: the value is the argument after the key (after the
// hint and the key for emplace_hint, try_emplace and insert_or_assign
// with a hint), or the second element of the one pair it is given
// (std::make_pair(k, p), std::pair<K, V>(k, p), {k, p}). Any other
// insertion puts in it what holdfast does not follow.
func (x *exec) mapInsert(s *state, obj int32, list parser.NodeID, m string) {
	var args []parser.NodeID
	for c := range x.f.NamedChildren(list) {
		if x.kind(c) != parser.KindComment {
			args = append(args, c)
		}
	}
	mapped, pair := parser.None, parser.None
	switch {
	case len(args) == 1 && (m == "insert" || m == "emplace"):
		pair = args[0]
	case len(args) == 2 && (m == "emplace" || m == "try_emplace" || m == "insert_or_assign"):
		mapped = args[1]
	case len(args) == 3 && (m == "emplace_hint" || m == "try_emplace" || m == "insert_or_assign"):
		mapped = args[2]
	}
	el := s.objs[obj].elem
	var pairArgs []parser.NodeID
	if pair != parser.None && (el == tPointer || el == tView) {
		inner := pair
		if x.kind(pair) == parser.KindCallExpression {
			if name, method := x.callName(pair); !method && pairMakers[name] {
				inner = x.f.Field(pair, parser.FieldArguments)
			}
		}
		if x.kind(pair) == parser.KindInitializerList || inner != pair {
			for c := range x.f.NamedChildren(inner) {
				if x.kind(c) != parser.KindComment {
					pairArgs = append(pairArgs, c)
				}
			}
		}
		if len(pairArgs) == 2 {
			mapped = pairArgs[1]
		}
	}
	var vs []value
	var held value
	for _, c := range args {
		if c == pair && len(pairArgs) == 2 {
			// The pair is made here from its two elements, which are
			// handed on with it.
			pv := []value{x.eval(s, pairArgs[0]), x.eval(s, pairArgs[1])}
			held = pv[1]
			x.handOn(s, x.f.Nodes[pairArgs[0]].Parent, pv)
			vs = append(vs, unknown)
			continue
		}
		v := x.eval(s, c)
		if c == mapped {
			held = v
		}
		vs = append(vs, v)
	}
	x.handOn(s, list, vs)
	if mapped == parser.None {
		held = unknown
	}
	s.mapHolds(obj, held)
}

// mapHolds puts mapped value v in associative container obj: a map of
// pointers (or of views) holds what v points to (a view's string or
// container: its buffer); any other value puts in it what holdfast does
// not follow.
func (s *state) mapHolds(obj int32, v value) {
	switch el := s.objs[obj].elem; {
	case (el == tPointer || el == tView) && (v.kind == tPointer || v.kind == tView) && v.pt >= 0 && int(v.pt) < len(s.objs):
		s.objs[obj].holds = append(slices.Clip(s.objs[obj].holds), v.pt)
	case el == tView && v.kind == tStorage && v.owns >= 0 && int(v.owns) < len(s.objs):
		s.objs[obj].holds = append(slices.Clip(s.objs[obj].holds), v.owns)
	default:
		s.untrack(obj)
	}
}

// mapAssigned runs m[k] = v, where lv is the element m[k] names (see
// mapHolds).
func (x *exec) mapAssigned(s *state, lv, rv value) {
	if lv.kind != tRef || lv.pt < 0 || int(lv.pt) >= len(s.objs) || s.objs[lv.pt].pos != posKeyed {
		return
	}
	obj := s.objs[lv.pt].parent - 1
	if obj < 0 || int(obj) >= len(s.objs) || s.objs[obj].fam != famAssoc {
		return
	}
	s.mapHolds(obj, rv)
}

// erase runs erase on sequence storage obj: a node container ends the
// erased element only; the others may move every element after it, so
// their storage is replaced (as growth replaces it) and the iterator
// erase returns points into the new one.
func (x *exec) erase(s *state, obj int32, fam family, loc *local, n, list parser.NodeID) value {
	vs := x.args(s, list)
	if fam == famNodes {
		switch {
		case len(vs) >= 1 && vs[0].kind == tIter && vs[0].pt >= 0 && vs[0].pt != obj:
			s.end(vs[0].pt, replaced, n, "erase")
		case len(vs) == 1 && vs[0].kind == tIter && vs[0].pt == obj && vs[0].from >= 0 && int(vs[0].from) < len(s.locals) && !s.locals[vs[0].from].ref:
			// An iterator local into the list, element not known: erase
			// ends the element it names (cppreference std::list::erase:
			// iterators to the erased element are invalidated).
			e := s.keyedPart(obj, posKeyed, "")
			s.end(e, replaced, n, "erase")
			s.locals[vs[0].from].val.pt = e
		}
		return borrowOf(obj, tIter)
	}
	if loc == nil || loc.typ != tStorage {
		return unknown
	}
	if fam == famContiguous && len(vs) > 0 && !x.atBegin(x.argAt(list, 0)) {
		// vector::erase invalidates the iterators and references at or
		// after the point of the erase ([vector.modifiers]): the back,
		// and an iterator the position is: erase(it), or the base of a
		// reverse iterator it (erase(std::next(r).base())). What lies
		// before the point stays; where other pointers into the buffer
		// lie is not known, and they are taken to lie before it.
		s.end(s.part(obj, posBack), replaced, n, "erase")
		for _, i := range x.erasedIters(s, list) {
			e := s.newObj(object{kind: oStorage, owner: s.objs[obj].owner, parent: obj + 1, pos: posKeyed})
			s.hasParts = true
			s.end(e, replaced, n, "erase")
			s.locals[i].val.pt = e
		}
		return borrowOf(obj, tIter)
	}
	old := s.objs[obj]
	s.end(obj, replaced, n, "erase")
	loc.val.owns = s.storage(loc, old.frame)
	no := &s.objs[loc.val.owns]
	no.kept, no.fam, no.elem, no.holds = old.kept, old.fam, old.elem, old.holds
	return borrowOf(loc.val.owns, tIter)
}

// atBegin says erase position e is the container's first element
// (v.begin(), v.cbegin()), or not known to lie after it.
func (x *exec) atBegin(e parser.NodeID) bool {
	f := x.f
	e = x.unparen(e)
	if x.kind(e) != parser.KindCallExpression || hasNamedChild(f, f.Field(e, parser.FieldArguments)) {
		return false
	}
	fn := f.Field(e, parser.FieldFunction)
	if x.kind(fn) != parser.KindFieldExpression {
		return false
	}
	m := x.text(f.Field(fn, parser.FieldField))
	return m == "begin" || m == "cbegin"
}

// erasedIters are the iterator locals an erase's arguments name as the
// point of the erase or after it: each argument that is a local's name,
// and the reverse iterators whose base an argument takes.
func (x *exec) erasedIters(s *state, list parser.NodeID) []int {
	f := x.f
	var out []int
	add := func(n parser.NodeID) {
		if x.kind(n) != parser.KindIdentifier {
			return
		}
		if i := s.lookup(x.text(n)); i >= 0 && s.locals[i].typ == tIter && !s.locals[i].ref && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	for a := range f.NamedChildren(list) {
		a = x.unparen(a)
		if x.kind(a) == parser.KindIdentifier {
			add(a)
			continue
		}
		if !strings.Contains(x.text(a), ".base()") {
			continue
		}
		for j := a; j < f.End(a); j++ {
			add(j)
		}
	}
	return out
}

// endHeld ends the parts (see ownedYield) of object obj that a call of
// method m at n gives up.
func (x *exec) endHeld(s *state, obj int32, parts []string, n parser.NodeID, m string) {
	if len(parts) == 0 {
		return
	}
	for i := range s.objs {
		if c := &s.objs[i]; c.parent == obj+1 && c.pos == posHeld && c.state == live && slices.Contains(parts, c.key) {
			s.end(int32(i), freed, n, m)
		}
	}
}

// receiverObj is the object a method is called on, when its class is
// known: what a smart pointer or pointer points to for p->m(), the
// local's own object or a reference's referent for o.m(); -1 otherwise.
func (x *exec) receiverObj(s *state, rv value, arrow bool) int32 {
	obj := int32(-1)
	switch {
	case arrow && (rv.kind == tUnique || rv.kind == tShared):
		obj = rv.owns
	case arrow && rv.kind == tPointer:
		obj = rv.pt
	case !arrow && rv.kind == tRef:
		obj = rv.pt
	case !arrow && rv.from >= 0 && int(rv.from) < len(s.locals) && !s.locals[rv.from].ref && s.locals[rv.from].typ == tPlain:
		obj = s.locals[rv.from].slot
	}
	if obj < 0 || int(obj) >= len(s.objs) || s.objs[obj].class == "" {
		return -1
	}
	return obj
}

// argTexts are the texts of a call's arguments.
func (x *exec) argTexts(list parser.NodeID) []string {
	var out []string
	for c := range x.f.NamedChildren(list) {
		out = append(out, x.text(c))
	}
	return out
}

// elemOwned is the object an element that is a smart pointer owns, for
// a dereference through it (q.top()->f()).
func (x *exec) elemOwned(s *state, v value) (value, bool) {
	if v.kind != tRef || v.pt < 0 || int(v.pt) >= len(s.objs) {
		return v, false
	}
	if el := s.objs[v.pt].elem; el != tUnique && el != tShared {
		return v, false
	}
	return borrowOf(s.part(v.pt, posOwned), tPointer), true
}

// derefMoved reports a dereference of a smart pointer moved from: it is
// null (cppreference unique_ptr's move constructor: "u is left empty";
// shared_ptr's likewise).
func (x *exec) derefMoved(s *state, v value, n parser.NodeID) {
	if v.from < 0 || int(v.from) >= len(s.locals) {
		return
	}
	l := &s.locals[v.from]
	if !l.movedFrom || (l.typ != tUnique && l.typ != tShared) {
		return
	}
	x.fault(Fault{Kind: UseAfterMove, Use: n, End: parser.None, Via: "std::move", Value: x.text(n), Owner: l.name})
	l.movedFrom = false
}

// treeFunction says an unqualified call of name is a function the file or
// the tree declares with that many arguments: its declaration says what
// it returns, not a standard function or type of that name (a
// to_string(Kind) of the tree returning const std::string&).
func (x *exec) treeFunction(fn parser.NodeID, name string, list parser.NodeID) bool {
	if x.kind(fn) != parser.KindIdentifier || x.opt.Summaries == nil {
		return false
	}
	c := x.opt.Summaries.Call(name, x.argCount(list), x.scope())
	return c.Known || c.Defined
}

// constIndex says a subscript's index list ([k]) is one number literal.
func (x *exec) constIndex(idx parser.NodeID) bool {
	if x.kind(idx) == parser.KindNumberLiteral {
		return true
	}
	n, last := 0, parser.None
	for c := range x.f.NamedChildren(idx) {
		n++
		last = c
	}
	return n == 1 && x.kind(last) == parser.KindNumberLiteral
}

// calleeName is a callee's text without template arguments and spaces.
func calleeName(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>':
			if depth > 0 {
				depth--
			}
		case depth > 0, r == ' ', r == '\n', r == '\t':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isString says v is a std::string: a local or parameter declared as one,
// or a temporary string a call or a concatenation made.
func (x *exec) isString(s *state, v value) bool {
	if v.kind != tStorage && v.kind != tRef {
		return false
	}
	if v.from >= 0 && int(v.from) < len(s.locals) {
		switch s.locals[v.from].tname {
		case "string", "wstring", "u16string", "u32string", "basic_string":
			return true
		}
		return false
	}
	return v.kind == tStorage && v.owns >= 0 && int(v.owns) < len(s.objs) && s.objs[v.owns].kind == oTemp
}

// shrinks says argument list of resize on recv is one smaller than its
// size: recv.size() - k or recv.length() - k, k a number or a name.
func (x *exec) shrinks(recv, list parser.NodeID) bool {
	f := x.f
	var arg parser.NodeID
	n := 0
	for c := range f.NamedChildren(list) {
		arg = c
		n++
	}
	if n != 1 || x.kind(arg) != parser.KindBinaryExpression || x.text(f.Field(arg, parser.FieldOperator)) != "-" {
		return false
	}
	size := f.Field(arg, parser.FieldLeft)
	if k := x.kind(f.Field(arg, parser.FieldRight)); k != parser.KindNumberLiteral && k != parser.KindIdentifier {
		return false
	}
	if x.kind(size) != parser.KindCallExpression || hasNamedChild(f, f.Field(size, parser.FieldArguments)) {
		return false
	}
	fn := f.Field(size, parser.FieldFunction)
	if x.kind(fn) != parser.KindFieldExpression {
		return false
	}
	m := x.text(f.Field(fn, parser.FieldField))
	return (m == "size" || m == "length") && x.text(f.Field(fn, parser.FieldArgument)) == x.text(recv)
}

// bracedView is a view initialised from a braced list, as in
// ArrayRef<T> a = {x, y}: the list of values is an std::initializer_list
// whose array is a temporary of the full expression ([dcl.init.list]: the
// array lives as long as the initializer_list object, here the
// constructor's parameter), so the view points into a temporary. Only
// lists that are surely values count: number literals, results returned
// by value, locals of arithmetic type, not arrays (one element a view may
// point to itself, and {p, n} is a pointer and a size, as is {array, n}:
// an array is its first element's address); anything else is the list's
// own value.
func (x *exec) bracedView(s *state, init parser.NodeID) value {
	vs := x.args(s, init)
	n := len(vs)
	if n == 0 {
		return unknown
	}
	i := 0
	for c := range x.f.NamedChildren(init) {
		if i >= n {
			break
		}
		v := vs[i]
		i++
		switch {
		case x.kind(c) == parser.KindNumberLiteral || v.prvalue && v.kind != tPointer && v.kind != tView:
		case n > 1 && v.from >= 0 && int(v.from) < len(s.locals) && arithmetic[s.locals[v.from].tname] && s.locals[v.from].typ == tPlain && !s.locals[v.from].ref && !s.locals[v.from].array:
		default:
			if n == 1 {
				return vs[0]
			}
			return unknown
		}
	}
	t := s.newObj(object{kind: oTemp, owner: x.text(init)})
	s.temps = append(s.temps, t)
	return borrowOf(t, tView)
}

// argAt is argument k of a call's argument list, or the list itself when
// it has fewer.
func (x *exec) argAt(list parser.NodeID, k int) parser.NodeID {
	i := 0
	for c := range x.f.NamedChildren(list) {
		if i == k {
			return c
		}
		i++
	}
	return list
}

// neverReturns says the call of name (function fn) never returns: one
// documented so, or a function or macro of the tree that never does (see
// Summaries.NoReturn). A member call is a method's, never one of these.
func (x *exec) neverReturns(name string, fn parser.NodeID) bool {
	if ExitKnown(x.opt.API)(name) {
		return true
	}
	if k := x.kind(fn); k != parser.KindIdentifier && k != parser.KindQualifiedIdentifier {
		return false
	}
	return x.opt.Summaries != nil && x.opt.Summaries.NoReturn(name)
}

// checked executes a check of condition c, an argument of list (negated
// when neg): the path that goes on knows c holds; one where c is already
// false ends here. The other arguments are evaluated.
func (x *exec) checked(s *state, list, c parser.NodeID, neg bool) value {
	b := x.cond(s, c)
	if neg {
		b = b.negate()
	}
	if b.t == 2 {
		s.flow = exited
		return unknown
	}
	s.cons = append(s.cons, b.yes...)
	for a := range x.f.NamedChildren(list) {
		if a != c {
			x.eval(s, a)
		}
	}
	return unknown
}

// checkedArg is the argument (index + 1) a call of a checking macro
// checks (see Summaries.MacroChecks), or 0.
func (x *exec) checkedArg(name string, fn parser.NodeID) int {
	if x.kind(fn) != parser.KindIdentifier || x.opt.Summaries == nil || failureExit(name) {
		return 0
	}
	return x.opt.Summaries.MacroChecks(name)
}

// reassigned: argument arg names a local pointer handed to a parameter
// declared as a reference to a pointer (see Call.Reassigns): the call may
// store a new pointer in it, and what the path knew of it is forgotten.
func (x *exec) reassigned(s *state, arg parser.NodeID) {
	if x.kind(arg) != parser.KindIdentifier {
		return
	}
	name := x.text(arg)
	i := s.lookup(name)
	if i < 0 {
		return
	}
	if l := &s.locals[i]; l.typ == tPointer {
		// It points to what the call stored there: one object, not
		// known but the same through every later read of the pointer.
		l.val = unknown
		l.val.kind = tPointer
		s.forget(name)
		x.pointee(s, l)
	}
}

// argCount counts the arguments of argument list args.
func (x *exec) argCount(args parser.NodeID) int {
	n := 0
	for c := range x.f.NamedChildren(args) {
		if x.kind(c) != parser.KindComment {
			n++
		}
	}
	return n
}

// elementStores turns a constructor's stores ("k:member", see keep) into
// an element's in a container: every element keeps its own, so what one
// keeps adds to what the others do.
func elementStores(stores string) string {
	parts := strings.Split(stores, ",")
	for i, st := range parts {
		if arg, member, ok := strings.Cut(st, ":"); ok && !strings.HasSuffix(member, "[]") {
			parts[i] = arg + ":" + member + "[]"
		}
	}
	return strings.Join(parts, ",")
}

// declaredType is the type a local is declared with, aliases resolved.
func (x *exec) declaredType(l *local) string {
	for d := l.decl; d != parser.None; d = x.f.Nodes[d].Parent {
		if t := x.f.Field(d, parser.FieldType); t != parser.None {
			return x.resolve(x.text(t))
		}
		if x.kind(d) != parser.KindInitDeclarator && x.kind(d) != parser.KindIdentifier {
			break
		}
	}
	return ""
}

// bracedAggregate says list is a braced list initialising obj, an object
// of an aggregate class.
func (x *exec) bracedAggregate(s *state, obj int32, list parser.NodeID) bool {
	c := s.objs[obj].class
	return x.kind(list) == parser.KindInitializerList && c != "" && x.opt.Members != nil && x.opt.Members(c)["(agg)"] != ""
}

// elementKeepsBuffer says obj, a container's storage or an element of it,
// belongs to a local or member container whose elements keep their
// buffers when moved (see elementsMoveBuffers), as its declaration says.
func (x *exec) elementKeepsBuffer(s *state, obj int32) bool {
	typ := x.containerType(s, obj)
	return typ != "" && elementsMoveBuffers(typ)
}

// containerType is the declared type (aliases resolved) of the local or
// member container whose storage obj is, or is an element of; "" when
// not known.
func (x *exec) containerType(s *state, obj int32) string {
	for i := 0; obj >= 0 && int(obj) < len(s.objs) && s.objs[obj].parent > 0 && i < 8; i++ {
		obj = s.objs[obj].parent - 1
	}
	for i := range s.locals {
		l := &s.locals[i]
		if l.typ != tStorage || l.val.owns != obj {
			continue
		}
		if l.member && x.classMembers[l.name] != "" {
			// A data member: its type is the class's declaration's.
			return x.resolve(x.classMembers[l.name])
		}
		if l.decl == parser.None {
			continue
		}
		p := x.f.Nodes[l.decl].Parent
		switch x.kind(p) {
		case parser.KindDeclaration, parser.KindParameterDeclaration, parser.KindOptionalParameterDeclaration, parser.KindFieldDeclaration:
			return x.resolve(x.text(x.f.Field(p, parser.FieldType)))
		}
		return ""
	}
	return ""
}

// objectClass is the class of object obj: its own, or for an element of
// a container (front(), back(), v[i]) the element type its container's
// declaration names.
func (x *exec) objectClass(s *state, obj int32) string {
	if c := s.objClass(obj); c != "" || obj < 0 || int(obj) >= len(s.objs) {
		return c
	}
	switch o := s.objs[obj]; {
	case o.parent == 0, o.pos == posOwned, o.pos == posField, o.pos == posHeld:
		return ""
	}
	return templateArg(x.containerType(s, obj))
}

// copyOf says argument list list (of values vs) is one object of class
// itself: T{a, b} or T(a) made there, or a local of T. The element is then
// copied or moved from it ([class.copy.ctor]), keeping what it keeps, not
// the argument itself (an aggregate's one-argument initialisation would
// bind its first member to the argument).
func (x *exec) copyOf(s *state, list parser.NodeID, vs []value, class string) bool {
	if len(vs) != 1 {
		return false
	}
	arg := x.argAt(list, 0)
	if arg == list {
		return false
	}
	arg = x.unparen(arg)
	if x.constructs(arg, class) {
		return true
	}
	if x.kind(arg) == parser.KindCompoundLiteralExpression && typeName(x.text(x.f.Field(arg, parser.FieldType))) == class {
		// T<U>{a, b}: constructs compares the name as written.
		return true
	}
	v := vs[0]
	if v.from >= 0 && int(v.from) < len(s.locals) {
		l := s.locals[v.from]
		return l.typ == tPlain && l.tname == class
	}
	return false
}

// sameClassArg says expression arg is an object of class: a T(...) it
// constructs, a local declared a T, or a call that returns a T by value.
func (x *exec) sameClassArg(s *state, arg parser.NodeID, class string) bool {
	f := x.f
	arg = x.unparen(arg)
	if x.constructs(arg, class) {
		return true
	}
	switch x.kind(arg) {
	case parser.KindIdentifier:
		i := s.lookup(x.text(arg))
		return i >= 0 && s.locals[i].typ == tPlain && s.locals[i].tname == class
	case parser.KindCallExpression:
	default:
		return false
	}
	fn := f.Field(arg, parser.FieldFunction)
	if x.kind(fn) == parser.KindFieldExpression {
		recv := f.Field(fn, parser.FieldArgument)
		i := s.lookup(x.text(recv))
		if x.kind(recv) != parser.KindIdentifier || i < 0 || x.opt.Members == nil {
			return false
		}
		cls := s.locals[i].tname
		if cls == "" {
			return false
		}
		_, _, typ := returnsByValue(x.opt.Members(cls), x.text(f.Field(fn, parser.FieldField)), -1)
		return typ != "" && typeName(typ) == class
	}
	if x.opt.Summaries == nil {
		return false
	}
	c := x.opt.Summaries.Call(calleeName(x.text(fn)), x.argCount(f.Field(arg, parser.FieldArguments)), x.scope())
	return c.ByValue && c.Type != "" && typeName(c.Type) == class
}

// nextNode is a fresh element of the node-based container (a map, a set,
// a list) whose element iterator v points to: the node an increment or
// decrement moves it to ([associative.reqmts], [list.modifiers]: erasing
// invalidates only iterators to the erased element).
func (x *exec) nextNode(s *state, v value) (int32, bool) {
	if v.kind != tIter || v.pt < 0 || int(v.pt) >= len(s.objs) {
		return -1, false
	}
	e := s.objs[v.pt]
	if e.pos != posKeyed || e.parent <= 0 || e.state != live {
		return -1, false
	}
	c := e.parent - 1
	if fam := s.objs[c].fam; fam != famAssoc && fam != famNodes {
		return -1, false
	}
	return x.keyed(s, c, ""), true
}

// thisMember says e is this->m for a data member m the method's execution
// has a local for, and names it.
func (x *exec) thisMember(s *state, e parser.NodeID) (string, bool) {
	if x.kind(e) != parser.KindFieldExpression || x.kind(x.f.Field(e, parser.FieldArgument)) != parser.KindThis {
		return "", false
	}
	m := x.text(x.f.Field(e, parser.FieldField))
	if i := s.lookup(m); i >= 0 && s.locals[i].member {
		return m, true
	}
	return "", false
}

// reachHeld: method m of obj's class was called. An object obj keeps a
// pointer to, in a member m reads (or any, when m's code is not known), may
// have its own methods called there; what such an object keeps in a member
// one of its own methods sets anew or clears (clear() { p_ = nullptr; })
// may be let go of, so it is no longer taken to be kept.
func (x *exec) reachHeld(s *state, obj int32, facts map[string]string, m string) {
	o := s.objs[obj]
	if len(o.holds) == 0 || x.opt.Members == nil {
		return
	}
	read, all := mayRead(facts, m)
	for i, t := range o.holds {
		if i >= len(o.heldAs) || t < 0 || int(t) >= len(s.objs) || t == obj {
			continue
		}
		if !all && !read[strings.TrimSuffix(o.heldAs[i], "[]")] {
			continue
		}
		x.mayLetGo(s, t)
	}
}

// mayLetGo: code that can reach object t may call its methods, so what t
// keeps in a member one of its methods sets anew or clears is no longer
// taken to be kept (see settableMembers).
func (x *exec) mayLetGo(s *state, t int32) {
	if t < 0 || int(t) >= len(s.objs) || x.opt.Members == nil {
		return
	}
	tg := &s.objs[t]
	if len(tg.holds) == 0 || tg.class == "" {
		return
	}
	settable := settableMembers(x.opt.Members(tg.class), tg.class)
	if len(settable) == 0 {
		return
	}
	tg.letGoOf(func(member string) bool { return settable[member] })
}

// settableMembers lists the members some method of the class (not a
// constructor or the destructor) sets anew or clears.
func settableMembers(facts map[string]string, class string) map[string]bool {
	out := map[string]bool{}
	for k, v := range facts {
		method, ok := strings.CutPrefix(k, "(set:")
		if !ok {
			continue
		}
		method = strings.TrimSuffix(method, ")")
		if method == lastName(class) || strings.HasPrefix(method, "~") {
			continue
		}
		for _, name := range strings.Split(v, ",") {
			if name != "-" && name != "" {
				out[name] = true
			}
		}
	}
	return out
}
