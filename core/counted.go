package core

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/holdfast-dev/holdfast/parser"
)

// Reference-counted objects under Cocoa's ownership policy. Objective-C
// objects, and the Metal, Foundation and QuartzCore objects metal-cpp
// wraps, are counted: "You own any object you create [with] a method
// whose name begins with alloc, new, copy, or mutableCopy"; "You can take
// ownership of an object using retain"; "You must not relinquish
// ownership of an object you do not own" (Apple, Advanced Memory
// Management Programming Guide, Memory Management Policy; metal-cpp's
// README: "metal-cpp follows the object allocation policies of Cocoa").
// An object any other method returns is not the caller's: releasing it
// (release, autorelease) without a retain first takes a reference its
// owner still counts on, and the owner's own release then frees it under
// the others (an over-release).
//
// The executor counts the references a function holds of each object a
// message returned: one for alloc, new, copy and mutableCopy, none for any
// other; retain adds one, release and autorelease take one away, and one
// taken with none held is the fault. init returns its receiver's object
// (it consumes and returns the reference alloc gave). The calls counted
// are the messages of Objective-C files and the methods of the types of
// the namespaces the API packs list as counted (metal-cpp's MTL, NS, CA).

// Kinds of counted objects (object.counted).
const (
	notCounted   uint8 = iota
	countedNone        // a message returned it: the function holds no reference
	countedOwned       // alloc, new, copy or mutableCopy made it: one reference
)

// ownedSelector says a message of that name gives its caller a
// reference: the name begins with alloc, new, copy or mutableCopy as a
// word (newBuffer, copy; not newton, copyright).
func ownedSelector(m string) bool {
	for _, p := range [...]string{"alloc", "new", "copy", "mutableCopy"} {
		if rest, ok := strings.CutPrefix(m, p); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			return rest == "" || !unicode.IsLower(r)
		}
	}
	return false
}

// objc says the file is Objective-C or Objective-C++.
func (x *exec) objc() bool { return x.f.Ext == ".mm" || x.f.Ext == ".m" }

// objcObject says a declared type of an Objective-C file is a pointer to
// an object written without a star: id, id<Protocol>, instancetype.
func (x *exec) objcObject(typ string) bool {
	typ = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	return x.objc() && (typ == "id" || typ == "instancetype" || strings.HasPrefix(typ, "id<") || strings.HasPrefix(typ, "id <"))
}

// objcOpaque says a declared type of an Objective-C file is one holdfast
// does not read (of kind k): neither a pointer, nor a type of the
// standard library or the packs, nor a class the tree defines.
func (x *exec) objcOpaque(typ string, k typeKind) bool {
	if !x.objc() || k != tPlain || strings.ContainsAny(typ, "*&[") {
		return false
	}
	n := typeName(typ)
	return n != "" && (x.opt.Members == nil || x.opt.Members(n) == nil)
}

// countedReceiver says a call on recv is a message of a counted object:
// any send of an Objective-C file, or a method of a local whose declared
// type is in a namespace the packs count.
func (x *exec) countedReceiver(s *state, recv parser.NodeID) bool {
	if x.objc() {
		// A message, unless the receiver is declared as an object of a
		// C++ class of the file or the tree: its methods are C++ ones,
		// whatever they are named.
		if i := s.lookup(x.text(recv)); x.kind(recv) == parser.KindIdentifier && i >= 0 && x.opt.Members != nil {
			if t := s.locals[i].tname; t != "" && x.opt.Members(t) != nil {
				return false
			}
		}
		return true
	}
	if x.opt.API == nil || x.kind(recv) != parser.KindIdentifier {
		return false
	}
	i := s.lookup(x.text(recv))
	switch {
	case i < 0:
		return false
	case s.locals[i].member:
		return x.opt.API.Counted(x.classMembers[s.locals[i].name])
	case s.locals[i].decl == parser.None:
		return false
	}
	// The declaration's type: decl is a parameter's declaration or a
	// local's declarator.
	for d := s.locals[i].decl; d != parser.None; d = x.f.Nodes[d].Parent {
		if t := x.f.Field(d, parser.FieldType); t != parser.None {
			return x.opt.API.Counted(x.text(t))
		}
		if k := x.kind(d); k == parser.KindCompoundStatement || k == parser.KindFunctionDefinition {
			break
		}
	}
	return false
}

