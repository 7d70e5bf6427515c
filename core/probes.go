package core

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// Classes split over files. A method defined outside its class in a file
// that does not define the class (C::m in c.cc, class C in c.h) uses data
// members the file cannot type: what it keeps, frees, sets or reads of
// them depends on whether a member is a pointer, a reference, an owning
// smart pointer or a container. Such a method's facts are computed once
// for every member type that answers those questions differently (the
// probes below), every name its body may take for a member being given
// that type, and kept under "(?N key)" entries (N: the probe). Where the
// class's definition is known (the tree's facts merged with the file's:
// FileMembers), resolveProbes keeps for each entry the probe of its
// member's declared type and drops the names that are no data member of
// the class. A file's summary so stays its own (it depends on no other
// file), and a header's class is read with its sources' methods.

// probes are member types, one for every answer the method facts ask of
// a member's type (see probeSig).
var probes = [...]string{
	"T*", "const T*", "T&", "std::unique_ptr<T>", "std::shared_ptr<T>",
	"std::vector<T>", "std::vector<T*>", "absl::Span<T>", "T", "T[]",
}

// probeSig is what the method facts ask of a member's declared type:
// whether it is a pointer (to non-const, non-character data), a
// reference, an array, an owner of memory a new value replaces, what a
// parameter stored in it keeps, and whether it is a container (what an
// aggregate put into it keeps: see storedParams, handedAway,
// destroyedMembers, derivedFacts).
func probeSig(typ string) string {
	typ = strings.TrimSpace(typ)
	b := func(v bool) byte {
		if v {
			return '1'
		}
		return '0'
	}
	ptr := strings.HasSuffix(typ, "*")
	ref := strings.HasSuffix(typ, "&")
	k := classify(strings.TrimSuffix(typ, "[]"))
	owning := !ptr && !ref && (k == tUnique || k == tStorage)
	fam, el := containerOf(typ)
	keepsOne := ptr || ref || classify(typ) == tView
	keepsMany := !keepsOne && fam != famNone && (el == tPointer || el == tView)
	strict := ptr && !strings.HasPrefix(typ, "const ") && !strings.Contains(typ, "char")
	return string([]byte{b(ptr), b(ref), b(strings.HasSuffix(typ, "[]")), b(owning), b(ownsMemory(typ)), b(keepsOne), b(keepsMany), b(strict), b(fam != famNone)})
}

// probeOf is the probe that answers as typ does (-1: none).
func probeOf(typ string) int {
	sig := probeSig(typ)
	for i, p := range probes {
		if probeSig(p) == sig {
			return i
		}
	}
	return -1
}

// probeFacts records the "(?N key)" facts of method def of a class the
// file does not define (see above), into members.
func (x *exec) probeFacts(def parser.NodeID, method string, members map[string]string) {
	names, calls := x.memberCandidates(def)
	if len(names) == 0 {
		return
	}
	for i, typ := range probes {
		m := map[string]string{}
		for _, n := range names {
			m[n] = typ
		}
		for _, c := range calls {
			m["("+c+")"] = "method"
		}
		x.methodFacts(def, method, m)
		for k, v := range m {
			if probedFact(k) {
				members["(?"+strconv.Itoa(i)+" "+k[1:]] = v
			}
		}
	}
}

// probedFact says a class fact's key is one that depends on the members'
// types (the rest a method's text decides alone).
func probedFact(k string) bool {
	switch {
	case k == "(~)", k == "(~?)", k == "(~!)", k == "(~reads)", k == "(~ureads)", k == "(~calls)", k == "(~rel)", k == "(~via)", k == "(~mcalls)":
		return true
	case strings.HasPrefix(k, "(-"), strings.HasPrefix(k, "(+"), strings.HasPrefix(k, "(<"),
		strings.HasPrefix(k, "(set:"), strings.HasPrefix(k, "(this:"), strings.HasPrefix(k, "(reads:"), strings.HasPrefix(k, "(ureads:"):
		return true
	}
	return false
}

// memberCandidates lists the names method def's body may use for data
// members of its object (identifiers it does not declare, this->m), and
// the unqualified calls that may be of its methods.
func (x *exec) memberCandidates(def parser.NodeID) (names, calls []string) {
	f := x.f
	body := f.Field(def, parser.FieldBody)
	if body == parser.None {
		return nil, nil
	}
	declared := x.declaredNames(def)
	seen := map[string]bool{}
	for j := def; j < f.End(def); j++ {
		var name string
		switch f.Nodes[j].Kind {
		case parser.KindIdentifier:
			p := f.Nodes[j].Parent
			if f.Kind(p) == parser.KindCallExpression && f.Field(p, parser.FieldFunction) == j {
				if c := f.Text(j); !slices.Contains(calls, c) {
					calls = append(calls, c)
				}
				continue
			}
			if f.Nodes[j].Field == parser.FieldDeclarator || f.Kind(p) == parser.KindQualifiedIdentifier {
				continue
			}
			name = f.Text(j)
		case parser.KindFieldIdentifier:
			fe := f.Nodes[j].Parent
			if f.Kind(fe) == parser.KindFieldExpression && f.Kind(f.Field(fe, parser.FieldArgument)) == parser.KindThis || f.Kind(fe) == parser.KindFieldInitializer {
				name = f.Text(j)
			}
		}
		if name == "" || declared[name] || seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
	}
	slices.Sort(names)
	slices.Sort(calls)
	return names, calls
}

