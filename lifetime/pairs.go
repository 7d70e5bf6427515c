package lifetime

import (
	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// This file finds {future, hold} pairs: structs with a future member and a
// member whose only job is to keep buffers alive until the future is done
// (std::shared_ptr<void>, a hold-named smart pointer), std::pair of the
// two, and functions (constructors, mostly) that take a future and a hold
// parameter whose default holds nothing. The model marks values of pair
// type (Var.PairFuture, Var.PairHold), names the member each Use and Move
// of such a value touches (Event.Text), and records a Defaulted event
// where a constructor is called without its hold.

// HoldDefault is a hold parameter, next to a future parameter, with a
// default value.
type HoldDefault struct {
	Func    string // the function's own name; a constructor's is its class's
	Param   string // the hold parameter
	Future  string // the future parameter
	Index   int    // the hold parameter's position
	Default string // as written
	Node    parser.NodeID
	At      uint32
}

// fileSigs is what a file's function declarators say about pairs.
type fileSigs struct {
	defaults []HoldDefault
	// returns maps a function's own name to its declared return type,
	// for functions that return a {future, hold} struct.
	returns map[string]string
}

// HoldDefaults returns the defaulted hold parameters a file declares, in
// source order.
func HoldDefaults(f *parser.File, m *apimodel.Model) []HoldDefault {
	return scanSigs(f, m, nil).defaults
}

// pairRecord is a struct or class with a future member and a hold member.
type pairRecord struct{ future, hold string }

// pairRecords returns the file's {future, hold} structs by name.
func pairRecords(f *parser.File, m *apimodel.Model) map[string]pairRecord {
	var out map[string]pairRecord
	for i := range f.Nodes {
		k := f.Nodes[i].Kind
		if k != parser.KindClassSpecifier && k != parser.KindStructSpecifier {
			continue
		}
		n := parser.NodeID(i)
		body := f.Field(n, parser.FieldBody)
		if body == parser.None || f.Kind(body) != parser.KindFieldDeclarationList {
			continue
		}
		var r pairRecord
		for d := range f.NamedChildren(body) {
			if f.Kind(d) != parser.KindFieldDeclaration {
				continue
			}
			name, t, ok := fieldType(f, m, d)
			if !ok {
				continue
			}
			switch {
			case t.kind == Future && r.future == "":
				r.future = name
			case r.hold == "" && isHoldType(m, t, name):
				r.hold = name
			}
		}
		if r.future != "" && r.hold != "" {
			if out == nil {
				out = map[string]pairRecord{}
			}
			out[className(f.Text(f.Field(n, parser.FieldName)))] = r
		}
	}
	return out
}

// fieldType reads a data member declaration with one declarator: its
// name and type. Static members and member functions are left out.
func fieldType(f *parser.File, m *apimodel.Model, d parser.NodeID) (string, typeInfo, bool) {
	for c := range f.Children(d) {
		if f.Nodes[c].Field == parser.FieldNone && f.Text(c) == "static" {
			return "", typeInfo{}, false
		}
	}
	x := f.Field(d, parser.FieldDeclarator)
	ptr, ref := false, false
	for depth := 0; x != parser.None && depth < 16; depth++ {
		switch f.Kind(x) {
		case parser.KindPointerDeclarator:
			ptr = true
		case parser.KindReferenceDeclarator:
			ref = true
		case parser.KindFieldIdentifier, parser.KindIdentifier:
			typ := f.Field(d, parser.FieldType)
			primitive := f.Kind(typ) == parser.KindPrimitiveType || f.Kind(typ) == parser.KindSizedTypeSpecifier
			return f.Text(x), classify(m, f.Text(typ), ptr, ref, primitive, f.Text(x)), true
		case parser.KindFunctionDeclarator:
			return "", typeInfo{}, false
		}
		next := f.Field(x, parser.FieldDeclarator)
		if next == parser.None {
			for c := range f.NamedChildren(x) {
				next = c
			}
		}
		x = next
	}
	return "", typeInfo{}, false
}

// scanSigs reads every function declarator of a file.
func scanSigs(f *parser.File, m *apimodel.Model, recs map[string]pairRecord) fileSigs {
	var out fileSigs
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.KindFunctionDeclarator {
			continue
		}
		d := parser.NodeID(i)
		name := funcOwnName(f, d)
		if name == "" {
			continue
		}
		out.defaults = append(out.defaults, holdDefaults(f, m, d, name)...)
		if typ := declaredType(f, d); typ != "" {
			if _, ok := recs[className(typ)]; ok {
				if out.returns == nil {
					out.returns = map[string]string{}
				}
				out.returns[name] = className(typ)
			}
		}
	}
	return out
}

