package core

import (
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// A pointer member the class's code sets from memory another member owns
// (ptr_ = buf_.data(), data_ = (T*)alloc_->data(), in any method or
// constructor of the class) must be set again whenever that member is
// given other memory. A method that gives the owning member new memory
// (assigns it, resets it, swaps it, clears or regrows its buffer) and
// returns without setting the pointer, handing it to a call, or running
// a method that may set it, leaves the object pointing at the old memory:
// freed, or no longer the object's.
//
// The class facts behind it, all read from the class's code:
//   - "(^P)": the owning members pointer member P is set from;
//   - "(set:m)": the members method m may give a new value ("-": none,
//     "*": any, for a method that hands the object to a call);
//   - "(this:m)": the methods of the object m calls.

// staleWatch is one pointer member watched on a method's paths.
type staleWatch struct {
	p     int     // the pointer member's local
	entry int32   // the object the pointer pointed to when the method began
	srcs  []int   // the owning members it is set from
	owned []int32 // what each owned when the method began
}

// derivedSource is the owning member whose memory e points into
// (m.data(), m.get(), m->data(), &m[i], their casts, plus an offset),
// or "".
func derivedSource(f *parser.File, e parser.NodeID) string {
	e = uncast(f, e)
	switch f.Kind(e) {
	case parser.KindBinaryExpression:
		return derivedSource(f, f.Field(e, parser.FieldLeft))
	case parser.KindCallExpression:
		fn := f.Field(e, parser.FieldFunction)
		if f.Kind(fn) != parser.KindFieldExpression {
			return ""
		}
		switch f.Text(f.Field(fn, parser.FieldField)) {
		case "get", "data", "c_str":
		default:
			return ""
		}
		// m.data(), or m->data() through a smart pointer member.
		return memberName(f, f.Field(fn, parser.FieldArgument))
	case parser.KindPointerExpression:
		arg := f.Field(e, parser.FieldArgument)
		if strings.HasPrefix(f.Text(e), "&") && f.Kind(arg) == parser.KindSubscriptExpression {
			return memberName(f, f.Field(arg, parser.FieldArgument))
		}
	}
	return ""
}

// ownsMemory says a member's declared type owns memory that a new value
// replaces: a container, a string, a smart pointer (unique or shared).
func ownsMemory(typ string) bool {
	if typ == "" || strings.HasSuffix(typ, "*") || strings.HasSuffix(typ, "&") || strings.HasSuffix(typ, "[]") {
		return false
	}
	switch classify(typ) {
	case tUnique, tShared, tStorage:
		return true
	}
	return false
}

// derivedFacts records "(^P)" for the pointer members definition def
// (a method or constructor of the class) sets from owning members: in
// its member initialisers and in assignments of its body.
func (x *exec) derivedFacts(def parser.NodeID, members map[string]string) {
	f := x.f
	note := func(p string, e parser.NodeID) {
		if p == "" || !strings.HasSuffix(members[p], "*") {
			return
		}
		if o := derivedSource(f, e); o != "" && o != p && ownsMemory(members[o]) {
			addList(members, "(^"+p+")", []string{o})
		}
	}
	memberInits(f, def, note)
	body := f.Field(def, parser.FieldBody)
	for j := body; body != parser.None && j < f.End(body); j++ {
		if f.Nodes[j].Kind == parser.KindAssignmentExpression && strings.TrimSpace(f.Text(f.Field(j, parser.FieldOperator))) == "=" {
			note(memberName(f, f.Field(j, parser.FieldLeft)), f.Field(j, parser.FieldRight))
		}
	}
}

// setFacts records "(set:m)" and "(this:m)" for method m, whose body
// is body: the members it assigns, resets, swaps, grows, or hands to a
// call (which may set one passed by reference), and the methods of the
// object it calls.
func (x *exec) setFacts(body parser.NodeID, method string, members map[string]string, calls []string) {
	f := x.f
	var set []string
	add := func(n parser.NodeID) {
		n = uncast(f, n)
		if x.kind(n) == parser.KindPointerExpression && strings.HasPrefix(f.Text(n), "&") {
			n = f.Field(n, parser.FieldArgument)
		}
		if m := memberName(f, n); m != "" && members[m] != "" && !strings.HasPrefix(m, "(") {
			set = append(set, m)
		}
	}
	for j := body; j < f.End(body); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindAssignmentExpression, parser.KindUpdateExpression:
			if f.Nodes[j].Kind == parser.KindAssignmentExpression {
				add(f.Field(j, parser.FieldLeft))
			} else {
				add(f.Field(j, parser.FieldArgument))
			}
		case parser.KindCallExpression:
			fn := f.Field(j, parser.FieldFunction)
			if f.Kind(fn) == parser.KindFieldExpression && !readOnly[f.Text(f.Field(fn, parser.FieldField))] &&
				strings.TrimSpace(f.Text(f.Field(fn, parser.FieldOperator))) != "->" {
				// m.reset(), m.clear(): a method of a member may give it
				// new memory, but not one of the standard library's
				// observers (m.get(), m.size()), and not a method of
				// what it points to (m->f()).
				add(f.Field(fn, parser.FieldArgument))
			}
			for a := range f.NamedChildren(f.Field(j, parser.FieldArguments)) {
				add(a)
				if t := strings.TrimSpace(f.Text(a)); t == "this" || t == "*this" {
					// The object handed to a call: anything may be set.
					set = append(set, "*")
				}
			}
		}
	}
	slices.Sort(set)
	set = slices.Compact(set)
	if len(set) == 0 {
		set = []string{"-"}
	}
	addList(members, "(set:"+method+")", set)
	addList(members, "(this:"+method+")", calls)
	addList(members, "(reads:"+method+")", x.readMembers(body, members, false))
	addList(members, "(ureads:"+method+")", x.readMembers(body, members, true))
}

