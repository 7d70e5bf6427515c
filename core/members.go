package core

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/holdfast-dev/holdfast/parser"
)

// A method sees its object's data members: each is a local of the whole
// call (it neither begins nor ends with it) whose declared type, from the
// class's definition in the file or the tree, says what it owns. So a
// pointer into a member container dangles when the container grows, and
// a member freed by the method is freed for the rest of the path.

// Classes reads the classes f defines: each data member's declared type
// ("T*" for a pointer, "T&" for a reference), by class and member name.
// It is read once per file (the tree's summary and the file's own
// lookups both ask); the maps are shared, to be read, never written.
func Classes(f *parser.File) map[string]map[string]string {
	return f.Memo("core.Classes", func() any { return classes(f) }).(map[string]map[string]string)
}

func classes(f *parser.File) map[string]map[string]string {
	out := map[string]map[string]string{}
	x := &exec{f: f}
	for i := range f.Nodes {
		k := f.Nodes[i].Kind
		if k != parser.KindClassSpecifier && k != parser.KindStructSpecifier {
			continue
		}
		n := parser.NodeID(i)
		body := f.Field(n, parser.FieldBody)
		name := specifierName(f, n)
		base := calleeName(name) // a specialisation's template, whose name its constructors bear
		if body == parser.None || name == "" {
			continue
		}
		members := out[name]
		if members == nil {
			members = map[string]string{}
		}
		var defs []parser.NodeID
		var order []string // the data members, in declaration order
		if bases := baseNames(f, n); len(bases) > 0 {
			members["(bases)"] = strings.Join(bases, ",")
		}
		members["(body)"] = "yes"
		agg := aggregateHead(f, n)
		public := k == parser.KindStructSpecifier
		private := !public // under private: (a class's default), not protected:
		var hidden []string
		var nullInit []string // pointer members whose default initialiser is null
		var defaults []string // members with a default initialiser
		ctors := false        // the class declares a constructor
		for c := range f.NamedChildren(body) {
			if x.copyOp(base, c) {
				members["(cp)"] = "declared"
				addList(members, "(cp=)", x.copiedPointers(c))
			}
			if x.declaresCtor(c, base) {
				ctors = true
			}
			if m, ok := x.nullDefault(c); ok {
				nullInit = append(nullInit, m)
			}
			if f.Kind(c) == parser.KindFieldDeclaration && f.Field(c, parser.FieldDefaultValue) != parser.None {
				if m, _, _ := x.declName(f.Field(c, parser.FieldDeclarator)); m != "" {
					defaults = append(defaults, m)
				}
			}
			if f.Kind(c) == parser.KindOther {
				switch f.Text(c) {
				case "public":
					public, private = true, false
				case "private":
					public, private = false, true
				case "protected":
					public, private = false, false
				}
			}
			if agg && !x.aggregateMember(c, base, public) {
				agg = false
			}
			if f.Kind(c) == parser.KindTemplateDeclaration {
				// A member template: what it declares.
				c = x.lastNamedChild(c)
				if k := f.Kind(c); k == parser.KindFieldDeclaration || k == parser.KindDeclaration {
					if fd, _ := x.funcDeclarator(c); fd != parser.None && f.Kind(fd) == parser.KindFunctionDeclarator {
						method := lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))))
						members["("+method+")"] = "method"
						x.noteReturn(members, method, c)
					}
					continue
				}
			}
			if f.Kind(c) == parser.KindFunctionDefinition {
				if fd, _ := x.funcDeclarator(c); fd != parser.None {
					method := lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))))
					if members["("+method+")"] == "" {
						members["("+method+")"] = "method"
					}
					x.noteReturn(members, method, c)
					defs = append(defs, c)
				}
				continue
			}
			if f.Kind(c) != parser.KindFieldDeclaration || x.isStatic(c) {
				continue
			}
			typ := f.Text(f.Field(c, parser.FieldType))
			for d := range f.NamedChildren(c) {
				if f.Nodes[d].Field != parser.FieldDeclarator {
					continue
				}
				if fd, _ := x.funcDeclarator(c); fd != parser.None && f.Kind(fd) == parser.KindFunctionDeclarator {
					// A method: kept as "(name)" so an unqualified call can
					// be told to be one.
					method := lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))))
					members["("+method+")"] = "method"
					x.noteReturn(members, method, c)
					break
				}
				m, ptr, ref := x.declName(d)
				if m == "" {
					continue
				}
				order = append(order, m)
				if private {
					hidden = append(hidden, m)
				}
				switch {
				case ptr:
					members[m] = typ + "*"
				case ref:
					members[m] = typ + "&"
				case x.isArray(d):
					members[m] = typ + "[]"
				default:
					members[m] = typ
				}
			}
		}
		if len(order) > 1 {
			members["(order)"] = strings.Join(order, ",")
		}
		if len(hidden) > 0 {
			members["(private)"] = strings.Join(hidden, ",")
		}
		if agg {
			members["(agg)"] = "yes"
			aggregateStores(members, base, order)
		}
		addList(members, "(nullinit)", nullInit)
		addList(members, "(init)", defaults)
		if !ctors {
			// The implicit default constructor leaves each member as its
			// default initialiser says ([class.base.init]).
			addList(members, nullKey(0), nullInit)
		}
		// What the methods do, once every member is known (a method may
		// come before the members it uses).
		for _, c := range defs {
			fd, _ := x.funcDeclarator(c)
			x.methodFacts(c, lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator)))), members)
		}
		// Twice: a method that hands its callable to one defined after it.
		for range 2 {
			for _, c := range defs {
				fd, _ := x.funcDeclarator(c)
				x.deferFacts(c, lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator)))), members)
			}
		}
		// Overloads of one arity (T(const U&) and T(U&&)) are told apart
		// by types holdfast does not read: what one of them keeps is not
		// known of a call.
		for key, n := range x.overloads(body, name) {
			if n > 1 {
				members["(#"+key+")"] = strconv.Itoa(n)
			}
		}
		SettleOverloads(members)
		out[name] = members
	}
	// Methods defined outside their class (C::m, C::~C) add what they
	// do to the class's facts; the members come from the definition,
	// here or in another file of the tree (see probes.go).
	bodies := map[string]bool{}
	for class, facts := range out {
		bodies[class] = hasBody(facts)
	}
	defined := map[string]map[string]int{} // definitions by class, by method/arity
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.KindFunctionDefinition {
			continue
		}
		def := parser.NodeID(i)
		fd, full, j := x.outOfLine(def)
		if j <= 0 {
			continue
		}
		class, method := lastName(full[:j]), full[j+2:]
		if out[class] == nil {
			out[class] = map[string]string{}
		}
		if x.copyOp(class, def) {
			out[class]["(cp)"] = "declared"
			addList(out[class], "(cp=)", x.copiedPointers(def))
		}
		x.noteReturn(out[class], method, def)
		x.methodFacts(def, method, out[class])
		x.deferFacts(def, method, out[class])
		if !bodies[class] {
			x.probeFacts(def, method, out[class])
		}
		if defined[class] == nil {
			defined[class] = map[string]int{}
		}
		defined[class][fmt.Sprintf("%s/%d", method, x.arity(fd))]++
	}
	for class, counts := range defined {
		for key, n := range counts {
			if old, _ := strconv.Atoi(out[class]["(#"+key+")"]); n > 1 && n > old {
				out[class]["(#"+key+")"] = strconv.Itoa(n)
			}
		}
		SettleOverloads(out[class])
	}
	return out
}

// arity is the number of parameters function declarator fd declares.
func (x *exec) arity(fd parser.NodeID) int {
	n := 0
	for p := range x.f.NamedChildren(x.f.Field(fd, parser.FieldParameters)) {
		if k := x.f.Kind(p); k == parser.KindParameterDeclaration || k == parser.KindOptionalParameterDeclaration {
			n++
		}
	}
	return n
}

// SettleOverloads applies the overload counts of class facts ("(#m/N)":
// the declarations or definitions of method m with N parameters, when
// more than one): what one overload keeps ("(<m/N)") is not known of a
// call, which types holdfast does not read may send to another that keeps
// something else or nothing ("!"). A class whose declarations are in a
// header and definitions in a source is settled again where their facts
// are merged (see summary's mergeClass).
func SettleOverloads(facts map[string]string) {
	for k, v := range facts {
		key, ok := strings.CutPrefix(k, "(#")
		if !ok {
			continue
		}
		if n, _ := strconv.Atoi(v); n > 1 && facts["(<"+key] != "" {
			facts["(<"+key] = "!"
		}
	}
}

// Class facts. Besides its data members, a class's entry says what its
// methods do with the memory the members point to, as entries keyed by a
// parenthesised name:
//
//   - "(~)": the members its destructor gives up (deletes, frees, or
//     passes to another function: back to a pool, to a deleter), comma
//     separated, and "(~calls)" the methods of the object it calls. A
//     member of an owning type (a unique_ptr, a container, an array) is
//     given up by the implicit destructor as well.
//   - "(-m)": the members method m frees (delete, free, reset, an owning
//     member assigned anew); "(+m)": the container members whose buffer it
//     may replace (push_back, resize, clear, ...).
//   - "(~reads)": the members the destructor's body reads (see
//     readMembers; "-": none); "(~rel)": those it releases as counted
//     objects (see counted.go).
//   - "(~via)": for a member the destructor gives up only by handing it
//     to functions called by name (release(p_), Pool::Put(p_)), each
//     such handing as "m=name/nargs/k" (argument k): whether the member
//     is given up is then what those functions do (see givenUp), not the
//     call's shape.
//   - "(~out)": the methods the destructor calls on other objects
//     (peer_->Detach(), old->SetOwner(nullptr)), by name: an object
//     that unlinks itself from a peer as it ends (see detached).
//   - "(~mcalls)": the methods the destructor calls on data members,
//     as "m.f" (player_.setSource(nullptr)): what they set in the
//     member is set before the members end (see endMembers).
//   - "(delete)": what the class's own operator delete does: "none"
//     when every one it defines has an empty body (the storage belongs to
//     a buffer or arena the object was placed in), else "frees".
//   - "(acq)": the members a constructor hands to functions called by
//     name (lock(m_), retain(m_)): a destructor that hands them to a
//     function again releases what the constructor acquired (unlock,
//     release), which leaves what the member points to as the object
//     found it, so it is not given up (see "(~via)").
//   - "(~!)": the pointer members the destructor frees: deletes, frees,
//     or hands to a call (a pool, a deleter), a pointer to non-const
//     data other than characters; "(cp)": the class declares a copy or
//     move constructor or assignment of its own (see copies.go).
//   - "(=m)": what method m returns, "value" (an object by value: each
//     call makes a temporary), "storage" (a by-value object that owns a
//     buffer: a string, a vector) or "no" (a pointer, a reference, or
//     overloads that disagree).
//   - "(<m/N)": the parameters method m of N parameters (or the
//     constructor, m the class's name) keeps in the object: "k:M" (what
//     pointer or view parameter k points to, stored in member M), "k&:M"
//     (the object reference parameter k names), "k.buf:M" (the buffer it
//     owns: M = p.data()), "k.own:M" (container parameter k, taken by
//     value and moved into container member M: the argument's buffer
//     when moved in, what its elements keep when copied), "k*:M" (a view member of an aggregate: the
//     buffer of a string or container, else what k points to); M ends in "[]" when the parameter is put in a
//     container member, and "agg:T/N:M[]:j=K;..." when a braced aggregate
//     of class T (N elements) is put in container member M, element j
//     being parameter referent K (see aggregateInsert), read with what
//     T's aggregate initialisation keeps. Overloads of one arity that keep different things
//     say "!" (nothing is known); two definitions of a class of one name
//     keep only what both say (see summary's mergeClass).
//   - "(init)": the data members declared with a default member
//     initialiser ([class.mem]); a constructor that does not initialise
//     one of the others leaves it default-initialised (see
//     emptyMemberRange).
//   - "(agg)" = "yes": the class is an aggregate ([dcl.init.aggr]).
//   - "(private)": the data members declared private ([class.access]:
//     only the class's own members and friends name them), so one that
//     no method but a constructor reads is never read once the object
//     is made (see unreadMember).
//   - "(bases)": the base classes, by last name, in declaration order
//     (a call qualified by one may run code of the object).
//   - "(order)": the data members in declaration order, which the
//     implicit destruction ends in reverse ([class.dtor]: after the
//     destructor's body, the members are destroyed in the reverse order
//     of their construction; [class.base.init]: they are constructed in
//     declaration order).
//   - "(&m)" = "ref": what method m yields (below) it returns as a
//     reference, not a pointer.
//   - "(m)" = "yields M": method m returns a pointer or reference to
//     member M itself (a pointer member's pointee, or the member object);
//     "yields M.buf": a pointer into the buffer M owns (M.get(), M.data(),
//     &M[i]).
//
// So an object of the class owns the memory such a member points to: what
// a yielding method returned dangles once the object ends, or once a
// method frees that member (or, for a buffer, replaces it).

