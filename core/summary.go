package core

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/internal/budget"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

// Call is what a call does that the core follows, as the callee's code
// says: computed by executing the callee (FileSummaries) or read from the
// tree's summaries.
type Call struct {
	// Frees lists the arguments (0-based) it frees on every path.
	Frees []int
	// ByValue: it returns an object by value, so the call's result is a
	// temporary of the caller's full expression. Storage: that object
	// owns a buffer (a container or a string).
	ByValue, Storage bool
	// Type is the declared type of the object it returns by value, as
	// written without const ("" when not by value, or when declarations
	// disagree): a temporary of that type, whose destructor runs at the
	// end of the caller's full expression.
	Type string
	// RetParam (1-based; 0: none) is the position of the callee's
	// template type parameter that its declared return type names
	// (template <class T> T f()): the call returns by value unless its
	// explicit template argument there is a reference type, and owns a
	// buffer when that argument is a container or string.
	RetParam int
	// Refers is the argument (+1; 0: none) whose object the returned
	// reference or pointer refers to or into (a member of it), on every
	// path: the object a reference parameter is bound to, or what a
	// pointer parameter points to. RefersPtr: it returns a pointer (else
	// a reference). So pick(make()) refers to a temporary that ends with
	// the caller's full expression.
	Refers    int
	RefersPtr bool
	// ReferType is the type name (see typeName) of that parameter: an
	// argument of another type is not the one it refers to (the call
	// matched another function of the same name and arity).
	ReferType string
	// ReferDeref: that parameter is a pointer, so the result refers to
	// what the argument points to.
	ReferDeref bool
	// Holds lists "k:M" (or "k*:M" when parameter k is a pointer): the
	// object it returns by value holds, as member M ("" when not known),
	// what parameter k refers to, on every path that returns (a factory
	// returning T{&arg}, or a local it made keep the argument). The
	// caller's object then points where the argument does.
	Holds []string
	// Bound lists the parameters (0-based) a declaration marks
	// lifetimebound ([[clang::lifetimebound]], or a macro a pack names:
	// Clang's attribute reference, "objects that are referred to by that
	// parameter may also be referred to by the return value"): the result
	// refers to a temporary handed to one of them, or to the one argument
	// when one parameter is marked. RefersView: the result is a view (see
	// RefersPtr).
	Bound      []int
	RefersView bool
	// Reassigns lists the parameters declared as non-const references
	// to a pointer (T*&): the call may store a new pointer in the
	// argument, so what the caller knew of it is forgotten.
	Reassigns []int
	// Known says a function of that name and arity is declared or
	// defined where the answer comes from: the call runs a function, it
	// does not make an object of a class of that name.
	Known bool
	// Defined says the answer comes from a definition of the function
	// (its code was read), not only from declarations.
	Defined bool
	// Keeps lists the parameters the function may keep past the call:
	// it stores what they point to, returns it, or hands it to code that
	// may (a definition's answer only).
	Keeps []int
	// Ran says the answer comes from executing the function's one
	// definition in the file, so Derefs lists every pointer argument
	// whose memory it reaches: one it does not reach (a pointer only
	// compared or converted to an integer) is handed on unread.
	Ran bool
	// Borrows is the argument (+1; 0: none) whose container storage the
	// returned reference or pointer points into, on every path.
	Borrows int
	// FreesDeref lists the pointer-to-pointer arguments (T** pp) through
	// which it frees, on every path, the pointer stored there (delete *pp):
	// f(&p) frees what p points to.
	FreesDeref []int
	// FreesFields lists the pointer fields, "k.field", of what pointer
	// argument k points to that it frees on every path that returns and
	// leaves pointing at the freed memory (free(c->buf) with no c->buf =
	// NULL after it): f(c) then c->buf[0] reads freed memory.
	FreesFields []string
	// StoresIn lists "i>j.field": on every path that returns, the
	// pointer field of what pointer argument j points to holds what
	// pointer argument i points to (q->field = p): f(&local, q) leaves
	// q->field pointing at the local.
	StoresIn []string
	// Fields lists the object arguments it only reads fields of, and
	// which (see FieldReads).
	Fields []string
	// Derefs lists the pointer arguments whose memory it reads or writes
	// on some path (directly or through the calls it makes): handing it a
	// pointer to ended memory is a use.
	Derefs []int
	// Grows lists the container arguments whose storage it replaces
	// (grows, clears) on every path.
	Grows []int
	// Queues is the device work it leaves pending on its arguments on
	// every path that returns.
	Queues []Queued
}

// Queued is device work a function queues on its arguments and does not
// wait for: the pointer arguments it reads and writes, and the argument
// naming its queue (-1: the default stream).
type Queued struct {
	Reads, Writes []int
	Queue         int
	What          string // the call that queues it
	// PinnedOnly: host memory counts only when it is page-locked.
	PinnedOnly bool
}

// Summaries tells what a call does.
type Summaries interface {
	// Call describes the named call with nargs arguments, made from
	// namespace scope (see parser.File.Scope); the zero Call when nothing
	// is known.
	Call(name string, nargs int, scope string) Call
	// Unqualified is Call for an unqualified name that names no method of
	// the calling method's class or its bases: only a function of a
	// namespace can be it ([basic.lookup.unqual]).
	Unqualified(name string, nargs int, scope string) Call
	// NoReturn says a call of name never returns (see FileSummaries.NoReturn).
	NoReturn(name string) bool
	// MacroReturns says name is a macro whose expansion returns from the
	// function it is used in on every path (see FileSummaries.MacroReturns).
	MacroReturns(name string) bool
	// MacroChecks is the parameter (index + 1) a macro checks, ending the
	// path where it is false (see FileSummaries.MacroChecks); 0: none.
	MacroChecks(name string) int
	// MacroReturnIf is the condition under which a macro returns from the
	// function it is used in (see summary.Exit.ReturnIf); "": none.
	MacroReturnIf(name string) string
	// MacroNotRun is the parameters a macro names only where it
	// returns (see summary.Exit.NotRun); nil: none.
	MacroNotRun(name string) []int
}

