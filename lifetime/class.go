package lifetime

import (
	"fmt"
	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// Class is what one file says about a class or struct: its members with
// their types, and the functions of it the file defines. A class the file
// only names (out-of-line methods of a class declared in a header) has no
// members and Node parser.None.
type Class struct {
	Name    string // the class's own name, without scope or template arguments
	Node    parser.NodeID
	Members []ClassMember
	// Methods are the functions of this class defined in the file,
	// constructors and destructors included, in source order.
	Methods []*Func
	// Singleton says the file keeps an instance in a static or global
	// variable (static T* instance = new T, static T instance): such an
	// object lives until the program exits.
	Singleton bool
}

// ClassMember is a data member or a member function of a class.
type ClassMember struct {
	Name string
	Type string // as written, with "*" or "&" for pointer and reference members
	Base string // the type's template name without arguments
	Kind VarKind
	// Stream marks a stream, a queue or a device state (a type that owns
	// streams), directly or through a smart pointer or container.
	Stream bool
	Static bool
	Method bool // a member function
	Node   parser.NodeID
	At     uint32
}

// ThisUse is a member the body of a function reaches through this: by its
// bare name, as this->name, or "this" itself. In a lambda that captures
// this explicitly, in a method of a class declared in another file, a name
// that is no local is taken for a member.
type ThisUse struct {
	Name string
	Node parser.NodeID
	At   uint32
	// Member is the declaration, or nil when the file does not declare it.
	Member *ClassMember
	// Call says the name is called (a member function).
	Call bool
}

// Member returns the member called name, or nil.
func (c *Class) Member(name string) *ClassMember {
	if c == nil {
		return nil
	}
	for i := range c.Members {
		if c.Members[i].Name == name {
			return &c.Members[i]
		}
	}
	return nil
}

// StreamMember returns the first data member that is a stream, a queue or
// a device state, or nil.
func (c *Class) StreamMember() *ClassMember {
	if c == nil {
		return nil
	}
	for i := range c.Members {
		if m := &c.Members[i]; m.Stream && !m.Method && !m.Static {
			return m
		}
	}
	return nil
}

// Destructor returns the class's destructor when the file defines it.
func (c *Class) Destructor() *Func {
	if c == nil {
		return nil
	}
	for _, f := range c.Methods {
		if f.Kind == Destructor {
			return f
		}
	}
	return nil
}

// Owns reports whether the class frees something when an object of it
// dies, as far as its definition shows: it declares a destructor or has a
// member that owns memory (a class value, a smart pointer, a container).
func (c *Class) Owns() bool {
	if c == nil {
		return false
	}
	if c.Destructor() != nil {
		return true
	}
	for _, m := range c.Members {
		if strings.HasPrefix(m.Name, "~") || !m.Method && !m.Static && (m.Kind == Owner || m.Kind == Container) {
			return true
		}
	}
	return false
}

// DestructorWaits reports whether destroying an object of the class
// waits for pending work first: the destructor the file defines waits, or
// calls a method of the class, defined in the file, that does (following
// such calls a few levels deep).
func (c *Class) DestructorWaits() bool {
	d := c.Destructor()
	if d == nil {
		return false
	}
	seen := map[*Func]bool{}
	var waits func(f *Func, depth int) bool
	waits = func(f *Func, depth int) bool {
		if f == nil || seen[f] || depth > 3 {
			return false
		}
		seen[f] = true
		for i := range f.Events {
			if f.Events[i].Kind == Wait {
				return true
			}
		}
		for _, u := range f.ThisUses {
			if u.Call && waits(c.method(u.Name), depth+1) {
				return true
			}
		}
		return false
	}
	return waits(d, 0)
}

// method returns the method of the class called name that the file
// defines, or nil.
func (c *Class) method(name string) *Func {
	for _, f := range c.Methods {
		last := f.Name
		if i := strings.LastIndex(last, "::"); i >= 0 {
			last = last[i+2:]
		}
		if last == name {
			return f
		}
	}
	return nil
}

// classes collects the classes and structs of a file by name. Two classes
// of one name (in different namespaces) share an entry: their members are
// merged, which errs towards knowing a member rather than not. A class
// declared in another file is known by the methods the file defines for it
// (X::f), and free lists the functions the file defines outside any class,
// which are never members.
type classes struct {
	byName map[string]*Class
	free   map[string]bool
}

func buildClasses(f *parser.File, m *apimodel.Model) classes {
	cs := classes{byName: map[string]*Class{}, free: map[string]bool{}}
	for i := range f.Nodes {
		k := f.Nodes[i].Kind
		if k == parser.KindFunctionDefinition {
			cs.outOfLine(f, parser.NodeID(i))
			continue
		}
		if k == parser.KindDeclaration {
			cs.staticInstance(f, parser.NodeID(i))
			continue
		}
		if k != parser.KindClassSpecifier && k != parser.KindStructSpecifier {
			continue
		}
		n := parser.NodeID(i)
		body := f.Field(n, parser.FieldBody)
		if body == parser.None || f.Kind(body) != parser.KindFieldDeclarationList {
			continue
		}
		c := cs.get(className(f.Text(f.Field(n, parser.FieldName))))
		if c == nil {
			continue
		}
		if c.Node == parser.None {
			c.Node = n
		}
		for d := range f.NamedChildren(body) {
			switch f.Kind(d) {
			case parser.KindFieldDeclaration:
				c.fieldDeclaration(f, m, d)
			case parser.KindDeclaration: // a constructor or destructor declared here, defined elsewhere
				if name := declaredName(f, f.Field(d, parser.FieldDeclarator)); strings.HasPrefix(name, "~") {
					c.Members = append(c.Members, ClassMember{Name: name, Method: true, Node: d, At: f.Nodes[d].Start})
				}
			case parser.KindFunctionDefinition:
				if name := declaredName(f, f.Field(d, parser.FieldDeclarator)); name != "" {
					c.Members = append(c.Members, ClassMember{Name: name, Method: true, Node: d, At: f.Nodes[d].Start})
				}
			}
		}
	}
	return cs
}

// get returns the class called name, making an empty one when the file
// has not declared it. It returns nil for an empty name.
func (cs classes) get(name string) *Class {
	if name == "" || cs.byName == nil {
		return nil
	}
	c := cs.byName[name]
	if c == nil {
		c = &Class{Name: name, Node: parser.None}
		cs.byName[name] = c
	}
	return c
}

// staticInstance marks the class of a static local or a namespace-scope
// variable as a singleton.
func (cs classes) staticInstance(f *parser.File, d parser.NodeID) {
	static := false
	for c := range f.Children(d) {
		if f.Nodes[c].Field == parser.FieldNone && f.Text(c) == "static" {
			static = true
		}
	}
	if !static {
		switch f.Kind(f.Nodes[d].Parent) {
		case parser.KindTranslationUnit, parser.KindDeclarationList:
		default:
			return
		}
	}
	typ := f.Field(d, parser.FieldType)
	switch f.Kind(typ) {
	case parser.KindTypeIdentifier, parser.KindQualifiedIdentifier:
	default:
		return
	}
	for c := range f.Children(d) {
		if f.Nodes[c].Field != parser.FieldDeclarator {
			continue
		}
		if x := c; f.Kind(x) == parser.KindInitDeclarator {
			c = f.Field(x, parser.FieldDeclarator)
		}
		if k := f.Kind(c); k == parser.KindFunctionDeclarator || k == parser.KindReferenceDeclarator {
			return
		}
		if cl := cs.byName[className(f.Text(typ))]; cl != nil {
			cl.Singleton = true
		} else if cl := cs.get(className(f.Text(typ))); cl != nil {
			cl.Singleton = true
		}
		return
	}
}

// outOfLine records a function defined outside a class body: X::f adds
// the method f to class X, a plain f is a free function.
func (cs classes) outOfLine(f *parser.File, def parser.NodeID) {
	if enclosingClass(f, def) != "" {
		return
	}
	d := f.Field(def, parser.FieldDeclarator)
	for depth := 0; d != parser.None && f.Kind(d) != parser.KindFunctionDeclarator && depth < maxDepth; depth++ {
		d = f.Field(d, parser.FieldDeclarator)
	}
	if d == parser.None {
		return
	}
	name := collapse(f.Text(f.Field(d, parser.FieldDeclarator)))
	i := strings.LastIndex(name, "::")
	if i < 0 {
		cs.free[name] = true
		return
	}
	c := cs.get(className(name[:i]))
	if c == nil || c.Member(name[i+2:]) != nil {
		return
	}
	c.Members = append(c.Members, ClassMember{Name: name[i+2:], Method: true, Node: def, At: f.Nodes[def].Start})
}

// className reduces "ns::Outer<T>::Inner<U>" to "Inner".
func className(s string) string {
	s = stripTemplateArgs(collapse(s))
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimSpace(s)
}

// fieldDeclaration adds the members one field_declaration declares.
func (c *Class) fieldDeclaration(f *parser.File, m *apimodel.Model, d parser.NodeID) {
	static := false
	for ch := range f.Children(d) {
		if f.Nodes[ch].Field == parser.FieldNone && f.Text(ch) == "static" {
			static = true
		}
	}
	typ := f.Field(d, parser.FieldType)
	for ch := range f.Children(d) {
		if f.Nodes[ch].Field != parser.FieldDeclarator {
			continue
		}
		ptr, ref, fn := false, false, false
		x := ch
	walk:
		for depth := 0; x != parser.None && depth < maxDepth; depth++ {
			switch f.Kind(x) {
			case parser.KindPointerDeclarator:
				ptr = true
			case parser.KindReferenceDeclarator:
				ref = true
			case parser.KindFunctionDeclarator:
				fn = true
			case parser.KindFieldIdentifier, parser.KindIdentifier:
				break walk
			case parser.KindArrayDeclarator, parser.KindInitDeclarator:
			default:
				x = parser.None
				break walk
			}
			next := f.Field(x, parser.FieldDeclarator)
			if next == parser.None {
				for c := range f.NamedChildren(x) {
					next = c
				}
			}
			x = next
		}
		if x == parser.None {
			continue
		}
		name := f.Text(x)
		if fn {
			c.Members = append(c.Members, ClassMember{Name: name, Method: true, Node: x, At: f.Nodes[x].Start})
			continue
		}
		primitive := f.Kind(typ) == parser.KindPrimitiveType || f.Kind(typ) == parser.KindSizedTypeSpecifier
		raw := f.Text(typ)
		t := classify(m, raw, ptr, ref, primitive, name)
		switch {
		case ptr:
			t.text += "*"
		case ref:
			t.text += "&"
		}
		c.Members = append(c.Members, ClassMember{
			Name: name, Type: t.text, Base: t.base, Kind: t.kind, Static: static,
			Stream: isStreamType(m, raw), Node: x, At: f.Nodes[x].Start,
		})
	}
}

// declaredName returns the name a function declarator declares.
func declaredName(f *parser.File, d parser.NodeID) string {
	for depth := 0; d != parser.None && depth < maxDepth; depth++ {
		switch f.Kind(d) {
		case parser.KindFieldIdentifier, parser.KindIdentifier, parser.KindDestructorName, parser.KindOperatorName:
			return f.Text(d)
		}
		next := f.Field(d, parser.FieldDeclarator)
		if next == parser.None {
			return ""
		}
		d = next
	}
	return ""
}

// isStreamType reports whether a type as written is a stream, a queue or a
// device state, directly, as id<Protocol>, or inside a smart pointer or a
// container.
func isStreamType(m *apimodel.Model, text string) bool {
	t := collapse(text)
	for depth := 0; depth < 4 && t != ""; depth++ {
		t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(t), "*"), "&")
		base, args := splitTemplate(t)
		base = stripQualifiers(base)
		if m.IsStream(base) {
			return true
		}
		if args == "" || !(base == "id" || m.IsSmartPtr(base) || m.IsContainer(base) || strings.HasSuffix(base, "optional")) {
			return false
		}
		t = cxxtype.FirstArg(args)
	}
	return false
}