// readMembers lists the data members a method body names other than as
// the target of a plain assignment ("-": none): what it may read of the
// object, or hand on. A member it only sets (p_ = q) is not read. With
// unguarded, only the reads every run makes: not those under a test of
// another member (if (built_) { use(p_); }), see memberGuarded.
func (x *exec) readMembers(body parser.NodeID, members map[string]string, unguarded bool) []string {
	f := x.f
	var out []string
	for j := body; j < f.End(body); j++ {
		k := f.Nodes[j].Kind
		if k != parser.KindIdentifier && k != parser.KindFieldIdentifier {
			continue
		}
		name := f.Text(j)
		if members[name] == "" || strings.HasPrefix(name, "(") {
			continue
		}
		e := j
		if k == parser.KindFieldIdentifier {
			// this->m is the member; o.m names another object's.
			if fe := f.Nodes[j].Parent; f.Kind(fe) != parser.KindFieldExpression || f.Kind(f.Field(fe, parser.FieldArgument)) != parser.KindThis {
				continue
			}
			e = f.Nodes[j].Parent
		}
		if a := f.Nodes[e].Parent; f.Kind(a) == parser.KindAssignmentExpression && f.Field(a, parser.FieldLeft) == e &&
			strings.TrimSpace(f.Text(f.Field(a, parser.FieldOperator))) == "=" {
			continue
		}
		if unguarded && x.memberGuarded(body, j, name, members) {
			continue
		}
		if x.nullTested(e) {
			// if (p_), !p_, p_ != nullptr: the pointer's value is
			// tested, not the memory it points to read.
			continue
		}
		if x.paramDestroyed(e) {
			// data_[i].~T() of a class template's element type T: for
			// the pointers and scalars such arrays mostly hold, a call
			// that does nothing ([expr.prim.id.dtor]); whether T has a
			// destructor is the instantiation's, not followed here.
			continue
		}
		out = append(out, name)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 {
		out = []string{"-"}
	}
	return out
}

// viaMethods collects the members fact "(kind:m)" lists for method and
// for the methods of the object it calls in turn ("(this:m)"); unknown is
// true when one of them has no such fact (its code is not read). "-"
// (none) is left out; "*" (anything) is kept for the caller to read.
func viaMethods(facts map[string]string, kind, method string) (names map[string]bool, unknown bool) {
	names = map[string]bool{}
	seen := map[string]bool{}
	work := []string{method}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[m] {
			continue
		}
		seen[m] = true
		v, ok := facts["("+kind+":"+m+")"]
		if !ok {
			unknown = true
			continue
		}
		for _, name := range strings.Split(v, ",") {
			if name != "-" {
				names[name] = true
			}
		}
		work = append(work, list(facts, "(this:"+m+")")...)
	}
	return names, unknown
}

// mayRead lists the members a call of method on an object of the class
// with these facts may read, through the methods of the object it calls
// in turn; all is true when one of them is not known.
func mayRead(facts map[string]string, method string) (read map[string]bool, all bool) {
	read, unknown := viaMethods(facts, "reads", method)
	if unknown {
		return nil, true
	}
	return read, false
}