// FileSummaries answers for the functions a file defines, by executing
// them, and for the return types the file declares. Calls are matched by
// the last component of the name and the number of arguments, and only
// when the file defines one function of that name and arity (a return
// type, when every declaration of that name and arity agrees).
type FileSummaries struct {
	f     *parser.File
	defs  map[sumKey][]parser.NodeID
	decls map[sumKey][]parser.NodeID
	calls map[sumKey]Call
	busy  map[sumKey]bool
	// bounds: what each name and arity marks lifetimebound (see Call).
	bounds map[sumKey]bound
	// Next answers for what the file does not define (nil: nothing).
	Next Summaries
	// API is what the packs say of library calls, for executing the
	// file's functions (nil: no device).
	API *apimodel.Model
	// Members answers for the data members of classes (see FileMembers;
	// nil: none are followed).
	Members func(class string) map[string]string
	// Alias answers what type aliases name (see FileAliases).
	Alias func(name string) string
	// Meter is the file's work budget (see Options.Meter).
	Meter *budget.Meter
	// Globals are the variables the file declares at namespace scope
	// (see Options.Globals).
	Globals map[string]string
	// keys: each definition's name and arity.
	keys map[parser.NodeID]sumKey
	// runs: executions made for a summary whose faults Execute has not
	// taken yet (see Execute).
	runs map[parser.NodeID]Result
	// busyHits counts the calls answered without a summary because their
	// function was being summarised: an execution during which it grew
	// saw a partial answer, and is not shared.
	busyHits int
	// facts: the class facts answered, with what the destructor hands to
	// functions that give nothing up taken out (see ClassFacts).
	facts map[string]map[string]string
	// exits: what the file's functions and macros say of returning, by
	// name, and exitDefs the definitions of each name (see exitsNamed;
	// nil: not read yet).
	exits    map[string][]summary.Exit
	exitDefs map[string]int
	// noReturn decides the calls that never return (see NoReturn).
	noReturn *summary.NoReturns
}

type sumKey struct {
	name  string
	nargs int
}

// NewFileSummaries indexes the function definitions and declarations of f.
func NewFileSummaries(f *parser.File) *FileSummaries {
	fs := &FileSummaries{f: f, defs: map[sumKey][]parser.NodeID{}, decls: map[sumKey][]parser.NodeID{},
		calls: map[sumKey]Call{}, busy: map[sumKey]bool{}, bounds: map[sumKey]bound{},
		keys: map[parser.NodeID]sumKey{}, runs: map[parser.NodeID]Result{}, facts: map[string]map[string]string{}}
	x := &exec{f: f}
	for i := range f.Nodes {
		n := parser.NodeID(i)
		switch f.Nodes[n].Kind {
		case parser.KindFunctionDefinition, parser.KindDeclaration, parser.KindFieldDeclaration:
		default:
			continue
		}
		fd, _ := x.funcDeclarator(n)
		if fd == parser.None || x.kind(fd) != parser.KindFunctionDeclarator {
			fs.global(x, n)
			continue
		}
		name := lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))))
		if strings.HasPrefix(name, "operator") {
			name = strings.Join(strings.Fields(name), "") // operator +, operator+
		}
		nargs := 0
		for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
			if k := f.Kind(p); k == parser.KindParameterDeclaration || k == parser.KindOptionalParameterDeclaration {
				nargs++
			}
		}
		k := sumKey{name, nargs}
		fs.decls[k] = append(fs.decls[k], n)
		if f.Nodes[n].Kind == parser.KindFunctionDefinition {
			fs.defs[k] = append(fs.defs[k], n)
			fs.keys[n] = k
		}
	}
	fs.dropCallsReadAsDeclarations()
	return fs
}

// dropCallsReadAsDeclarations removes the declarations in function
// bodies whose "result type" is the name of a function of the file:
// consume(FWD(decltype(r), r)); reads as a declaration of a function FWD
// returning a consume, and is a call of consume. What it would say of
// FWD's result is not taken.
func (fs *FileSummaries) dropCallsReadAsDeclarations() {
	f := fs.f
	funcs := map[string]bool{}
	for k := range fs.decls {
		funcs[k.name] = true
	}
	for k, ds := range fs.decls {
		kept := slices.DeleteFunc(slices.Clone(ds), func(n parser.NodeID) bool {
			return f.Nodes[n].Kind == parser.KindDeclaration && inBody(f, n) && funcs[lastName(typeName(f.Text(f.Field(n, parser.FieldType))))]
		})
		if len(kept) == 0 {
			delete(fs.decls, k)
		} else {
			fs.decls[k] = kept
		}
	}
}

// global records the variables declaration n declares at namespace
// scope, with their declared types ("T*" for a pointer declarator).
func (fs *FileSummaries) global(x *exec, n parser.NodeID) {
	f := fs.f
	if !namespaceScope(f, n) {
		return
	}
	typ := strings.TrimSpace(f.Text(f.Field(n, parser.FieldType)))
	for d := range f.NamedChildren(n) {
		if f.Nodes[d].Field != parser.FieldDeclarator {
			continue
		}
		if x.kind(d) == parser.KindInitDeclarator {
			d = f.Field(d, parser.FieldDeclarator)
		}
		name, ptr, ref := x.declName(d)
		if name == "" || ref {
			continue
		}
		t := typ
		if ptr {
			t += "*"
		}
		if fs.Globals == nil {
			fs.Globals = map[string]string{}
		}
		if have, ok := fs.Globals[name]; ok && have != t {
			t = "" // declared twice, differently: not known
		}
		fs.Globals[name] = t
	}
}

func lastName(s string) string {
	for i := len(s) - 1; i > 0; i-- {
		if s[i] == ':' && s[i-1] == ':' {
			return s[i+1:]
		}
	}
	return s
}

// Returns reads what a function declaration or definition returns: by
// value (a temporary at each call), and whether that value owns a
// buffer. A reference, pointer, void, auto or constructor is not by value.
func Returns(f *parser.File, decl parser.NodeID) (byValue, storage bool) {
	x := &exec{f: f}
	fd, rk := x.funcDeclarator(decl)
	if fd == parser.None || rk != tPlain {
		return false, false
	}
	if d := f.Field(decl, parser.FieldDeclarator); d != parser.None && x.kind(d) == parser.KindReferenceDeclarator {
		// T&& f(): an rvalue reference, not a value.
		return false, false
	}
	typ := f.Field(decl, parser.FieldType)
	if typ == parser.None {
		return false, false
	}
	if x.kind(typ) == parser.KindDependentType {
		// typename Traits<T>::result_type: a member type of a type that
		// depends on a template parameter, decided at instantiation
		// ([temp.dep.type]); a specialisation may make it a reference.
		return false, false
	}
	alias := ""
	switch x.kind(typ) {
	case parser.KindTypeIdentifier:
		alias = f.Text(typ) // using cref = const T&
	case parser.KindTemplateType:
		alias = lastName(f.Text(f.Field(typ, parser.FieldName))) // acquire_t<T> = typename X<T>::type
	}
	if alias != "" && f.MayNameReference(alias) {
		// An alias of a reference, or one that may name a reference.
		return false, false
	}
	if x.kind(typ) == parser.KindPlaceholderTypeSpecifier {
		// auto, decltype(auto), Concept auto, MACRO auto: deduced or
		// trailing (-> T&), not read.
		return false, false
	}
	switch t := f.Text(typ); t {
	case "void", "auto", "decltype(auto)":
		return false, false
	default:
		if x.kind(typ) == parser.KindTemplateType && refArgument(t) {
			// enable_if_t<C, const T&>, an alias template given a
			// reference type: what it names may be that reference.
			return false, false
		}
		if f.Field(fd, parser.FieldDeclarator) == parser.None {
			return false, false
		}
		return true, classify(t) == tStorage
	}
}