// methodFacts records what the method definition def (named method, a
// destructor when it starts with ~) does with the members.
func (x *exec) methodFacts(def parser.NodeID, method string, members map[string]string) {
	f := x.f
	body := f.Field(def, parser.FieldBody)
	if body == parser.None {
		return
	}
	declared := x.declaredNames(def)
	// member says m (M, or M.buf) names a data member: one the class
	// declares, not a parameter or local of the method of that name.
	member := func(m string) bool {
		base := strings.TrimSuffix(m, ".buf")
		return members[base] != "" && !strings.HasPrefix(base, "(") && !declared[base]
	}
	onlyMembers := func(l []string) []string {
		return slices.DeleteFunc(l, func(m string) bool { return !member(m) })
	}
	if method == "operatordelete" || method == "operator delete" {
		// The class's own deallocation function: "none" when every one
		// it defines does nothing (see "(delete)").
		v := "frees"
		if !hasNamedChild(f, body) {
			v = "none"
		}
		if members["(delete)"] != "frees" {
			members["(delete)"] = v
		}
		return
	}
	if strings.HasPrefix(method, "~") {
		// A reference member refers to an object the class does not own
		// ([class.dtor]: destruction destroys the members, not what a
		// reference member is bound to): handing it to a call gives
		// nothing up.
		owning := func(l []string) []string {
			return slices.DeleteFunc(onlyMembers(l), func(m string) bool { return referenceMember(members, m) })
		}
		freed, _, calls := x.handedAway(body, members, true)
		freed = owning(freed)
		addList(members, "(~)", freed)
		addList(members, "(~?)", x.guardedFrees(body, members, freed))
		addList(members, "(~calls)", calls)
		out, mcalls := x.calledMethods(body, members)
		addList(members, "(~out)", out)
		addList(members, "(~mcalls)", mcalls)
		addList(members, "(~!)", owning(x.destroyedMembers(body, members)))
		addList(members, "(~reads)", x.readMembers(body, members, false))
		addList(members, "(~ureads)", x.readMembers(body, members, true))
		addList(members, "(~rel)", x.releasedMembers(body, members))
		addList(members, "(~via)", slices.DeleteFunc(x.handedOnlyToCalls(body, members), func(e string) bool {
			m, _, _ := strings.Cut(e, "=")
			return referenceMember(members, m)
		}))
		return
	}
	if f.Field(def, parser.FieldType) == parser.None && !strings.HasPrefix(method, "operator") {
		if fd, _ := x.funcDeclarator(def); fd != parser.None {
			if nulls := x.ctorNulls(def, body, members); len(nulls) > 0 {
				key := nullKey(x.arity(fd))
				if _, seen := members[key]; seen && members[key] != strings.Join(nulls, ",") {
					// Overloads of one arity that differ: nothing known.
					members[key] = "!"
				} else {
					members[key] = strings.Join(nulls, ",")
				}
			}
		}
		// A constructor that hands a member to a function (lock(m),
		// retain(m), register(m)) acquires something of what it was
		// given: see "(acq)".
		var acq []string
		for _, e := range x.handedOnlyToCalls(body, members) {
			if m, _, _ := strings.Cut(e, "="); member(m) && !slices.Contains(acq, m) {
				acq = append(acq, m)
			}
		}
		addList(members, "(acq)", acq)
	}
	freed, grown, calls := x.handedAway(body, members, false)
	freed, grown = onlyMembers(freed), onlyMembers(grown)
	x.derivedFacts(def, members)
	x.setFacts(body, method, members, calls)
	addList(members, "(-"+method+")", freed)
	// Those it frees only under a condition on another member (an
	// ownership flag): a destructor calling it frees them only then.
	addList(members, "(-"+method+"?)", x.guardedFrees(body, members, freed))
	addList(members, "(+"+method+")", grown)
	if stores, arity := x.storedParams(def, members); len(stores) > 0 {
		// Overloads of one arity that keep different things: nothing is
		// known of a call ("!").
		k, v := storesKey(method, arity), strings.Join(stores, ",")
		if old, ok := members[k]; ok && old != v {
			v = "!"
		}
		members[k] = v
	}
	// A method that returns a pointer (bare, or in a result that holds
	// a value or an error: StatusOr<T*>, optional<T*>), a reference or a
	// view, every return statement of which returns one member's memory.
	_, rk := x.funcDeclarator(def)
	retType := x.resolve(f.Text(f.Field(def, parser.FieldType)))
	view := rk == tPlain && classify(retType) == tView
	wrapped := rk == tPlain && wrapsPointer(retType)
	if wrapped {
		rk = tPointer
	}
	if rk != tPointer && rk != tRef && !view {
		return
	}
	m := ""
	for _, ret := range returnStatements(f, body) {
		var e parser.NodeID
		for c := range f.NamedChildren(ret) {
			e = c
		}
		y := yieldedMember(f, e)
		if y == "" && rk == tRef {
			y = elementMember(f, e, members)
		}
		if y == "" && wrapped && f.Kind(e) == parser.KindCallExpression && f.Kind(f.Field(e, parser.FieldFunction)) != parser.KindFieldExpression {
			// A result made by a function (absl::NotFoundError(...)):
			// the error, which lends nothing.
			continue
		}
		if y == "" || m != "" && y != m {
			return
		}
		m = y
	}
	if m != "" && member(m) {
		if view && !strings.HasSuffix(m, ".buf") {
			// A view of a member is a view of what it owns: a string's
			// or container's buffer.
			if classify(strings.TrimSuffix(members[m], "&")) != tStorage {
				return
			}
			m += ".buf"
		}
		members["("+method+")"] = "yields " + m
		if rk == tRef {
			// A reference, not a pointer: auto copies what it refers to.
			members["(&"+method+")"] = "ref"
		}
	}
}

// handedAway lists the members a method body frees and those whose
// buffer it may replace, and the methods of the object it calls
// (this->m(), m()). Freeing: delete m; free(m); m.reset(...); assigning
// an owning member (a unique_ptr, a container) anew. Replacing: a
// container member's growth (push_back, resize, clear, ...). A destructor
// (anyCall) also gives up a member it hands to any function: back to a
// pool, to a deleter; an ordinary method handing a member to a call
// (memset, a kernel launch) uses it.
func (x *exec) handedAway(body parser.NodeID, members map[string]string, anyCall bool) (freed, grown, calls []string) {
	f := x.f
	add := func(list *[]string, m string) {
		if m != "" && !strings.HasPrefix(m, "(") && !slices.Contains(*list, m) {
			*list = append(*list, m)
		}
	}
	owning := func(m string) bool {
		typ := members[m]
		if strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") {
			return false
		}
		k := classify(strings.TrimSuffix(typ, "[]"))
		return k == tUnique || k == tStorage
	}
	for j := body; j < f.End(body); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindDeleteExpression:
			var arg parser.NodeID
			for c := range f.NamedChildren(j) {
				arg = c
			}
			add(&freed, memberName(f, arg))
		case parser.KindCallExpression:
			fn := f.Field(j, parser.FieldFunction)
			args := f.Field(j, parser.FieldArguments)
			switch f.Kind(fn) {
			case parser.KindFieldExpression:
				recv := f.Field(fn, parser.FieldArgument)
				name := f.Text(f.Field(fn, parser.FieldField))
				if f.Kind(recv) == parser.KindThis {
					calls = append(calls, name)
					continue
				}
				m := memberName(f, recv)
				switch {
				case m == "" || members[m] == "":
				case name == "reset":
					add(&freed, m)
				case owning(m) && (growMethods[name] || name == "erase"):
					add(&grown, m)
				}
			case parser.KindIdentifier:
				name := f.Text(fn)
				if members["("+name+")"] != "" {
					// A method of the object: unqualified lookup finds the
					// class's member before a namespace's function
					// ([basic.lookup.unqual]), so free(p) here is its own.
					calls = append(calls, name)
				} else if frees[name] {
					for a := range f.NamedChildren(args) {
						add(&freed, memberName(f, a))
						break
					}
				}
			}
			if anyCall {
				for a := range f.NamedChildren(args) {
					if m := memberName(f, a); members[m] != "" {
						add(&freed, m)
					}
				}
			}
		case parser.KindAssignmentExpression:
			if m := memberName(f, f.Field(j, parser.FieldLeft)); m != "" && owning(m) {
				add(&freed, m)
			}
		}
	}
	slices.Sort(calls)
	return freed, grown, slices.Compact(calls)
}

