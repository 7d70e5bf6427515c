package rules

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/core"
	"strings"
	"unicode"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

func rawPointerEscapes() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:          "HF-B001",
			Name:        "raw-pointer-escapes-owner",
			Class:       "B",
			Severity:    diag.Error,
			CoreDecides: true,
			Precision:   "high",
			Summary:     "a raw pointer borrowed from a scoped owner is used after the owner dies",
			Help: `What it does: finds a raw pointer or reference taken from an owner (a class
value, smart pointer or container declared in an inner scope: a loop body, a
block) through .get(), .data(), &x or a method returning a pointer, that is
stored in something declared outside that scope (a vector, an outer
variable, a member) and used after the owner's scope has ended. A view
(absl::Span, std::span, std::string_view, c10::ArrayRef, llvm::StringRef:
the pack's views) made over a local container or string, by assignment or
construction (view = vec; std::string_view name(s)), or by a call a pack
says borrows from its argument (absl::MakeSpan), is such a borrow too; the
last kind is latent, since what the call returns is the call's business.
A pointer into a local of the function returned to the caller (return p;
a vector of such pointers returned; moved into what the return builds) is
reported too, when it surely points into the local's own memory: &x, a
view over a container, a pointer a method of a memory-owning local returns
(not an element copied out of a container of pointers), either arm of
c ? a : local, &b of a structured binding by value (auto [a, b] = e
copies e into the frame), or a field of an object returned by value that
was set to point into the frame (w.data = buf.data(); return w;). So is one left
where the caller reaches it when the function returns: stored through an
out-parameter (*out = s.c_str() with out a T**), in a pointer or view
field of what a parameter points to or refers to, in a pointer or view
data member, or by a method of an object a parameter names whose code
keeps its argument (args.Push(flag.c_str())), with no call after the store on that path (a descriptor
filled for a call the function makes is that call's business).
An object built over a local with a constructor that keeps a reference
to it (a member initialised from a reference parameter, or from its
address) is such a borrow too, when the object (or the container it was
built in) is used after the local's block or returned: moving the local
away does not help, the object refers to the local itself. When the
class's members are declared in a file holdfast did not read, that the
member is a reference is assumed (latent).
A pointer data member that the class's code sets from memory another
member owns (data_ = storage_.data(), host_ = (char*)block_->data(), in
any method or constructor, in a header or a source) is left stale by a
method that gives that member new memory (grows or assigns the container,
assigns or resets the smart pointer to a new object) and returns without
setting the pointer again, handing it to a call, or calling a method of
the object that may set it (what a method of the class sets is read from
its code; one whose code is not read may set anything). A member only
emptied (cleared, reset to null) is not reported.
An object that keeps a pointer to another (its class's code stores the
argument of a method or constructor) and whose destructor reads it is
reported where it ends after what it keeps: locals end in the reverse
order of their declarations, and so do an object's data members, so a
member declared before the member it keeps a pointer into runs its
destructor on freed memory.
A use that runs only when a boolean the owner's block set to a literal
holds the other value (the block clears 'masked'; the use follows
'if (!masked) continue;') is on no path through the block and is not
reported.

Why it is bad: the owner's destructor runs at its scope's closing brace and
releases the memory. The pointer kept outside now dangles; when it is used
later (often after a blocking rendezvous, so the memory has had time to be
reused) the program reads or sends freed memory.

Known problems: the summaries of the scanned tree say what its functions
do with the values they are handed, not which other values share an
owner's memory, so an owner kept alive elsewhere (a cache, a registry) is
not known; suppress with a reason.`,
			Example: diag.Example{
				Bad: `std::vector<DeviceMemory*> raw;
for (const Tensor& t : ts) {
  BufferHandle h = Materialize(t);
  DeviceMemory* m = h.Get();
  raw.push_back(m);              // h dies at the closing brace
}
WaitForPeer();
transport_->Send(raw);           // uses dangling pointers`,
				Good: `std::vector<BufferHandle> handles;
std::vector<DeviceMemory*> raw;
for (const Tensor& t : ts) {
  BufferHandle h = Materialize(t);
  raw.push_back(h.Get());
  handles.push_back(std::move(h)); // owners live as long as raw
}
WaitForPeer();
transport_->Send(raw);`,
			},
			Fix:  "keep the owners in a container declared at the same scope as the pointers, or pass the owners instead of raw pointers; a pointer member set from another member's memory is set again wherever that member gets new memory",
			Hint: "keep the owners alive as long as the pointers, or pass the owners",
			Tags: []string{"memory-safety", "use-after-free", "lifetime"},
			CWE:  []int{416, 825},
		},
		Check: func(p *Pass, fn *lifetime.Func) {
			checkRawPointerEscapes(p, fn)
			p.reportCoreIf(fn, func(fl core.Fault) bool {
				switch fl.Kind {
				case core.UseAfterScope, core.LeftStale:
					return true
				case core.ReturnsLocal:
					// A callback kept or returned is HF-G001's; a pointer
					// into a temporary kept, HF-B003's.
					how := storedHow(fl.Via)
					return how != "lambda" && how != "temp" && fl.Via != "returned lambda"
				}
				return false
			})
		},
	}
}