// refArgument says template-id t has a template argument that is a
// reference type (T&, const T&, T&&) at its top level.
func refArgument(t string) bool {
	t = strings.TrimSpace(t)
	open := strings.IndexByte(t, '<')
	if open < 0 || !strings.HasSuffix(t, ">") {
		return false
	}
	angles, parens, start := 0, 0, open+1
	for i := open; i < len(t); i++ {
		switch c := t[i]; {
		case c == '(' || c == '[':
			parens++
		case c == ')' || c == ']':
			parens--
		case parens > 0:
		case c == '<':
			angles++
		case c == '>':
			angles--
			if angles == 0 {
				return strings.HasSuffix(strings.TrimSpace(t[start:i]), "&")
			}
		case c == ',' && angles == 1:
			if strings.HasSuffix(strings.TrimSpace(t[start:i]), "&") {
				return true
			}
			start = i + 1
		}
	}
	return false
}

// ResultType is the declared type of what decl returns by value, as
// written without const, or "" (see Returns).
func ResultType(f *parser.File, decl parser.NodeID) string {
	if bv, _ := Returns(f, decl); !bv {
		return ""
	}
	t := strings.TrimSpace(f.Text(f.Field(decl, parser.FieldType)))
	return strings.TrimSpace(strings.TrimPrefix(t, "const "))
}

// Declared is what a function declaration at namespace scope says of the
// function's result, for one the file declares and does not define.
type Declared struct {
	Name             string // its last component
	Arity            int
	ByValue, Storage bool
	Type             string // see Call.Type
	RetParam         int
	// Bound, RefersPtr, RefersView: see Call (api names the macros that
	// mark a parameter lifetimebound).
	Bound                 []int
	RefersPtr, RefersView bool
	Reassigns             []int
	// Namespace: the namespace every declaration is in ("" for the
	// global one, or when they differ).
	Namespace string
}

// Declarations lists the free functions f declares at namespace scope,
// does not define, and that return something: a header's promise of what
// a call returns (by value or not), for the files that call them.
// Declarations that disagree on a template parameter returned are left
// out; overloads of one arity return by value only when all do.
func Declarations(f *parser.File, api *apimodel.Model) []Declared {
	fs := NewFileSummaries(f)
	var out []Declared
	for _, k := range slices.SortedFunc(maps.Keys(fs.decls), func(a, b sumKey) int {
		if a.name != b.name {
			return strings.Compare(a.name, b.name)
		}
		return a.nargs - b.nargs
	}) {
		decls := fs.decls[k]
		// An operator is found by its operands' classes wherever it is
		// declared (a friend defined in a class, a member): what its
		// declarations return is said of it, defined or not.
		op := strings.HasPrefix(k.name, "operator")
		if len(fs.defs[k]) > 0 && !op || len(decls) > maxDecls {
			continue
		}
		d := Declared{Name: k.name, Arity: k.nargs, ByValue: true, Storage: true, RetParam: RetParam(f, decls[0]), Type: ResultType(f, decls[0])}
		d.Namespace, _ = f.Namespace(decls[0])
		ok := true
		for _, n := range decls {
			if ns, _ := f.Namespace(n); ns != d.Namespace {
				d.Namespace = ""
			}
			if !namespaceScope(f, n) && !op || RetParam(f, n) != d.RetParam {
				ok = false
				break
			}
			bv, st := Returns(f, n)
			d.ByValue, d.Storage = d.ByValue && bv, d.Storage && st
			if ResultType(f, n) != d.Type {
				d.Type = ""
			}
		}
		d.Bound, d.RefersPtr, d.RefersView = boundOf(f, decls, api)
		for _, n := range decls {
			d.Reassigns = summary.Union(d.Reassigns, ReassignedParams(f, n))
		}
		if void := returnsVoid(f, decls[0]); void && len(d.Reassigns) > 0 {
			// Said only for what it may store in its arguments.
			d.ByValue, d.Storage, d.Type = false, false, ""
		} else if void {
			ok = false
		}
		if op {
			// Only what it returns: no frees, stores or queues are read
			// of an operator's declarations.
			d = Declared{Name: k.name, Arity: k.nargs, ByValue: d.ByValue, Storage: d.Storage, Namespace: d.Namespace}
		}
		if ok && k.name != "" && !strings.HasPrefix(k.name, "~") {
			out = append(out, d)
		}
	}
	return out
}

// returnsVoid says declaration n declares a function that returns
// nothing.
func returnsVoid(f *parser.File, n parser.NodeID) bool {
	x := &exec{f: f}
	_, rk := x.funcDeclarator(n)
	return rk == tPlain && strings.TrimSpace(f.Text(f.Field(n, parser.FieldType))) == "void"
}

// namespaceScope says declaration n is a free function's: at the top of
// the file or of a namespace, not in a class or a function body.
func namespaceScope(f *parser.File, n parser.NodeID) bool {
	if f.Kind(n) != parser.KindDeclaration || memberOnly(f, n) {
		return false
	}
	for p := f.Nodes[n].Parent; p != parser.None; p = f.Nodes[p].Parent {
		switch f.Kind(p) {
		case parser.KindTranslationUnit:
			return true
		case parser.KindDeclarationList, parser.KindNamespaceDefinition, parser.KindTemplateDeclaration,
			// An include guard or another conditional around it.
			parser.KindPreprocIf, parser.KindPreprocIfdef, parser.KindPreprocElse, parser.KindPreprocElif:
		default:
			if f.Nodes[p].Kind == parser.KindOther && strings.HasPrefix(f.Text(p), "extern") {
				continue // extern "C" { ... }
			}
			return false
		}
	}
	return false
}

// memberOnly says declaration n declares a function with what only a
// non-static member function may have: a cv- or ref-qualifier
// ([dcl.fct]: "a function type with a cv-qualifier-seq or a
// ref-qualifier shall appear only as the function type for a non-static
// member function"), or a virt-specifier ([class.mem]). Outside a class
// body it is a method whose class the parse lost (a class head its
// macros broke), not a function of the namespace.
func memberOnly(f *parser.File, n parser.NodeID) bool {
	fd, _ := (&exec{f: f}).funcDeclarator(n)
	if fd == parser.None || f.Kind(fd) != parser.KindFunctionDeclarator {
		return false
	}
	for c := range f.NamedChildren(fd) {
		switch f.Kind(c) {
		case parser.KindTypeQualifier:
			return true
		case parser.KindOther:
			switch f.Text(c) {
			case "&", "&&", "override", "final":
				return true
			}
		}
	}
	return false
}

