package lifetime

import (
	"github.com/holdfast-dev/holdfast/internal/cxxtype"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
)

// typeInfo is what a declared type says about a value.
type typeInfo struct {
	text        string
	base        string
	kind        VarKind
	elem        string
	elemPointer bool
	hold        bool
}

// classify reads a type as written plus the declarator's pointer and
// reference markers. primitive says the grammar saw a primitive type.
func classify(m *apimodel.Model, text string, ptr, ref, primitive bool, name string) typeInfo {
	t := typeInfo{text: collapse(text)}
	base, args := splitTemplate(t.text)
	base = stripQualifiers(base)
	t.base = base
	switch {
	case ptr:
		t.kind = Pointer
		return t
	case ref:
		t.kind = Reference
		return t
	case primitive || base == "" || base == "auto" || base == "decltype(auto)":
		t.kind = Plain
		return t
	case m.IsFuture(base):
		t.kind = Future
	case m.IsContainer(base):
		t.kind = Container
		t.elem = cxxtype.FirstArg(args)
		t.elemPointer = strings.HasSuffix(t.elem, "*")
		eb, ea := splitTemplate(t.elem)
		eb = stripQualifiers(eb)
		if m.IsSmartPtr(eb) && (ea == "void" || ea == "const void") {
			t.hold = true
		}
		if m.IsHoldName(name) {
			t.hold = true
		}
	case m.IsView(base):
		t.kind = Plain
	default:
		t.kind = Owner
	}
	return t
}

// collapse turns runs of white space into one space and drops spaces next
// to punctuation, so "std::vector< int * >" reads "std::vector<int*>".
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = b.Len() > 0
			continue
		}
		if space {
			prev := b.String()[b.Len()-1]
			if isWord(prev) && isWord(c) {
				b.WriteByte(' ')
			}
			space = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// splitTemplate splits "a::b<c, d>" into "a::b" and "c, d".
func splitTemplate(s string) (base, args string) {
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return s, ""
	}
	j := strings.LastIndexByte(s, '>')
	if j < i {
		return s[:i], ""
	}
	return s[:i], s[i+1 : j]
}

func stripQualifiers(s string) string {
	for _, q := range []string{"const ", "volatile ", "typename ", "struct ", "class ", "mutable ", "constexpr "} {
		s = strings.TrimPrefix(s, q)
	}
	s = strings.TrimSuffix(s, " const")
	return strings.TrimPrefix(strings.TrimSpace(s), "::")
}