// thisUse records a use of member name (or of "this") by the function
// being built. In a lambda it is a capture of this: an implicit one when
// the lambda has a default capture and did not name this, recorded once
// in the enclosing function.
func (b *builder) thisUse(n parser.NodeID, name string) {
	c := b.fn.Class
	var mem *ClassMember
	if name != "this" {
		mem = c.Member(name)
		switch {
		case mem != nil && mem.Static:
			return
		case mem == nil && (c == nil || c.Node != parser.None || !b.namesThis() || b.classes.free[name] || isMacroName(name)):
			// Unknown names are members only in a lambda that captures
			// this explicitly, of a class declared in another file.
			return
		}
	} else if c == nil {
		return
	}
	call := b.f.Nodes[n].Field == parser.FieldFunction
	b.fn.ThisUses = append(b.fn.ThisUses, ThisUse{Name: name, Node: n, At: b.at(n), Member: mem, Call: call})
	b.capturesThis(n)
}

// namesThis reports whether the lambda being built, or one it is written
// in, names this in its capture list.
func (b *builder) namesThis() bool {
	for lb := b; lb != nil && lb.parent != nil; lb = lb.parent {
		if lb.thisExplicit {
			return true
		}
	}
	return false
}

// capturesThis records that the lambda being built reaches this, and
// that each enclosing lambda without an explicit capture of this does too.
func (b *builder) capturesThis(n parser.NodeID) {
	for lb := b; lb.parent != nil && !lb.thisCaptured; lb = lb.parent {
		lb.thisCaptured = true
		if lb.fn.Default == 0 {
			return
		}
		lb.parent.emit(Event{Kind: Capture, Node: n, Var: NoVar, Other: NoVar, Owner: NoVar, Call: "this", Flags: CapThis | Implicit, Lambda: lb.fn})
	}
}