// message executes the call n of method fn (a field expression) with
// arguments list: a counted message (see send) when the receiver is
// counted, else an ordinary method call, whose result, when the call says
// nothing of it, is an object a message returned on a counted receiver.
func (x *exec) message(s *state, n, fn, list parser.NodeID) value {
	recv := x.f.Field(fn, parser.FieldArgument)
	if x.objc() && strings.TrimSpace(x.text(x.f.Field(fn, parser.FieldOperator))) == "->" {
		// p->f(): a C++ method (a send is rewritten as recv.sel(...),
		// and Objective-C calls no method through ->).
		return x.method(s, n, fn, list)
	}
	if x.objc() && !x.hasElements(list) {
		// recv.f(): a C++ method call, not a send (a unary send is
		// rewritten as (recv.sel), one with arguments as recv.sel(args)).
		return x.method(s, n, fn, list)
	}
	if !x.countedReceiver(s, recv) && x.countedLocal(s, recv) < 0 {
		return x.method(s, n, fn, list)
	}
	m := calleeName(x.text(x.f.Field(fn, parser.FieldField)))
	if v, ok := x.send(s, n, recv, m, list, false); ok {
		return v
	}
	x.usedCounted(s, recv, recv)
	return x.returnedObject(s, n, x.method(s, n, fn, list), m)
}

// usedCounted: a message other than release is sent to what the local
// recv names: a counted object its last release freed is used at n.
func (x *exec) usedCounted(s *state, recv, n parser.NodeID) {
	if obj := x.countedLocal(s, recv); obj >= 0 && s.objs[obj].state != live {
		x.use(s, borrowOf(obj, tPointer), n)
	}
}

// memberHolds says a data member of the method's object points to obj.
func (x *exec) memberHolds(s *state, obj int32) bool {
	for i := range s.locals {
		if s.locals[i].member && s.locals[i].val.pt == obj {
			return true
		}
	}
	return false
}

// shareCounted marks the counted objects the locals a lambda (or a
// block) names point to as shared: the closure may retain them.
func (x *exec) shareCounted(s *state, lambda parser.NodeID) {
	body := x.f.Field(lambda, parser.FieldBody)
	if body == parser.None {
		return
	}
	for j := body; j < x.f.End(body); j++ {
		if x.f.Nodes[j].Kind != parser.KindIdentifier {
			continue
		}
		if obj := x.countedLocal(s, j); obj >= 0 {
			s.objs[obj].shared = true
		}
	}
}

// unaryMessage executes the unary message "(recv.m)" n of an
// Objective-C file (see unarySend).
func (x *exec) unaryMessage(s *state, n, recv parser.NodeID, m string) value {
	if v, ok := x.send(s, n, recv, m, parser.None, true); ok {
		return v
	}
	x.usedCounted(s, recv, recv)
	if x.opt.API != nil && x.opt.API.Call(m) != 0 {
		// A message the packs describe (a borrow of the receiver's
		// memory, a wait): read as the member access it is written as.
		v := unknown
		for c := range x.f.NamedChildren(n) {
			v = x.eval(s, c)
		}
		return v
	}
	x.eval(s, recv)
	return x.returnedObject(s, n, unknown, m)
}

// returnedObject is v, the result of message n, or when nothing is known
// of it an object the message returned that the function holds no
// reference of.
func (x *exec) returnedObject(s *state, n parser.NodeID, v value, m string) value {
	if v.pt >= 0 || v.owns >= 0 || v.clo != nil || v.null || v.known || v.flag != 0 {
		return v
	}
	return borrowOf(s.newObj(object{kind: oHeap, owner: m, counted: countedNone, madeAt: n}), tPointer)
}

// countedLocal is the counted object the local that identifier e names
// points to, whatever its declared type says (auto); -1 for none.
func (x *exec) countedLocal(s *state, e parser.NodeID) int32 {
	if x.kind(e) != parser.KindIdentifier {
		return -1
	}
	i := s.lookup(x.text(e))
	if i < 0 || !s.isCounted(s.locals[i].val.pt) {
		return -1
	}
	return s.locals[i].val.pt
}

// isCounted says obj is a counted object (see counted.go).
func (s *state) isCounted(obj int32) bool {
	return obj >= 0 && int(obj) < len(s.objs) && s.objs[obj].counted != notCounted
}

