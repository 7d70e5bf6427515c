// Package lifetime builds holdfast's lifetime model: for every function,
// method, constructor, destructor and lambda of a file, its scopes, the
// named values declared in them, and the ordered events on those values
// (declare, borrow, async start, wait, move, store, capture, callback,
// mutate, materialise, free, return, scope exit, use). The model is built
// once per function and shared by every rule; rules never look at syntax.
//
// Names come from the API model (package apimodel); shapes come from here:
// a raw pointer declared from a method of a local class value is a borrow
// whatever the names, a type named like a future is a future, a container
// whose element type or name says it keeps things alive is a hold.
package lifetime

import (
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// VarID indexes Func.Vars; NoVar means none.
type VarID int32

// ScopeID indexes Func.Scopes. Scope 0 is the function body.
type ScopeID int32

// NoVar is the absent value.
const NoVar VarID = -1

// VarKind classifies a named value by what its type says about lifetimes.
type VarKind uint8

// Value kinds.
const (
	Plain     VarKind = iota // primitives and anything not below
	Owner                    // a class value or smart pointer that may own memory
	Pointer                  // a raw pointer
	Reference                // a reference
	Future                   // a future, event or promise
	Container                // a standard-like container
	Lambda                   // a named lambda
)

var varKindNames = [...]string{"plain", "owner", "pointer", "reference", "future", "container", "lambda"}

func (k VarKind) String() string { return varKindNames[k] }

// Var is a named value: a local, a parameter, or a name a lambda captures.
type Var struct {
	Name  string
	Type  string // as written, whitespace collapsed; "" when inferred
	Base  string // the type's template name without arguments, e.g. "std::vector"
	Kind  VarKind
	Scope ScopeID
	Decl  parser.NodeID // the declarator
	At    uint32        // byte offset of the name
	Param bool
	// Static marks static and thread_local locals: they outlive the call.
	Static bool
	// Elem is a container's element type; ElemPointer says it is a raw pointer.
	Elem        string
	ElemPointer bool
	// Hold marks containers whose element type or name says they keep
	// things alive (std::vector<std::shared_ptr<void>>, holds, keepalive).
	Hold bool
	// Outer is, for a lambda's captured name, the variable in the parent.
	Outer VarID
	// Captured marks a lambda's captured names, init-captures included.
	Captured bool
	// Stream marks a stream (by type, or from a call that returns one);
	// SideStream says it is known not to be the current stream.
	Stream, SideStream bool
	// SelfRef marks a strong or weak reference to the enclosing object
	// (from shared_from_this, weak_from_this); Weak, a weak one.
	SelfRef, Weak bool
	// Fn is, for a named lambda, its model.
	Fn *Func
	// Default is a parameter's default value as written ("nullptr").
	Default string
	// PairFuture and PairHold name the future and the hold members of a
	// value whose type pairs them ({future, hold} structs, std::pair).
	PairFuture, PairHold string
	// FromCall marks a value initialised (or assigned) from the result of
	// a call or a constructor rather than copied from another value.
	FromCall bool
	// Const marks a value declared const: a const value, or a reference
	// or pointer to const.
	Const bool
}

// ScopeKind says what made a scope.
type ScopeKind uint8

// Scope kinds.
const (
	BodyScope ScopeKind = iota
	BlockScope
	LoopScope
	BranchScope
	CatchScope
)

// Scope is a lexical scope: values declared in it die at its end.
type Scope struct {
	Parent     ScopeID // -1 for the body
	Kind       ScopeKind
	Node       parser.NodeID
	Start, End uint32 // byte span; End is one past the closing brace
}

// EventKind says what happens to a value.
type EventKind uint8

// Events, in the order the model knows them.
const (
	Declare     EventKind = iota // Var declared
	Borrow                       // Var (pointer/reference; NoVar for a temporary) borrowed from Owner
	Async                        // async work on buffer Other; its future is Var (NoVar if discarded or passed on)
	Wait                         // host waits on Var (a future, event or stream)
	Block                        // host blocks on a rendezvous
	Move                         // Var moved (into Other, a value, if any; Call names the consumer)
	Store                        // Other (or a borrow of Owner) put into container/member Var
	PassRef                      // Var passed by address or by name to a call that may fill or keep it
	Capture                      // Var captured by Lambda (see Flags)
	Callback                     // Lambda or Other registered on Var as a continuation
	Mutate                       // Var mutated in place
	Materialise                  // Var may be a fresh copy of Other
	Free                         // Var's memory returned to an allocator
	Return                       // Var (or a borrow of Owner) returned
	ScopeExit                    // Var dies: its scope ends
	Use                          // Var read or called through
	Assign                       // Var assigned from Other
	Sync                         // device work ordered against a stream: Var (a tensor, stream or event; NoVar if none) via Call
	Result                       // Var initialised or assigned from the result of Call
	Switch                       // work issued from here goes to stream Var (NoVar: unknown) until guard Other dies or the next switch
	OnStream                     // Var used by work issued on stream Other (a call with an explicit stream argument)
	Construct                    // an object of type Text built by Call (make_shared<T>, new T, T x(...)); Var is what it initialises
	Operand                      // Var is a buffer the work of Call (at Node) reads or writes (see Written, Bound); Other is its future
	Check                        // Var's layout is tested (is_contiguous, a contiguous-base validation) via Call
	Defaulted                    // Call (a constructor of type Call) leaves its hold parameter Text at its default; Var is what it initialises
	// Defer: Lambda (a lambda argument, or named lambda Other) is handed
	// to Call, which may run it after returning (a pack's defer role); with
	// Inferred, no pack names Call and the rules judge it by the callee's
	// body or name. Node is the argument; Var is the receiver (the loop or
	// pool), NoVar if none or not a value of the function.
	Defer
)

var eventNames = [...]string{"declare", "borrow", "async", "wait", "block", "move", "store", "pass-ref",
	"capture", "callback", "mutate", "materialise", "free", "return", "scope-exit", "use", "assign",
	"sync", "result", "switch", "on-stream", "construct",
	"operand", "check", "defaulted", "defer"}

func (k EventKind) String() string { return eventNames[k] }

// Flags qualify an event.
type Flags uint32

// Event flags.
const (
	ByRef      Flags = 1 << iota // capture by reference
	InitCap                      // init-capture (name = expr)
	Implicit                     // captured through a default capture
	CapThis                      // captures this
	Member                       // the target is a member or something outside the function
	Discarded                    // the result (a future, a materialised tensor) is dropped
	AddressOf                    // passed as &x
	Argument                     // the value is an argument of Call
	Receiver                     // the value is the receiver of Call
	ToConsumer                   // moved or passed into a call that takes it over
	WithFuture                   // a Construct with a future among its arguments
	SelfRef                      // a Capture of a strong or weak reference to the enclosing object
	Weak                         // a Capture of a weak reference (it must be checked before use)
	Passed                       // an Async whose unnamed future is returned, passed to a call or chained into a continuation
	NoCopy                       // a Materialise whose input is provably contiguous already: the result is the input (Text says why)
	Written                      // an Operand the call writes
	Bound                        // an Operand handed to a kernel that may write it
	// Inferred marks an Async that no pack names: a call returning a
	// future was taken for async work on its arguments, or a pack's async
	// call returns a declared status or value rather than a future. Whether
	// the work really runs behind the host is the unseen callee's business.
	Inferred
	// Temporary marks an Operand that is an object built in the argument
	// list (array(0, dtype)): it has no name (Var is NoVar,
	// Text is its expression) and dies at the end of the full expression.
	Temporary
)

// Event is one thing that happens to a value, at a place in the source.
type Event struct {
	Kind  EventKind
	Node  parser.NodeID
	At    uint32 // byte offset of the event's node
	Scope ScopeID
	Var   VarID
	Other VarID
	Owner VarID  // for Borrow/Store/Return: the owner a temporary was borrowed from
	Call  string // the callee or construct, e.g. "push_back", "AwaitBuffer", "}"
	Flags Flags
	// Lambda is the continuation of a Callback or the capturer of a Capture.
	Lambda *Func
	// Text is, for Free, the freed expression as written ("mem()",
	// "buffer_"); for Construct, the type built; for Materialise, the
	// input as written, quoted, and for a NoCopy one why that input is
	// contiguous; for Defaulted, the parameter; for a
	// Use or Move of a member of a pair value, the member.
	Text string
}

// FuncKind says what a Func is.
type FuncKind uint8

// Function kinds.
const (
	Function FuncKind = iota
	Method
	Constructor
	Destructor
	LambdaFunc
)

var funcKindNames = [...]string{"function", "method", "constructor", "destructor", "lambda"}

func (k FuncKind) String() string { return funcKindNames[k] }

// Func is the lifetime model of one function or lambda.
type Func struct {
	File   *parser.File
	Node   parser.NodeID
	Name   string // qualified where the source says so, e.g. "Sender::Send"
	Kind   FuncKind
	Parent *Func // the enclosing function of a lambda
	// Ends says expression statement stmt never completes: a call of a
	// function or macro that never returns (nil: none is known). Whoever
	// knows the tree's functions sets it; JumpsBetween reads it.
	Ends   func(stmt parser.NodeID) bool
	Vars   []Var
	Scopes []Scope
	Events []Event
	// Lambdas are the lambdas written in this function, in source order.
	Lambdas []*Func
	// Default capture of a lambda: 0, '&' or '='.
	Default byte
	// HasErrors says the function's syntax contains ERROR nodes.
	HasErrors bool
	// Truncated says code nested deeper than the model follows was left
	// out of it.
	Truncated bool
	// Class is the class a method, constructor or destructor belongs to
	// (a lambda's is its enclosing function's), or nil.
	Class *Class
	// ThisUses are the members the body reaches through this, explicitly
	// or implicitly, in source order.
	ThisUses []ThisUse
	// classes are the classes of the function's file.
	classes classes
	// params and byVar index Vars and Events; Build fills them once the
	// events are final (see Params and EventsOf).
	params  []VarID
	byVar   [][]int32
	indexed bool
	// labels are the function's statement labels, by name (the first of
	// a name), as Build met them.
	labels map[string]parser.NodeID
}

// index fills params and byVar. Build calls it after the last change to
// Events.
func (f *Func) index() {
	f.params = f.params[:0]
	for i := range f.Vars {
		if f.Vars[i].Param {
			f.params = append(f.params, VarID(i))
		}
	}
	f.byVar = make([][]int32, len(f.Vars))
	for i := range f.Events {
		e := &f.Events[i]
		if e.Var >= 0 && int(e.Var) < len(f.Vars) {
			f.byVar[e.Var] = append(f.byVar[e.Var], int32(i))
		}
		if e.Other >= 0 && int(e.Other) < len(f.Vars) && e.Other != e.Var {
			f.byVar[e.Other] = append(f.byVar[e.Other], int32(i))
		}
	}
	f.indexed = true
}

// Params returns the function's parameters in order.
func (f *Func) Params() []VarID {
	if f.indexed {
		return f.params
	}
	var out []VarID
	for i := range f.Vars {
		if f.Vars[i].Param {
			out = append(out, VarID(i))
		}
	}
	return out
}

// EventsOf returns the indexes into Events of the events whose Var or
// Other is v, in source order, so a question about one variable does not
// walk every event of the function.
func (f *Func) EventsOf(v VarID) []int32 {
	if v < 0 || int(v) >= len(f.Vars) {
		return nil
	}
	if f.indexed {
		return f.byVar[v]
	}
	var out []int32
	for i := range f.Events {
		if e := &f.Events[i]; e.Var == v || e.Other == v {
			out = append(out, int32(i))
		}
	}
	return out
}

// ClassNamed returns the class the function's file defines under name
// (the last component of a qualified name, template arguments dropped),
// or nil when the file does not define it.
func (f *Func) ClassNamed(name string) *Class {
	c := f.classes.byName[className(name)]
	if c == nil || c.Node == parser.None {
		return nil
	}
	return c
}

// Var returns the variable v, or nil for NoVar.
func (f *Func) Var(v VarID) *Var {
	if v < 0 || int(v) >= len(f.Vars) {
		return nil
	}
	return &f.Vars[v]
}

// VarName returns the name of v, or "" for NoVar.
func (f *Func) VarName(v VarID) string {
	if x := f.Var(v); x != nil {
		return x.Name
	}
	return ""
}

// Encloses reports whether scope outer is scope inner or one of its
// ancestors.
func (f *Func) Encloses(outer, inner ScopeID) bool {
	for s := inner; s >= 0; s = f.Scopes[s].Parent {
		if s == outer {
			return true
		}
	}
	return false
}

// ScopeExitOf returns the ScopeExit event of v, or nil.
func (f *Func) ScopeExitOf(v VarID) *Event {
	for i := range f.Events {
		if e := &f.Events[i]; e.Kind == ScopeExit && e.Var == v {
			return e
		}
	}
	return nil
}

// ArgIndex returns the 0-based position of the argument an event with the
// Argument flag is about, among its call's arguments, or -1.
func (f *Func) ArgIndex(e *Event) int {
	if e.Node < 0 {
		return -1
	}
	n := e.Node
	list := f.File.Nodes[n].Parent
	for list != parser.None && f.File.Kind(list) != parser.KindArgumentList {
		n, list = list, f.File.Nodes[list].Parent
		if f.File.Kind(n) == parser.KindCallExpression {
			return -1
		}
	}
	if list == parser.None {
		return -1
	}
	i := 0
	for a := range f.File.NamedChildren(list) {
		if a == n {
			return i
		}
		if f.File.Kind(a) != parser.KindComment {
			i++
		}
	}
	return -1
}

// InitCallee returns the callee whose result initialises variable v in
// its declaration (T v = f(...), auto v = obj.f(...)), or "".
func (f *Func) InitCallee(v VarID) string {
	x := f.Var(v)
	if x == nil || x.Decl == parser.None {
		return ""
	}
	return initCallee(f.File, x.Decl)
}

// ArgCount returns the number of arguments of the call whose argument
// list holds event e's node, or -1.
func (f *Func) ArgCount(e *Event) int {
	if e.Node < 0 {
		return -1
	}
	c := f.EnclosingCall(e.Node)
	if c == parser.None {
		return -1
	}
	args := f.File.Field(c, parser.FieldArguments)
	if args == parser.None {
		return -1
	}
	n := 0
	for range f.File.NamedChildren(args) {
		n++
	}
	return n
}

// Exclusive reports whether nodes a and b (a first) lie in alternatives
// of one choice, so no path runs both: the two arms of an if, or two cases
// of a switch when a's case ends with a break or a return.
func (f *Func) Exclusive(a, b parser.NodeID) bool {
	if a < 0 || b < 0 {
		return false
	}
	file := f.File
	inside := func(n, outer parser.NodeID) bool {
		return file.Nodes[outer].Start <= file.Nodes[n].Start && file.Nodes[n].End <= file.Nodes[outer].End
	}
	for m := file.Nodes[a].Parent; m != parser.None; m = file.Nodes[m].Parent {
		if !inside(b, m) {
			continue
		}
		// m is the lowest node holding both: which of its children hold
		// each?
		ca, cb := parser.None, parser.None
		for c := range file.Children(m) {
			if inside(a, c) {
				ca = c
			}
			if inside(b, c) {
				cb = c
			}
		}
		if ca == parser.None || cb == parser.None || ca == cb {
			return false
		}
		switch file.Kind(m) {
		case parser.KindIfStatement, parser.KindConditionalExpression:
			// c ? x : y runs one of its arms, as if/else does.
			return file.Nodes[ca].Field == parser.FieldConsequence && file.Nodes[cb].Field == parser.FieldAlternative
		case parser.KindCompoundStatement:
			// The body of a switch: two of its cases.
			if p := file.Nodes[m].Parent; p != parser.None && file.Kind(p) == parser.KindSwitchStatement &&
				file.Kind(ca) == parser.KindCaseStatement && file.Kind(cb) == parser.KindCaseStatement {
				return endsCase(file, ca)
			}
		}
		return false
	}
	return false
}

// endsCase reports whether a case of a switch ends with a break or a
// return, so control does not fall into the next case.
func endsCase(file *parser.File, c parser.NodeID) bool {
	last := parser.None
	for s := range file.NamedChildren(c) {
		if file.Kind(s) != parser.KindComment {
			last = s
		}
	}
	return last != parser.None && (file.Kind(last) == parser.KindBreakStatement || file.Kind(last) == parser.KindReturnStatement)
}

// JumpsBetween reports whether every path from node a to the later node b
// is cut by a jump that follows a in its blocks: a return, a throw, a
// continue, a break whose loop or switch holds b (a break out of a
// switch that b follows does not cut), a goto to a label of the
// function after b, or a call that never returns (see Ends).
func (f *Func) JumpsBetween(a, b parser.NodeID) bool {
	if a < 0 || b < 0 {
		return false
	}
	file := f.File
	inside := func(n, outer parser.NodeID) bool {
		return file.Nodes[outer].Start <= file.Nodes[n].Start && file.Nodes[n].End <= file.Nodes[outer].End
	}
	child := a
	for m := file.Nodes[a].Parent; m != parser.None; child, m = m, file.Nodes[m].Parent {
		if k := file.Kind(m); k != parser.KindCompoundStatement && k != parser.KindCaseStatement {
			continue
		}
		after := false
		for s := range file.NamedChildren(m) {
			if s == child {
				after = true
				continue
			}
			if !after {
				continue
			}
			if inside(b, s) || file.Nodes[s].Start >= file.Nodes[b].Start {
				break
			}
			if f.jumps(s, b) {
				return true
			}
		}
		if inside(b, m) {
			return false
		}
	}
	return false
}

// jumps says statement s leaves the path before b: a return, throw or
// continue, a break out of a loop or switch holding b, a goto past b, a
// call that never returns, or a preprocessor group (#ifdef ... #else ...
// #endif) each of whose variants ends in one (whichever the build
// compiles, the path leaves).
func (f *Func) jumps(s, b parser.NodeID) bool {
	file := f.File
	switch file.Kind(s) {
	case parser.KindReturnStatement, parser.KindThrowStatement, parser.KindContinueStatement:
		return true
	case parser.KindBreakStatement:
		t := breakTarget(file, s)
		return t != parser.None && file.Nodes[t].Start <= file.Nodes[b].Start && file.Nodes[b].End <= file.Nodes[t].End
	case parser.KindExpressionStatement:
		return f.Ends != nil && f.Ends(s)
	case parser.KindGotoStatement:
		l := f.label(file.Text(file.Field(s, parser.FieldLabel)))
		return l != parser.None && file.Nodes[l].Start > file.Nodes[b].Start
	case parser.KindPreprocIf, parser.KindPreprocIfdef, parser.KindPreprocElse, parser.KindPreprocElif:
		// This variant's statements, then the next variant's (the
		// alternative field); a group without #else has a variant that
		// compiles nothing, which does not leave.
		left := false
		for c := range file.NamedChildren(s) {
			if file.Nodes[c].Field == parser.FieldAlternative {
				continue
			}
			if f.jumps(c, b) {
				left = true
			}
		}
		if !left {
			return false
		}
		if alt := file.Field(s, parser.FieldAlternative); alt != parser.None {
			return f.jumps(alt, b)
		}
		return file.Kind(s) == parser.KindPreprocElse
	}
	return false
}

// label returns the labeled statement of the function that carries the
// label name, or None.
func (f *Func) label(name string) parser.NodeID {
	if n, ok := f.labels[name]; ok {
		return n
	}
	return parser.None
}

// breakTarget returns the loop or switch a break statement leaves.
func breakTarget(file *parser.File, n parser.NodeID) parser.NodeID {
	for m := file.Nodes[n].Parent; m != parser.None; m = file.Nodes[m].Parent {
		switch file.Kind(m) {
		case parser.KindForStatement, parser.KindForRangeLoop, parser.KindWhileStatement, parser.KindDoStatement, parser.KindSwitchStatement:
			return m
		}
	}
	return parser.None
}

// Within reports whether node n lies inside node outer.
func (f *Func) Within(n, outer parser.NodeID) bool {
	if n < 0 || outer < 0 {
		return false
	}
	return f.File.Nodes[outer].Start <= f.File.Nodes[n].Start && f.File.Nodes[n].End <= f.File.Nodes[outer].End
}

// EnclosingCall returns the nearest call node enclosing n, or None.
func (f *Func) EnclosingCall(n parser.NodeID) parser.NodeID {
	if n < 0 {
		return parser.None
	}
	for m := f.File.Nodes[n].Parent; m != parser.None; m = f.File.Nodes[m].Parent {
		if f.File.Kind(m) == parser.KindCallExpression {
			return m
		}
	}
	return parser.None
}

// InCall reports whether node n is part of call node c (its callee or an
// argument): the nearest call enclosing n is c.
func (f *Func) InCall(n, c parser.NodeID) bool {
	return c >= 0 && f.EnclosingCall(n) == c
}

// SameCall reports whether nodes a and b belong to the same call.
func (f *Func) SameCall(a, b parser.NodeID) bool {
	c := f.EnclosingCall(a)
	return c != parser.None && f.InCall(b, c)
}

// StatementEnd returns the end offset of the statement node n is part of
// (the child of a block that holds it).
func (f *Func) StatementEnd(n parser.NodeID) uint32 {
	for m := n; m != parser.None; m = f.File.Nodes[m].Parent {
		if p := f.File.Nodes[m].Parent; p == parser.None || f.File.Kind(p) == parser.KindCompoundStatement {
			return f.File.Nodes[m].End
		}
	}
	return f.File.Nodes[n].End
}

// InDeclaration reports whether node n lies in the declaration of v (its
// initialiser included).
func (f *Func) InDeclaration(n parser.NodeID, v VarID) bool {
	x := f.Var(v)
	if x == nil || x.Decl < 0 {
		return false
	}
	return f.Within(n, f.File.Nodes[x.Decl].Parent)
}

// NullGuarded reports whether node n lies in the consequence of an if
// whose condition tests that the pointer named name is null (!p,
// p == NULL, p == nullptr, p == 0, or the same written the other way
// round): code that runs only when there is nothing to point to.
func (f *Func) NullGuarded(n parser.NodeID, name string) bool {
	return f.InThenOf(n, func(cond string) bool { return nullTest(cond, name) })
}

// InThenOf reports whether node n lies in the consequence of an if of the
// function whose condition (as written) satisfies test.
func (f *Func) InThenOf(n parser.NodeID, test func(cond string) bool) bool {
	file := f.File
	child := n
	for m := file.Nodes[n].Parent; m != parser.None && m != f.Node; child, m = m, file.Nodes[m].Parent {
		if file.Kind(m) == parser.KindIfStatement && file.Nodes[child].Field == parser.FieldConsequence &&
			test(file.Text(file.Field(m, parser.FieldCondition))) {
			return true
		}
	}
	return false
}

// LoopAround returns the innermost for or while loop of the function whose
// body holds node n, and the last token of that body (its closing brace,
// or the statement's end), or None twice.
func (f *Func) LoopAround(n parser.NodeID) (loop, bodyEnd parser.NodeID) {
	file := f.File
	for m := file.Nodes[n].Parent; m != parser.None && m != f.Node; m = file.Nodes[m].Parent {
		if k := file.Kind(m); k != parser.KindForStatement && k != parser.KindWhileStatement {
			continue
		}
		body := file.Field(m, parser.FieldBody)
		if body == parser.None || !f.Within(n, body) {
			continue
		}
		end := body
		for ch := range file.Children(body) {
			end = ch
		}
		return m, end
	}
	return parser.None, parser.None
}

// nullTest reports whether the condition text cond tests name for null.
func nullTest(cond, name string) bool {
	c := strings.Join(strings.Fields(cond), "")
	c = strings.TrimSuffix(strings.TrimPrefix(c, "("), ")")
	if c == "!"+name {
		return true
	}
	for _, null := range []string{"NULL", "nullptr", "0"} {
		if c == name+"=="+null || c == null+"=="+name {
			return true
		}
	}
	return false
}