func checkRawPointerEscapes(p *Pass, fn *lifetime.Func) {
	type key struct{ owner, carrier lifetime.VarID }
	seen := map[key]bool{}
	checkKeptReferences(p, fn)
	for i := range fn.Events {
		b := &fn.Events[i]
		if b.Kind != lifetime.Borrow {
			continue
		}
		o := fn.Var(b.Owner)
		if o == nil || o.Param || o.Static || o.Outer != lifetime.NoVar || o.Captured {
			continue
		}
		if ownerKept(fn, b.Owner) {
			continue
		}
		died := fn.ScopeExitOf(b.Owner)
		if died == nil {
			continue
		}
		for _, c := range carriers(fn, i) {
			if o.Scope == 0 {
				break // lives until the function returns: only a return escapes
			}
			cv := fn.Var(c.carrier)
			if c.carrier != lifetime.NoVar && (cv.Scope == o.Scope || !fn.Encloses(cv.Scope, o.Scope) || c.carrier != b.Var && copiesChars(cv.Type)) {
				continue
			}
			use := useAfter(fn, c.carrier, died.At)
			if use == nil || flagContradicts(fn, fn.Scopes[o.Scope].Node, use.Node) || reassigned(fn, c.carrier, b.At, use.At) {
				continue
			}
			if fn.JumpsBetween(b.Node, use.Node) {
				// Every way on from the borrow returns (or leaves the
				// loop) before the use: the case block that takes
				// v.data() returns from it.
				continue
			}
			k := key{b.Owner, c.carrier}
			if seen[k] {
				continue
			}
			seen[k] = true
			reportEscape(p, fn, b, c, died, use, false)
		}
		if fn.Kind == lifetime.LambdaFunc {
			continue
		}
		// Returned to the caller while the owner dies as the function
		// returns.
		if !intoOwnMemory(p, fn, b) {
			continue
		}
		for _, c := range carriers(fn, i) {
			k := key{b.Owner, c.carrier}
			if cv := fn.Var(c.carrier); cv != nil && c.carrier != b.Var && copiesChars(cv.Type) {
				// A string given a char pointer (+=, append, assign)
				// copies the characters: it keeps no pointer.
				continue
			}
			if cv := fn.Var(c.carrier); cv != nil && !strings.Contains(cv.Type, "*") && strings.Contains(cv.Type, "&") && returnsByValue(p, fn) {
				// A reference returned from a function that returns by
				// value: the caller gets a copy made before the local dies.
				continue
			}
			if r := returnedAt(fn, c.carrier, b); r != nil && !seen[k] && !reassigned(fn, c.carrier, b.At, r.At) {
				seen[k] = true
				reportEscape(p, fn, b, c, endOf(fn), r, true)
			}
		}
	}
}

// intoOwnMemory reports whether borrow b surely points into memory its
// owner frees: the address of the owner (or of a part of it), a view over
// a container or string, or a pointer a method of a memory-owning owner
// returns, but not an element copied out of a container of pointers
// (queue.front() of a std::deque<Node*> is a Node* the queue never owned).
func intoOwnMemory(p *Pass, fn *lifetime.Func, b *lifetime.Event) bool {
	ov := fn.Var(b.Owner)
	if v := fn.Var(b.Var); v != nil && !strings.ContainsAny(v.Type, "*&") && !p.Model.IsView(v.Base) {
		return false // auto x = c.back(): a copy of the element
	}
	switch {
	case b.Call == "&" || p.Model.IsView(b.Call):
		return true
	case !ownsMemory(p.Model, fn, ov) || !receiverOf(fn, b):
		return false
	}
	if ov.Kind == lifetime.Container {
		elem, _, _ := strings.Cut(ov.Elem, "<")
		if ov.ElemPointer || p.Model.IsSmartPtr(strings.TrimSpace(elem)) {
			return false
		}
	}
	return true
}