// send executes message m sent to recv at n: retain, release and
// autorelease of a counted object change the references the function
// holds; alloc, new, copy and mutableCopy return an object it holds one
// reference of, init the receiver's object. ok is false for any other
// message, and for a method named retain or release called in C++ on an
// object not counted (the call is then an ordinary one); objcSend says n
// is an Objective-C message.
func (x *exec) send(s *state, n, recv parser.NodeID, m string, list parser.NodeID, objcSend bool) (value, bool) {
	release := m == "release" || m == "autorelease"
	switch {
	case m == "retain" || release:
		if k := x.kind(recv); !objcSend && k != parser.KindIdentifier && k != parser.KindFieldExpression {
			// p->release() on an expression: the call is read as any
			// other, its receiver evaluated once.
			return unknown, false
		}
	case x.opt.API != nil && x.opt.API.Call(m) != 0:
		// A call the packs describe (Metal's copyFromBuffer: queues a
		// copy and returns nothing): what they say of it comes first.
		return unknown, false
	case ownedSelector(m) || strings.HasPrefix(m, "init"):
	default:
		return unknown, false
	}
	rv := x.eval(s, recv)
	obj := rv.pt
	counted := s.isCounted(obj)
	switch {
	case m == "retain":
		if !counted {
			return rv, objcSend
		}
		s.objs[obj].rc++
		s.objs[obj].retained = true
		return rv, true
	case release:
		if !counted {
			return unknown, objcSend
		}
		o := &s.objs[obj]
		if o.rc <= 0 {
			x.fault(Fault{Kind: OverRelease, Use: n, End: o.madeAt, Via: m, Value: x.text(recv), Owner: o.owner, Owned: o.counted == countedOwned || o.retained})
			// One report per object and path.
			o.counted = notCounted
			return unknown, true
		}
		o.rc--
		if m == "autorelease" {
			return rv, true
		}
		if o.rc == 0 && o.counted == countedOwned && !o.shared && !x.memberHolds(s, obj) {
			// The last reference, of an object this function made and no
			// one else was given: it is freed.
			s.end(obj, freed, n, m)
		}
		return unknown, true
	case strings.HasPrefix(m, "init") && counted:
		if list != parser.None {
			x.handOn(s, list, x.args(s, list))
		}
		return rv, true
	}
	if list != parser.None {
		x.handOn(s, list, x.args(s, list))
	}
	return x.ownedObject(s, n, m), true
}

// ownedObject is a new counted object that call n made: the function
// holds one reference of it.
func (x *exec) ownedObject(s *state, n parser.NodeID, m string) value {
	return borrowOf(s.newObj(object{kind: oHeap, owner: m, counted: countedOwned, rc: 1, madeAt: n}), tPointer)
}

// countedCreate says a call of name is a function of a counted namespace
// whose name begins with Create (MTL::CreateSystemDefaultDevice): it
// gives its caller a reference (metal-cpp's README).
func (x *exec) countedCreate(name string) bool {
	i := strings.LastIndex(name, "::")
	return i > 0 && strings.HasPrefix(name[i+2:], "Create") && x.opt.API != nil && x.opt.API.Counted(name[:i]+"::")
}

// overReleasedMembers reports, at the end of path s of a method, a data
// member holding an object a message returned that the method never
// retained, when the class's destructor releases that member ("(~rel)"):
// the destructor then gives up a reference nobody took.
func (x *exec) overReleasedMembers(s *state) {
	rel := list(x.classMembers, "(~rel)")
	if len(rel) == 0 {
		return
	}
	for i := range s.locals {
		l := &s.locals[i]
		if !l.member || !slices.Contains(rel, l.name) || l.val.pt < 0 || int(l.val.pt) >= len(s.objs) {
			continue
		}
		o := &s.objs[l.val.pt]
		if o.counted == countedNone && o.rc <= 0 && o.madeAt != parser.None {
			x.fault(Fault{Kind: OverRelease, Use: o.madeAt, End: o.madeAt, Via: "~" + x.className(), Value: l.name, Owner: o.owner})
		}
	}
}

// unarySend reads n as the neutralised unary message "(obj.name)" of an
// Objective-C file (see parser/objc): the receiver and the selector.
func (x *exec) unarySend(n parser.NodeID) (recv parser.NodeID, m string, ok bool) {
	if !x.objc() {
		return parser.None, "", false
	}
	inner := parser.None
	for c := range x.f.NamedChildren(n) {
		if inner != parser.None {
			return parser.None, "", false
		}
		inner = c
	}
	if x.kind(inner) != parser.KindFieldExpression || strings.Contains(x.between(x.f.Field(inner, parser.FieldArgument), x.f.Field(inner, parser.FieldField)), "->") {
		return parser.None, "", false
	}
	return x.f.Field(inner, parser.FieldArgument), x.text(x.f.Field(inner, parser.FieldField)), true
}