// funcOwnName returns the unqualified name a function declarator
// declares ("WorkTpu" for WorkTpu::WorkTpu).
func funcOwnName(f *parser.File, d parser.NodeID) string {
	name := collapse(f.Text(f.Field(d, parser.FieldDeclarator)))
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	name = stripTemplateArgs(name)
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return name
}

// declaredType returns the return type written before a function
// declarator, or "".
func declaredType(f *parser.File, d parser.NodeID) string {
	p := f.Nodes[d].Parent
	for depth := 0; p != parser.None && depth < 8; depth++ {
		switch f.Kind(p) {
		case parser.KindFunctionDefinition, parser.KindDeclaration, parser.KindFieldDeclaration:
			return collapse(f.Text(f.Field(p, parser.FieldType)))
		case parser.KindPointerDeclarator, parser.KindReferenceDeclarator:
			return ""
		}
		p = f.Nodes[p].Parent
	}
	return ""
}

// holdDefaults returns the hold parameters of declarator d that have a
// default, when d also takes a future.
func holdDefaults(f *parser.File, m *apimodel.Model, d parser.NodeID, name string) []HoldDefault {
	params := f.Field(d, parser.FieldParameters)
	if params == parser.None {
		return nil
	}
	hasDefault := false
	for p := range f.NamedChildren(params) {
		if f.Kind(p) == parser.KindOptionalParameterDeclaration {
			hasDefault = true
		}
	}
	if !hasDefault {
		return nil
	}
	future := ""
	var holds []HoldDefault
	i := 0
	for p := range f.NamedChildren(params) {
		k := f.Kind(p)
		if k != parser.KindParameterDeclaration && k != parser.KindOptionalParameterDeclaration {
			continue
		}
		pname, t := paramType(f, m, p)
		switch {
		case t.kind == Future:
			if future == "" {
				future = pname
			}
		case k == parser.KindOptionalParameterDeclaration && isHoldType(m, t, pname):
			holds = append(holds, HoldDefault{Func: name, Param: pname, Index: i,
				Default: collapse(f.Text(f.Field(p, parser.FieldDefaultValue))), Node: p, At: f.Nodes[p].Start})
		}
		i++
	}
	if future == "" {
		return nil
	}
	for j := range holds {
		holds[j].Future = future
	}
	return holds
}

// paramType reads a parameter declaration's name and type.
func paramType(f *parser.File, m *apimodel.Model, p parser.NodeID) (string, typeInfo) {
	ptr, ref := false, false
	d := f.Field(p, parser.FieldDeclarator)
	name := ""
	for depth := 0; d != parser.None && depth < 16; depth++ {
		switch f.Kind(d) {
		case parser.KindPointerDeclarator, parser.KindAbstractPointerDeclarator:
			ptr = true
		case parser.KindReferenceDeclarator, parser.KindAbstractReferenceDeclarator:
			ref = true
		case parser.KindIdentifier:
			name = f.Text(d)
		}
		next := f.Field(d, parser.FieldDeclarator)
		if next == parser.None {
			for c := range f.NamedChildren(d) {
				next = c
			}
		}
		d = next
	}
	typ := f.Field(p, parser.FieldType)
	primitive := f.Kind(typ) == parser.KindPrimitiveType || f.Kind(typ) == parser.KindSizedTypeSpecifier
	return name, classify(m, f.Text(typ), ptr && !ref, ref, primitive, name)
}

// isHoldType reports whether a value of type t called name exists to keep
// things alive: a smart pointer to void, or a hold-named owner.
func isHoldType(m *apimodel.Model, t typeInfo, name string) bool {
	if t.kind == Container {
		return t.hold
	}
	if t.kind != Owner {
		return false
	}
	_, args := splitTemplate(t.text)
	arg := strings.TrimSpace(cxxtype.FirstArg(args))
	if m.IsSmartPtr(t.base) && (arg == "void" || arg == "const void") {
		return true
	}
	return m.IsHoldName(name) && (m.IsSmartPtr(t.base) || t.base == "std::any" || t.base == "any")
}