// RetParam returns the position (1-based) of the template type parameter
// that function declaration decl's return type names, as in
// template <typename T> T f(); 0 when it names none.
func RetParam(f *parser.File, decl parser.NodeID) int {
	x := &exec{f: f}
	if _, rk := x.funcDeclarator(decl); rk != tPlain {
		return 0
	}
	if d := f.Field(decl, parser.FieldDeclarator); d == parser.None || x.kind(d) == parser.KindReferenceDeclarator {
		return 0
	}
	typ := strings.TrimSpace(f.Text(f.Field(decl, parser.FieldType)))
	typ = strings.TrimSpace(strings.TrimPrefix(typ, "const "))
	if typ == "" {
		return 0
	}
	t := f.Nodes[decl].Parent
	if t == parser.None || x.kind(t) != parser.KindTemplateDeclaration {
		return 0
	}
	return x.typeParamIndex(t, typ)
}

// typeParamIndex is the place (from 1) of type parameter name among the
// parameters of template declaration t, or 0.
func (x *exec) typeParamIndex(t parser.NodeID, name string) int {
	f := x.f
	i := 0
	for p := range f.NamedChildren(f.Field(t, parser.FieldParameters)) {
		i++
		if x.kind(p) != parser.KindTypeParameterDeclaration && x.kind(p) != parser.KindOptionalTypeParameterDeclaration {
			continue
		}
		if id := x.lastNamedChild(p); id != parser.None && f.Text(id) == name {
			return i
		}
		if x.kind(p) == parser.KindOptionalTypeParameterDeclaration && f.Text(f.Field(p, parser.FieldName)) == name {
			return i
		}
	}
	return 0
}

// ReturnsAt says what call n of a function whose facts are c returns:
// by value (a temporary), and whether that temporary owns a buffer. A
// return type that is a template parameter is the call's explicit
// template argument there: a reference type is no temporary; one
// deduced is a value.
func ReturnsAt(f *parser.File, n parser.NodeID, c Call) (byValue, storage bool) {
	byValue, storage, _ = returnsAt(f, n, c)
	return byValue, storage
}

// returnsAt is ReturnsAt with the type of the object returned by value
// (see Call.Type), "" when not known.
func returnsAt(f *parser.File, n parser.NodeID, c Call) (byValue, storage bool, typ string) {
	if c.RetParam <= 0 {
		if !c.ByValue {
			return false, false, ""
		}
		return c.ByValue, c.Storage, c.Type
	}
	fn := f.Field(n, parser.FieldFunction)
	for f.Kind(fn) == parser.KindQualifiedIdentifier {
		fn = f.Field(fn, parser.FieldName)
	}
	if f.Kind(fn) != parser.KindTemplateFunction {
		return c.ByValue, false, ""
	}
	i := 0
	for a := range f.NamedChildren(f.Field(fn, parser.FieldArguments)) {
		if i++; i != c.RetParam {
			continue
		}
		t := strings.TrimSpace(f.Text(a))
		if f.Kind(a) != parser.KindTypeDescriptor || strings.HasSuffix(t, "&") {
			return false, false, ""
		}
		if !c.ByValue {
			return false, false, ""
		}
		return true, classify(t) == tStorage, strings.TrimSpace(strings.TrimPrefix(t, "const "))
	}
	return c.ByValue, false, ""
}

// maxDecls bounds the declarations of one name and arity a file may have
// for a call of it to be read.
const maxDecls = 64

// Call implements Summaries. An operator (operator=, operator[]) is
// overloaded per class and its name alone does not say which one runs:
// nothing is said of it. A parameter the file's declarations or
// definition mark lifetimebound is bound (Call.Bound).
func (fs *FileSummaries) Call(name string, nargs int, scope string) Call {
	c := fs.call(name, nargs, scope)
	if strings.HasPrefix(lastName(name), "operator") {
		return c
	}
	k := sumKey{lastName(name), nargs}
	b, ok := fs.bounds[k]
	if !ok {
		if decls := append(slices.Clip(fs.decls[k]), fs.defs[k]...); len(decls) <= maxDecls {
			b.params, b.ptr, b.view = boundOf(fs.f, decls, fs.API)
			for _, d := range decls {
				b.reassigns = summary.Union(b.reassigns, ReassignedParams(fs.f, d))
			}
		}
		fs.bounds[k] = b
	}
	c.Reassigns = summary.Union(c.Reassigns, b.reassigns)
	if len(b.params) > 0 {
		for _, p := range b.params {
			if !slices.Contains(c.Bound, p) {
				c.Bound = append(slices.Clip(c.Bound), p)
			}
		}
		c.RefersPtr, c.RefersView = b.ptr, b.view
	}
	return c
}

// Unqualified implements Summaries: the file's declarations of the name
// that are all members of a class (declared in its body) are not it, so
// only the rest of the tree answers.
func (fs *FileSummaries) Unqualified(name string, nargs int, scope string) Call {
	all := fs.decls[sumKey{name, nargs}]
	if len(all) == 0 || strings.Contains(name, "::") || slices.ContainsFunc(all, func(n parser.NodeID) bool { return !fs.inClassBody(n) }) {
		// None, or some are functions of a namespace (a friend, an
		// out-of-line definition): which one it is is not told apart
		// here.
		return fs.Call(name, nargs, scope)
	}
	if fs.Next != nil {
		return fs.Next.Unqualified(name, nargs, scope)
	}
	return Call{}
}

// inClassBody says declaration or definition n is a member declared in
// a class body (a friend declared there is not one).
func (fs *FileSummaries) inClassBody(n parser.NodeID) bool {
	if fs.f.Kind(n) == parser.KindFieldDeclaration {
		return true
	}
	p := fs.f.Nodes[n].Parent
	if fs.f.Kind(p) == parser.KindTemplateDeclaration {
		p = fs.f.Nodes[p].Parent
	}
	return fs.f.Kind(n) == parser.KindFunctionDefinition && fs.f.Kind(p) == parser.KindFieldDeclarationList
}

// bound is what the declarations of one name and arity mark lifetimebound
// (see boundOf).
type bound struct {
	params    []int
	ptr, view bool
	reassigns []int // see Call.Reassigns
}

// boundOf is the union of the parameters declarations decls mark
// lifetimebound (sorted), and what they return (see BoundParams).
func boundOf(f *parser.File, decls []parser.NodeID, api *apimodel.Model) (params []int, ptr, view bool) {
	for _, d := range decls {
		b, p, v := BoundParams(f, d, api)
		for _, i := range b {
			if !slices.Contains(params, i) {
				params = append(params, i)
			}
		}
		if len(b) > 0 {
			ptr, view = p, v
		}
	}
	slices.Sort(params)
	return params, ptr, view
}