// memberType returns what an expression naming a member (x_, this->x_)
// says about its type, for init-captures copied from members.
func (b *builder) memberType(n parser.NodeID) (typeInfo, bool) {
	n = b.strip(n)
	switch b.kind(n) {
	case parser.KindIdentifier:
		if b.lookup(b.text(n), n) != NoVar {
			return typeInfo{}, false
		}
	case parser.KindFieldExpression:
		if b.kind(b.f.Field(n, parser.FieldArgument)) != parser.KindThis {
			return typeInfo{}, false
		}
		n = b.f.Field(n, parser.FieldField)
	default:
		return typeInfo{}, false
	}
	mem := b.fn.Class.Member(b.text(n))
	if mem == nil || mem.Method {
		return typeInfo{}, false
	}
	return typeInfo{text: mem.Type, base: mem.Base, kind: mem.Kind}, true
}

// textLabel says what an event's Text is, for Dump.
var textLabel = map[EventKind]string{Free: "frees", Construct: "of", Callback: "on",
	Materialise: "input", Defaulted: "leaves", Use: "member", Move: "member", Wait: "member",
	Return: "member", Store: "member"}

// marks lists, for Dump, what a value's type or origin says beyond its kind.
func (v *Var) marks() string {
	var s string
	for _, m := range []struct {
		on   bool
		text string
	}{{v.Captured, "captured"}, {v.Stream && !v.SideStream, "stream"}, {v.SideStream, "side-stream"}, {v.SelfRef, "self-ref"}, {v.Weak, "weak"}} {
		if m.on {
			s += ", " + m.text
		}
	}
	return s
}

// dumpClass writes, for Dump, the class of a method: its data members and
// the members the body reaches through this.
func (fn *Func) dumpClass(b *strings.Builder, line func(uint32) int) {
	if fn.Class == nil || fn.Kind == LambdaFunc && fn.Parent != nil && fn.Parent.Class == fn.Class && len(fn.ThisUses) == 0 {
		return
	}
	if fn.Kind != LambdaFunc && fn.Class.Node != parser.None {
		b.WriteString("  class " + fn.Class.Name + "\n")
		for _, m := range fn.Class.Members {
			if m.Method {
				continue
			}
			fmt.Fprintf(b, "    member %s : %s (%s", m.Name, m.Type, m.Kind)
			if m.Stream {
				b.WriteString(", stream")
			}
			if m.Static {
				b.WriteString(", static")
			}
			b.WriteString(")\n")
		}
	}
	for _, u := range fn.ThisUses {
		fmt.Fprintf(b, "  %4d  this        %s\n", line(u.At), u.Name)
	}
}

// isMacroName reports whether a name is written like a macro: upper case
// letters, digits and underscores.
func isMacroName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
