//go:build cgo

package parser

import (
	"bytes"
	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"strings"
)

// Namespace returns the named namespaces enclosing node n, outermost
// first, joined by "::" ("" at global scope). An inline namespace adds
// nothing: its members are members of the namespace around it
// ([namespace.def]). local says an unnamed namespace encloses n: what it
// declares has internal linkage, and no other translation unit can name
// it ([basic.link]).
func (f *File) Namespace(n NodeID) (ns string, local bool) {
	if n < 0 {
		return "", false
	}
	var parts []string
	for m := f.Nodes[n].Parent; m != None; m = f.Nodes[m].Parent {
		if f.Nodes[m].Kind != KindNamespaceDefinition {
			continue
		}
		name := f.Field(m, FieldName)
		switch {
		case name == None:
			local = true
		case bytes.HasPrefix(f.Bytes(m), []byte("inline")):
		default:
			parts = append(parts, strings.ReplaceAll(f.Text(name), " ", ""))
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "::"), local
}

// Usings returns what the file's using-directives (using namespace a::b;)
// and using-declarations (using a::b::f;) name, wherever they are, as
// written without a leading "::": namespaces and qualified names.
func (f *File) Usings() (namespaces, names []string) {
	for i := range f.Nodes {
		if f.Nodes[i].Kind != KindUsingDeclaration {
			continue
		}
		id := NodeID(i)
		target := None
		directive := false
		for c := range f.Children(id) {
			switch {
			case !f.Nodes[c].Named && f.Text(c) == "namespace":
				directive = true
			case f.Nodes[c].Named && f.Nodes[c].Kind != KindComment && target == None:
				target = c
			}
		}
		if target == None {
			continue
		}
		t := strings.TrimPrefix(strings.Join(strings.Fields(f.Text(target)), ""), "::")
		if directive {
			namespaces = append(namespaces, t)
		} else if strings.Contains(t, "::") {
			names = append(names, t)
		}
	}
	return namespaces, names
}

// Scope returns the scope an unqualified name in the body of function
// definition def is looked up from, as far as namespaces go: the
// namespaces around it, then the qualifier its declarator names (a::B for
// void a::B::f(), defined outside both), joined by "::"
// ([basic.lookup.unqual]). Template arguments are dropped. A lambda, or
// any other node, has the scope of the function definition around it.
func (f *File) Scope(def NodeID) string {
	if def < 0 {
		return ""
	}
	for m := def; m != None; m = f.Nodes[m].Parent {
		if f.Nodes[m].Kind == KindFunctionDefinition {
			def = m
			break
		}
	}
	ns, _ := f.Namespace(def)
	d := f.Field(def, FieldDeclarator)
	for i := 0; d != None && f.Kind(d) != KindFunctionDeclarator && i < 16; i++ {
		d = f.Field(d, FieldDeclarator)
	}
	name := cxxtype.WithoutArgs(strings.Join(strings.Fields(f.Text(f.Field(d, FieldDeclarator))), ""))
	i := strings.LastIndex(name, "::")
	if i <= 0 {
		return ns
	}
	var q []string
	for part := range strings.SplitSeq(strings.TrimPrefix(name[:i], "::"), "::") {
		if part != "" {
			q = append(q, part)
		}
	}
	if strings.HasPrefix(name, "::") || ns == "" {
		return strings.Join(q, "::")
	}
	return ns + "::" + strings.Join(q, "::")
}

// StorageMacro says the file defines name only as an object-like macro
// that expands to storage-class specifiers giving static or thread
// storage duration (#define HALF_THREAD_LOCAL thread_local, and static on
// another branch): a declaration it begins has that storage, as if
// written out. A name also defined otherwise, or not defined here, is not
// one.
func (f *File) StorageMacro(name string) bool {
	f.storageOnce.Do(func() {
		defs := map[string]bool{}
		f.functionMacros = map[string]bool{}
		for i := range f.Nodes {
			n := NodeID(i)
			if f.Nodes[i].Kind == KindPreprocFunctionDef {
				if id := f.Field(n, FieldName); id != None {
					f.functionMacros[f.Text(id)] = true
				}
				continue
			}
			if f.Nodes[i].Kind != KindPreprocDef {
				continue
			}
			id, val := f.Field(n, FieldName), f.Field(n, FieldValue)
			if id == None || f.Kind(id) != KindIdentifier || f.Field(n, FieldParameters) != None {
				continue // not an object-like macro
			}
			words := strings.Fields(f.Text(val))
			ok := len(words) > 0
			for _, w := range words {
				switch w {
				case "static", "thread_local", "__thread", "_Thread_local":
				default:
					ok = false
				}
			}
			m := f.Text(id)
			if prev, seen := defs[m]; seen {
				ok = ok && prev
			}
			defs[m] = ok
		}
		f.objectMacros = map[string]bool{}
		for m, ok := range defs {
			f.objectMacros[m] = true
			if !ok {
				delete(defs, m)
			}
		}
		f.storageMacros = defs
	})
	return f.storageMacros[name]
}

// DefinesMacro says the file defines name as an object-like macro.
func (f *File) DefinesMacro(name string) bool {
	f.StorageMacro(name)
	return f.objectMacros[name]
}

// DefinesFunctionMacro says the file defines name as a function-like
// macro: name(args) is then its expansion, whatever else is called name.
func (f *File) DefinesFunctionMacro(name string) bool {
	f.StorageMacro(name)
	return f.functionMacros[name]
}

// MayNameReference says name is a type alias of the file (using, typedef)
// that names a reference type, or an alias template whose type may be
// one once instantiated: a template parameter (template <class T> using
// id = T), or a member type of a type that depends on one
// (typename X<T>::type, decided per specialisation: [temp.dep.type]).
func (f *File) MayNameReference(name string) bool {
	return f.Memo("parser.refAliases", f.refAliases).(map[string]bool)[name]
}

// refAliases reads the aliases MayNameReference answers for.
func (f *File) refAliases() any {
	out := map[string]bool{}
	for i := range f.Nodes {
		n := NodeID(i)
		switch f.Nodes[i].Kind {
		case KindAliasDeclaration:
			if f.aliasMayBeReference(n) {
				out[f.Text(f.Field(n, FieldName))] = true
			}
		case KindTypeDefinition:
			for d := range f.NamedChildren(n) {
				if f.Nodes[d].Field != FieldDeclarator || f.Kind(d) != KindReferenceDeclarator {
					continue
				}
				for id := range f.NamedChildren(d) {
					if f.Kind(id) == KindTypeIdentifier {
						out[f.Text(id)] = true // typedef const T& name
					}
				}
			}
		}
	}
	return out
}

// aliasMayBeReference says alias declaration n names a reference type,
// or, in a template, a type that may be one (see MayNameReference).
func (f *File) aliasMayBeReference(n NodeID) bool {
	desc := f.Field(n, FieldType)
	if d := f.Field(desc, FieldDeclarator); f.Kind(d) == KindAbstractReferenceDeclarator {
		return true
	}
	tmpl := f.Nodes[n].Parent
	if f.Kind(tmpl) != KindTemplateDeclaration {
		return false
	}
	typ := f.Field(desc, FieldType)
	switch f.Kind(typ) {
	case KindDependentType:
		return true
	case KindTypeIdentifier:
		if f.Field(desc, FieldDeclarator) != None {
			return false // T*, T[n]: a pointer or an array, not a reference
		}
		name := f.Text(typ)
		for p := range f.NamedChildren(f.Field(tmpl, FieldParameters)) {
			if f.Kind(p) != KindTypeParameterDeclaration {
				continue
			}
			for id := range f.NamedChildren(p) {
				if f.Kind(id) == KindTypeIdentifier && f.Text(id) == name {
					return true
				}
			}
		}
	}
	return false
}