// copiesChars says a value of declared type typ is a string that owns its
// characters (std::string and its kin, not a view or a pointer).
func copiesChars(typ string) bool {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	if strings.ContainsAny(t, "*&") {
		return false
	}
	switch lastIdent(t) {
	case "string", "wstring", "u16string", "u32string", "basic_string":
		return true
	}
	return false
}

// reassigned says carrier v is given another value after the borrow at
// from and before the use at to: it no longer holds the borrowed pointer.
func reassigned(fn *lifetime.Func, v lifetime.VarID, from, to uint32) bool {
	if v == lifetime.NoVar {
		return false
	}
	for i := range fn.Events {
		e := &fn.Events[i]
		if (e.Kind == lifetime.Assign || e.Kind == lifetime.Result) && e.Var == v && e.At > from && e.At < to {
			return true
		}
	}
	return false
}

// returnsByValue says fn's declared return type is neither a pointer, a
// reference, a view nor deduced: what it returns is a copy.
func returnsByValue(p *Pass, fn *lifetime.Func) bool {
	f := p.File
	if f.Kind(fn.Node) != parser.KindFunctionDefinition {
		return false
	}
	for d := f.Field(fn.Node, parser.FieldDeclarator); d != parser.None && f.Kind(d) != parser.KindFunctionDeclarator; {
		switch f.Kind(d) {
		case parser.KindPointerDeclarator, parser.KindReferenceDeclarator:
			return false
		}
		next := f.Field(d, parser.FieldDeclarator)
		if next == parser.None {
			return false
		}
		d = next
	}
	typ := strings.TrimSpace(f.Text(f.Field(fn.Node, parser.FieldType)))
	if typ == "" || strings.ContainsAny(typ, "*&") || strings.Contains(typ, "auto") || strings.Contains(typ, "decltype") {
		return false
	}
	base, _, _ := strings.Cut(typ, "<")
	base = strings.TrimSpace(strings.TrimPrefix(base, "const "))
	return !p.Model.IsView(base) && !p.Model.IsView(lastIdent(base))
}

// lastIdent is the last ::-separated name of a qualified name.
func lastIdent(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[i+2:]
	}
	return s
}

// returnedAt returns the return of fn that hands carrier v (a value
// holding the pointer of borrow b) to the caller: return v; or v moved or
// copied into what the return statement builds; nil when none does.
func returnedAt(fn *lifetime.Func, v lifetime.VarID, b *lifetime.Event) *lifetime.Event {
	if v == lifetime.NoVar {
		return nil
	}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At < b.At || e.Var != v {
			continue
		}
		switch {
		case e.Kind == lifetime.Return:
			return e
		case e.Kind == lifetime.Move && inReturn(fn.File, e.Node):
			return e // return Result(std::move(v))
		}
	}
	return nil
}

// carrier is where a borrowed pointer goes: a value that holds it, and the
// store event that put it there (nil when the borrow initialised it).
type carrier struct {
	carrier lifetime.VarID
	store   *lifetime.Event
}

// carriers follows the pointer of borrow event i into the values that keep
// it: the borrowing variable itself, containers it is stored into, and
// values it is assigned to.
func carriers(fn *lifetime.Func, i int) []carrier {
	b := &fn.Events[i]
	var out []carrier
	ptrs := map[lifetime.VarID]bool{}
	if b.Var != lifetime.NoVar {
		ptrs[b.Var] = true
		out = append(out, carrier{carrier: b.Var})
	}
	for j := i; j < len(fn.Events); j++ {
		e := &fn.Events[j]
		switch {
		case e.Kind == lifetime.Store && e.Var != lifetime.NoVar && ptrs[e.Other] && keepsPointers(fn, e.Var),
			e.Kind == lifetime.Store && e.Var != lifetime.NoVar && e.Owner == b.Owner && e.Other == lifetime.NoVar && j-i <= 3 && holdsPointers(fn, e.Var):
			out = append(out, carrier{carrier: e.Var, store: e})
		case e.Kind == lifetime.Assign && ptrs[e.Other]:
			ptrs[e.Var] = true
			out = append(out, carrier{carrier: e.Var, store: e})
		}
	}
	return out
}