// guardedFrees lists the members of freed that destructor body gives up
// only under a condition reading another data member (if (owns_) delete
// p_;): whether the object owns that memory is decided by state holdfast
// does not follow, so it is not taken to own it (see owners.go). A test
// of the member itself (if (p_) delete p_;) is no such condition.
func (x *exec) guardedFrees(body parser.NodeID, members map[string]string, freed []string) []string {
	f := x.f
	guarded := map[string]bool{}
	unguarded := map[string]bool{}
	guardedBy := func(j parser.NodeID, m string) bool { return x.memberGuarded(body, j, m, members) }
	for j := body; j < f.End(body); j++ {
		var operands []parser.NodeID
		switch f.Nodes[j].Kind {
		case parser.KindDeleteExpression:
			for c := range f.NamedChildren(j) {
				operands = []parser.NodeID{c}
			}
		case parser.KindCallExpression:
			for a := range f.NamedChildren(f.Field(j, parser.FieldArguments)) {
				operands = append(operands, a)
			}
			if fn := f.Field(j, parser.FieldFunction); f.Kind(fn) == parser.KindFieldExpression {
				operands = append(operands, f.Field(fn, parser.FieldArgument))
			}
		default:
			continue
		}
		for _, o := range operands {
			m := memberName(f, o)
			if m == "" || !slices.Contains(freed, m) {
				continue
			}
			if guardedBy(j, m) {
				guarded[m] = true
			} else {
				unguarded[m] = true
			}
		}
	}
	var out []string
	for m := range guarded {
		if !unguarded[m] {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out
}

// addList merges names into the comma-separated list at key.
func addList(members map[string]string, key string, names []string) {
	if len(names) == 0 {
		return
	}
	if old := members[key]; old != "" {
		names = append(strings.Split(old, ","), names...)
	}
	slices.Sort(names)
	members[key] = strings.Join(slices.Compact(names), ",")
}

// memberName is the member n names: m, this->m; "" for anything else.
func memberName(f *parser.File, n parser.NodeID) string {
	switch f.Kind(n) {
	case parser.KindIdentifier:
		return f.Text(n)
	case parser.KindFieldExpression:
		if f.Kind(f.Field(n, parser.FieldArgument)) == parser.KindThis {
			return f.Text(f.Field(n, parser.FieldField))
		}
	}
	return ""
}

// yieldedMember is what expression e points into: "M" for member M
// itself (m, this->m, a cast of it, m + k), "M.buf" for the buffer M owns
// (m.get(), m.data(), m.c_str(), &m[i]); "" for anything else.
func yieldedMember(f *parser.File, e parser.NodeID) string {
	e = uncast(f, e)
	switch f.Kind(e) {
	case parser.KindIdentifier, parser.KindFieldExpression:
		return memberName(f, e)
	case parser.KindCallExpression:
		fn := f.Field(e, parser.FieldFunction)
		if f.Kind(fn) != parser.KindFieldExpression {
			return ""
		}
		switch f.Text(f.Field(fn, parser.FieldField)) {
		case "get", "data", "c_str":
			if m := memberName(f, f.Field(fn, parser.FieldArgument)); m != "" {
				return m + ".buf"
			}
		}
	case parser.KindPointerExpression:
		arg := f.Field(e, parser.FieldArgument)
		if f.Kind(arg) == parser.KindSubscriptExpression {
			if !strings.HasPrefix(strings.TrimSpace(f.Text(e)), "&") {
				// *M[i]: what the pointer stored in an element points
				// to, no part of M's buffer.
				return ""
			}
			if m := memberName(f, f.Field(arg, parser.FieldArgument)); m != "" {
				return m + ".buf"
			}
		}
		if strings.HasPrefix(strings.TrimSpace(f.Text(e)), "*") {
			// *M: the object pointer member M points to.
			return memberName(f, arg)
		}
	case parser.KindBinaryExpression:
		return yieldedMember(f, f.Field(e, parser.FieldLeft))
	}
	return ""
}

// elementMember is the buffer a method returning a reference lends when
// it returns an element of a member (M[i], M.at(i), M.front(),
// M.back()) whose elements live in one buffer: a pointer, an array or a
// contiguous container, whose growth moves them ([vector.modifiers]). A
// node-based or associative container keeps its elements in place, and
// is not read here.
func elementMember(f *parser.File, e parser.NodeID, members map[string]string) string {
	e = uncast(f, e)
	var m string
	switch f.Kind(e) {
	case parser.KindSubscriptExpression:
		m = memberName(f, f.Field(e, parser.FieldArgument))
	case parser.KindCallExpression:
		fn := f.Field(e, parser.FieldFunction)
		if f.Kind(fn) != parser.KindFieldExpression {
			return ""
		}
		switch f.Text(f.Field(fn, parser.FieldField)) {
		case "at", "front", "back":
			m = memberName(f, f.Field(fn, parser.FieldArgument))
		}
	}
	typ := strings.TrimSpace(members[m])
	if m == "" || typ == "" {
		return ""
	}
	if fam, _ := containerOf(typ); fam != famContiguous && !strings.HasSuffix(typ, "*") && !strings.HasSuffix(typ, "]") {
		return ""
	}
	return m + ".buf"
}

// referenceMember says data member m (or m.buf) of a class whose facts
// are facts is declared as a reference ("T&"): it is bound to an object
// the class does not own ([dcl.ref]: a reference is not an object of its
// own; [class.dtor] destroys the members, not what they are bound to).
func referenceMember(facts map[string]string, m string) bool {
	return strings.HasSuffix(facts[strings.TrimSuffix(m, ".buf")], "&")
}

// list reads a comma-separated fact.
func list(facts map[string]string, key string) []string {
	if facts[key] == "" {
		return nil
	}
	return strings.Split(facts[key], ",")
}

// freedBy lists the members method frees ("~": the destructor gives up),
// with what the methods it calls on the object free.
func freedBy(facts map[string]string, method string) []string {
	if method != "~" {
		return list(facts, "(-"+method+")")
	}
	out := list(facts, "(~)")
	calls := list(facts, "(~calls)")
	for _, c := range calls {
		out = append(out, list(facts, "(-"+c+")")...)
	}
	return out
}

// guardedByDestructor lists the members the destructor frees only under
// a condition on another member, in its body or in the methods of the
// object it calls ("(~?)", "(-m?)").
func guardedByDestructor(facts map[string]string) []string {
	out := list(facts, "(~?)")
	for _, c := range list(facts, "(~calls)") {
		out = append(out, list(facts, "(-"+c+"?)")...)
	}
	return out
}

// yielded is what method yields (see Classes): the member, and whether
// it is the member's buffer; "" when the method lends nothing.
func yielded(facts map[string]string, method string) (member string, buf bool) {
	y, ok := strings.CutPrefix(facts["("+method+")"], "yields ")
	if !ok {
		return "", false
	}
	m, isBuf := strings.CutSuffix(y, ".buf")
	return m, isBuf
}

// owningClass says some method of the class lends memory an object of
// it owns (see ownedYield): a temporary of the class takes that memory
// with it when it dies.
func owningClass(facts map[string]string) bool {
	for k, v := range facts {
		if len(k) > 2 && k[0] == '(' && strings.HasPrefix(v, "yields ") {
			if _, ok := ownedYield(facts, k[1:len(k)-1]); ok {
				return true
			}
		}
	}
	return false
}

// ownedYield says method of the class lends memory the object owns, and
// names the part it lends (the member, or its buffer): the member is
// given up by the destructor, or is of an owning type (then a reference
// to the member object lives as long as the object).
func ownedYield(facts map[string]string, method string) (string, bool) {
	m, _ := yielded(facts, method)
	if m == "" {
		return "", false
	}
	part := facts["("+method+")"][len("yields "):]
	if slices.Contains(freedBy(facts, "~"), m) && !slices.Contains(guardedByDestructor(facts), m) {
		// Given up by the destructor on every object; one given up only
		// under a flag (if (owned) delete ptr;) is not known to be owned
		// by this one (see owners.go).
		return part, true
	}
	typ := facts[m]
	if strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") {
		return "", false
	}
	if strings.HasSuffix(typ, "[]") {
		return part, true
	}
	switch classify(typ) {
	case tUnique, tStorage:
		return part, true
	}
	return "", false
}

// releases lists the parts (see ownedYield) calling method on an object
// of the class ends: a member it frees, and the buffer of one it frees or
// replaces.
func releases(facts map[string]string, method string) []string {
	freed := freedBy(facts, method)
	grown := list(facts, "(+"+method+")")
	var out []string
	for k := range facts {
		if !strings.HasPrefix(k, "(") || strings.HasPrefix(k, "(-") || strings.HasPrefix(k, "(+") || strings.HasPrefix(k, "(~") ||
			strings.HasPrefix(k, "(set:") || strings.HasPrefix(k, "(this:") || strings.HasPrefix(k, "(^") || strings.HasPrefix(k, "(reads:") || strings.HasPrefix(k, "(ureads:") {
			continue
		}
		m, buf := yielded(facts, strings.Trim(k, "()"))
		switch {
		case m == "":
		case slices.Contains(freed, m) && !buf && !isOwningType(facts[m]):
			out = append(out, m)
		case buf && (slices.Contains(freed, m) || slices.Contains(grown, m)):
			out = append(out, m+".buf")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// releasesOf is releases(facts, method) for the class the facts are of,
// computed once per class and method in an execution (a class's facts do
// not change during one).
func (x *exec) releasesOf(class string, facts map[string]string, method string) []string {
	k := [2]string{class, method}
	if r, ok := x.released[k]; ok {
		return r
	}
	r := releases(facts, method)
	if x.released == nil {
		x.released = map[[2]string][]string{}
	}
	x.released[k] = r
	return r
}

// isOwningType says a member's declared type owns what it holds.
func isOwningType(typ string) bool {
	if strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") {
		return false
	}
	k := classify(strings.TrimSuffix(typ, "[]"))
	return k == tUnique || k == tStorage
}

// FileMembers answers Options.Members from the classes file f defines,
// then from next (nil: nothing more).
func FileMembers(f *parser.File, next func(string) map[string]string) func(string) map[string]string {
	classes := Classes(f)
	// The answers, once per class: a class is looked up at every call
	// on an object of it. The maps answered are read, never written.
	var mu sync.Mutex
	answered := map[string]map[string]string{}
	return func(class string) map[string]string {
		mu.Lock()
		defer mu.Unlock()
		if a, ok := answered[class]; ok {
			return a
		}
		a := fileMembers(classes, next, class)
		answered[class] = a
		return a
	}
}

func fileMembers(classes map[string]map[string]string, next func(string) map[string]string, class string) map[string]string {
	m, ok := classes[class]
	var more map[string]string
	if next != nil {
		more = next(class)
	}
	switch {
	case !ok:
		return resolveProbes(more)
	case more == nil:
		return resolveProbes(m)
	}
	// The class's facts are spread over a header and its sources: the
	// file's own win, the tree's fill in.
	merged := maps.Clone(more)
	maps.Copy(merged, m)
	if hasBody(m) && m["(cp)"] == "" {
		// The file defines the class: its body declares every copy it
		// has (another class of the name elsewhere says nothing).
		delete(merged, "(cp)")
	}
	return resolveProbes(merged)
}

// pointeeClass is the class a pointer type T* points to, when the tree
// defines it (its class facts are known), else "".
func (x *exec) pointeeClass(typ string) string {
	if strings.Count(typ, "*") != 1 || !strings.HasSuffix(strings.TrimSpace(typ), "*") {
		return ""
	}
	c := typeName(x.resolve(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(typ), "*"))))
	if c == "" || x.opt.Members == nil || x.opt.Members(c) == nil {
		return ""
	}
	return c
}

// className is the name a class definition's name (t, as written) is
// known by: its last component, without spaces; a partial
// specialisation keeps its template arguments (class T<X&> is not class
// T, whose facts may differ), though they may hold a '::'
// (enable_if<...>::type).
func className(t string) string {
	t = strings.Join(strings.Fields(t), "")
	depth, cut := 0, 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ':':
			if depth == 0 && i+1 < len(t) && t[i+1] == ':' {
				cut = i + 2
				i++
			}
		}
	}
	return t[cut:]
}

// nullKey is the class fact listing the pointer members a constructor of
// that arity leaves null ("!": overloads of the arity differ).
func nullKey(arity int) string { return "(null/" + strconv.Itoa(arity) + ")" }

// nullMembers lists the pointer members an object made by a constructor
// of class with nargs arguments holds null, until anything else touches
// it.
func nullMembers(facts map[string]string, nargs int) []string {
	if v := facts[nullKey(nargs)]; v != "!" {
		return list(facts, nullKey(nargs))
	}
	return nil
}

// declaresCtor says member declaration c of class declares or defines a
// constructor of it.
func (x *exec) declaresCtor(c parser.NodeID, class string) bool {
	f := x.f
	if f.Kind(c) == parser.KindTemplateDeclaration {
		c = x.lastNamedChild(c)
	}
	switch f.Kind(c) {
	case parser.KindFunctionDefinition, parser.KindFieldDeclaration, parser.KindDeclaration:
	default:
		return false
	}
	fd, _ := x.funcDeclarator(c)
	return fd != parser.None && f.Kind(fd) == parser.KindFunctionDeclarator && lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator)))) == class
}

// nullDefault reads a pointer data member declared with a null default
// initialiser (T* p = nullptr; T* p{}; T* p{nullptr}).
func (x *exec) nullDefault(c parser.NodeID) (string, bool) {
	f := x.f
	if f.Kind(c) != parser.KindFieldDeclaration || x.isStatic(c) {
		return "", false
	}
	d, v := f.Field(c, parser.FieldDeclarator), f.Field(c, parser.FieldDefaultValue)
	if f.Kind(d) != parser.KindPointerDeclarator || v == parser.None || !x.nullInit(v) {
		return "", false
	}
	name, ptr, _ := x.declName(d)
	return name, ptr && name != ""
}

// nullInit says initialiser e makes a pointer null: nullptr, NULL, 0, {}
// or (), or one of these in braces or parentheses.
func (x *exec) nullInit(e parser.NodeID) bool {
	f := x.f
	switch f.Kind(e) {
	case parser.KindNullptr:
		return true
	case parser.KindNumberLiteral:
		return f.Text(e) == "0"
	case parser.KindIdentifier:
		return f.Text(e) == "NULL"
	case parser.KindInitializerList, parser.KindArgumentList:
		n, last := 0, parser.None
		for a := range f.NamedChildren(e) {
			n++
			last = a
		}
		return n == 0 || n == 1 && x.nullInit(last)
	}
	return false
}