func (fs *FileSummaries) call(name string, nargs int, scope string) Call {
	if strings.HasPrefix(lastName(name), "operator") {
		// Overloaded per class: which one runs is not followed, and an
		// arity counts a parameter pack as one. Only that every
		// declaration returns a reference or pointer is said (const T&
		// operator+(const B&, const Offset<T>&) makes no temporary);
		// nothing else is.
		k := sumKey{strings.Join(strings.Fields(lastName(name)), ""), nargs}
		var out Call
		switch {
		case len(fs.decls[k]) == 0 && fs.Next != nil:
			out = fs.Next.Call(k.name, nargs, scope)
		case len(fs.decls[k]) == 0 || len(fs.decls[k]) > maxDecls:
			return Call{}
		default:
			out = fs.declared(k)
			out.Known = true
		}
		if !out.Known || out.ByValue || out.Storage {
			return Call{}
		}
		return Call{Known: true}
	}
	k := sumKey{lastName(name), nargs}
	if fs.otherNamespace(name, k) {
		// ns::f of a file whose every f is in another namespace: not
		// one of them.
		if fs.Next != nil {
			return fs.Next.Call(name, nargs, scope)
		}
		return Call{}
	}
	decls := fs.decls[k]
	if len(decls) > maxDecls {
		// Declared that many times in one file (generated code): which
		// one a call runs is not known.
		return Call{}
	}
	defs := fs.defs[k]
	if len(defs) == 1 {
		if r, ok := fs.calls[k]; ok {
			return r
		}
	}
	out := fs.declared(k)
	out.Known = len(decls) > 0
	if len(defs) == 0 && fs.Next != nil {
		// Declared here at most: the tree says what it does.
		next := fs.Next.Call(name, nargs, scope)
		if len(decls) == 0 {
			return next
		}
		next.ByValue, next.Storage, next.RetParam, next.Type = out.ByValue, out.Storage, out.RetParam, out.Type
		next.Known = true
		return next
	}
	if len(defs) != 1 {
		return out
	}
	if fs.busy[k] {
		fs.busyHits++
		return out
	}
	fs.busy[k] = true
	hits := fs.busyHits
	x := execute(fs.f, defs[0], fs.options())
	out = withSummary(out, summaryOf(x))
	out.Ran = !x.cut
	out.Defined, out.Keeps = true, keptParams(fs.f, defs[0])
	out.Fields = FieldReads(fs.f, defs[0])
	delete(fs.busy, k)
	fs.calls[k] = out
	if fs.busyHits == hits {
		// Every call it made had its full answer, as when Execute runs it
		// on its own: its faults serve Execute.
		fs.runs[defs[0]] = x.result()
	}
	return out
}

// otherNamespace says name is qualified by a namespace (std::get) and
// every function of the file of its name and arity k is declared in a
// namespace of another name, outside any class.
func (fs *FileSummaries) otherNamespace(name string, k sumKey) bool {
	i := strings.LastIndex(name, "::")
	if i <= 0 {
		return false
	}
	qual := strings.TrimPrefix(name[:i], "::")
	all := append(slices.Clip(fs.decls[k]), fs.defs[k]...)
	if len(all) == 0 {
		return false
	}
	for _, d := range all {
		if body := fs.f.Ancestor(d, parser.KindFieldDeclarationList); body != parser.None {
			// A member of class C is named C::f (or f in C's scope): a
			// name another qualifier qualifies (lib::get<0>(t) in a
			// class with a get of its own) is not it.
			if c := templateBase(className(fs.f.Text(fs.f.Field(fs.f.Nodes[body].Parent, parser.FieldName)))); c == "" || c == templateBase(lastName(qual)) {
				return false
			}
			continue
		}
		ns, _ := fs.f.Namespace(d)
		if ns == "" || ns == qual || strings.HasSuffix(ns, "::"+qual) {
			return false
		}
	}
	return true
}

// templateBase is a class name without its template arguments.
func templateBase(name string) string {
	if i := strings.IndexByte(name, '<'); i >= 0 {
		return name[:i]
	}
	return name
}

// declared is what the declarations of name and arity k say of a call:
// whether it returns by value or storage, which parameter it returns, its
// result type.
func (fs *FileSummaries) declared(k sumKey) Call {
	var out Call
	decls := fs.decls[k]
	if len(decls) == 0 {
		return out
	}
	out.ByValue, out.Storage = true, true
	out.RetParam = RetParam(fs.f, decls[0])
	out.Type = ResultType(fs.f, decls[0])
	for _, d := range decls {
		bv, st := Returns(fs.f, d)
		out.ByValue = out.ByValue && bv
		out.Storage = out.Storage && st
		if ResultType(fs.f, d) != out.Type {
			out.Type = ""
		}
		if RetParam(fs.f, d) != out.RetParam {
			// Declarations that disagree: none is known.
			out.ByValue, out.RetParam = false, 0
		}
	}
	return out
}

// withSummary is c with what an execution found of the function (r).
func withSummary(c, r Call) Call {
	c.Frees, c.Grows, c.Borrows, c.Queues, c.Derefs, c.FreesDeref = r.Frees, r.Grows, r.Borrows, r.Queues, r.Derefs, r.FreesDeref
	c.FreesFields, c.StoresIn, c.Holds = r.FreesFields, r.StoresIn, r.Holds
	c.Refers, c.RefersPtr, c.ReferType, c.ReferDeref = r.Refers, r.RefersPtr, r.ReferType, r.ReferDeref
	return c
}

// options are the options the file's functions are executed with.
func (fs *FileSummaries) options() Options {
	members := fs.Members
	if members != nil {
		members = fs.ClassFacts
	}
	return Options{Summaries: fs, API: fs.API, Members: members, Alias: fs.Alias, Globals: fs.Globals, Meter: fs.Meter}
}

// Execute runs definition def of the file (a function or a lambda) over
// every path with the file's summaries, as Execute does with
// fs.options(). A function executed once serves both its faults and its
// summary: an execution made to summarise it for a caller is returned
// here, and an execution made here becomes its summary for later callers,
// whenever the two would be the same run (no call met a function that
// was being summarised, and the function did not reach a call of itself).
func (fs *FileSummaries) Execute(def parser.NodeID) Result {
	if r, ok := fs.runs[def]; ok {
		delete(fs.runs, def)
		return r
	}
	hits := fs.busyHits
	x := execute(fs.f, def, fs.options())
	if k, ok := fs.keys[def]; ok && fs.busyHits == hits && len(fs.defs[k]) == 1 && len(fs.decls[k]) <= maxDecls && !strings.HasPrefix(k.name, "operator") {
		if _, done := fs.calls[k]; !done {
			c := withSummary(fs.declared(k), summaryOf(x))
			c.Ran = !x.cut
			c.Defined, c.Keeps = true, keptParams(fs.f, def)
			c.Fields = FieldReads(fs.f, def)
			fs.calls[k] = c
		}
	}
	return x.result()
}

// everyPath lists the parameters whose object (objs, by position; -1:
// none) satisfies ok on every path that returns.
func (x *exec) everyPath(objs []int32, ok func(object) bool) []int {
	var out []int
	for i, obj := range objs {
		if obj < 0 {
			continue
		}
		all := true
		for _, st := range x.returns {
			if int(obj) >= len(st.objs) || !ok(st.objs[obj]) {
				all = false
				break
			}
		}
		if all {
			out = append(out, i)
		}
	}
	return out
}