// keepsPointers reports whether storing into v keeps a pointer rather
// than copying the pointee: a container of raw pointers, or a value whose
// element type is not known.
func keepsPointers(fn *lifetime.Func, v lifetime.VarID) bool {
	x := fn.Var(v)
	return x.Kind != lifetime.Container || x.ElemPointer || x.Elem == ""
}

// consumersAwaited returns the waits, before the owner dies, on futures of
// async work started on the pointer or its carrier after the borrow.
func consumersAwaited(p *Pass, fn *lifetime.Func, b *lifetime.Event, carrier lifetime.VarID, died *lifetime.Event) []*lifetime.Event {
	uses := func(v lifetime.VarID) bool { return v != lifetime.NoVar && (v == carrier || v == b.Var) }
	futures := map[lifetime.VarID]bool{}
	var out []*lifetime.Event
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At < b.At || e.At > died.At {
			continue
		}
		switch {
		case e.Kind == lifetime.Async && e.Var != lifetime.NoVar && (uses(e.Other) || takesArgument(p, fn, e, uses)):
			futures[e.Var] = true
		case e.Kind == lifetime.Wait && futures[e.Var]:
			out = append(out, e)
		}
	}
	return out
}

// takesArgument reports whether the call of event call has an argument
// that is a value for which match holds.
func takesArgument(p *Pass, fn *lifetime.Func, call *lifetime.Event, match func(lifetime.VarID) bool) bool {
	end := p.nodeEnd(call)
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind == lifetime.Use && e.Flags&lifetime.Argument != 0 && e.At >= call.At && e.At < end && match(e.Var) {
			return true
		}
	}
	return false
}

// holdsPointers reports whether v is known to be a container of raw
// pointers. A temporary borrow stored elsewhere (v.insert(end, p, p + n))
// usually copies the pointees, so only a declared pointer element type
// makes it a carrier.
func holdsPointers(fn *lifetime.Func, v lifetime.VarID) bool {
	x := fn.Var(v)
	return x.Kind == lifetime.Container && x.ElemPointer
}

// ownerKept reports whether the owner is moved, stored or captured by
// value somewhere, which may extend its life past its scope.
func ownerKept(fn *lifetime.Func, o lifetime.VarID) bool {
	for i := range fn.Events {
		e := &fn.Events[i]
		switch {
		case e.Kind == lifetime.Move && e.Var == o,
			e.Kind == lifetime.Store && e.Other == o,
			e.Kind == lifetime.Capture && e.Var == o && e.Flags&lifetime.ByRef == 0,
			e.Kind == lifetime.Return && e.Var == o,
			e.Kind == lifetime.Assign && e.Other == o && fn.Vars[e.Var].Kind != lifetime.Pointer:
			return true
		}
	}
	return false
}

// useAfter returns the first event that reads v after offset off.
func useAfter(fn *lifetime.Func, v lifetime.VarID, off uint32) *lifetime.Event {
	if v == lifetime.NoVar {
		return nil
	}
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At <= off || e.Var != v {
			continue
		}
		switch e.Kind {
		case lifetime.Use, lifetime.Return, lifetime.Move, lifetime.PassRef, lifetime.Capture:
			return e
		}
	}
	return nil
}