// pairOfType returns the future and hold parts of a value of type typ
// (as written, base without template arguments).
func pairOfType(m *apimodel.Model, recs map[string]pairRecord, typ, base string) (future, hold string) {
	if r, ok := recs[className(base)]; ok {
		return r.future, r.hold
	}
	if b := stripQualifiers(base); b != "std::pair" && b != "pair" {
		return "", ""
	}
	_, args := splitTemplate(typ)
	first := cxxtype.FirstArg(args)
	second := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(args[len(first):]), ","))
	ft := classify(m, first, false, false, false, "")
	st := classify(m, second, false, false, false, "")
	if ft.kind == Future && isHoldType(m, st, "") {
		return "first", "second"
	}
	if st.kind == Future && isHoldType(m, ft, "") {
		return "second", "first"
	}
	return "", ""
}

// annotatePairs marks the pair values of every function of a file, the
// members their events touch, and constructor calls that leave a hold
// parameter at its default.
func annotatePairs(f *parser.File, m *apimodel.Model, funcs []*Func) {
	sigs := fileSigs{}
	scanned := false
	var recs map[string]pairRecord
	scan := func() {
		if !scanned {
			recs = pairRecords(f, m)
			sigs, scanned = scanSigs(f, m, recs), true
		}
	}
	for _, fn := range funcs {
		constructs := false
		for i := range fn.Events {
			if fn.Events[i].Kind == Construct {
				constructs = true
				break
			}
		}
		if constructs {
			scan()
			if len(sigs.defaults) > 0 {
				fn.Events = insertDefaulted(f, fn.Events, sigs.defaults)
			}
		}
		for v := range fn.Vars {
			x := &fn.Vars[v]
			if x.Kind == Plain && x.Base != "auto" || x.Outer != NoVar {
				continue
			}
			scan()
			fut, hold := pairOfType(m, recs, x.Type, x.Base)
			if fut == "" && x.Base == "auto" {
				if typ := returnedPair(f, fn, VarID(v), sigs.returns); typ != "" {
					fut, hold = recs[typ].future, recs[typ].hold
				}
			}
			if fut == "" {
				continue
			}
			x.PairFuture, x.PairHold = fut, hold
			for i := range fn.Events {
				e := &fn.Events[i]
				if e.Text != "" {
					continue
				}
				switch {
				case e.Var == VarID(v) && (e.Kind == Use || e.Kind == Move || e.Kind == Wait || e.Kind == Callback || e.Kind == Return):
					e.Text = memberTouched(f, e.Node, x.Name)
				case e.Other == VarID(v) && e.Kind == Store:
					e.Text = memberTouched(f, e.Node, x.Name)
				}
			}
		}
	}
}

// returnedPair returns the pair struct that v holds when v is initialised
// from a call of a function declared to return one.
func returnedPair(f *parser.File, fn *Func, v VarID, returns map[string]string) string {
	if len(returns) == 0 {
		return ""
	}
	name := initCallee(f, fn.Vars[v].Decl)
	if j := strings.LastIndex(name, "::"); j >= 0 {
		name = name[j+2:]
	}
	return returns[name]
}

// initCallee returns the name of the function whose call initialises the
// declarator d (auto r = Start(t);), or "".
func initCallee(f *parser.File, d parser.NodeID) string {
	p := f.Nodes[d].Parent
	if p == parser.None || f.Kind(p) != parser.KindInitDeclarator {
		return ""
	}
	call := f.Field(p, parser.FieldValue)
	if call == parser.None || f.Kind(call) != parser.KindCallExpression {
		return ""
	}
	fn := f.Field(call, parser.FieldFunction)
	switch f.Kind(fn) {
	case parser.KindFieldExpression:
		fn = f.Field(fn, parser.FieldField)
	case parser.KindTemplateFunction:
		fn = f.Field(fn, parser.FieldName)
	}
	return stripTemplateArgs(collapse(f.Text(fn)))
}