// freesDeref lists the parameters through which every path that returns
// freed the pointer stored where the parameter points (delete *pp).
func (x *exec) freesDeref() []int {
	var out []int
	for i, obj := range x.params {
		if obj < 0 {
			continue
		}
		all := true
		for _, st := range x.returns {
			if int(obj) >= len(st.objs) {
				all = false
				break
			}
			in := st.objs[obj].inner - 1
			if in < 0 || int(in) >= len(st.objs) || st.objs[in].state != freed {
				// *pp may hold another pointer now (delete *pp; *pp =
				// nullptr): what it held on entry is the object made at
				// the first read of it (see pointerIn).
				in = entryPointee(st, obj)
			}
			if in < 0 || st.objs[in].state != freed {
				all = false
				break
			}
		}
		if all {
			out = append(out, i)
		}
	}
	return out
}

// entryPointee is the object the pointer stored in parameter memory obj
// pointed to on entry, once a read made it (see pointerIn), or -1.
func entryPointee(st *state, obj int32) int32 {
	owner := "*" + st.objs[obj].owner
	for i := obj + 1; int(i) < len(st.objs); i++ {
		if o := &st.objs[i]; o.kind == oParam && o.owner == owner && o.parent == 0 {
			return i
		}
	}
	return -1
}

// freesFields lists "k.field" for the pointer fields of what pointer
// parameter k points to whose memory every returning path has freed and
// left the field pointing at (see Call.FreesFields).
func (x *exec) freesFields() []string {
	var out []string
	for i, obj := range x.params {
		if obj < 0 {
			continue
		}
		for _, f := range x.everyReturnField(obj, func(st *state, c object) []string {
			if int(c.inner-1) < len(st.objs) && st.objs[c.inner-1].state == freed {
				return []string{c.key}
			}
			return nil
		}) {
			out = append(out, fmt.Sprintf("%d.%s", i, f))
		}
	}
	return out
}

// storesIn lists "i>j.field" for the pointer fields of what pointer
// parameter j points to that hold what pointer parameter i points to on
// every path that returns (see Call.StoresIn).
func (x *exec) storesIn() []string {
	var out []string
	for j, obj := range x.params {
		if obj < 0 {
			continue
		}
		out = append(out, x.everyReturnField(obj, func(_ *state, c object) []string {
			var held []string
			for i, p := range x.params {
				if i != j && p >= 0 && c.inner-1 == p {
					held = append(held, fmt.Sprintf("%d>%d.%s", i, j, c.key))
				}
			}
			return held
		})...)
	}
	return out
}

// everyReturnField lists the facts that hold of the pointer fields of
// object obj on every path that returns: what says gives for each field
// cell holding a pointer, kept when every returning state gives it,
// sorted.
func (x *exec) everyReturnField(obj int32, says func(st *state, c object) []string) []string {
	var common []string
	for r, st := range x.returns {
		var these []string
		for k := range st.objs {
			if c := st.objs[k]; c.parent == obj+1 && c.pos == posField && c.inner != 0 {
				these = append(these, says(st, c)...)
			}
		}
		if r == 0 {
			common = these
			continue
		}
		common = slices.DeleteFunc(common, func(f string) bool { return !slices.Contains(these, f) })
	}
	slices.Sort(common)
	return slices.Compact(common)
}

// parseStoresIn reads "i>j.field" (see Call.StoresIn).
func parseStoresIn(s string) (from, to int, field string, ok bool) {
	a, rest, ok1 := strings.Cut(s, ">")
	b, field, ok2 := strings.Cut(rest, ".")
	i, err1 := strconv.Atoi(a)
	j, err2 := strconv.Atoi(b)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || i < 0 || j < 0 || field == "" {
		return 0, 0, "", false
	}
	return i, j, field, true
}

// borrowedArg is the container parameter (+1) every returned reference or
// pointer points into, or 0.
func (x *exec) borrowedArg() int {
	if x.retKind != tRef && x.retKind != tPointer {
		return 0
	}
	return x.onEveryReturn(func(st *state) int { return st.retArg })
}

// onEveryReturn is the parameter (+1) get names on every path that
// returns, or 0 when one names none or they differ.
func (x *exec) onEveryReturn(get func(*state) int) int {
	k := 0
	for _, st := range x.returns {
		if st.flow != returned || get(st) == 0 || k != 0 && get(st) != k {
			return 0
		}
		k = get(st)
	}
	return k
}

// referredParam is the parameter (+1) whose object v, as returned,
// points to or into, or 0: a pointer parameter's pointee, or the object a
// reference parameter is bound to (not a container's or smart pointer's:
// see returnedArg), when the function returns a pointer or a reference.
func (x *exec) referredParam(s *state, v value) int {
	// A pointer return hands on a pointer value; a reference return, a
	// reference. Returning *p or p->m by pointer returns what is stored
	// there, not a pointer into p's object.
	if !(x.retKind == tPointer && v.kind == tPointer || x.retKind == tRef && v.kind == tRef) || v.pt < 0 {
		return 0
	}
	for i, r := range x.referents {
		if r >= 0 && s.within(v.pt, r) {
			return i + 1
		}
	}
	return 0
}

// referredArg is the parameter (+1) every returning path's result refers
// to (see Call.Refers), and whether the result is a pointer.
func (x *exec) referredArg() (int, bool) {
	k := x.onEveryReturn(func(st *state) int { return st.retRef })
	return k, k > 0 && x.retKind == tPointer
}

// heldParams is what object obj, returned by value, holds of the
// parameters: "k:M" for each memory it holds as member M that parameter
// k refers to ("k*:M" when k is a pointer: what it points to).
func (x *exec) heldParams(s *state, obj int32) []string {
	if obj < 0 || int(obj) >= len(s.objs) {
		return nil
	}
	o := s.objs[obj]
	var out []string
	for i, h := range o.holds {
		m := ""
		if i < len(o.heldAs) {
			m = o.heldAs[i]
		}
		for k, r := range x.referents {
			if r < 0 || !s.within(h, r) {
				continue
			}
			e := strconv.Itoa(k)
			if x.params[k] >= 0 {
				e += "*"
			}
			if e += ":" + m; !slices.Contains(out, e) {
				out = append(out, e)
			}
			break
		}
	}
	return out
}

// heldOnEvery is what the object returned by value holds of the
// parameters on every path that returns (see Call.Holds).
func (x *exec) heldOnEvery() []string {
	var out []string
	for i, st := range x.returns {
		if st.flow != returned || len(st.retHolds) == 0 {
			return nil
		}
		if i == 0 {
			out = slices.Clone(st.retHolds)
			continue
		}
		out = slices.DeleteFunc(out, func(h string) bool { return !slices.Contains(st.retHolds, h) })
	}
	return out
}

