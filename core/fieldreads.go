package core

import (
	"slices"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// FieldReads lists, for the parameters of function definition def that
// name an object (a reference, or a pointer, to a class type) and that
// its body only reads fields of, which fields those are: "k:f,g" for
// parameter k (0-based) read as k.f and k->g, "k:" for one it does not
// name at all. A parameter it names in any other way (handed on, its
// address taken, a method called on it, a field assigned or its address
// taken) is not listed: the function may read anything of it. A caller
// that hands such a function an object uses only what those members
// hold (see handOnUnread).
func FieldReads(f *parser.File, def parser.NodeID) []string {
	x := &exec{f: f}
	fd, _ := x.funcDeclarator(def)
	body := f.Field(def, parser.FieldBody)
	if fd == parser.None || body == parser.None || f.Kind(def) != parser.KindFunctionDefinition {
		return nil
	}
	index := map[string]int{}
	k := 0
	for p := range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
		if kind := f.Kind(p); kind != parser.KindParameterDeclaration && kind != parser.KindOptionalParameterDeclaration {
			continue
		}
		name, ptr, ref := x.declName(f.Field(p, parser.FieldDeclarator))
		typ := typeName(f.Text(f.Field(p, parser.FieldType)))
		if name != "" && (ptr || ref) && typ != "" && !arithmetic[typ] && classify(f.Text(f.Field(p, parser.FieldType))) == tPlain {
			index[name] = k
		}
		k++
	}
	if len(index) == 0 {
		return nil
	}
	fields := map[string][]string{}
	for name := range index {
		fields[name] = []string{}
	}
	for j := body; j < f.End(body); j++ {
		if len(fields) == 0 {
			break
		}
		if f.Nodes[j].Kind != parser.KindIdentifier {
			continue
		}
		name := f.Text(j)
		got, ok := fields[name]
		if !ok {
			continue
		}
		if field, ok := x.fieldRead(j); ok {
			fields[name] = append(got, field)
			continue
		}
		delete(fields, name)
	}
	var out []string
	for name, got := range fields {
		slices.Sort(got)
		out = append(out, strconv.Itoa(index[name])+":"+strings.Join(slices.Compact(got), ","))
	}
	slices.Sort(out)
	return out
}

// fieldRead says identifier id is only read through one of its fields:
// the object of a field expression (p.f, p->f) that is not a method
// called, not assigned or stepped, and whose address is not taken; the
// field's name.
func (x *exec) fieldRead(id parser.NodeID) (string, bool) {
	f := x.f
	fe := f.Nodes[id].Parent
	if x.kind(fe) != parser.KindFieldExpression || f.Field(fe, parser.FieldArgument) != id {
		return "", false
	}
	p := f.Nodes[fe].Parent
	switch x.kind(p) {
	case parser.KindCallExpression:
		if f.Field(p, parser.FieldFunction) == fe {
			return "", false // a method of the object
		}
	case parser.KindAssignmentExpression:
		if f.Field(p, parser.FieldLeft) == fe {
			return "", false
		}
	case parser.KindUpdateExpression:
		return "", false
	case parser.KindPointerExpression:
		if strings.HasPrefix(x.text(p), "&") {
			return "", false
		}
	}
	field := f.Field(fe, parser.FieldField)
	if x.kind(field) != parser.KindFieldIdentifier {
		return "", false
	}
	return x.text(field), true
}

// readFields reads FieldReads entries: the fields each listed argument's
// callee reads of it.
func readFields(entries []string) map[int]map[string]bool {
	if len(entries) == 0 {
		return nil
	}
	out := map[int]map[string]bool{}
	for _, e := range entries {
		k, list, ok := strings.Cut(e, ":")
		i, err := strconv.Atoi(k)
		if !ok || err != nil || i < 0 {
			continue
		}
		read := map[string]bool{}
		for _, m := range strings.Split(list, ",") {
			if m != "" {
				read[m] = true
			}
		}
		out[i] = read
	}
	return out
}