func reportEscape(p *Pass, fn *lifetime.Func, b *lifetime.Event, c carrier, died, use *lifetime.Event, returned bool) {
	owner := fn.VarName(b.Owner)
	ptr := fn.VarName(b.Var)
	kind := borrowKind(p, fn, b)
	what := kind
	if ptr != "" {
		what = fmt.Sprintf("%s '%s'", kind, ptr)
	}
	carrierName := fn.VarName(c.carrier)
	if c.carrier != b.Var {
		what += fmt.Sprintf(" kept in '%s'", carrierName)
	}
	msg := fmt.Sprintf("%s is used at line %d after its owner '%s' dies at line %d",
		what, p.Line(use.At), owner, p.Line(died.At))
	if returned {
		msg = fmt.Sprintf("%s is returned at line %d, but its owner, local '%s', dies as the function returns",
			what, p.Line(use.At), owner)
	}
	ov := fn.Var(b.Owner)
	declEv := &lifetime.Event{Node: ov.Decl, At: ov.At, Call: ov.Type}
	// A borrow with no name of its own is named by its expression.
	ptrName := ptr
	if ptrName == "" {
		ptrName = owner + "." + b.Call + "()"
		if b.Call == "&" {
			ptrName = "&" + owner
		}
	}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, declEv, owner, "", fmt.Sprintf("'%s' (%s) owns the memory and lives until the end of its scope", owner, ov.Type)),
		p.Step(fn, diag.StepBorrow, b, ptrName, owner, fmt.Sprintf("%s taken from '%s' via %s", kind, owner, b.Call)),
	}
	if c.store != nil {
		w = append(w, p.Step(fn, diag.StepStore, c.store, ptrName, carrierName, fmt.Sprintf("stored in '%s', which outlives '%s'", carrierName, owner)))
	}
	// Async consumers of the pointer awaited while the owner lives: the
	// replay decides whether they cover the later use.
	for _, wt := range consumersAwaited(p, fn, b, c.carrier, died) {
		w = append(w, p.Step(fn, diag.StepWait, wt, fn.VarName(wt.Var), "", fmt.Sprintf("the host waits for '%s', which used the pointer, while '%s' lives", fn.VarName(wt.Var), owner)))
	}
	death := p.Step(fn, diag.StepOwnerDies, died, owner, "", fmt.Sprintf("'%s' dies here; the %s now dangles", owner, kind))
	// The address of a local is manifest: its own storage dies with it; so
	// is a view type made over a container or string (view = vec).
	byPack := p.Model.IsView(b.Call)
	if b.Call != "&" && (!ownsMemory(p.Model, fn, ov) || !receiverOf(fn, b) && !byPack) {
		death.Assumed = true
		death.Message = fmt.Sprintf("'%s' dies here; assumed: the %s refers to memory '%s' frees (holdfast cannot see %s or the definition of %s)", owner, kind, owner, b.Call, ov.Type)
	}
	w = append(w, death)
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind == lifetime.Block && e.At > died.At && e.At < use.At {
			w = append(w, p.Step(fn, diag.StepBlock, e, "", "", fmt.Sprintf("the host blocks in %s; the freed memory can be reused meanwhile", e.Call)))
		}
	}
	useMsg := fmt.Sprintf("'%s' is used here, after its pointee died", carrierName)
	if returned {
		useMsg = fmt.Sprintf("'%s' goes to the caller here, which gets a dangling %s", carrierName, kind)
	}
	w = append(w, p.Step(fn, diag.StepUse, use, carrierName, "", useMsg))
	p.Report(fn, b.At, p.nodeEnd(b), msg, owner+"->"+carrierName, w)
}

// borrowKind names what borrow b takes: a "reference" when the borrowing
// variable is declared one (T&, const T&, auto&), a "view" when its type is
// a view the packs know, else a "pointer".
func borrowKind(p *Pass, fn *lifetime.Func, b *lifetime.Event) string {
	pv := fn.Var(b.Var)
	switch {
	case pv == nil:
		return "pointer"
	case pv.Kind == lifetime.Reference:
		return "reference"
	case p.Model.IsView(pv.Base):
		return "view"
	}
	return "pointer"
}

// ownsMemory reports whether there is evidence that value v frees memory
// when it dies: its type is an owner, tensor, smart pointer or container
// the packs know, or a class the file defines with a destructor or an
// owning member. A handle of a type holdfast cannot see may be a
// non-owning one (an op or value handle, a reference-counted alias).
func ownsMemory(m *apimodel.Model, fn *lifetime.Func, v *lifetime.Var) bool {
	base := v.Base
	if base == "" {
		base = v.Type
	}
	switch {
	case v.Kind == lifetime.Container,
		m.IsOwner(base), m.IsTensor(base), m.IsSmartPtr(base), m.IsContainer(base), m.Reallocates(base):
		return true
	}
	return fn.ClassNamed(base).Owns()
}

// receiverOf reports whether borrow b was taken through a method of its
// owner (owner.data(), owner->get()): a function handed the owner as an
// argument (Type::get(shape)) may copy what it needs instead.
func receiverOf(fn *lifetime.Func, b *lifetime.Event) bool {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind == lifetime.Use && e.Var == b.Owner && e.Flags&lifetime.Receiver != 0 && fn.InCall(e.Node, b.Node) {
			return true
		}
	}
	return false
}