// ctorNulls lists the pointer members constructor def leaves null: those
// its initialiser list makes null, and those it does not name whose
// default initialiser is null, when its body assigns none of them.
func (x *exec) ctorNulls(def, body parser.NodeID, members map[string]string) []string {
	f := x.f
	named := map[string]bool{}
	declared := x.declaredNames(def)
	// pointer says m may be a pointer member: declared one, or of a type
	// this file does not say (a constructor defined outside its class).
	pointer := func(m string) bool {
		t := members[m]
		return m != "" && !declared[m] && (t == "" || strings.HasSuffix(t, "*"))
	}
	var out []string
	for c := range f.NamedChildren(def) {
		if f.Kind(c) != parser.KindFieldInitializerList {
			continue
		}
		for fi := range f.NamedChildren(c) {
			m, init := "", parser.None
			for a := range f.NamedChildren(fi) {
				switch f.Kind(a) {
				case parser.KindFieldIdentifier, parser.KindIdentifier:
					m = f.Text(a)
				case parser.KindArgumentList, parser.KindInitializerList:
					init = a
				}
			}
			named[m] = true
			if pointer(m) && init != parser.None && x.nullInit(init) {
				out = append(out, m)
			}
		}
	}
	for _, m := range list(members, "(nullinit)") {
		if !named[m] {
			out = append(out, m)
		}
	}
	// m = nullptr; as a statement of the body itself (not under a
	// condition) makes it null too.
	bodyNull := map[parser.NodeID]bool{}
	for st := range f.NamedChildren(body) {
		if f.Kind(st) != parser.KindExpressionStatement {
			continue
		}
		for a := range f.NamedChildren(st) {
			if f.Kind(a) != parser.KindAssignmentExpression || strings.TrimSpace(f.Text(f.Field(a, parser.FieldOperator))) != "=" {
				continue
			}
			if m := memberName(f, f.Field(a, parser.FieldLeft)); pointer(m) && x.nullInit(f.Field(a, parser.FieldRight)) {
				bodyNull[a] = true
				out = append(out, m)
			}
		}
	}
	// The body may set them: any assignment to one, or its address
	// handed on, leaves it unknown; so does a call of a method of the
	// object (an unqualified call, or one through this) or one handed
	// this.
	for j := body; j < f.End(body); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindCallExpression:
			fn := f.Field(j, parser.FieldFunction)
			if k := f.Kind(fn); k == parser.KindIdentifier || k == parser.KindFieldExpression && f.Kind(f.Field(fn, parser.FieldArgument)) == parser.KindThis {
				return nil
			}
		case parser.KindThis:
			if p := f.Nodes[j].Parent; f.Kind(p) == parser.KindArgumentList {
				return nil
			}
		case parser.KindAssignmentExpression:
			if bodyNull[j] {
				continue
			}
			m := memberName(f, f.Field(j, parser.FieldLeft))
			out = slices.DeleteFunc(out, func(s string) bool { return s == m })
		case parser.KindPointerExpression:
			if t := f.Text(j); strings.HasPrefix(t, "&") {
				m := memberName(f, f.Field(j, parser.FieldArgument))
				out = slices.DeleteFunc(out, func(s string) bool { return s == m })
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// declareMembers makes a local for every data member of the method's
// class (Options.Members) whose type says something: a container, a smart pointer, a view,
// a raw pointer (to an object of the caller's), a reference.
func (x *exec) declareMembers(s *state) {
	class := x.className()
	if class == "" {
		return
	}
	if x.opt.Members == nil {
		return
	}
	members := x.opt.Members(class)
	x.classMembers = members
	for _, name := range slices.Sorted(maps.Keys(members)) {
		if strings.HasPrefix(name, "(") {
			continue
		}
		x.hasMembers = true
		typ := members[name]
		base := x.resolve(strings.TrimRight(typ, "*&"))
		l := local{name: name, typ: classify(base), val: unknown, depth: -1, member: true, tname: typeName(base)}
		l.fam, l.elem = containerOf(base)
		l.slot = s.newObj(object{kind: oParam, owner: name})
		switch {
		case strings.HasSuffix(typ, "*") || x.objcObject(typ):
			// What it points to is the caller's, of the class its type
			// names: that class's methods say what a call through it
			// keeps, as for a pointer parameter.
			l.typ = tPointer
			l.val = borrowOf(s.newObj(object{kind: oParam, owner: "*" + name, class: x.pointeeClass(typ)}), tPointer)
		case strings.HasSuffix(typ, "&"):
			l.ref, l.typ = true, tRef
			l.val = borrowOf(s.newObj(object{kind: oParam, owner: name}), tRef)
		case l.typ == tStorage:
			l.val = value{pt: -1, owns: s.storage(&l, false), kind: tStorage, from: -1}
		case l.typ == tUnique:
			l.val = value{pt: -1, owns: s.newObj(object{kind: oHeap, owner: name, class: templateArg(base)}), kind: tUnique, from: -1}
		case l.typ == tShared:
			// Other owners may share it.
			l.val = value{pt: -1, owns: s.newObj(object{kind: oHeap, owner: name, kept: true, refs: 1}), kind: tShared, from: -1}
		case l.typ == tPlain && l.tname != "" && x.opt.Members(l.tname) != nil:
			// A member object of a class of the tree: what it is handed,
			// and what is handed pointers to it, matter when the object
			// ends (see endMembers).
			s.objs[l.slot].class = l.tname
		case x.objcOpaque(typ, l.typ):
			// What it is given decides what it holds (see declaration).
			l.auto = true
		default:
			continue
		}
		s.locals = append(s.locals, l)
	}
}

// Aliases reads the type aliases f declares (using X = T; typedef T X;),
// by the alias's name: what the aliased type is, as written.
func Aliases(f *parser.File) map[string]string { return aliases(f, false) }

func aliases(f *parser.File, outside bool) map[string]string {
	out := map[string]string{}
	x := &exec{f: f}
	enumerators(f, outside, out)
	for i := range f.Nodes {
		n := parser.NodeID(i)
		if k := f.Nodes[n].Kind; outside && (k == parser.KindAliasDeclaration || k == parser.KindTypeDefinition) && inBody(f, n) {
			continue
		}
		switch f.Nodes[n].Kind {
		case parser.KindPreprocFunctionDef:
			// #define M(x) ...: M(a) in this file or another is the
			// macro's expansion (see macroCall), filed as "M()".
			if name := f.Text(f.Field(n, parser.FieldName)); name != "" {
				out[name+"()"] = "#define"
			}
		case parser.KindPreprocDef:
			// #define TLS static thread_local: a declaration that starts
			// with TLS declares a static (see isStatic), in this file or
			// another that uses the macro.
			if name := f.Text(f.Field(n, parser.FieldName)); name != "" && f.StorageMacro(name) {
				out[name] = strings.Join(strings.Fields(f.Text(f.Field(n, parser.FieldValue))), " ")
			}
		case parser.KindAliasDeclaration:
			name, typ := f.Text(f.Field(n, parser.FieldName)), f.Text(f.Field(n, parser.FieldType))
			if name != "" && typ != "" {
				out[memberScope(f, n)+name] = typ
			}
		case parser.KindTypeDefinition:
			t := f.Field(n, parser.FieldType)
			typ := f.Text(t)
			if k := f.Kind(t); k == parser.KindStructSpecifier || k == parser.KindClassSpecifier {
				// typedef struct S {...} T: T names the class S (none is
				// recorded when T is S, or S has no name: the class is
				// then filed under T, see typedefName).
				typ = f.Text(f.Field(t, parser.FieldName))
			}
			for d := range f.NamedChildren(n) {
				if f.Nodes[d].Field != parser.FieldDeclarator {
					continue
				}
				if f.Kind(d) == parser.KindPointerDeclarator {
					continue
				}
				if name := f.Text(d); name != "" && typ != "" && name != typ && x.kind(d) != parser.KindFunctionDeclarator {
					out[memberScope(f, n)+name] = typ
				}
			}
		}
	}
	return out
}

// memberScope is "C::" for a declaration n in the body of class C (an
// alias there names a type of C, seen as C::name and in C's own methods,
// not elsewhere: [basic.scope.class]), else "".
func memberScope(f *parser.File, n parser.NodeID) string {
	p := f.Nodes[n].Parent
	if f.Kind(p) == parser.KindTemplateDeclaration {
		p = f.Nodes[p].Parent
	}
	if f.Kind(p) != parser.KindFieldDeclarationList {
		return ""
	}
	c := f.Nodes[p].Parent
	if k := f.Kind(c); k != parser.KindClassSpecifier && k != parser.KindStructSpecifier {
		return ""
	}
	if name := className(f.Text(f.Field(c, parser.FieldName))); name != "" {
		return name + "::"
	}
	return ""
}

// constPrefix keys an enumerator's value among the aliases: "#Name" is
// the integer an enumerator Name stands for ("" when two enumerators of
// that name stand for different values).
const constPrefix = "#"

// enumerators records the values of the enumerators f declares (outside
// function bodies when outside is set) in out under constPrefix: one
// given as an integer literal, or the one before it plus one, the first
// of a list 0 ([dcl.enum]). A list's enumerators after one whose value
// is another expression are not known.
func enumerators(f *parser.File, outside bool, out map[string]string) {
	list := parser.None
	next, known := int64(0), false
	for i := range f.Nodes {
		n := parser.NodeID(i)
		if f.Nodes[n].Kind != parser.KindEnumerator || outside && inBody(f, n) {
			continue
		}
		if p := f.Nodes[n].Parent; p != list {
			list, next, known = p, 0, true
		}
		name := f.Text(f.Field(n, parser.FieldName))
		if v := f.Field(n, parser.FieldValue); v != parser.None {
			next, known = number(f.Text(v))
		}
		if name != "" && known {
			val := strconv.FormatInt(next, 10)
			if have, ok := out[constPrefix+name]; ok && have != val {
				val = ""
			}
			out[constPrefix+name] = val
		}
		next++
	}
}

// constant is the value of enumerator name, when the file or the tree
// says it.
func (x *exec) constant(name string) (int64, bool) {
	if x.opt.Alias == nil {
		return 0, false
	}
	if v := x.opt.Alias(constPrefix + lastName(name)); v != "" {
		return number(v)
	}
	return 0, false
}

// FileAliases answers Options.Alias from the aliases file f declares, then
// from next (nil: nothing more).
func FileAliases(f *parser.File, next func(string) string) func(string) string {
	aliases := Aliases(f)
	defined := map[string]bool{}
	for i := range f.Nodes {
		if k := f.Nodes[i].Kind; (k == parser.KindClassSpecifier || k == parser.KindStructSpecifier) && f.Field(parser.NodeID(i), parser.FieldBody) != parser.None {
			defined[f.Text(f.Field(parser.NodeID(i), parser.FieldName))] = true
		}
	}
	return func(name string) string {
		if t, ok := aliases[name]; ok {
			return t
		}
		if next != nil && !defined[name] {
			// A class the file defines is that class, whatever another
			// file calls an alias of the same name.
			return next(name)
		}
		return ""
	}
}

// TreeAliases are the aliases of f other files see: those declared
// outside function bodies (an alias in a body is the body's own).
func TreeAliases(f *parser.File) map[string]string { return aliases(f, true) }

// alias is what type name base (as written: T, C::T, ns::C::T) is an
// alias of: a member alias of the class it qualifies, then one of the
// method's own class, then one declared outside any class.
func (x *exec) alias(base string) string {
	name := lastName(base)
	if q := strings.TrimSuffix(base, "::"+name); q != base {
		if a := x.opt.Alias(lastName(q) + "::" + name); a != "" {
			return a
		}
	}
	if c := x.className(); c != "" {
		if a := x.opt.Alias(c + "::" + name); a != "" {
			return a
		}
	}
	return x.opt.Alias(name)
}

// resolve replaces a declared type that names an alias by what it
// aliases (through a few levels), so a container or smart pointer behind
// a typedef is one.
func (x *exec) resolve(typ string) string {
	if x.opt.Alias == nil {
		return typ
	}
	for range 4 {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
		base := t
		if i := strings.IndexByte(t, '<'); i >= 0 {
			base = t[:i]
		}
		a := x.alias(strings.TrimSpace(base))
		if a == "" || a == typ {
			return typ
		}
		if x.opt.Members != nil && hasBody(x.opt.Members(lastName(strings.TrimSpace(base)))) {
			// A class of the tree has the name, and its definition is
			// read: aliases are read tree-wide by last name, whatever
			// their namespace, so the class comes first.
			return typ
		}
		aBase := a
		if i := strings.IndexByte(a, '<'); i >= 0 {
			aBase = a[:i]
		}
		if lastName(strings.TrimSpace(aBase)) == lastName(strings.TrimSpace(base)) {
			// using optional = c10::optional<T>: the same type under its
			// own name (aliases are read tree-wide, whatever their scope).
			return typ
		}
		typ = a
	}
	return typ
}

// membersMayChange forgets what the path knew of the object's data
// members: a call at n that may run another method of the object (an
// unqualified call in a method, a call on this, a call handed this) may
// re-point, reset or refill them. When the call is of method (not "")
// and the class's code tells what it and the methods it calls may set
// (see mayBeSet), only those members are forgotten.
func (x *exec) membersMayChange(s *state, n parser.NodeID, method string) {
	x.mayWaitObject(s)
	set, all := x.mayBeSet(method)
	for i := range s.locals {
		l := &s.locals[i]
		if !l.member || !all && !set[l.name] {
			continue
		}
		l.setAt = n
		l.movedFrom = false
		// The member's own fields (m.first) may hold other pointers now.
		s.forgetFields(l.slot)
		switch l.typ {
		case tPointer:
			l.val = borrowOf(s.newObj(object{kind: oParam, owner: "*" + l.name, class: x.pointeeClass(x.classMembers[l.name])}), tPointer)
		case tStorage:
			l.val = value{pt: -1, owns: s.storage(l, false), kind: tStorage, from: -1}
		case tUnique:
			l.val = value{pt: -1, owns: s.newObj(object{kind: oHeap, owner: l.name}), kind: tUnique, from: -1}
		case tShared:
			l.val = value{pt: -1, owns: s.newObj(object{kind: oHeap, owner: l.name, kept: true, refs: 1}), kind: tShared, from: -1}
		}
	}
}

// baseNames lists the last names of the base classes class node n
// derives from (its base clause), in order.
func baseNames(f *parser.File, n parser.NodeID) []string {
	var out []string
	for c := range f.Children(n) {
		if f.Kind(c) != parser.KindOther || !strings.HasPrefix(f.Text(c), ":") {
			continue
		}
		for b := range f.NamedChildren(c) {
			if f.Kind(b) != parser.KindOther {
				out = append(out, lastName(calleeName(f.Text(b))))
			}
		}
	}
	return out
}

// reachesThis says a call may run code of the method's object: an
// unqualified call of a method of the class, a call qualified by the
// class or one of its bases, or one handed this.
func (x *exec) reachesThis(fn, args parser.NodeID) bool {
	if !x.hasMembers {
		return false
	}
	switch x.kind(fn) {
	case parser.KindIdentifier, parser.KindTemplateFunction, parser.KindQualifiedIdentifier:
		// Name lookup in a method finds a member function first: only a
		// name the class declares as one runs code of the object. A class
		// whose methods are not known may have any. A qualified name
		// (X::f) reaches the object only through the class itself or a
		// base ([class.mfct.non-static]: a non-static member function is
		// called on an object; X::f names another class's static member
		// or a namespace's function otherwise).
		name := calleeName(x.text(fn))
		if i := strings.LastIndex(name, "::"); i >= 0 {
			q := lastName(name[:i])
			name = name[i+2:]
			if q != x.className() && x.knowsMethods() {
				return slices.Contains(list(x.classMembers, "(bases)"), q)
			}
		}
		_, known := x.classMembers["("+name+")"]
		return known || !x.knowsMethods()
	}
	for c := range x.f.NamedChildren(args) {
		if t := strings.TrimSpace(x.text(c)); t == "this" || t == "*this" {
			return true
		}
	}
	return false
}

// knowsMethods says the class's definition told its methods.
func (x *exec) knowsMethods() bool {
	for k := range x.classMembers {
		if strings.HasPrefix(k, "(") {
			return true
		}
	}
	return false
}

// noteReturn records what the declaration decl of method returns (see
// "(=m)" above); overloads that disagree say "no". A result type that is
// an alias the file declares of a reference, or of a member type of a
// type that depends on a template parameter (typedef typename
// A<T>::reference R), is not known to be a value: what it names is
// decided at instantiation ([temp.dep.type]).
func (x *exec) noteReturn(members map[string]string, method string, decl parser.NodeID) {
	f := x.f
	v := "no"
	if t := f.Field(decl, parser.FieldType); x.opaqueAlias(f.Text(t)) {
		v = "no"
	} else if bv, st := Returns(f, decl); bv && st {
		v = "storage"
	} else if bv {
		// "value:T": by value, of declared type T (see Call.Type).
		v = "value"
		if t := ResultType(f, decl); t != "" && !strings.Contains(t, ",") {
			v += ":" + t
		}
	}
	mergeReturn(members, "(="+method+")", v)
	// What the overloads for const objects return, and those for others
	// ("(=m/c)", "(=m/n)"): a call on an object declared const calls a
	// const one, on one declared otherwise a non-const one when there is
	// one ([over.match.funcs]: the implicit object parameter is as
	// cv-qualified as the method).
	if fd, _ := x.funcDeclarator(decl); fd != parser.None && x.constMethod(fd) {
		mergeReturn(members, "(="+method+"/c)", v)
	} else {
		mergeReturn(members, "(="+method+"/n)", v)
	}
}

// mergeReturn records v as what fact k says a method returns: overloads
// that return values of different types return a value, others that
// disagree "no".
func mergeReturn(members map[string]string, k, v string) {
	if old, ok := members[k]; ok && old != v {
		switch {
		case strings.HasPrefix(old, "value") && strings.HasPrefix(v, "value"):
			// Overloads returning values of different types.
			v = "value"
		default:
			v = "no"
		}
	}
	members[k] = v
}

// constMethod says function declarator fd declares a const method
// (f() const).
func (x *exec) constMethod(fd parser.NodeID) bool {
	for c := range x.f.NamedChildren(fd) {
		if x.kind(c) == parser.KindTypeQualifier && x.text(c) == "const" {
			return true
		}
	}
	return false
}

// constness says whether the object a method is called on through
// receiver value rv is declared const: 1 (const T& q, const T* p, const
// T q), 0 (declared with a type and no const), -1 (not known: not a
// named local, or declared auto).
func (x *exec) constness(s *state, rv value) int {
	if rv.from < 0 || int(rv.from) >= len(s.locals) {
		return -1
	}
	d := s.locals[rv.from].decl
	for d != parser.None {
		switch x.kind(d) {
		case parser.KindParameterDeclaration, parser.KindOptionalParameterDeclaration, parser.KindDeclaration:
			c := 0
			for q := range x.f.NamedChildren(d) {
				switch {
				case x.kind(q) == parser.KindTypeQualifier && x.text(q) == "const":
					return 1
				case x.kind(q) == parser.KindPlaceholderTypeSpecifier:
					c = -1
				}
			}
			return c
		case parser.KindFunctionDefinition, parser.KindCompoundStatement, parser.KindLambdaExpression:
			return -1
		}
		d = x.f.Nodes[d].Parent
	}
	return -1
}

// opaqueAlias says typ is a name the file declares as an alias of a
// reference type or of a dependent member type (see noteReturn).
func (x *exec) opaqueAlias(typ string) bool {
	if x.refAliases == nil {
		x.refAliases = map[string]bool{}
		f := x.f
		for i := range f.Nodes {
			n := parser.NodeID(i)
			switch f.Nodes[n].Kind {
			case parser.KindAliasDeclaration:
				if t := f.Field(n, parser.FieldType); dependentOrRef(f, t) {
					x.refAliases[f.Text(f.Field(n, parser.FieldName))] = true
				}
			case parser.KindTypeDefinition:
				t := f.Field(n, parser.FieldType)
				for d := range f.NamedChildren(n) {
					if f.Nodes[d].Field != parser.FieldDeclarator {
						continue
					}
					switch {
					case f.Kind(d) == parser.KindReferenceDeclarator:
						if name := f.Text(x.lastNamedChild(d)); name != "" {
							x.refAliases[name] = true
						}
					case f.Kind(d) == parser.KindTypeIdentifier && dependentOrRef(f, t):
						x.refAliases[f.Text(d)] = true
					}
				}
			}
		}
	}
	return x.refAliases[strings.TrimSpace(typ)]
}

// dependentOrRef says type node t (an alias's target) is a reference or
// names a member type through typename.
func dependentOrRef(f *parser.File, t parser.NodeID) bool {
	if t == parser.None {
		return false
	}
	text := strings.TrimSpace(f.Text(t))
	if strings.HasPrefix(text, "typename ") {
		return true
	}
	for c := range f.NamedChildren(t) {
		if f.Kind(c) == parser.KindAbstractReferenceDeclarator {
			return true
		}
	}
	return false
}

// returnsByValue says what the class facts say method m returns: by value
// (a temporary at each call), whether that value owns a buffer, and its
// declared type when known; constness (see constness) picks the
// overloads a call can reach.
func returnsByValue(facts map[string]string, m string, constness int) (byValue, storage bool, typ string) {
	v := facts["(="+m+")"]
	side := "/n"
	if constness == 1 {
		side = "/c"
	}
	if w := facts["(="+m+side+")"]; constness >= 0 && w != "" {
		v = w
	}
	switch {
	case v == "storage":
		return true, true, ""
	case v == "value":
		return true, false, ""
	case strings.HasPrefix(v, "value:"):
		return true, false, v[len("value:"):]
	}
	return false, false, ""
}

// storedParams lists what method definition def keeps of its parameters
// in the object's members (see "(<m)"): assignments to a member (M = p,
// M = &r, M = r.data(), through casts), insertions into a container member
// (M.push_back(p)), and a constructor's member initialisers (M(p), M{r}).
// Only what a parameter points to or names counts: a pointer parameter, a
// reference parameter's object, a view's range; a member that copies
// (a value, a string, a container of values) keeps nothing.
func (x *exec) storedParams(def parser.NodeID, members map[string]string) ([]string, int) {
	f := x.f
	fd, _ := x.funcDeclarator(def)
	if fd == parser.None {
		return nil, 0
	}
	type param struct{ ptr, ref, view, storage bool }
	params := map[string]int{}
	var kinds []param
	for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
		if k := f.Kind(p); k != parser.KindParameterDeclaration && k != parser.KindOptionalParameterDeclaration {
			continue
		}
		name, ptr, ref := x.declName(f.Field(p, parser.FieldDeclarator))
		if name != "" {
			params[name] = len(kinds)
		}
		k := classify(x.resolve(f.Text(f.Field(p, parser.FieldType))))
		kinds = append(kinds, param{ptr: ptr, ref: ref, view: k == tView, storage: k == tStorage && !ptr})
	}
	if len(params) == 0 || len(kinds) == 1 && x.copiesSelf(def, fd) {
		// A copy or move constructor or assignment takes over what the
		// other object keeps: it keeps no argument of another type.
		return nil, len(kinds)
	}
	keeps := func(m string) (keeps, many bool) {
		typ := members[m]
		if typ == "" || strings.HasPrefix(m, "(") {
			return false, false
		}
		if strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") || classify(typ) == tView {
			return true, false
		}
		if fam, el := containerOf(typ); fam != famNone && (el == tPointer || el == tView) {
			return true, true
		}
		return false, false
	}
	var out []string
	// copyStore: an object a reference parameter names, copied into
	// member m (a value of class type, or an element of a container of
	// values): "k.cp:M", the copy's pointer fields point where the
	// argument's do (see fieldPointees).
	copyStore := func(m, typ string, insert bool, e parser.NodeID) string {
		name, buf, addr := paramReferent(f, e)
		k, found := params[name]
		if !found || buf || addr || strings.HasPrefix(m, "(") || typ == "" {
			return ""
		}
		if p := kinds[k]; !p.ref || p.ptr || p.view || p.storage {
			return ""
		}
		if insert {
			if fam, el := containerOf(typ); fam == famNone || el != tPlain {
				return ""
			}
			m += "[]"
		} else if strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") || classify(typ) != tPlain {
			return ""
		}
		return fmt.Sprintf("%d.cp:%s", k, m)
	}
	store := func(m string, e parser.NodeID, insert bool) {
		if k, ok := params[movedName(f, e)]; ok && !insert && kinds[k].storage && !kinds[k].ref {
			// A container parameter taken by value and moved into a
			// container member: the member has the argument's buffer
			// (a copy's, when the caller copied), with what its elements
			// keep.
			if fam, _ := containerOf(members[m]); fam != famNone {
				out = append(out, fmt.Sprintf("%d.own:%s", k, m))
			}
			return
		}
		if cp := copyStore(m, members[m], insert, e); cp != "" {
			out = append(out, cp)
			return
		}
		ok, many := keeps(m)
		if !ok || many != insert {
			return
		}
		name, buf, addr := paramReferent(f, e)
		k, found := params[name]
		if !found {
			return
		}
		p := kinds[k]
		if insert {
			m += "[]"
		}
		switch {
		case buf && p.ref, !addr && !buf && p.ref && p.storage && classify(members[m]) == tView:
			// p.data() kept, or a view member made from a string or
			// container p: what it keeps is p's buffer.
			out = append(out, fmt.Sprintf("%d.buf:%s", k, m))
		case addr && p.ref, !addr && !buf && p.ref && strings.HasSuffix(members[m], "&"):
			// The object a reference parameter names.
			out = append(out, fmt.Sprintf("%d&:%s", k, m))
		case !addr && !buf && (p.ptr || p.view):
			// What a pointer or view parameter points to.
			out = append(out, fmt.Sprintf("%d:%s", k, m))
		}
	}
	memberInits(f, def, func(m string, arg parser.NodeID) { store(m, arg, false) })
	// A base class's constructor (or another constructor of the class)
	// handed the parameters keeps what that constructor keeps: "fwd:"
	// entries, read with that class's facts where the object is made
	// (see expandStores).
	baseInits(f, def, members, func(base string, args []parser.NodeID) {
		var maps []string
		for j, a := range args {
			if name, buf, addr := paramReferent(f, a); !buf && !addr {
				if k, ok := params[name]; ok {
					maps = append(maps, fmt.Sprintf("%d=%d", j, k))
				}
			}
		}
		if len(maps) > 0 {
			out = append(out, fmt.Sprintf("fwd:%s/%d:%s", base, len(args), strings.Join(maps, ";")))
		}
	})
	body := f.Field(def, parser.FieldBody)
	for j := body; body != parser.None && j < f.End(body); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindAssignmentExpression:
			if strings.TrimSpace(f.Text(f.Field(j, parser.FieldOperator))) == "=" {
				m, before := memberName(f, f.Field(j, parser.FieldLeft)), len(out)
				store(m, f.Field(j, parser.FieldRight), false)
				out = unlessReplaced(f, body, j, m, out, before)
			}
		case parser.KindCallExpression:
			fn := f.Field(j, parser.FieldFunction)
			if f.Kind(fn) != parser.KindFieldExpression || !insertMethods[f.Text(f.Field(fn, parser.FieldField))] {
				continue
			}
			m, before := memberName(f, f.Field(fn, parser.FieldArgument)), len(out)
			for a := range f.NamedChildren(f.Field(j, parser.FieldArguments)) {
				if e := aggregateInsert(f, m, members[m], a, func(e parser.NodeID) string {
					name, buf, addr := paramReferent(f, e)
					k, found := params[name]
					if !found {
						return ""
					}
					p := kinds[k]
					switch {
					case buf && p.ref:
						return fmt.Sprintf("%d.buf", k)
					case addr && p.ref:
						return fmt.Sprintf("%d&", k)
					case !addr && !buf && (p.ptr || p.view):
						return strconv.Itoa(k)
					case !addr && !buf && p.ref && p.storage:
						return fmt.Sprintf("%d~", k)
					case !addr && !buf && p.ref:
						return fmt.Sprintf("%d@", k)
					}
					return ""
				}); e != "" {
					out = append(out, e)
					continue
				}
				store(m, a, true)
			}
			out = unlessReplaced(f, body, j, m, out, before)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), len(kinds)
}