// MayHold says function definition def returns an object by value, and
// one of its pointer or reference parameters is named in a return
// statement or in a declaration of a local of the result type: executing
// it can say what the object holds of its arguments (Call.Holds).
func MayHold(f *parser.File, def parser.NodeID) bool {
	x := &exec{f: f}
	fd, rk := x.funcDeclarator(def)
	result := ResultType(f, def)
	if fd == parser.None || rk != tPlain || typeName(result) == "" {
		return false
	}
	params := x.indirectParams(fd)
	if len(params) == 0 {
		return false
	}
	names := func(n parser.NodeID) bool {
		for m, e := n, f.End(n); m < e; m++ {
			if f.Nodes[m].Kind == parser.KindIdentifier && params[f.Text(m)] {
				return true
			}
		}
		return false
	}
	body := f.Field(def, parser.FieldBody)
	for n, end := body, f.End(body); n < end; n++ {
		switch f.Nodes[n].Kind {
		case parser.KindReturnStatement:
			if names(n) {
				return true
			}
		case parser.KindDeclaration:
			if typeName(f.Text(f.Field(n, parser.FieldType))) == typeName(result) && names(n) {
				return true
			}
		}
	}
	return false
}

// returnedArg is the container parameter (+1) whose current storage v
// points into, or 0.
func (x *exec) returnedArg(s *state, v value) int {
	for i, obj := range x.stores {
		if obj < 0 || x.storeNames[i] == "" {
			continue
		}
		if j := s.lookup(x.storeNames[i]); j >= 0 && s.locals[j].param && s.within(v.pt, s.locals[j].val.owns) {
			return i + 1
		}
	}
	return 0
}

// within says obj is root or a part of it (an element, what an element
// owns), following parents.
func (s *state) within(obj, root int32) bool {
	for range 8 {
		if obj < 0 || int(obj) >= len(s.objs) {
			return false
		}
		if obj == root {
			return true
		}
		obj = s.objs[obj].parent - 1
	}
	return false
}

// queuedOnEvery is the work left pending on the parameters at every
// return (the first path's, kept when every other path has the same).
func (x *exec) queuedOnEvery() []Queued {
	var first []Queued
	for i, st := range x.returns {
		qs := x.queued(st)
		if i == 0 {
			first = qs
			continue
		}
		first = slices.DeleteFunc(first, func(q Queued) bool {
			return !slices.ContainsFunc(qs, func(r Queued) bool {
				return r.Queue == q.Queue && slices.Equal(r.Reads, q.Reads) && slices.Equal(r.Writes, q.Writes)
			})
		})
	}
	return first
}

// MayGrow says definition def calls a method that may replace a
// container's buffer (push_back, resize, ...) on one of its parameters,
// or on what one points to: executing it can say it grows that argument
// on every path (Call.Grows).
func MayGrow(f *parser.File, def parser.NodeID) bool {
	x := &exec{f: f}
	fd, _ := x.funcDeclarator(def)
	if fd == parser.None {
		return false
	}
	params := x.indirectParams(fd)
	if len(params) == 0 {
		return false
	}
	end := f.End(def)
	for n := def; n < end; n++ {
		if f.Nodes[n].Kind != parser.KindCallExpression {
			continue
		}
		fn := f.Field(n, parser.FieldFunction)
		if f.Kind(fn) != parser.KindFieldExpression || !growMethods[f.Text(f.Field(fn, parser.FieldField))] {
			continue
		}
		arg := f.Field(fn, parser.FieldArgument)
		for f.Kind(arg) == parser.KindParenthesizedExpression || f.Kind(arg) == parser.KindPointerExpression {
			next := parser.None
			for c := range f.NamedChildren(arg) {
				next = c
				break
			}
			arg = next
		}
		if f.Kind(arg) == parser.KindIdentifier && params[f.Text(arg)] {
			return true
		}
	}
	return false
}

// BoundParams lists the parameters of function declaration or definition
// decl that are marked lifetimebound (an attribute naming lifetimebound,
// or a macro api names), and what the function returns: a pointer
// (ptr), a view (view) or else a reference. None when it returns none of
// these.
func BoundParams(f *parser.File, decl parser.NodeID, api *apimodel.Model) (bound []int, ptr, view bool) {
	x := &exec{f: f}
	fd, rk := x.funcDeclarator(decl)
	if rk == tPlain && classify(x.text(f.Field(decl, parser.FieldType))) == tView {
		rk = tView
	}
	if fd == parser.None || rk != tPointer && rk != tRef && rk != tView {
		return nil, false, false
	}
	for i, p := range parameters(f, fd) {
		for n, end := p, f.End(p); n < end; n++ {
			if f.Nodes[n].Kind != parser.KindIdentifier {
				continue
			}
			if t := f.Text(n); t == "lifetimebound" || api.IsBoundMacro(t) {
				bound = append(bound, i)
				break
			}
		}
	}
	return bound, rk == tPointer, rk == tView
}

// indirectParams names the pointer and reference parameters of function
// declarator fd.
func (x *exec) indirectParams(fd parser.NodeID) map[string]bool {
	params := map[string]bool{}
	for p := range x.f.NamedChildren(x.f.Field(fd, parser.FieldParameters)) {
		if name, ptr, ref := x.declName(x.f.Field(p, parser.FieldDeclarator)); name != "" && (ptr || ref) {
			params[name] = true
		}
	}
	return params
}

// MayRefer says function definition def returns a pointer or a reference
// and a return statement names one of its pointer or reference
// parameters: executing it can say what its result refers to
// (Call.Refers).
func MayRefer(f *parser.File, def parser.NodeID) bool {
	x := &exec{f: f}
	fd, rk := x.funcDeclarator(def)
	if fd == parser.None || rk != tPointer && rk != tRef {
		return false
	}
	params := x.indirectParams(fd)
	if len(params) == 0 {
		return false
	}
	end := f.End(def)
	for n := def; n < end; n++ {
		if f.Nodes[n].Kind != parser.KindReturnStatement {
			continue
		}
		for m, e := n, f.End(n); m < e; m++ {
			if f.Nodes[m].Kind == parser.KindIdentifier && params[f.Text(m)] {
				return true
			}
		}
	}
	return false
}

// Summarise executes function definition def and says what it does to its
// arguments on every path that returns (its return type aside: see
// Returns). A function whose paths the bound cut says nothing.
func Summarise(f *parser.File, def parser.NodeID, opt Options) Call {
	return summaryOf(execute(f, def, opt))
}

// summaryOf is what execution x found of its function's parameters and
// result.
func summaryOf(x *exec) Call {
	var out Call
	if len(x.returns) > 0 && !x.cut {
		out.Frees = x.everyPath(x.params, func(o object) bool { return o.state == freed })
		out.Grows = x.everyPath(x.stores, func(o object) bool { return o.state == replaced })
		out.Borrows = x.borrowedArg()
		out.Refers, out.RefersPtr = x.referredArg()
		if out.Refers > 0 {
			out.ReferType = x.paramTypes[out.Refers-1]
			out.ReferDeref = x.params[out.Refers-1] >= 0
		}
		out.Queues = x.queuedOnEvery()
		out.FreesDeref = x.freesDeref()
		out.FreesFields = x.freesFields()
		out.StoresIn = x.storesIn()
		out.Holds = x.heldOnEvery()
	}
	for i, obj := range x.params {
		if obj >= 0 && x.reached[obj] {
			out.Derefs = append(out.Derefs, i)
		}
	}
	return out
}