// keptReferences returns the parameters constructor g keeps a reference
// to: a member initialised from a reference parameter (lib_(lib)) or from
// its address (dev_(&dev)), by member. A member the class declares as a
// reference or pointer goes in certain; one whose type the file does not
// declare (the class is declared in a header) in maybe.
func keptReferences(g *lifetime.Func) (certain, maybe map[int]string) {
	if g.Kind != lifetime.Constructor || g.Node < 0 {
		return nil, nil
	}
	file := g.File
	index := map[string]int{}
	for i, v := range g.Params() {
		if x := g.Vars[v]; x.Kind == lifetime.Reference {
			index[x.Name] = i
		}
	}
	if len(index) == 0 {
		return nil, nil
	}
	add := func(m *map[int]string, i int, member string) {
		if *m == nil {
			*m = map[int]string{}
		}
		(*m)[i] = member
	}
	for c := range file.NamedChildren(g.Node) {
		if file.Kind(c) != parser.KindFieldInitializerList {
			continue
		}
		for fi := range file.NamedChildren(c) {
			if file.Kind(fi) != parser.KindFieldInitializer {
				continue
			}
			var member string
			args := parser.None
			for part := range file.NamedChildren(fi) {
				switch file.Kind(part) {
				case parser.KindFieldIdentifier, parser.KindIdentifier:
					if member == "" {
						member = file.Text(part)
					}
				case parser.KindArgumentList, parser.KindInitializerList:
					args = part
				}
			}
			if member == "" || args == parser.None {
				continue
			}
			only := parser.None
			n := 0
			for a := range file.NamedChildren(args) {
				only = a
				n++
			}
			if n != 1 {
				continue
			}
			addr := false
			if file.Kind(only) == parser.KindPointerExpression && strings.HasPrefix(strings.TrimSpace(file.Text(only)), "&") {
				only, addr = file.Field(only, parser.FieldArgument), true
			}
			if file.Kind(only) != parser.KindIdentifier {
				continue
			}
			i, ok := index[file.Text(only)]
			if !ok {
				continue
			}
			m := g.Class.Member(member)
			switch {
			case m == nil || m.Type == "":
				// Not declared here; a capitalised name is more likely a
				// base class being initialised (TreeView(tree)).
				if !unicode.IsUpper(rune(member[0])) {
					add(&maybe, i, member)
				}
			case addr && m.Kind == lifetime.Pointer, !addr && (m.Kind == lifetime.Reference || m.Kind == lifetime.Pointer):
				add(&certain, i, member)
			}
		}
	}
	return certain, maybe
}

// checkKeptReferences reports an object built over a local with a
// constructor that keeps a reference to it (Nic(lib) storing lib in a
// reference member), when the object, or the container it was built in,
// outlives the local: used after the local's block, or returned while the
// local dies with the function. Moving the local away does not help: the
// object refers to the local itself.
func checkKeptReferences(p *Pass, fn *lifetime.Func) {
	seen := map[[2]lifetime.VarID]bool{}
	for i := range fn.Events {
		e := &fn.Events[i]
		var carrier lifetime.VarID
		var typ string
		switch {
		case e.Kind == lifetime.Store && e.Var != lifetime.NoVar && e.Other != lifetime.NoVar:
			c := fn.Var(e.Var)
			if c == nil || c.Kind != lifetime.Container {
				continue
			}
			typ = c.Elem
			carrier = e.Var
		case e.Kind == lifetime.Use && e.Flags&lifetime.ToConsumer != 0 && e.Var != lifetime.NoVar:
			carrier = constructedAt(fn, e)
			if carrier == lifetime.NoVar {
				continue
			}
			typ = fn.Var(carrier).Type
		default:
			continue
		}
		o := e.Other
		if e.Kind == lifetime.Use {
			o = e.Var
		}
		ov := fn.Var(o)
		if ov == nil || ov.Param || ov.Static || ov.Captured || ov.Outer != lifetime.NoVar || ov.Kind != lifetime.Owner && ov.Kind != lifetime.Container {
			continue
		}
		cls := classOf(typ)
		if cls == "" || seen[[2]lifetime.VarID{o, carrier}] {
			continue
		}
		member, certain := p.ctorKeepsRef(cls, fn.ArgCount(e), fn.ArgIndex(e))
		if member == "" {
			continue
		}
		died := fn.ScopeExitOf(o)
		if died == nil {
			continue
		}
		cv := fn.Var(carrier)
		var use *lifetime.Event
		returned := false
		if cv.Scope != ov.Scope && fn.Encloses(cv.Scope, ov.Scope) {
			use = useAfter(fn, carrier, died.At)
		}
		if use == nil && fn.Kind != lifetime.LambdaFunc {
			b := &lifetime.Event{At: e.At}
			if use = returnedAt(fn, carrier, b); use != nil {
				died, returned = endOf(fn), true
			}
		}
		if use == nil {
			continue
		}
		seen[[2]lifetime.VarID{o, carrier}] = true
		reportKeptReference(p, fn, e, ov, cv, cls, member, certain, died, use, returned)
	}
}