// unlessReplaced drops the stores recorded from index before on, made
// into member m at j, when the method sets m anew before returning (see
// replacedBeforeReturn).
func unlessReplaced(f *parser.File, body, j parser.NodeID, m string, out []string, before int) []string {
	if len(out) > before && replacedBeforeReturn(f, body, j, m) {
		return out[:before]
	}
	return out
}

// replacedBeforeReturn says every path from the expression at, in
// function body body, to the function's end first sets member m anew or
// empties it (m = ..., m.clear(), m.reset()): a statement after at's, in
// its block or a block around it, does so unconditionally, and nothing
// between them leaves the function or jumps (a return, throw, goto,
// break or continue; when the way out leaves a loop, anywhere in that
// loop, whose next turn could leave before reaching it). A store so
// replaced is not kept past the call, whatever the method waited for
// in between.
func replacedBeforeReturn(f *parser.File, body, at parser.NodeID, m string) bool {
	if m == "" {
		return false
	}
	for n := at; n != body && n != parser.None; n = f.Nodes[n].Parent {
		p := f.Nodes[n].Parent
		switch f.Kind(p) {
		case parser.KindLambdaExpression:
			return false
		case parser.KindForStatement, parser.KindWhileStatement, parser.KindDoStatement, parser.KindForRangeLoop:
			if leaves(f, p) {
				return false
			}
		case parser.KindCompoundStatement:
			if done, ok := replacedIn(f, f.Nodes[n].Next, m); done {
				return ok
			}
		}
	}
	return false
}