// unreadMember says member m of an object of class (with these facts) is
// read by no code once the object is made: it is private, the class has
// methods besides its constructors, and none of them (all of whose code is
// known) reads or yields it.
// A reference kept there to a temporary dangles unseen: the constructor
// copied what it needed while the temporary lived.
func unreadMember(facts map[string]string, class, m string) bool {
	m = strings.TrimSuffix(m, "[]")
	if m == "" || !slices.Contains(list(facts, "(private)"), m) || slices.Contains(list(facts, "(~reads)"), m) {
		return false
	}
	ctor := lastName(class)
	methods := 0
	for k, v := range facts {
		method, ok := strings.CutPrefix(k, "(")
		method, closed := strings.CutSuffix(method, ")")
		if !ok || !closed || v != "method" && !strings.HasPrefix(v, "yields") {
			continue
		}
		if c := method[0]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || method == ctor {
			continue
		}
		if y, _ := yielded(facts, method); y == m {
			return false
		}
		r, known := facts["(reads:"+method+")"]
		if !known || slices.Contains(strings.Split(r, ","), m) {
			return false
		}
		methods++
	}
	// A class with no method but its constructors is read by friends, if
	// by anyone: not known.
	return methods > 0
}

// mayBeSet lists the members a call of method on the object may give a
// new value, through the methods it calls in turn; all is true when one
// of them is not known.
func (x *exec) mayBeSet(method string) (set map[string]bool, all bool) {
	if method == "" {
		return nil, true
	}
	if set, ok := x.setBy[method]; ok {
		return set, set == nil
	}
	set, unknown := viaMethods(x.classMembers, "set", method)
	if unknown || set["*"] {
		set = nil
	}
	if x.setBy == nil {
		x.setBy = map[string]map[string]bool{}
	}
	x.setBy[method] = set
	return set, set == nil
}

// watchStale picks the pointer members to watch on the method's paths:
// those the class sets from an owning member of the object. Constructors,
// destructors and assignment operators set or end every member and are
// not watched.
func (x *exec) watchStale(s *state) {
	if !x.hasMembers || x.kind(x.def) == parser.KindLambdaExpression {
		return
	}
	fd, _ := x.funcDeclarator(x.def)
	if fd == parser.None {
		return
	}
	name := lastName(calleeName(x.text(x.f.Field(fd, parser.FieldDeclarator))))
	if name == "" || name == x.className() || strings.HasPrefix(name, "~") || strings.HasPrefix(name, "operator") {
		return
	}
	index := map[string]int{}
	for i, l := range s.locals {
		if l.member {
			index[l.name] = i
		}
	}
	for _, pname := range slices.Sorted(func(yield func(string) bool) {
		for k := range x.classMembers {
			if p, ok := strings.CutPrefix(k, "(^"); ok && !yield(strings.TrimSuffix(p, ")")) {
				return
			}
		}
	}) {
		p, ok := index[pname]
		if !ok || s.locals[p].typ != tPointer {
			continue
		}
		w := staleWatch{p: p, entry: s.locals[p].val.pt}
		for _, o := range list(x.classMembers, "(^"+pname+")") {
			if i, ok := index[o]; ok && s.locals[i].val.owns >= 0 {
				w.srcs = append(w.srcs, i)
				w.owned = append(w.owned, s.locals[i].val.owns)
			}
		}
		if len(w.srcs) > 0 {
			x.stale = append(x.stale, w)
		}
	}
}

// leftStale reports the watched pointer members that s leaves the method
// with unchanged although a member they are set from was given new memory
// on the path.
func (x *exec) leftStale(s *state) {
	if s.failed {
		// The method reports failure: the caller does not rely on the
		// object's state.
		return
	}
	for _, w := range x.stale {
		p := s.locals[w.p]
		if p.setAt != 0 || p.val.pt != w.entry {
			continue
		}
		for k, i := range w.srcs {
			o := s.locals[i]
			at, ok := x.repointed(s, o, w.owned[k])
			if !ok {
				continue
			}
			x.fault(Fault{Kind: LeftStale, Use: at, End: x.closing(x.f.Field(x.def, parser.FieldBody)), Via: "new memory", Value: p.name, Owner: o.name})
			break
		}
	}
}

// thisCallee is the method of the object an unqualified call runs, by
// name; "" when the call may run others (it is handed this, or is
// qualified).
func (x *exec) thisCallee(fn, list parser.NodeID) string {
	if x.kind(fn) != parser.KindIdentifier || x.handsThis(list) {
		return ""
	}
	return x.text(fn)
}