// resolveProbes returns facts with its "(?N key)" entries resolved
// against the class's data members (see above): facts itself when there
// is nothing to resolve, or no data member is known (the entries then
// say nothing).
func resolveProbes(facts map[string]string) map[string]string {
	probed := false
	for k := range facts {
		if strings.HasPrefix(k, "(?") {
			probed = true
			break
		}
	}
	if !probed {
		return facts
	}
	out := make(map[string]string, len(facts))
	for k, v := range facts {
		if !strings.HasPrefix(k, "(?") {
			out[k] = v
		}
	}
	if !hasBody(facts) {
		return out
	}
	probe := map[string]int{}
	for k, t := range facts {
		if !strings.HasPrefix(k, "(") {
			probe[k] = probeOf(t)
		}
	}
	resolved := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(facts)) {
		if !strings.HasPrefix(k, "(?") {
			continue
		}
		sp := strings.IndexByte(k, ' ')
		if sp < 0 {
			continue
		}
		i, err := strconv.Atoi(k[2:sp])
		if err != nil {
			continue
		}
		key := "(" + k[sp+1:]
		if _, ok := resolved[key]; !ok {
			resolved[key] = nil
		}
		for _, e := range strings.Split(facts[k], ",") {
			if keepProbed(facts, probe, key, e, i) && !slices.Contains(resolved[key], e) {
				resolved[key] = append(resolved[key], e)
			}
		}
	}
	for key, es := range resolved {
		slices.Sort(es)
		switch {
		case len(es) > 0:
			out[key] = strings.Join(es, ",")
		case key == "(~reads)" || key == "(~ureads)" || strings.HasPrefix(key, "(set:") || strings.HasPrefix(key, "(reads:") || strings.HasPrefix(key, "(ureads:"):
			// Known, and none.
			out[key] = "-"
		case key == "(~calls)" || strings.HasPrefix(key, "(this:"):
			if _, ok := out[key]; !ok {
				out[key] = ""
			}
		}
	}
	SettleOverloads(out)
	return out
}

// keepProbed says entry e of fact key, computed with probe i, holds for
// the class: it names a data member whose type is of probe i (or, for a
// method's calls, a method the class has).
func keepProbed(facts map[string]string, probe map[string]int, key, e string, i int) bool {
	switch {
	case e == "-" || e == "*" || e == "!":
		return i == 0
	case key == "(~calls)" || strings.HasPrefix(key, "(this:"):
		return i == 0 && facts["("+e+")"] != ""
	case key == "(~mcalls)":
		// m.meth: the data member m the destructor calls meth on.
		e, _, _ = strings.Cut(e, ".")
	case strings.HasPrefix(key, "(<"):
		if strings.HasPrefix(e, "fwd:") {
			return i == 0
		}
		if rest, ok := strings.CutPrefix(e, "agg:"); ok {
			// agg:T/N:m[]:...: the member m it names.
			parts := strings.SplitN(rest, ":", 3)
			if len(parts) < 2 {
				return false
			}
			e = strings.TrimSuffix(parts[1], "[]")
			break
		}
		j := strings.LastIndexByte(e, ':')
		if j < 0 {
			return false
		}
		e = strings.TrimSuffix(e[j+1:], "[]")
	}
	p, ok := probe[e]
	return ok && p == i
}

// declaredNames lists the names definition def declares: its parameters
// and locals, which hide data members of the same name in its body
// ([basic.scope.hiding]).
func (x *exec) declaredNames(def parser.NodeID) map[string]bool {
	f := x.f
	declared := map[string]bool{}
	for j := def; j < f.End(def); j++ {
		switch f.Nodes[j].Kind {
		case parser.KindParameterDeclaration, parser.KindOptionalParameterDeclaration, parser.KindDeclaration:
			for d := range f.NamedChildren(j) {
				if f.Nodes[d].Field == parser.FieldDeclarator {
					if n, _, _ := x.declName(d); n != "" {
						declared[n] = true
					}
				}
			}
		}
	}
	return declared
}