// replacedIn reads the statements from s on, in order: ok when one sets
// member m anew or empties it before any leaves the block (done either
// way), not done when none does either.
func replacedIn(f *parser.File, s parser.NodeID, m string) (done, ok bool) {
	for ; s != parser.None; s = f.Nodes[s].Next {
		switch f.Kind(s) {
		case parser.KindExpressionStatement:
			if e := f.FirstChild(s); resets(f, e, m) {
				return true, true
			}
		case parser.KindCompoundStatement:
			if done, ok := replacedIn(f, f.FirstChild(s), m); done {
				return true, ok
			}
			continue
		}
		if leaves(f, s) {
			return true, false
		}
	}
	return false, false
}

// resets says expression e sets member m anew or empties it.
func resets(f *parser.File, e parser.NodeID, m string) bool {
	switch f.Kind(e) {
	case parser.KindAssignmentExpression:
		return strings.TrimSpace(f.Text(f.Field(e, parser.FieldOperator))) == "=" && memberName(f, f.Field(e, parser.FieldLeft)) == m
	case parser.KindCallExpression:
		fn := f.Field(e, parser.FieldFunction)
		if f.Kind(fn) != parser.KindFieldExpression || memberName(f, f.Field(fn, parser.FieldArgument)) != m {
			return false
		}
		switch f.Text(f.Field(fn, parser.FieldField)) {
		case "clear", "reset":
			return !hasNamedChild(f, f.Field(e, parser.FieldArguments))
		}
	}
	return false
}

// hasNamedChild says n has a named child.
func hasNamedChild(f *parser.File, n parser.NodeID) bool {
	for range f.NamedChildren(n) {
		return true
	}
	return false
}

// leaves says statement s may leave where it is without running what
// follows it: it holds a return, throw, goto, break or continue outside
// any lambda.
func leaves(f *parser.File, s parser.NodeID) bool {
	for j := s; j < f.End(s); j++ {
		switch f.Kind(j) {
		case parser.KindReturnStatement, parser.KindCoReturnStatement, parser.KindThrowStatement, parser.KindGotoStatement,
			parser.KindBreakStatement, parser.KindContinueStatement:
			if f.Ancestor(j, parser.KindLambdaExpression) == f.Ancestor(s, parser.KindLambdaExpression) {
				return true
			}
		}
	}
	return false
}

// copiesSelf says the one parameter of definition def (declarator fd)
// is of def's own class: a copy or move constructor or assignment.
func (x *exec) copiesSelf(def, fd parser.NodeID) bool {
	f := x.f
	class := ""
	if name := calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))); strings.Contains(name, "::") {
		class = lastName(name[:strings.LastIndex(name, "::")])
	} else {
		for _, k := range []parser.Kind{parser.KindClassSpecifier, parser.KindStructSpecifier} {
			if c := f.Ancestor(def, k); c != parser.None {
				class = f.Text(f.Field(c, parser.FieldName))
				break
			}
		}
	}
	for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
		if k := f.Kind(p); k == parser.KindParameterDeclaration || k == parser.KindOptionalParameterDeclaration {
			return class != "" && typeName(f.Text(f.Field(p, parser.FieldType))) == class
		}
	}
	return false
}

// memberInits calls visit for each member initialiser of constructor
// definition def that has one argument: M(e), M{e}.
func memberInits(f *parser.File, def parser.NodeID, visit func(member string, arg parser.NodeID)) {
	for c := range f.NamedChildren(def) {
		if f.Kind(c) != parser.KindFieldInitializerList {
			continue
		}
		for fi := range f.NamedChildren(c) {
			var m string
			for a := range f.NamedChildren(fi) {
				switch f.Kind(a) {
				case parser.KindFieldIdentifier, parser.KindIdentifier:
					m = f.Text(a)
				case parser.KindArgumentList, parser.KindInitializerList:
					n := 0
					var arg parser.NodeID
					for e := range f.NamedChildren(a) {
						n++
						arg = e
					}
					if n == 1 {
						visit(m, arg)
					}
				}
			}
		}
	}
}

// baseInits calls visit for each initialiser of constructor definition
// def that names no data member of the class (a base class, or the class
// itself for a delegating constructor), with its arguments.
func baseInits(f *parser.File, def parser.NodeID, members map[string]string, visit func(base string, args []parser.NodeID)) {
	for c := range f.NamedChildren(def) {
		if f.Kind(c) != parser.KindFieldInitializerList {
			continue
		}
		for fi := range f.NamedChildren(c) {
			name := ""
			for a := range f.NamedChildren(fi) {
				switch f.Kind(a) {
				case parser.KindFieldIdentifier, parser.KindIdentifier, parser.KindTypeIdentifier, parser.KindQualifiedIdentifier, parser.KindTemplateType:
					name = typeName(f.Text(a))
				case parser.KindArgumentList, parser.KindInitializerList:
					if name == "" || members[name] != "" {
						continue
					}
					var args []parser.NodeID
					for e := range f.NamedChildren(a) {
						args = append(args, e)
					}
					if len(args) > 0 {
						visit(name, args)
					}
				}
			}
		}
	}
}

// maxForward bounds the constructors a chain of base initialisers is
// followed through (see expandStores).
const maxForward = 4

// expandStores replaces the "fwd:" entries of a constructor's stores
// (see storedParams) by what the named constructor keeps, its argument
// positions mapped to the caller's.
func (x *exec) expandStores(stores string, depth int) string {
	if !strings.Contains(stores, "fwd:") && !strings.Contains(stores, "agg:") || x.opt.Members == nil {
		return stores
	}
	var out []string
	for _, st := range strings.Split(stores, ",") {
		if rest, ok := strings.CutPrefix(st, "agg:"); ok {
			// agg:T/N:m[]:j=K;...
			parts := strings.SplitN(rest, ":", 3)
			if len(parts) != 3 || depth >= maxForward {
				continue
			}
			class, n, _ := strings.Cut(parts[0], "/")
			arity, err := strconv.Atoi(n)
			if err != nil {
				continue
			}
			pos := map[string]string{}
			for _, m := range strings.Split(parts[2], ";") {
				if j, k, ok := strings.Cut(m, "="); ok {
					pos[j] = k
				}
			}
			if inner := x.expandStores(x.opt.Members(class)[storesKey(class, arity)], depth+1); inner != "!" {
				out = append(out, aggregateKept(inner, parts[1], pos)...)
			}
			continue
		}
		rest, ok := strings.CutPrefix(st, "fwd:")
		if !ok {
			out = append(out, st)
			continue
		}
		target, maps, ok := strings.Cut(rest, ":")
		base, n, ok2 := strings.Cut(target, "/")
		arity, err := strconv.Atoi(n)
		if !ok || !ok2 || err != nil || depth >= maxForward {
			continue
		}
		pos := map[string]string{}
		for _, m := range strings.Split(maps, ";") {
			if j, k, ok := strings.Cut(m, "="); ok {
				pos[j] = k
			}
		}
		inner := x.expandStores(x.opt.Members(base)[storesKey(base, arity)], depth+1)
		if inner == "!" {
			continue
		}
		for _, e := range strings.Split(inner, ",") {
			arg, member, ok := strings.Cut(e, ":")
			if !ok {
				continue
			}
			idx := strings.TrimRight(arg, ".buf&*")
			suffix := arg[len(idx):]
			if k, ok := pos[idx]; ok {
				out = append(out, k+suffix+":"+member)
			}
		}
	}
	return strings.Join(out, ",")
}

// aggregateInsert reads an insertion into container member m (declared
// type typ) of a braced aggregate (m.push_back(T{a, b}), m.push_back({a,
// b})): an "agg:T/N:m[]:j=K;..." entry saying which element j is which
// parameter referent K (see referent), resolved by expandStores with what
// T's aggregate initialisation keeps. "" when a is no braced list, or no
// element is a parameter's.
func aggregateInsert(f *parser.File, m, typ string, a parser.NodeID, referent func(parser.NodeID) string) string {
	fam, _ := containerOf(typ)
	if fam == famNone || m == "" {
		return ""
	}
	class, list := "", a
	switch f.Kind(a) {
	case parser.KindCompoundLiteralExpression:
		class, list = typeName(f.Text(f.Field(a, parser.FieldType))), f.Field(a, parser.FieldValue)
	case parser.KindInitializerList:
		class = typeName(templateArg(typ))
	default:
		return ""
	}
	if class == "" || f.Kind(list) != parser.KindInitializerList {
		return ""
	}
	var maps []string
	n := 0
	for e := range f.NamedChildren(list) {
		if k := referent(e); k != "" {
			maps = append(maps, fmt.Sprintf("%d=%s", n, k))
		}
		n++
	}
	if len(maps) == 0 {
		return ""
	}
	return fmt.Sprintf("agg:%s/%d:%s[]:%s", lastName(class), n, m, strings.Join(maps, ";"))
}