// constructedAt returns the value a constructor argument event e builds
// (T x(a, b): x), or NoVar.
func constructedAt(fn *lifetime.Func, e *lifetime.Event) lifetime.VarID {
	for j := range fn.Events {
		c := &fn.Events[j]
		if c.Kind == lifetime.Construct && c.Var != lifetime.NoVar && c.Call == e.Call && fn.SameCall(c.Node, e.Node) {
			return c.Var
		}
		if c.Kind == lifetime.Construct && c.Var != lifetime.NoVar && c.Call == e.Call && fn.InDeclaration(e.Node, c.Var) {
			return c.Var
		}
	}
	return lifetime.NoVar
}

// ctorKeepsRef returns the member in which a constructor of class cls
// with nargs arguments keeps its argument i, and whether the member is
// known to be a reference or pointer; "" when it does not, or no function
// of the file or tree says.
func (p *Pass) ctorKeepsRef(cls string, nargs, i int) (string, bool) {
	if i < 0 {
		return "", false
	}
	for _, g := range p.named(cls) {
		if g.Kind != lifetime.Constructor || len(g.Params()) != nargs {
			continue
		}
		certain, maybe := keptReferences(g)
		if m := certain[i]; m != "" {
			return m, true
		}
		return maybe[i], false
	}
	if t := p.Tree.LookupCall(summary.Call{Name: cls + "::" + cls, Nargs: nargs}); t != nil {
		if m := t.KeepsRefs[i]; m != "" {
			return m, true
		}
		return t.MayKeepRefs[i], false
	}
	return "", false
}

func reportKeptReference(p *Pass, fn *lifetime.Func, e *lifetime.Event, ov, cv *lifetime.Var, cls, member string, certain bool, died, use *lifetime.Event, returned bool) {
	owner, carrier := ov.Name, cv.Name
	msg := fmt.Sprintf("'%s' holds a %s that keeps a reference to local '%s', and is used at line %d after it dies at line %d",
		carrier, cls, owner, p.Line(use.At), p.Line(died.At))
	if returned {
		msg = fmt.Sprintf("'%s' holds a %s that keeps a reference to local '%s', and is returned at line %d",
			carrier, cls, owner, p.Line(use.At))
	}
	declEv := &lifetime.Event{Node: ov.Decl, At: ov.At, Call: ov.Type}
	death := p.Step(fn, diag.StepOwnerDies, died, owner, "", fmt.Sprintf("'%s' dies here; the %s in '%s' refers to it", owner, cls, carrier))
	if !certain {
		death.Assumed = true
		death.Message = fmt.Sprintf("'%s' dies here; assumed: %s's member '%s' is a reference or pointer (the class is declared in a file holdfast did not read)", owner, cls, member)
	}
	useMsg := fmt.Sprintf("'%s' is used here, after '%s' died", carrier, owner)
	if returned {
		useMsg = fmt.Sprintf("'%s' goes to the caller here, which gets a dangling reference: '%s' dies as the function returns", carrier, owner)
	}
	w := []diag.Step{
		p.Step(fn, diag.StepDeclare, declEv, owner, "", fmt.Sprintf("'%s' (%s) is a local of this function", owner, ov.Type)),
		p.Step(fn, diag.StepBorrow, e, "&"+owner, owner, fmt.Sprintf("a %s is built here with '%s'; its constructor keeps a reference to it in '%s'", cls, owner, member)),
		p.Step(fn, diag.StepStore, e, "&"+owner, carrier, fmt.Sprintf("the %s lives in '%s'", cls, carrier)),
		death,
		p.Step(fn, diag.StepUse, use, carrier, "", useMsg),
	}
	p.Report(fn, e.At, p.nodeEnd(e), msg, "keeps-ref:"+owner+"->"+carrier, w)
}