// PointerParams lists the names of the parameters of function
// declaration or definition decl declared as pointers (T* p).
func PointerParams(f *parser.File, decl parser.NodeID) []string {
	x := &exec{f: f}
	fd, _ := x.funcDeclarator(decl)
	if fd == parser.None {
		return nil
	}
	var out []string
	for _, p := range parameters(f, fd) {
		if name, ptr, _ := x.declName(f.Field(p, parser.FieldDeclarator)); ptr && name != "" {
			out = append(out, name)
		}
	}
	return out
}

// ReassignedParams lists the parameters of function declaration or
// definition decl declared as non-const references to a pointer (T*& p,
// const T*& p): a call may store a new pointer in what it is handed.
func ReassignedParams(f *parser.File, decl parser.NodeID) []int {
	x := &exec{f: f}
	fd, _ := x.funcDeclarator(decl)
	if fd == parser.None {
		return nil
	}
	var out []int
	for i, p := range parameters(f, fd) {
		d := f.Field(p, parser.FieldDeclarator)
		t := strings.ReplaceAll(f.Text(d), " ", "")
		if strings.HasPrefix(t, "*&") && !strings.Contains(t, "const") {
			out = append(out, i)
		}
	}
	return out
}

// ClassFacts answers for the class facts as Members does, with each
// member its destructor gives up only by handing it to functions called
// by name ("(~via)") kept only when one of those functions may give it
// up: a function whose definition holdfast reads (in the file or the
// tree) and that neither frees nor keeps that argument leaves the
// member's memory as it was (an unlock, a log line, a flush). A function
// known only by name may still free it.
func (fs *FileSummaries) ClassFacts(class string) map[string]string {
	facts := fs.Members(class)
	via := list(facts, "(~via)")
	if len(via) == 0 {
		return facts
	}
	if a, ok := fs.facts[class]; ok {
		return a
	}
	hits := fs.busyHits
	keeps := map[string]bool{}
	acquired := list(facts, "(acq)")
	for _, e := range via {
		m, call, _ := strings.Cut(e, "=")
		if slices.Contains(acquired, m) {
			// The constructor handed it to a function too: the
			// destructor's call releases what that one acquired.
			keeps[m] = false
			continue
		}
		if keeps[m] {
			continue
		}
		if fs.givesUp(call) {
			keeps[m] = true
		} else if _, seen := keeps[m]; !seen {
			keeps[m] = false
		}
	}
	out, cloned := facts, false
	for _, m := range slices.Sorted(maps.Keys(keeps)) {
		if keeps[m] {
			continue
		}
		if !cloned {
			out, cloned = maps.Clone(facts), true
		}
		for _, k := range []string{"(~)", "(~!)"} {
			l := slices.DeleteFunc(list(out, k), func(x string) bool { return x == m })
			if len(l) == 0 {
				delete(out, k)
			} else {
				out[k] = strings.Join(l, ",")
			}
		}
	}
	if fs.busyHits == hits {
		// Every callee had its full answer (none was being summarised).
		fs.facts[class] = out
	}
	return out
}

// givesUp says the call "name/nargs/k" a destructor hands a member to (as
// argument k) may give it up: free it, keep it (a pool, a free list), or
// it is a function whose definition is not read.
func (fs *FileSummaries) givesUp(call string) bool {
	parts := strings.Split(call, "/")
	if len(parts) != 3 {
		return true
	}
	nargs, err1 := strconv.Atoi(parts[1])
	k, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return true
	}
	c := fs.Call(parts[0], nargs, "")
	return !c.Defined || slices.Contains(c.Frees, k) || slices.Contains(c.Keeps, k) || slices.Contains(c.FreesDeref, k)
}

// keptParams lists the parameters of function definition def that it
// may keep past the call: a parameter named anywhere but as the pointer
// it reads through (*p, p->f, p[i]) or a value it tests (if (p), p ==
// q, !p) may be stored, returned or handed on.
func keptParams(f *parser.File, def parser.NodeID) []int {
	x := &exec{f: f}
	fd, _ := x.funcDeclarator(def)
	body := f.Field(def, parser.FieldBody)
	if fd == parser.None || body == parser.None {
		return nil
	}
	var out []int
	for i, p := range parameters(f, fd) {
		name, _, _ := x.declName(f.Field(p, parser.FieldDeclarator))
		if name == "" || namedWhole(f, body, name) {
			out = append(out, i)
		}
	}
	return out
}

// namedWhole says body names the variable name other than to read
// through it or test it (see keptParams).
func namedWhole(f *parser.File, body parser.NodeID, name string) bool {
	for j := body; j < f.End(body); j++ {
		if f.Kind(j) != parser.KindIdentifier || f.Text(j) != name {
			continue
		}
		n := j
		p := f.Nodes[n].Parent
		for f.Kind(p) == parser.KindParenthesizedExpression {
			n, p = p, f.Nodes[p].Parent
		}
		switch f.Kind(p) {
		case parser.KindPointerExpression:
			if strings.HasPrefix(f.Text(p), "*") {
				continue
			}
		case parser.KindFieldExpression:
			if f.Field(p, parser.FieldArgument) == n && f.Text(f.Field(p, parser.FieldOperator)) == "->" {
				continue
			}
		case parser.KindSubscriptExpression:
			if f.Field(p, parser.FieldArgument) == n {
				continue
			}
		case parser.KindBinaryExpression:
			switch f.Text(f.Field(p, parser.FieldOperator)) {
			case "==", "!=", "<", ">", "<=", ">=", "&&", "||":
				continue
			}
		case parser.KindUnaryExpression:
			if strings.HasPrefix(f.Text(p), "!") {
				continue
			}
		case parser.KindIfStatement, parser.KindConditionClause, parser.KindWhileStatement:
			continue
		case parser.KindCastExpression:
			if strings.TrimSpace(f.Text(f.Field(p, parser.FieldType))) == "void" {
				// (void)p: named only to be discarded.
				continue
			}
		}
		return true
	}
	return false
}

// parameters yields the parameter declarations of function declarator fd
// with their positions (0-based), leaving out the rest of the list (a
// variadic ..., comments).
func parameters(f *parser.File, fd parser.NodeID) iter.Seq2[int, parser.NodeID] {
	return func(yield func(int, parser.NodeID) bool) {
		i := 0
		for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
			if k := f.Kind(p); k != parser.KindParameterDeclaration && k != parser.KindOptionalParameterDeclaration {
				continue
			}
			if !yield(i, p) {
				return
			}
			i++
		}
	}
}