// aggregateKept is what an "agg:" entry keeps (see aggregateInsert): for
// each member of the aggregate its element initialises, the parameter's
// referent in the form that member keeps it — a pointer member what its
// element points to, a reference member the object its element names, a
// view member the buffer of a string or container (else what a pointer
// or view points to).
func aggregateKept(inner, member string, pos map[string]string) []string {
	var out []string
	for _, e := range strings.Split(inner, ",") {
		arg, _, ok := strings.Cut(e, ":")
		if !ok {
			continue
		}
		idx := strings.TrimRight(arg, ".buf&*")
		k, ok := pos[idx]
		if !ok {
			continue
		}
		param := strings.TrimRight(k, ".buf&~@")
		switch suffix, form := arg[len(idx):], k[len(param):]; {
		case suffix == "" && form != "~" && form != "@":
			out = append(out, k+":"+member)
		case suffix == "&" && (form == "~" || form == "@"):
			out = append(out, param+"&:"+member)
		case suffix == "*" && form == "~":
			out = append(out, param+".buf:"+member)
		case suffix == "*" && (form == "" || form == ".buf"):
			out = append(out, k+":"+member)
		}
	}
	return out
}

// typedefName is the name typedef struct {...} T gives the unnamed class
// specifier n: T, or "" when n is not the type of a typedef.
func typedefName(f *parser.File, n parser.NodeID) string {
	p := f.Nodes[n].Parent
	if f.Kind(p) != parser.KindTypeDefinition || f.Field(p, parser.FieldType) != n {
		return ""
	}
	for d := range f.NamedChildren(p) {
		if f.Nodes[d].Field == parser.FieldDeclarator && f.Kind(d) != parser.KindPointerDeclarator {
			return f.Text(d)
		}
	}
	return ""
}

// aggregateHead says class specifier n may define an aggregate
// ([dcl.init.aggr]): it names no base class (a base would be the first
// element) and is not a union.
func aggregateHead(f *parser.File, n parser.NodeID) bool {
	for c := range f.NamedChildren(n) {
		if f.Kind(c) == parser.KindOther && strings.HasPrefix(f.Text(c), ":") {
			return false
		}
	}
	return true
}

// aggregateMember says member declaration c of class leaves the class an
// aggregate ([dcl.init.aggr]: no user-declared constructor, no virtual
// function, no private or protected non-static data member).
func (x *exec) aggregateMember(c parser.NodeID, class string, public bool) bool {
	f := x.f
	c, ok := x.memberDecl(c)
	if !ok {
		return true
	}
	if strings.HasPrefix(strings.TrimSpace(f.Text(c)), "virtual") {
		return false
	}
	if fd, _ := x.funcDeclarator(c); fd != parser.None && f.Kind(fd) == parser.KindFunctionDeclarator {
		if lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator)))) != class {
			return true
		}
		// A constructor defaulted or deleted on its first declaration is
		// not user-provided: up to C++17 the class is still an aggregate
		// ([dcl.init.aggr]), so code that brace-initialises its members
		// is aggregate initialisation (C++20 made it not one, and such
		// code then does not compile).
		t := strings.Join(strings.Fields(f.Text(c)), "")
		return !strings.HasPrefix(t, "explicit") && (strings.HasSuffix(t, "=delete;") || strings.HasSuffix(t, "=default;"))
	}
	return public || f.Kind(c) != parser.KindFieldDeclaration || x.isStatic(c)
}

// aggregateStores records what the aggregate initialisation of a class
// keeps ([dcl.init.aggr]: the elements of a braced list initialise the
// data members in declaration order): a pointer member what its element
// points to, a reference member the object its element names, a view
// member the range of its element (a pointer or view's pointee, a string
// or container's buffer). An initialisation of n elements is read as a
// constructor of n parameters (see "(<m/N)").
func aggregateStores(members map[string]string, class string, order []string) {
	var stores []string
	for i, m := range order {
		typ := members[m]
		switch {
		case strings.HasSuffix(typ, "&"):
			stores = append(stores, fmt.Sprintf("%d&:%s", i, m))
		case strings.HasSuffix(typ, "*"):
			stores = append(stores, fmt.Sprintf("%d:%s", i, m))
		case classify(typ) == tView:
			stores = append(stores, fmt.Sprintf("%d*:%s", i, m))
		}
		if len(stores) > 0 {
			members[storesKey(class, i+1)] = strings.Join(stores, ",")
		}
	}
}

// storesKey is the class-fact key of what method (of arity parameters)
// keeps of its arguments: overloads of other arities keep other things.
func storesKey(method string, arity int) string {
	return fmt.Sprintf("(<%s/%d)", method, arity)
}

// paramReferent reads what expression e takes of a name: the name itself
// (p, or a cast of it), its address (&p), or its buffer (p.data(),
// p.get(), p.c_str()).
func paramReferent(f *parser.File, e parser.NodeID) (name string, buf, addr bool) {
	e = uncast(f, e)
	switch f.Kind(e) {
	case parser.KindIdentifier:
		return f.Text(e), false, false
	case parser.KindPointerExpression:
		if strings.HasPrefix(f.Text(e), "&") {
			if a := f.Field(e, parser.FieldArgument); f.Kind(a) == parser.KindIdentifier {
				return f.Text(a), false, true
			}
		}
	case parser.KindCallExpression:
		fn := f.Field(e, parser.FieldFunction)
		if f.Kind(fn) != parser.KindFieldExpression {
			return "", false, false
		}
		switch f.Text(f.Field(fn, parser.FieldField)) {
		case "data", "get", "c_str":
			if a := f.Field(fn, parser.FieldArgument); f.Kind(a) == parser.KindIdentifier {
				return f.Text(a), true, false
			}
		}
	}
	return "", false, false
}

// overloads counts the methods a class body declares or defines, by
// "name/arity". A copy or move constructor or assignment (one parameter
// of the class itself) is not counted: a call with an argument of another
// type is not one of them.
func (x *exec) overloads(body parser.NodeID, class string) map[string]int {
	f := x.f
	out := map[string]int{}
	for c := range f.NamedChildren(body) {
		c, ok := x.memberDecl(c)
		if !ok {
			continue
		}
		fd, _ := x.funcDeclarator(c)
		if fd == parser.None || f.Kind(fd) != parser.KindFunctionDeclarator {
			continue
		}
		n, optional, self := 0, 0, false
		for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
			if k := f.Kind(p); k == parser.KindParameterDeclaration || k == parser.KindOptionalParameterDeclaration {
				n++
				self = typeName(f.Text(f.Field(p, parser.FieldType))) == class
				if k == parser.KindOptionalParameterDeclaration {
					optional++
				}
			}
		}
		if n == 1 && self {
			continue
		}
		// A declaration with default arguments is called with as few
		// arguments as its parameters without defaults ([dcl.fct.default]):
		// it is an overload of each of those arities.
		name := lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))))
		for k := n - optional; k <= n; k++ {
			out[fmt.Sprintf("%s/%d", name, k)]++
		}
	}
	return out
}

// uncast strips what does not change which memory an expression names:
// parentheses, C casts, and static_cast, reinterpret_cast and const_cast.
func uncast(f *parser.File, e parser.NodeID) parser.NodeID {
	for {
		switch f.Kind(e) {
		case parser.KindParenthesizedExpression:
			inner := parser.None
			for c := range f.NamedChildren(e) {
				inner = c
			}
			e = inner
			continue
		case parser.KindCastExpression:
			e = f.Field(e, parser.FieldValue)
			continue
		case parser.KindCallExpression:
			fn := f.Field(e, parser.FieldFunction)
			if f.Kind(fn) == parser.KindTemplateFunction {
				switch f.Text(f.Field(fn, parser.FieldName)) {
				case "static_cast", "reinterpret_cast", "const_cast":
					arg := parser.None
					for a := range f.NamedChildren(f.Field(e, parser.FieldArguments)) {
						arg = a
						break
					}
					if arg != parser.None {
						e = arg
						continue
					}
				}
			}
		}
		return e
	}
}

// memberDecl is member c of a class body as a declaration or definition
// (what a member template declares); ok is false for anything else (an
// access label, a friend, an alias).
func (x *exec) memberDecl(c parser.NodeID) (parser.NodeID, bool) {
	if x.kind(c) == parser.KindTemplateDeclaration {
		c = x.lastNamedChild(c)
	}
	switch x.kind(c) {
	case parser.KindFunctionDefinition, parser.KindFieldDeclaration, parser.KindDeclaration:
		return c, true
	}
	return c, false
}

// copyOp says declaration or definition c, in or of class, declares a copy
// or move constructor or assignment (defaulted ones copy member by member
// as the implicit ones do, and are not counted).
func (x *exec) copyOp(class string, c parser.NodeID) bool {
	f := x.f
	c, ok := x.memberDecl(c)
	if !ok {
		return false
	}
	fd, _ := x.funcDeclarator(c)
	if fd == parser.None || f.Kind(fd) != parser.KindFunctionDeclarator {
		return false
	}
	if strings.HasSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.Text(c)), ";")), "= default") {
		return false
	}
	name := lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))))
	if name == "operator=" {
		return true
	}
	params := f.Text(f.Field(fd, parser.FieldParameters))
	return name == class && strings.Contains(params, class) && strings.Contains(params, "&")
}