// handsThis says a call's arguments include the object (this, *this).
func (x *exec) handsThis(list parser.NodeID) bool {
	for c := range x.f.NamedChildren(list) {
		if t := strings.TrimSpace(x.text(c)); t == "this" || t == "*this" {
			return true
		}
	}
	return false
}

// setMember records that n gives the data member e names (m, this->m,
// &m) a new value, or may.
func (x *exec) setMember(s *state, e, n parser.NodeID) {
	if !x.hasMembers {
		return
	}
	e = uncast(x.f, e)
	if x.kind(e) == parser.KindPointerExpression && strings.HasPrefix(x.text(e), "&") {
		e = x.f.Field(e, parser.FieldArgument)
	}
	name := memberName(x.f, e)
	if name == "" {
		return
	}
	if i := s.lookup(name); i >= 0 && s.locals[i].member {
		s.locals[i].setAt = n
	}
}

// repointed says the owning member o, which owned object old when the
// method began, was given new memory on the path, and where: a smart
// pointer that owns another object now (not one emptied), a container or
// string whose buffer an assignment or growth replaced (not one cleared
// or shrunk, whose buffer may stay).
func (x *exec) repointed(s *state, o local, old int32) (parser.NodeID, bool) {
	if old < 0 || int(old) >= len(s.objs) {
		return parser.None, false
	}
	was := s.objs[old]
	switch o.typ {
	case tUnique, tShared:
		if o.val.null || o.val.owns < 0 || o.val.owns == old || o.setAt <= 0 {
			return parser.None, false
		}
		return o.setAt, true
	case tStorage:
		if was.state != replaced || was.end == parser.None || !newBuffer[was.via] {
			return parser.None, false
		}
		return was.end, true
	}
	return parser.None, false
}

// newBuffer are the operations that may give a container or string a new
// buffer (cppreference: the invalidation notes of std::vector and
// std::basic_string), as the core names them (see grow).
var newBuffer = map[string]bool{"push_back": true, "emplace_back": true, "insert": true, "emplace": true,
	"resize": true, "reserve": true, "append": true, "assign": true, "operator=": true, "operator+=": true}

// nullTested says expression e is only tested for null: the whole
// condition of an if, while or ?:, the operand of !, && or ||, or one
// side of == or != whose other side is a null constant. A pointer's
// value tested reads none of the memory it points to.
func (x *exec) nullTested(e parser.NodeID) bool {
	f := x.f
	for {
		p := f.Nodes[e].Parent
		switch f.Kind(p) {
		case parser.KindParenthesizedExpression:
			e = p
			continue
		case parser.KindConditionClause:
			return true
		case parser.KindIfStatement, parser.KindWhileStatement, parser.KindDoStatement, parser.KindForStatement, parser.KindConditionalExpression:
			return f.Field(p, parser.FieldCondition) == e
		case parser.KindUnaryExpression:
			return strings.HasPrefix(strings.TrimSpace(f.Text(p)), "!")
		case parser.KindBinaryExpression:
			switch strings.TrimSpace(f.Text(f.Field(p, parser.FieldOperator))) {
			case "&&", "||":
				return true
			case "==", "!=":
				other := f.Field(p, parser.FieldLeft)
				if other == e {
					other = f.Field(p, parser.FieldRight)
				}
				return x.nullInit(other)
			}
		}
		return false
	}
}

// paramDestroyed says member expression e is only the array whose
// element an explicit destructor call names by a template type parameter
// of an enclosing template: e[i].~T(), (e + i)->~T().
func (x *exec) paramDestroyed(e parser.NodeID) bool {
	f := x.f
	n := e
	for {
		p := f.Nodes[n].Parent
		switch f.Kind(p) {
		case parser.KindParenthesizedExpression, parser.KindSubscriptExpression, parser.KindBinaryExpression:
			n = p
			continue
		case parser.KindFieldExpression:
			if f.Field(p, parser.FieldArgument) != n {
				return false
			}
			name, ok := strings.CutPrefix(strings.TrimSpace(f.Text(f.Field(p, parser.FieldField))), "~")
			return ok && x.templateTypeParam(p, strings.TrimSpace(name))
		}
		return false
	}
}

// templateTypeParam says name is a type parameter of a template
// declaration enclosing n.
func (x *exec) templateTypeParam(n parser.NodeID, name string) bool {
	f := x.f
	for t := f.Nodes[n].Parent; t != parser.None; t = f.Nodes[t].Parent {
		if f.Kind(t) == parser.KindTemplateDeclaration && x.typeParamIndex(t, name) > 0 {
			return true
		}
	}
	return false
}
