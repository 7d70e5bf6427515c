package scan

import "strings"

// declarator is the name of the function a parse note names: what the
// parser took for the function's name can stretch, after a parse error,
// over a return type, the parameters, comments and whole declarations
// ("& operator=(const array& other) && = delete; /** Default copy"). It
// is cut to the name the declarator declares (an identifier, an
// operator, a destructor, a qualified name, with template arguments), or
// when none is found to the first line without comments, and to at most
// 60 characters.
func declarator(text string) string {
	const most = 60
	line := firstLine(stripComments(text))
	name := declaredName(line)
	if name == "" {
		name = line
	}
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return "(unnamed)"
	}
	if r := []rune(name); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return name
}

// stripComments removes /* */ comments (an unclosed one to the end) and
// // comments (to the end of their line).
func stripComments(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexAny(s, "/")
		if i < 0 || i+1 >= len(s) {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		switch s[i+1] {
		case '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			s = s[i+2+end+2:]
		case '/':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return b.String()
			}
			s = s[i+end:]
		default:
			b.WriteByte('/')
			s = s[i+1:]
		}
	}
	return b.String()
}

// firstLine is the first line of s that is not blank.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// notNames are words followed by parentheses that are not a function's
// name.
var notNames = map[string]bool{
	"decltype": true, "sizeof": true, "alignof": true, "alignas": true, "noexcept": true,
	"__attribute__": true, "__declspec": true, "static_assert": true, "throw": true, "requires": true,
	"if": true, "while": true, "for": true, "switch": true, "return": true,
}

// declaredName finds, in one line of a declaration, the name it declares:
// the first name followed by a parameter list, or that ends the line.
func declaredName(s string) string {
	for i := 0; i < len(s); {
		i = skipSpace(s, i)
		if i >= len(s) {
			break
		}
		if !startsName(s, i) {
			i++
			continue
		}
		name, j := qualifiedName(s, i)
		if name == "" {
			i++
			continue
		}
		k := skipSpace(s, j)
		if notNames[name] {
			i = skipParens(s, k)
			continue
		}
		if k == len(s) || s[k] == '(' {
			return name
		}
		i = j
	}
	return ""
}

func startsName(s string, i int) bool {
	return isIdentStart(s[i]) || s[i] == '~' || strings.HasPrefix(s[i:], "::")
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdent(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

func ident(s string, i int) (string, int) {
	j := i
	if j < len(s) && isIdentStart(s[j]) {
		for j < len(s) && isIdent(s[j]) {
			j++
		}
	}
	return s[i:j], j
}

// skipParens skips a balanced (...) at i, if there is one.
func skipParens(s string, i int) int {
	if i >= len(s) || s[i] != '(' {
		return i
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// qualifiedName reads a name at i, "ns::Pool<float>::Take", "~Stream",
// "operator=", "Foo::operator bool", and returns it with where it ends.
func qualifiedName(s string, i int) (string, int) {
	var b strings.Builder
	j := i
	if strings.HasPrefix(s[j:], "::") {
		b.WriteString("::")
		j += 2
	}
	for {
		part, k := namePart(s, j)
		if part == "" {
			// "ns::" followed by no name: the name is what came before.
			return strings.TrimSuffix(b.String(), "::"), j
		}
		b.WriteString(part)
		j = k
		if k = skipSpace(s, j); strings.HasPrefix(s[k:], "::") {
			b.WriteString("::")
			j = k + 2
			continue
		}
		return b.String(), j
	}
}

// namePart reads one part of a qualified name: an identifier with its
// template arguments, a destructor's name or an operator's.
func namePart(s string, i int) (string, int) {
	i = skipSpace(s, i)
	tilde := ""
	if i < len(s) && s[i] == '~' {
		tilde, i = "~", skipSpace(s, i+1)
	}
	id, j := ident(s, i)
	if id == "" {
		return "", i
	}
	if id == "operator" && tilde == "" {
		return operatorName(s, j)
	}
	return tilde + id + templateArgs(s, &j), j
}

// operatorName reads what follows "operator" (ending at i): a symbol,
// (), [], new, delete, or a conversion's type.
func operatorName(s string, i int) (string, int) {
	k := skipSpace(s, i)
	for _, sym := range []string{"()", "[]", "->*", "->", "\"\""} {
		if strings.HasPrefix(s[k:], sym) {
			end := k + len(sym)
			if sym == `""` { // a literal operator: operator""_km
				_, end = ident(s, end)
			}
			return "operator" + s[k:end], end
		}
	}
	end := k
	for end < len(s) && strings.IndexByte("+-*/%^&|~!=<>,", s[end]) >= 0 {
		end++
	}
	if end > k {
		return "operator" + s[k:end], end
	}
	// new, delete, new[], or a conversion: operator bool, operator T*.
	word, end := ident(s, k)
	if word == "" {
		return "operator", i
	}
	if word == "new" || word == "delete" {
		if e := skipSpace(s, end); strings.HasPrefix(s[e:], "[]") {
			return "operator " + word + "[]", e + 2
		}
		return "operator " + word, end
	}
	for e := skipSpace(s, end); e < len(s) && s[e] != '('; e = skipSpace(s, e+1) {
		if isIdentStart(s[e]) {
			_, e = ident(s, e)
			e--
		} else if strings.IndexByte("*&:<>,", s[e]) < 0 {
			break
		}
		end = e + 1
	}
	return "operator " + strings.Join(strings.Fields(s[k:end]), " "), end
}

// templateArgs reads balanced <...> at *i, if there are any and they look
// like template arguments, and advances *i past them.
func templateArgs(s string, i *int) string {
	k := skipSpace(s, *i)
	if k >= len(s) || s[k] != '<' {
		return ""
	}
	depth := 0
	for j := k; j < len(s) && j-k < 120; j++ {
		switch s[j] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				*i = j + 1
				return strings.Join(strings.Fields(s[k:j+1]), " ")
			}
		case ';', '{', '}', '=':
			return ""
		}
	}
	return ""
}