// copiedPointers lists the members a copy constructor or copy
// assignment definition c gives the source's own value of: m(o.m) in its
// initialiser list, m = o.m or this->m = o.m in its body, o being its
// parameter. The copy then points where the source does, and a class
// whose destructor frees such a member must count its copies (a
// reference-counted handle): see countedCopy.
func (x *exec) copiedPointers(c parser.NodeID) []string {
	f := x.f
	c, ok := x.memberDecl(c)
	if !ok || f.Kind(c) != parser.KindFunctionDefinition {
		return nil
	}
	fd, _ := x.funcDeclarator(c)
	var src string
	for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
		if src != "" {
			return nil // not a copy: more than one parameter
		}
		src, _, _ = x.declName(f.Field(p, parser.FieldDeclarator))
		if src == "" {
			return nil
		}
	}
	if src == "" {
		return nil
	}
	// fromSource says e is src.m for member m.
	fromSource := func(e parser.NodeID, m string) bool {
		return f.Kind(e) == parser.KindFieldExpression && f.Text(f.Field(e, parser.FieldArgument)) == src &&
			f.Text(f.Field(e, parser.FieldField)) == m
	}
	var out []string
	for j := c; j < f.End(c); j++ {
		switch f.Kind(j) {
		case parser.KindFieldInitializer:
			m := ""
			for k := range f.NamedChildren(j) {
				if m == "" {
					m = f.Text(k)
					continue
				}
				if f.Kind(k) == parser.KindArgumentList {
					var args []parser.NodeID
					for a := range f.NamedChildren(k) {
						args = append(args, a)
					}
					if len(args) == 1 && fromSource(args[0], m) {
						out = append(out, m)
					}
				}
			}
		case parser.KindAssignmentExpression:
			m := memberName(f, f.Field(j, parser.FieldLeft))
			if m != "" && strings.TrimSpace(f.Text(f.Field(j, parser.FieldOperator))) == "=" && fromSource(f.Field(j, parser.FieldRight), m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// destroyedMembers lists the pointer members a destructor body frees:
// delete m, free(m), or m handed to any call (back to a pool, to a
// deleter), for a member declared as a pointer to non-const data that is
// not a character string.
func (x *exec) destroyedMembers(body parser.NodeID, members map[string]string) []string {
	f := x.f
	var out []string
	add := func(m string, anyPtr bool) {
		typ := strings.TrimSpace(members[m])
		if !strings.HasSuffix(typ, "*") || slices.Contains(out, m) {
			return
		}
		if !anyPtr && (strings.HasPrefix(typ, "const ") || strings.Contains(typ, "char")) {
			return
		}
		out = append(out, m)
	}
	for j := body; j < f.End(body); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindDeleteExpression:
			add(memberName(f, x.lastNamedChild(j)), true)
		case parser.KindCallExpression:
			if f.Kind(f.Field(j, parser.FieldFunction)) == parser.KindFieldExpression {
				// A method of a member: what it does is not this list's.
				continue
			}
			name := f.Text(f.Field(j, parser.FieldFunction))
			for a := range f.NamedChildren(f.Field(j, parser.FieldArguments)) {
				if m := memberName(f, a); m != "" {
					add(m, frees[name] && members["("+name+")"] == "")
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// hasBody says class facts come with the class's data members (its
// definition), not only from methods defined outside it.
func hasBody(facts map[string]string) bool {
	if facts["(body)"] != "" {
		// A definition with no data members (a class derived from a
		// container, with methods only).
		return true
	}
	for k := range facts {
		if !strings.HasPrefix(k, "(") {
			return true
		}
	}
	return false
}

// inBody says n is inside a function or lambda body.
func inBody(f *parser.File, n parser.NodeID) bool {
	for p := f.Nodes[n].Parent; p != parser.None; p = f.Nodes[p].Parent {
		if k := f.Nodes[p].Kind; k == parser.KindFunctionDefinition || k == parser.KindLambdaExpression {
			return true
		}
	}
	return false
}

// endMembers ends the data members of the method's object as its
// implicit destruction does, in the reverse order of their declarations
// ("(order)"), after a path of the method: a member whose destructor
// reads a pointer it keeps into a member declared after it (destroyed
// first) reads ended memory. A class whose destructor gives up members
// itself (deletes, resets, hands them back) orders their ends by its own
// code, which is not followed here: nothing is ended. at is where the
// destruction is reported.
func (x *exec) endMembers(s *state, at parser.NodeID) {
	if !x.hasMembers || x.classMembers == nil || len(freedBy(x.classMembers, "~")) > 0 {
		return
	}
	order := list(x.classMembers, "(order)")
	via := "~" + x.className()
	x.detachedByDestructor(s)
	for i := len(order) - 1; i >= 0; i-- {
		j := s.lookup(order[i])
		if j < 0 || !s.locals[j].member {
			continue
		}
		l := s.locals[j]
		switch {
		case l.typ == tPlain:
			x.destructorRuns(s, l.slot, at, l.name)
			s.end(l.slot, dead, at, via)
		case l.typ == tUnique && l.val.owns >= 0 && int(l.val.owns) < len(s.objs) && s.objs[l.val.owns].state == live:
			x.destructorRuns(s, l.val.owns, at, l.name)
			s.end(l.val.owns, dead, at, via)
		case l.typ == tStorage && l.val.owns >= 0:
			s.end(l.val.owns, dead, at, via)
		}
	}
}

// releasedMembers lists the members a destructor body releases as
// counted objects (see counted.go): m.release(), m->release(), and the
// Objective-C message [m release].
func (x *exec) releasedMembers(body parser.NodeID, members map[string]string) []string {
	f := x.f
	var out []string
	for j := body; j < f.End(body); j++ {
		var fe parser.NodeID
		switch f.Nodes[j].Kind {
		case parser.KindCallExpression:
			fe = f.Field(j, parser.FieldFunction)
		case parser.KindParenthesizedExpression:
			if _, _, ok := x.unarySend(j); ok {
				fe = x.lastNamedChild(j)
			}
		}
		if fe == parser.None || f.Kind(fe) != parser.KindFieldExpression || f.Text(f.Field(fe, parser.FieldField)) != "release" {
			continue
		}
		if m := memberName(f, f.Field(fe, parser.FieldArgument)); m != "" && members[m] != "" && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out
}

// yieldKind is the kind of what method m of a class with these facts
// yields (see ownedYield): a reference or a pointer.
func yieldKind(facts map[string]string, m string) typeKind {
	if facts["(&"+m+")"] != "" {
		return tRef
	}
	return tPointer
}

// movedName is the name e moves from, std::move(name), or "".
func movedName(f *parser.File, e parser.NodeID) string {
	if f.Kind(e) != parser.KindCallExpression || strings.TrimSpace(f.Text(f.Field(e, parser.FieldFunction))) != "std::move" {
		return ""
	}
	for a := range f.NamedChildren(f.Field(e, parser.FieldArguments)) {
		if f.Kind(a) == parser.KindIdentifier {
			return f.Text(a)
		}
	}
	return ""
}

// returnStatements lists the return statements of a function body, not
// those of the lambdas and local classes in it.
func returnStatements(f *parser.File, body parser.NodeID) []parser.NodeID {
	var out []parser.NodeID
	for j := body + 1; j < f.End(body); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindLambdaExpression, parser.KindClassSpecifier, parser.KindStructSpecifier:
			j = f.End(j) - 1
		case parser.KindReturnStatement:
			out = append(out, j)
		}
	}
	return out
}

// resultWrappers hold a value or an error (absl/status/statusor.h,
// tsl's and XLA's aliases of it; std::expected, [expected.expected]) or
// a value or nothing (std::optional): one holding a pointer returns it.
var resultWrappers = map[string]bool{"absl::StatusOr": true, "StatusOr": true, "tsl::StatusOr": true,
	"std::expected": true, "expected": true}

// wrapsPointer says a return type is a result wrapper or an optional of
// a raw pointer (absl::StatusOr<T*>).
func wrapsPointer(typ string) bool {
	base, args, _, ok := splitTemplate(typ)
	if !ok || !resultWrappers[base] && !wrapperTypes[base] {
		return false
	}
	return strings.HasSuffix(strings.TrimSpace(cxxtype.FirstArg(args)), "*")
}

// handedOnlyToCalls lists, for the members destructor body gives up only
// by handing them to functions called by name (not deleted, reset, freed
// by a known free, assigned anew, or handed to a method of another
// object), every such handing as "m=name/nargs/k" (see "(~via)").
func (x *exec) handedOnlyToCalls(body parser.NodeID, members map[string]string) []string {
	f := x.f
	other := map[string]bool{}
	var out []string
	// Given up other than by a call: deleted, reset, freed by a known
	// free, an owning member assigned anew.
	given, _, _ := x.handedAway(body, members, false)
	for _, m := range given {
		other[m] = true
	}
	for j := body; j < f.End(body); j++ {
		if f.Nodes[j].Kind != parser.KindCallExpression {
			continue
		}
		fn := f.Field(j, parser.FieldFunction)
		args := f.Field(j, parser.FieldArguments)
		plain := f.Kind(fn) == parser.KindIdentifier || f.Kind(fn) == parser.KindQualifiedIdentifier
		name := f.Text(fn)
		if plain && (frees[name] || members["("+lastName(name)+")"] != "") {
			// A known free, or a method of the object (see "(~calls)").
			continue
		}
		n := 0
		for range f.NamedChildren(args) {
			n++
		}
		k := 0
		for a := range f.NamedChildren(args) {
			if m := memberName(f, a); m != "" && members[m] != "" && !strings.HasPrefix(m, "(") {
				if plain {
					out = append(out, m+"="+name+"/"+strconv.Itoa(n)+"/"+strconv.Itoa(k))
				} else {
					other[m] = true
				}
			}
			k++
		}
	}
	kept := out[:0]
	for _, e := range out {
		m, _, _ := strings.Cut(e, "=")
		if !other[m] {
			kept = append(kept, e)
		}
	}
	return kept
}

// memberGuarded says node j of body runs only under a condition (if,
// while, ?:) that reads a data member other than m: whether it runs is
// decided by the object's state, which holdfast does not follow.
func (x *exec) memberGuarded(body, j parser.NodeID, m string, members map[string]string) bool {
	f := x.f
	for a := f.Nodes[j].Parent; a != body && a != parser.None; a = f.Nodes[a].Parent {
		var c parser.NodeID
		switch f.Kind(a) {
		case parser.KindIfStatement, parser.KindWhileStatement, parser.KindConditionalExpression:
			c = f.Field(a, parser.FieldCondition)
		default:
			continue
		}
		if c != parser.None && j >= c && j < f.End(c) {
			// j is in the condition itself, which always runs.
			continue
		}
		for k := c; c != parser.None && k < f.End(c); k++ {
			if f.Kind(k) == parser.KindIdentifier || f.Kind(k) == parser.KindFieldIdentifier {
				if n := f.Text(k); n != m && members[n] != "" && !strings.HasPrefix(n, "(") {
					return true
				}
			}
		}
	}
	return false
}

// calledMethods lists the methods body calls on objects other than its
// own (p->m(), o.m()), by name, and those of them called on data members
// (m.f(), m->f(), this->m.f()), as "m.f".
func (x *exec) calledMethods(body parser.NodeID, members map[string]string) (others, onMembers []string) {
	f := x.f
	for j := body; j < f.End(body); j++ {
		if f.Kind(j) != parser.KindCallExpression {
			continue
		}
		fn := f.Field(j, parser.FieldFunction)
		if f.Kind(fn) != parser.KindFieldExpression {
			continue
		}
		recv := f.Field(fn, parser.FieldArgument)
		meth := strings.TrimSpace(f.Text(f.Field(fn, parser.FieldField)))
		if f.Kind(recv) == parser.KindThis || !isWord(meth) {
			continue
		}
		others = append(others, meth)
		if m := memberName(f, recv); m != "" && members[m] != "" && !strings.HasPrefix(m, "(") {
			onMembers = append(onMembers, m+"."+meth)
		}
	}
	return others, onMembers
}

// detachedByDestructor lets go of what the data members of the method's
// object keep in the members that methods the class's destructor calls
// on them set (~Owner() { player_.setSource(nullptr); }): the destructor
// body runs before the members end ([class.dtor]), so a member's own
// destructor finds those cleared.
func (x *exec) detachedByDestructor(s *state) {
	if x.opt.Members == nil {
		return
	}
	for _, mc := range list(x.classMembers, "(~mcalls)") {
		m, meth, ok := strings.Cut(mc, ".")
		if !ok {
			continue
		}
		j := s.lookup(m)
		if j < 0 || !s.locals[j].member {
			continue
		}
		l := s.locals[j]
		obj := l.slot
		if l.typ == tUnique || l.typ == tShared {
			obj = l.val.owns
		}
		if obj < 0 || int(obj) >= len(s.objs) || s.objs[obj].class == "" {
			continue
		}
		x.letGo(s, obj, x.opt.Members(s.objs[obj].class), meth)
	}
}

// ClassNamespaces says, for each class Classes(f) reads, the scope its
// facts belong to: the namespaces around its definition and the classes
// it is nested in, joined by "::" ("" at global scope); for a class f
// only defines methods of (C::m outside its class), the namespaces around
// the definition and the qualifier before C. A class whose facts here
// come from more than one scope (two classes of one name in different
// namespaces) maps to "?": where each fact belongs is not kept.
func ClassNamespaces(f *parser.File) map[string]string {
	out := map[string]string{}
	x := &exec{f: f}
	note := func(name, scope string) {
		if have, ok := out[name]; ok && have != scope {
			scope = "?"
		}
		out[name] = scope
	}
	for i := range f.Nodes {
		n := parser.NodeID(i)
		switch f.Nodes[i].Kind {
		case parser.KindClassSpecifier, parser.KindStructSpecifier:
			if f.Field(n, parser.FieldBody) == parser.None {
				continue
			}
			name := specifierName(f, n)
			if name == "" {
				continue
			}
			ns, _ := f.Namespace(n)
			note(name, joinScope(ns, enclosingClasses(f, n)))
		case parser.KindFunctionDefinition:
			_, full, j := x.outOfLine(n)
			if j <= 0 {
				continue
			}
			q := strings.TrimPrefix(full[:j], "::")
			class, qual := lastName(q), ""
			if k := strings.LastIndex(q, "::"); k >= 0 {
				qual = q[:k]
			}
			ns, _ := f.Namespace(n)
			if strings.HasPrefix(full, "::") {
				ns = ""
			}
			note(class, joinScope(ns, qual))
		}
	}
	return out
}

// specifierName is the name a class specifier n defines (its typedef's
// for an unnamed one), or "".
func specifierName(f *parser.File, n parser.NodeID) string {
	if name := className(f.Text(f.Field(n, parser.FieldName))); name != "" {
		return name
	}
	return typedefName(f, n)
}

// outOfLine is the function declarator of definition def, the
// qualified name it declares (C::m, ns::C::~C) and the offset of that
// name's last "::"; j <= 0 for a name with no qualifier or a definition
// with no declarator.
func (x *exec) outOfLine(def parser.NodeID) (fd parser.NodeID, full string, j int) {
	fd, _ = x.funcDeclarator(def)
	if fd == parser.None {
		return fd, "", -1
	}
	full = calleeName(x.f.Text(x.f.Field(fd, parser.FieldDeclarator)))
	return fd, full, strings.LastIndex(full, "::")
}

// enclosingClasses is the names of the classes class specifier n is
// nested in, outermost first, joined by "::".
func enclosingClasses(f *parser.File, n parser.NodeID) string {
	var names []string
walk:
	for m := f.Nodes[n].Parent; m != parser.None; m = f.Nodes[m].Parent {
		switch f.Nodes[m].Kind {
		case parser.KindClassSpecifier, parser.KindStructSpecifier:
			if name := className(f.Text(f.Field(m, parser.FieldName))); name != "" {
				names = append(names, name)
			}
		case parser.KindNamespaceDefinition, parser.KindFunctionDefinition:
			break walk
		}
	}
	slices.Reverse(names)
	return strings.Join(names, "::")
}

// joinScope joins two scopes, either of which may be "".
func joinScope(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "::" + b
}