// memberTouched returns the member of value name that the expression at
// node n reaches: n is the identifier in name.f, the expression name.f.g,
// or a call whose first argument is one (std::move(name.f)).
func memberTouched(f *parser.File, n parser.NodeID, name string) string {
	if n == parser.None {
		return ""
	}
	switch f.Kind(n) {
	case parser.KindReturnStatement:
		for a := range f.NamedChildren(n) {
			return memberTouched(f, a, name)
		}
		return ""
	case parser.KindAssignmentExpression:
		return memberTouched(f, f.Field(n, parser.FieldRight), name)
	case parser.KindCallExpression:
		for a := range f.NamedChildren(f.Field(n, parser.FieldArguments)) {
			return memberTouched(f, a, name)
		}
		return ""
	case parser.KindIdentifier:
		p := f.Nodes[n].Parent
		if p != parser.None && f.Kind(p) == parser.KindFieldExpression && f.Nodes[n].Field == parser.FieldArgument {
			return f.Text(f.Field(p, parser.FieldField))
		}
		return ""
	}
	// Walk down to the root identifier; the member is the field right
	// above it.
	for depth := 0; n != parser.None && depth < 32; depth++ {
		switch f.Kind(n) {
		case parser.KindFieldExpression:
			arg := f.Field(n, parser.FieldArgument)
			if f.Kind(arg) == parser.KindIdentifier && f.Text(arg) == name {
				return f.Text(f.Field(n, parser.FieldField))
			}
			n = arg
		case parser.KindParenthesizedExpression, parser.KindPointerExpression, parser.KindSubscriptExpression, parser.KindCastExpression:
			next := f.Field(n, parser.FieldArgument)
			if next == parser.None {
				next = f.Field(n, parser.FieldValue)
			}
			if next == parser.None {
				for c := range f.NamedChildren(n) {
					next = c
				}
			}
			n = next
		default:
			return ""
		}
	}
	return ""
}

// insertDefaulted adds, after each Construct of a type whose constructor
// has a defaulted hold parameter the call does not reach, a Defaulted
// event naming that parameter.
func insertDefaulted(f *parser.File, events []Event, defaults []HoldDefault) []Event {
	found := false
	for _, e := range events {
		if e.Kind == Construct && defaultedBy(f, e, defaults) != nil {
			found = true
			break
		}
	}
	if !found {
		return events
	}
	out := make([]Event, 0, len(events)+2)
	for _, e := range events {
		out = append(out, e)
		if e.Kind != Construct {
			continue
		}
		if d := defaultedBy(f, e, defaults); d != nil {
			out = append(out, Event{Kind: Defaulted, Node: e.Node, At: e.At, Scope: e.Scope, Var: e.Var,
				Other: NoVar, Owner: NoVar, Call: d.Func, Flags: e.Flags, Text: d.Param})
		}
	}
	return out
}

// defaultedBy returns the defaulted hold parameter a Construct leaves
// out, or nil.
func defaultedBy(f *parser.File, e Event, defaults []HoldDefault) *HoldDefault {
	typ := className(e.Text)
	n := constructArgs(f, e.Node)
	for i := range defaults {
		if d := &defaults[i]; d.Func == typ && n >= 0 && n <= d.Index {
			return d
		}
	}
	return nil
}

// constructArgs counts the arguments of a construction node: a call
// (make_shared<T>(args)), new T(args), or an argument or initializer list;
// -1 when the node is none of these.
func constructArgs(f *parser.File, n parser.NodeID) int {
	var list parser.NodeID
	switch f.Kind(n) {
	case parser.KindCallExpression, parser.KindNewExpression:
		list = f.Field(n, parser.FieldArguments)
		if list == parser.None {
			return 0
		}
	case parser.KindArgumentList, parser.KindInitializerList, parser.KindParameterList:
		list = n
	default:
		return -1
	}
	count := 0
	for c := range f.NamedChildren(list) {
		if f.Kind(c) != parser.KindComment {
			count++
		}
	}
	return count
}

// pairMarks lists, for Dump, a parameter's default and a pair value's
// parts.
func (v *Var) pairMarks() string {
	var s string
	if v.Default != "" {
		s += ", default " + v.Default
	}
	if v.FromCall {
		s += ", from-call"
	}
	if v.Const {
		s += ", const"
	}
	if v.PairFuture != "" {
		s += ", pair of future " + v.PairFuture + " and hold " + v.PairHold
	}
	return s
}

// declaredConst reports whether a declaration (or parameter declaration)
// carries a const qualifier beside its type.
func declaredConst(f *parser.File, decl parser.NodeID) bool {
	for c := range f.Children(decl) {
		if f.Kind(c) == parser.KindTypeQualifier && f.Text(c) == "const" {
			return true
		}
	}
	return false
}
