package core

import (
	"bytes"
	"github.com/holdfast-dev/holdfast/apimodel"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

// Calls that never return end the caller's path: what follows them runs
// on no path (C11 _Noreturn, C++ [[noreturn]], GCC's noreturn attribute:
// "the function does not return"). A call never returns when it is
// documented so (summary.Documented), when a declaration of its function
// carries the attribute (spelled out, or through a macro that expands to
// it), when every definition of it ends in such a call with no return
// statement before (each path that does not leave earlier reaches that
// last call), or when it is a function-like macro whose expansion ends so.

// exitEntry is an Exit of a file, and whether only that file sees it (a
// static function or a macro of a source file).
type exitEntry struct {
	summary.Exit
	local bool
}

// headerExts are the extensions of files meant to be included: what they
// define is seen by the files that include them.
var headerExts = map[string]bool{".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".cuh": true, ".inl": true, ".ipp": true, ".tcc": true, "": true}

// noReturnWords are the spellings of the no-return attribute.
var noReturnWords = map[string]bool{"noreturn": true, "_Noreturn": true, "__noreturn__": true}

// fileExits lists what f's functions and macros say of returning, and
// counts the free functions f defines by name (see summary.NoReturns).
func fileExits(f *parser.File, known func(string) bool) (out []exitEntry, defs map[string]int) {
	x := &exec{f: f}
	header := headerExts[f.Ext]
	defs = map[string]int{}
	for i := range f.Nodes {
		n := parser.NodeID(i)
		switch f.Nodes[n].Kind {
		case parser.KindPreprocDef:
			value := f.Text(f.Field(n, parser.FieldValue))
			words := macroWords(value)
			e := summary.Exit{Name: f.Text(f.Field(n, parser.FieldName)), Macro: true}
			nr, returns := false, macroReturns(value)
			if !returns {
				nr, _ = macroEnds(value, nil, known)
			}
			switch {
			case slices.ContainsFunc(words, func(w string) bool { return noReturnWords[w] }):
				e.NoReturn = true
			case nr || returns:
				// A statement macro (#define RETHROW throw, #define DIE
				// abort(), #define BAIL return -1): it ends as its last
				// statement does.
				e.NoReturn, e.Returns = nr, returns
			case len(words) == 1 && strings.TrimSpace(value) == words[0]:
				// #define NORETURN OTHER_NORETURN, #define FAIL FAIL_IMPL:
				// what the other says, of a function or a statement.
				e.Via = words
			default:
				continue
			}
			out = append(out, exitEntry{e, !header})
		case parser.KindPreprocFunctionDef:
			e := summary.Exit{Name: f.Text(f.Field(n, parser.FieldName)), Macro: true}
			value := f.Text(f.Field(n, parser.FieldValue))
			params := macroParams(f, n)
			if k, fail, ok := macroCheck(value, params); ok {
				e.Check = k + 1
				e.NoReturn, e.Via = macroEnds(fail, params, known)
				out = append(out, exitEntry{e, !header})
				continue
			}
			e.NoReturn, e.Via = macroEnds(value, params, known)
			e.Returns = macroReturns(value)
			if r, ok := macroReturnIf(value, params); ok && !e.Returns && !e.NoReturn {
				e.ReturnIf = r.String()
			}
			if !e.Returns && !e.NoReturn {
				e.NotRun = notRunParams(value, params)
			}
			out = append(out, exitEntry{e, !header})
		case parser.KindFieldDeclaration:
			if e, ok := x.methodExit(n); ok {
				out = append(out, exitEntry{e, !header})
			}
		case parser.KindFunctionDefinition, parser.KindDeclaration:
			if f.Ancestor(n, parser.KindFieldDeclarationList) != parser.None {
				if e, ok := x.methodExit(n); ok {
					out = append(out, exitEntry{e, !header})
					continue
				}
			}
			e, static, ok := x.funcExit(n, known)
			if e.Def {
				defs[e.Name]++
			}
			if ok {
				out = append(out, exitEntry{e, static && !header})
			}
		}
	}
	return out, defs
}

// funcExit is what free function declaration or definition n says of
// returning; ok false when it says nothing (or is no such function).
// static: it has internal linkage.
func (x *exec) funcExit(n parser.NodeID, known func(string) bool) (e summary.Exit, static, ok bool) {
	f := x.f
	fd, _ := x.funcDeclarator(n)
	if fd == parser.None || x.kind(fd) != parser.KindFunctionDeclarator {
		return e, false, false
	}
	def := f.Kind(n) == parser.KindFunctionDefinition
	callee := f.Field(fd, parser.FieldDeclarator)
	if x.kind(callee) != parser.KindIdentifier {
		// A method, an operator, a destructor.
		return e, false, false
	}
	e = summary.Exit{Name: f.Text(callee), Def: def}
	if def && f.Ancestor(n, parser.KindFieldDeclarationList) != parser.None || !def && !namespaceScope(f, n) {
		return e, false, false
	}
	marks, static := x.declMarks(n, fd)
	for _, w := range marks {
		if noReturnWords[w] {
			e.NoReturn = true
		} else if w != e.Name && !slices.Contains(e.Via, w) {
			e.Via = append(e.Via, w)
		}
	}
	if def && !e.NoReturn {
		switch nr, call := endsIn(f, n, known); {
		case nr:
			e.NoReturn = true
		case call != "" && !slices.Contains(e.Via, call):
			e.Via = append(e.Via, call)
		}
	}
	if e.NoReturn {
		e.Via = nil
	}
	return e, static, e.NoReturn || len(e.Via) > 0
}

// methodExit is what the declaration or definition n of a method in its
// class's body says of returning: a method declared with the no-return
// attribute ([[noreturn]] static void Fail(const char*);) never returns,
// called as C::Fail(...) or, in the class's methods, as Fail(...). ok
// false when it says nothing of the sort.
func (x *exec) methodExit(n parser.NodeID) (summary.Exit, bool) {
	f := x.f
	fd, _ := x.funcDeclarator(n)
	if fd == parser.None || x.kind(fd) != parser.KindFunctionDeclarator {
		return summary.Exit{}, false
	}
	name := f.Field(fd, parser.FieldDeclarator)
	if k := x.kind(name); k != parser.KindFieldIdentifier && k != parser.KindIdentifier {
		return summary.Exit{}, false
	}
	marks, _ := x.declMarks(n, fd)
	if !slices.ContainsFunc(marks, func(w string) bool { return noReturnWords[w] }) {
		return summary.Exit{}, false
	}
	return summary.Exit{Name: f.Text(name), NoReturn: true}, true
}

// declMarks lists the words around declaration or definition n (of
// function declarator fd) that are neither its type nor its declarator:
// its specifiers and attributes, and the attribute macros blanked before
// the parse (see parser.File.Blanked) from the line before it to the
// line after its parameters. static: one of them is static.
func (x *exec) declMarks(n, fd parser.NodeID) (marks []string, static bool) {
	f := x.f
	nd, typ := f.Nodes[n], f.Field(n, parser.FieldType)
	params := f.Field(fd, parser.FieldParameters)
	if params == parser.None {
		return nil, false
	}
	after, end := f.Nodes[params].End, nd.End
	if body := f.Field(n, parser.FieldBody); body != parser.None {
		end = f.Nodes[body].Start
	}
	add := func(from, to uint32) {
		for _, w := range macroWords(string(f.Src[from:to])) {
			if w == "static" {
				static = true
			}
			if !keywords[w] {
				marks = append(marks, w)
			}
		}
	}
	if typ != parser.None {
		add(nd.Start, f.Nodes[typ].Start)
		add(f.Nodes[typ].End, f.Nodes[fd].Start)
	} else {
		add(nd.Start, f.Nodes[fd].Start)
	}
	add(after, end)
	// void f(...) NORETURN; reads as a declaration missing its semicolon
	// and a statement of one name.
	if next := f.End(n); f.Kind(n) == parser.KindDeclaration && int(next) < len(f.Nodes) && f.Kind(next) == parser.KindExpressionStatement &&
		bytes.IndexByte(f.Src[nd.End:f.Nodes[next].Start], '\n') < 0 {
		if w := strings.TrimSpace(strings.TrimSuffix(f.Text(next), ";")); isWord(w) {
			marks = append(marks, w)
		}
	}
	// From the line before, but not before the end of what precedes.
	lineBefore := bytes.LastIndexByte(f.Src[:nd.Start], '\n')
	if lineBefore > 0 {
		lineBefore = bytes.LastIndexByte(f.Src[:lineBefore], '\n')
	}
	lineBefore = max(lineBefore, bytes.LastIndexAny(f.Src[:nd.Start], ";{}"))
	lineAfter := bytes.IndexByte(f.Src[end:], '\n')
	if lineAfter < 0 {
		lineAfter = len(f.Src) - int(end)
	}
	if semi := bytes.IndexAny(f.Src[end:], ";{"); semi >= 0 && f.Kind(n) == parser.KindDeclaration {
		lineAfter = min(lineAfter, semi)
	}
	for _, w := range f.BlankedIn(uint32(lineBefore+1), f.Nodes[fd].Start) {
		marks = append(marks, w.Name)
	}
	for _, w := range f.BlankedIn(after, end+uint32(lineAfter)) {
		marks = append(marks, w.Name)
	}
	return marks, static
}

// keywords are the C and C++ words a declaration's specifiers may hold
// that name no macro.
var keywords = map[string]bool{"static": true, "inline": true, "extern": true, "const": true, "volatile": true,
	"constexpr": true, "consteval": true, "virtual": true, "explicit": true, "friend": true, "void": true,
	"int": true, "char": true, "long": true, "short": true, "unsigned": true, "signed": true, "bool": true,
	"float": true, "double": true, "auto": true, "noexcept": true, "override": true, "final": true,
	"__attribute__": true, "__declspec": true, "__inline": true, "__inline__": true, "__forceinline": true,
	"throw": true, "struct": true, "class": true, "enum": true, "union": true, "typename": true, "template": true,
	"__host__": true, "__device__": true, "__global__": true}

// endsIn says what function definition def ends in: a throw (nr), or a
// call of a named function (call) with no return statement of def
// anywhere before it, so that every path that does not leave earlier
// reaches it.
func endsIn(f *parser.File, def parser.NodeID, known func(string) bool) (nr bool, call string) {
	body := f.Field(def, parser.FieldBody)
	if body == parser.None {
		return false, ""
	}
	last := parser.None
	for s := range f.NamedChildren(body) {
		if f.Kind(s) != parser.KindComment {
			last = s
		}
	}
	if last == parser.None {
		return false, ""
	}
	for n, end := body, f.End(body); n < end; n++ {
		if k := f.Kind(n); k != parser.KindReturnStatement && k != parser.KindCoReturnStatement {
			continue
		}
		if l := f.Ancestor(n, parser.KindLambdaExpression); l == parser.None || f.Nodes[l].Start < f.Nodes[def].Start {
			return false, ""
		}
	}
	switch f.Kind(last) {
	case parser.KindThrowStatement:
		return true, ""
	case parser.KindExpressionStatement:
		c := parser.None
		for k := range f.NamedChildren(last) {
			c = k
			break
		}
		if f.Kind(c) != parser.KindCallExpression {
			return false, ""
		}
		fn := f.Field(c, parser.FieldFunction)
		if k := f.Kind(fn); k == parser.KindIdentifier || k == parser.KindQualifiedIdentifier {
			name := f.Text(fn)
			return known(name), lastName(name)
		}
	}
	return false, ""
}

// macroStatements is a function-like macro's expansion (value) read as
// statements: the wrappers of statement macros taken off (do { ... }
// while (0), ({ ... }), { ... }, ( ... )) and the line continuations
// joined.
func macroStatements(value string) string {
	s := strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(value, "\\\r\n", " "), "\\\n", " "))
	for {
		t := s
		switch {
		case strings.HasPrefix(s, "do") && (strings.HasSuffix(s, "while (0)") || strings.HasSuffix(s, "while(0)")):
			body := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "while (0)"), "while(0)"))
			body = strings.TrimSpace(strings.TrimPrefix(body, "do"))
			if enclosed(body, '{', '}') {
				s = body[1 : len(body)-1]
			}
		case strings.HasPrefix(s, "({") && strings.HasSuffix(s, "})") && enclosed(s[1:len(s)-1], '{', '}'):
			s = s[2 : len(s)-2]
		case enclosed(s, '{', '}'), enclosed(s, '(', ')'):
			s = s[1 : len(s)-1]
		}
		s = strings.TrimSpace(s)
		if s == t {
			return s
		}
	}
}

// macroReturns says a function-like macro's expansion (value) ends, at
// its top level, in a return statement: every path through it returns
// from the function it is used in (a return under an if is not every
// path).
func macroReturns(value string) bool {
	last := ""
	for _, st := range statements(macroStatements(value)) {
		if st = strings.TrimSpace(st); st != "" {
			last = st
		}
	}
	w := macroWords(last)
	return len(w) > 0 && (w[0] == "return" || w[0] == "co_return") && strings.HasPrefix(last, w[0])
}

// macroEnds says what a function-like macro's expansion (value) ends in,
// read as statements once the wrappers of statement macros are taken off
// (do { ... } while (0), ({ ... }), { ... }, ( ... )): a throw (nr), or a
// call of a named function (call), with no return, break, continue, goto
// or longjmp in it that could leave before.
func macroEnds(value string, params []string, known func(string) bool) (nr bool, via []string) {
	s := macroStatements(value)
	stmts := splitTop(s, ';')
	last, before := "", []string{}
	for _, st := range stmts {
		if st = strings.TrimSpace(st); st != "" {
			if last != "" {
				before = append(before, last)
			}
			last = st
		}
	}
	// What comes before the last statement, and the last one's own
	// arguments, must not leave first; the last statement itself may be
	// a longjmp, which never returns.
	for _, w := range macroWords(strings.Join(append(before, last[min(len(last), strings.IndexByte(last, '(')+1):]), ";")) {
		switch w {
		case "return", "break", "continue", "goto", "longjmp", "siglongjmp", "co_return":
			return false, nil
		}
	}
	last = strings.TrimSpace(strings.TrimPrefix(last, "(void)"))
	if w := macroWords(last); len(w) > 0 && w[0] == "throw" && strings.HasPrefix(last, "throw") {
		return true, nil
	}
	if trapAsm(last) {
		return true, nil
	}
	open := strings.IndexByte(last, '(')
	if open <= 0 || !enclosed(last[open:], '(', ')') {
		return false, nil
	}
	name := strings.TrimSpace(last[:open])
	for part := range strings.SplitSeq(name, "::") {
		if part != "" && !isWord(part) {
			return false, nil
		}
	}
	switch name {
	case "if", "while", "for", "switch", "sizeof", "alignof", "decltype", "static_cast", "defined":
		return false, nil
	}
	if known(name) {
		return true, nil
	}
	if k := slices.Index(params, lastName(name)); k >= 0 {
		// #define FAIL(msg, fn) { ...; ns::fn(msg); }: what the macro's
		// argument k names decides (see summary.Exit.Via).
		return false, []string{summary.ParamVia(k)}
	}
	// The call's arguments that are names, for a macro called here whose
	// end is one of its arguments (MFEM_ABORT(m) -> MSG(m, mfem_error)).
	var args []string
	named := false
	for _, a := range splitTop(last[open+1:len(last)-1], ',') {
		a = strings.TrimSpace(a)
		if !isQualifiedWord(a) {
			a = ""
		}
		named = named || a != ""
		args = append(args, a)
	}
	if named {
		return false, []string{summary.CallVia(lastName(name), args)}
	}
	return false, []string{lastName(name)}
}

// trapAsm says statement st is an inline assembly statement of one
// instruction that ends the thread: PTX's trap ("abort execution and
// generate an interrupt to the host CPU", PTX ISA), AMD GCN's s_trap
// (enters the trap handler) or x86's ud2 (raises the invalid-opcode
// exception).
func trapAsm(st string) bool {
	w := macroWords(st)
	if len(w) == 0 || w[0] != "asm" && w[0] != "__asm__" && w[0] != "__asm" {
		return false
	}
	open, end := strings.IndexByte(st, '"'), strings.LastIndexByte(st, '"')
	if open < 0 || end <= open {
		return false
	}
	ins := strings.Fields(strings.TrimSuffix(strings.TrimSpace(st[open+1:end]), ";"))
	if len(ins) == 0 {
		return false
	}
	switch ins[0] {
	case "trap", "ud2":
		return len(ins) == 1
	case "s_trap":
		return len(ins) == 2
	}
	return false
}

// isQualifiedWord says s is a name, qualified or not (ns::f).
func isQualifiedWord(s string) bool {
	for part := range strings.SplitSeq(s, "::") {
		if part != "" && !isWord(part) {
			return false
		}
	}
	return strings.Trim(s, ":") != ""
}

// macroCheck reads a macro that checks a condition, its expansion
// (value) one of
//
//	if (!(c)) fail(...)         (in braces or do { } while (0) or not)
//	(void)((c) || (fail(...), 0))
//	(c) ? (void)0 : fail(...)
//
// with c one of its parameters: k is c's index, fail the text run where c
// is false.
func macroCheck(value string, params []string) (k int, fail string, ok bool) {
	s := macroStatements(value)
	param := func(c string) int {
		c = strings.TrimSpace(c)
		for enclosed(c, '(', ')') {
			c = strings.TrimSpace(c[1 : len(c)-1])
		}
		return slices.Index(params, c)
	}
	if rest, found := strings.CutPrefix(s, "if"); found {
		rest = strings.TrimSpace(rest)
		if rest == "" || rest[0] != '(' {
			return 0, "", false
		}
		end := closing(rest, '(', ')')
		if end < 0 {
			return 0, "", false
		}
		cond := strings.TrimSpace(rest[1:end])
		neg, found := strings.CutPrefix(cond, "!")
		if !found {
			return 0, "", false
		}
		body := strings.TrimSpace(rest[end+1:])
		if strings.Contains(body, "else") {
			return 0, "", false
		}
		if k := param(neg); k >= 0 && body != "" {
			return k, body, true
		}
		return 0, "", false
	}
	s = strings.TrimSpace(strings.TrimPrefix(s, "(void)"))
	for enclosed(s, '(', ')') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if parts := splitTop(s, '?'); len(parts) == 2 {
		alts := splitTop(parts[1], ':')
		if k := param(parts[0]); k >= 0 && len(alts) == 2 && strings.Contains(alts[0], "(void)0") {
			return k, strings.TrimSpace(alts[1]), true
		}
		return 0, "", false
	}
	if parts := splitTop(s, '|'); len(parts) == 3 && strings.TrimSpace(parts[1]) == "" {
		f := strings.TrimSpace(parts[2])
		for enclosed(f, '(', ')') {
			f = strings.TrimSpace(f[1 : len(f)-1])
		}
		if calls := splitTop(f, ','); len(calls) >= 1 {
			if k := param(parts[0]); k >= 0 {
				return k, strings.TrimSpace(calls[0]), true
			}
		}
	}
	return 0, "", false
}

// macroReturnIf reads a macro that returns from the function it is used
// in where a condition on one parameter holds, its expansion (value) one
// of
//
//	if (c) return ...;                  (or if (c) { ...; return ...; })
//	if (T v = p; c) return ...;
//	T v = p; if (c) return ...;
//
// in braces or do { } while (0) or not, with c one of p op K, K op p,
// !p, p, p.m() and !p.m() (p the parameter, or v standing for it; K a
// number or a constant's name; op a comparison).
func macroReturnIf(value string, params []string) (summary.ReturnIf, bool) {
	var none summary.ReturnIf
	stmts := []string{}
	for _, st := range splitTop(macroStatements(value), ';') {
		if st = strings.TrimSpace(st); st != "" {
			stmts = append(stmts, st)
		}
	}
	// The if statement's body holds semicolons at its top level when it
	// has no braces: "if (c) return e" then splits into one piece.
	names := map[string]int{}
	bind := func(decl string) bool {
		lhs, rhs, ok := strings.Cut(decl, "=")
		w := macroWords(lhs)
		if !ok || len(w) < 2 || strings.ContainsAny(rhs, "=") {
			return false
		}
		k := slices.Index(params, unparenText(rhs))
		if k < 0 {
			return false
		}
		names[w[len(w)-1]] = k
		return true
	}
	for k, p := range params {
		names[p] = k
	}
	if len(stmts) == 2 && !strings.HasPrefix(stmts[0], "if") {
		if !bind(stmts[0]) {
			return none, false
		}
		stmts = stmts[1:]
	}
	if len(stmts) != 1 {
		return none, false
	}
	rest, found := strings.CutPrefix(stmts[0], "if")
	rest = strings.TrimSpace(rest)
	if !found || rest == "" || rest[0] != '(' {
		return none, false
	}
	end := closing(rest, '(', ')')
	if end < 0 {
		return none, false
	}
	cond, body := strings.TrimSpace(rest[1:end]), strings.TrimSpace(rest[end+1:])
	if enclosed(body, '{', '}') {
		body = strings.TrimSpace(body[1 : len(body)-1])
	}
	var last string
	var before []string
	for _, st := range splitTop(body, ';') {
		if st = strings.TrimSpace(st); st != "" {
			if last != "" {
				before = append(before, last)
			}
			last = st
		}
	}
	if w := macroWords(last); len(w) == 0 || w[0] != "return" || !strings.HasPrefix(last, "return") || strings.Contains(body, "else") {
		return none, false
	}
	for _, w := range macroWords(strings.Join(before, ";")) {
		switch w {
		case "if", "return", "break", "continue", "goto", "for", "while", "switch", "throw":
			return none, false
		}
	}
	if parts := splitTop(cond, ';'); len(parts) == 2 {
		if !bind(strings.TrimSpace(parts[0])) {
			return none, false
		}
		cond = strings.TrimSpace(parts[1])
	}
	return condOnParam(unparenText(cond), names)
}

// condOnParam reads condition c over the names standing for parameters
// (see macroReturnIf).
func condOnParam(c string, names map[string]int) (summary.ReturnIf, bool) {
	var none summary.ReturnIf
	// p, p.m(): its truth.
	subject := func(t string) (int, string, bool) {
		t = unparenText(t)
		if k, ok := names[t]; ok {
			return k, "", true
		}
		for _, sep := range []string{".", "->"} {
			if i := strings.LastIndex(t, sep); i > 0 && strings.HasSuffix(t, "()") {
				m := t[i+len(sep) : len(t)-2]
				if k, ok := names[unparenText(t[:i])]; ok && isWord(m) {
					return k, "." + m + "()", true
				}
			}
		}
		return 0, "", false
	}
	if neg, found := strings.CutPrefix(c, "!"); found && !strings.HasPrefix(neg, "=") {
		if k, suf, ok := subject(neg); ok {
			return summary.ReturnIf{Param: k, Suffix: suf, Op: "==", Value: "0"}, true
		}
		return none, false
	}
	if k, suf, ok := subject(c); ok {
		return summary.ReturnIf{Param: k, Suffix: suf, Op: "!=", Value: "0"}, true
	}
	for _, op := range []string{"!=", "==", "<=", ">=", "<", ">"} {
		i := strings.Index(c, op)
		if i <= 0 || strings.Count(c, op) != 1 || strings.Contains(c, "->") || strings.Contains(c, "<<") || strings.Contains(c, ">>") {
			continue
		}
		l, r := unparenText(c[:i]), unparenText(c[i+len(op):])
		if op == "<" || op == ">" {
			if strings.ContainsAny(l, "<>=!") || strings.ContainsAny(r, "<>=!") {
				return none, false
			}
		}
		if k, suf, ok := subject(l); ok && constantText(r) {
			return summary.ReturnIf{Param: k, Suffix: suf, Op: op, Value: strings.Join(strings.Fields(r), "")}, true
		}
		if k, suf, ok := subject(r); ok && constantText(l) {
			return summary.ReturnIf{Param: k, Suffix: suf, Op: flip(op), Value: strings.Join(strings.Fields(l), "")}, true
		}
		return none, false
	}
	return none, false
}

// constantText says t is a number or a constant's name (ns::kOk).
func constantText(t string) bool {
	if _, ok := number(t); ok {
		return true
	}
	return isQualifiedWord(strings.Join(strings.Fields(t), ""))
}

// unparenText strips the spaces and parentheses around t.
func unparenText(t string) string {
	t = strings.TrimSpace(t)
	for enclosed(t, '(', ')') {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	return t
}

// closing is the index of the bracket c that closes the o that s opens
// with, quotes skipped, or -1.
func closing(s string, o, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			i = skipQuoted(s, i)
		case o:
			depth++
		case c:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// macroParams lists the parameters of function-like macro definition n.
func macroParams(f *parser.File, n parser.NodeID) []string {
	var out []string
	for c := range f.NamedChildren(f.Field(n, parser.FieldParameters)) {
		out = append(out, f.Text(c))
	}
	return out
}

// enclosed says s opens with o and the bracket that closes it is its
// last byte.
func enclosed(s string, o, c byte) bool {
	return len(s) >= 2 && s[0] == o && s[len(s)-1] == c && closing(s, o, c) == len(s)-1
}

// splitTop splits s at the separators outside brackets and quotes.
func splitTop(s string, sep byte) []string { return splitTopAt(s, sep, false) }

// statements splits s into its top-level statements: at each ';', and
// after each block's closing brace (if (c) { ... } return 0;).
func statements(s string) []string { return splitTopAt(s, ';', true) }

// splitTopAt splits s at the separators outside brackets and quotes,
// and after each top-level block's closing brace when blocks is set.
func splitTopAt(s string, sep byte, blocks bool) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			i = skipQuoted(s, i)
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
			if blocks && s[i] == '}' && depth == 0 {
				out = append(out, s[from:i+1])
				from = i + 1
			}
		case sep:
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// skipQuoted returns the offset of the quote that closes the literal
// opening at i (or the last byte).
func skipQuoted(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return len(s) - 1
}

// macroWords lists the words (identifiers) of s outside comments and
// quotes, in order.
func macroWords(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			i = skipQuoted(s, i)
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(s)
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				i += j + 3
			} else {
				i = len(s)
			}
		case wordByte(c) && (c < '0' || c > '9'):
			j := i
			for j < len(s) && wordByte(s[j]) {
				j++
			}
			out = append(out, s[i:j])
			i = j - 1
		case c >= '0' && c <= '9':
			for i+1 < len(s) && wordByte(s[i+1]) {
				i++
			}
		}
	}
	return out
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isWord says s is one identifier.
func isWord(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !wordByte(s[i]) {
			return false
		}
	}
	return true
}

// MacroReturns implements Summaries: a macro the file defines, every
// definition of which ends in a return statement (see macroReturns), or
// one the tree defines so when the file defines no macro of that name.
func (fs *FileSummaries) MacroReturns(name string) bool {
	return fs.macroReturns(name, 4)
}

// macroReturns is MacroReturns through at most depth aliases (#define
// FAIL FAIL_IMPL: what FAIL_IMPL does).
func (fs *FileSummaries) macroReturns(name string, depth int) bool {
	es := fs.exitsNamed()[name]
	macros, returns := 0, 0
	for _, e := range es {
		if e.Macro {
			macros++
			if e.Returns || depth > 0 && len(e.Via) == 1 && fs.macroReturns(summary.MacroVia(e.Via[0], name), depth-1) {
				returns++
			}
		}
	}
	if macros > 0 {
		return returns == macros
	}
	return fs.Next != nil && fs.Next.MacroReturns(name)
}

// MacroReturnIf implements Summaries: a macro the file defines, every
// definition of which returns where the same condition on a parameter
// holds, or one the tree defines so when the file defines no macro of
// that name.
func (fs *FileSummaries) MacroReturnIf(name string) string {
	var macros []summary.Exit
	for _, e := range fs.exitsNamed()[name] {
		if e.Macro {
			macros = append(macros, e)
		}
	}
	if len(macros) > 0 {
		c := ""
		for i, e := range macros {
			if e.ReturnIf == "" || i > 0 && e.ReturnIf != c {
				return ""
			}
			c = e.ReturnIf
		}
		return c
	}
	if fs.Next == nil {
		return ""
	}
	return fs.Next.MacroReturnIf(name)
}

// MacroNotRun implements Summaries: the parameters every definition of
// a macro the file defines names only where it returns or in a lambda,
// or those of one the tree defines when the file defines no macro of
// that name.
func (fs *FileSummaries) MacroNotRun(name string) []int {
	var macros []summary.Exit
	for _, e := range fs.exitsNamed()[name] {
		if e.Macro {
			macros = append(macros, e)
		}
	}
	if len(macros) > 0 {
		return summary.CommonNotRun(macros)
	}
	if fs.Next == nil {
		return nil
	}
	return fs.Next.MacroNotRun(name)
}

// MacroChecks implements Summaries: a macro the file defines, every
// definition of which checks one parameter and ends the path where it is
// false (see summary.NoReturns.Checks), or one the tree defines so when
// the file defines no macro of that name.
func (fs *FileSummaries) MacroChecks(name string) int {
	for _, e := range fs.exitsNamed()[name] {
		if e.Macro {
			fs.NoReturn(name) // makes fs.noReturn
			return fs.noReturn.Checks(name)
		}
	}
	if fs.Next == nil {
		return 0
	}
	return fs.Next.MacroChecks(name)
}

// ExitKnown says a call of name never returns, as documented: the
// standard's (summary.Documented) and the API's calls of role exit (a
// host environment's error function that returns control to it).
func ExitKnown(api *apimodel.Model) func(string) bool {
	return func(name string) bool {
		return summary.Documented(name) || api != nil && api.Call(name)&apimodel.Exit != 0
	}
}

// exitKnown is ExitKnown of the file's API.
func (fs *FileSummaries) exitKnown(name string) bool { return ExitKnown(fs.API)(name) }

// exitsNamed is what the file's functions and macros say of returning
// (see fileExits), by name, read once.
func (fs *FileSummaries) exitsNamed() map[string][]summary.Exit {
	if fs.exits == nil {
		all, defs := fileExits(fs.f, fs.exitKnown)
		fs.exits, fs.exitDefs = map[string][]summary.Exit{}, defs
		for _, e := range all {
			fs.exits[e.Name] = append(fs.exits[e.Name], e.Exit)
		}
	}
	return fs.exits
}

// NoReturn implements Summaries: the file's own functions and macros
// first (see summary.NoReturns), then the tree (Next) for a name the file
// neither defines nor says anything of.
func (fs *FileSummaries) NoReturn(name string) bool {
	if fs.noReturn == nil {
		byName, defs := fs.exitsNamed(), fs.exitDefs
		fs.noReturn = &summary.NoReturns{
			Exits: func(name string) []summary.Exit { return byName[name] },
			Defs:  func(name string) int { return defs[name] },
			Known: fs.exitKnown,
			Outside: func(name string) bool {
				return defs[name] == 0 && fs.Next != nil && fs.Next.NoReturn(name)
			},
		}
	}
	return fs.noReturn.Is(name)
}

// TreeExits lists what f's functions and macros that other files see say
// of returning, for the tree's summaries: a name only f sees (a static
// function, a macro of a source file) is replaced by what it ends in.
func TreeExits(f *parser.File, api *apimodel.Model) []summary.Exit {
	known := ExitKnown(api)
	all, defs := fileExits(f, known)
	local := map[string][]summary.Exit{}
	for _, e := range all {
		if e.local {
			local[e.Name] = append(local[e.Name], e.Exit)
		}
	}
	r := &summary.NoReturns{Exits: func(name string) []summary.Exit { return local[name] }, Defs: func(name string) int { return defs[name] }, Known: known}
	var out []summary.Exit
	for _, e := range all {
		if e.local {
			continue
		}
		x := e.Exit
		if !x.NoReturn && len(local) > 0 {
			var via []string
			seen := map[string]bool{}
			var walk func(names []string)
			walk = func(names []string) {
				for _, v := range names {
					switch {
					case seen[v]:
					case len(local[v]) > 0:
						seen[v] = true
						if r.Is(v) {
							x.NoReturn = true
						}
						for _, l := range local[v] {
							walk(l.Via)
						}
					default:
						seen[v] = true
						if defs[v] == 0 {
							// Defined here with nothing said: it returns.
							via = append(via, v)
						}
					}
				}
			}
			walk(x.Via)
			x.Via = via
			if x.NoReturn {
				x.Via = nil
			}
		}
		out = append(out, x)
	}
	return out
}

// notRunParams lists the parameters of a function-like macro (value,
// its expansion) that it names only inside braced blocks that end in a
// return or a throw statement (#define WARN_OR_FAIL(cmd, cleanup) { e =
// cmd; if (e) { cleanup return e; } }), or that are the bodies of
// lambdas it makes (#define DEFER(f) auto d = scope_exit([&] { f; })):
// where the code using the macro goes on past it, those arguments have
// not run there.
func notRunParams(value string, params []string) []int {
	type block struct {
		from, to int
		leaves   bool
	}
	value = strings.ReplaceAll(strings.ReplaceAll(value, "\\\r\n", "  "), "\\\n", " ")
	var blocks []block
	var open []int
	for i := 0; i < len(value); i++ {
		switch value[i] {
		case '"', '\'':
			i = skipQuoted(value, i)
		case '{':
			open = append(open, i)
		case '}':
			if len(open) == 0 {
				return nil
			}
			from := open[len(open)-1]
			open = open[:len(open)-1]
			blocks = append(blocks, block{from, i, endsLeaving(value[from+1:i], params) || lambdaBody(value, from)})
		}
	}
	if len(open) > 0 {
		return nil
	}
	uses := map[string][]int{}
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c == '"' || c == '\'':
			i = skipQuoted(value, i)
		case wordByte(c):
			j := i
			for j < len(value) && wordByte(value[j]) {
				j++
			}
			uses[value[i:j]] = append(uses[value[i:j]], i)
			i = j - 1
		}
	}
	var out []int
	for k, p := range params {
		at := uses[p]
		all := len(at) > 0
		for _, pos := range at {
			all = all && slices.ContainsFunc(blocks, func(b block) bool { return b.leaves && b.from < pos && pos < b.to })
		}
		if all {
			out = append(out, k)
		}
	}
	return out
}

// endsLeaving says block body body's last statement is a return or a
// throw; a parameter before it with no semicolon between stands for
// statements of its own (a block the caller passes: { cleanup } return).
func endsLeaving(body string, params []string) bool {
	var last string
	for _, st := range statements(body) {
		if st = strings.TrimSpace(st); st != "" {
			last = st
		}
	}
	w := macroWords(last)
	for len(w) > 1 && slices.Contains(params, w[0]) {
		w = w[1:]
	}
	return len(w) > 0 && (w[0] == "return" || w[0] == "throw")
}

// lambdaBody says the brace at offset open of value opens the body of a
// lambda: before it, past an optional parameter list and specifiers
// (mutable, noexcept, a trailing return type's words), the capture list
// closes.
func lambdaBody(value string, open int) bool {
	i := open - 1
	skipSpace := func() {
		for i >= 0 && (value[i] == ' ' || value[i] == '\t' || value[i] == '\n' || value[i] == '\r') {
			i--
		}
	}
	skipSpace()
	for i >= 0 && wordByte(value[i]) {
		// mutable, noexcept, constexpr, a return type's name
		for i >= 0 && (wordByte(value[i]) || value[i] == ':' || value[i] == '*' || value[i] == '&') {
			i--
		}
		skipSpace()
		if i >= 1 && value[i] == '>' && value[i-1] == '-' {
			i -= 2
			skipSpace()
		}
	}
	if i >= 0 && value[i] == ')' {
		depth := 0
		for ; i >= 0; i-- {
			if value[i] == ')' {
				depth++
			} else if value[i] == '(' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		i--
		skipSpace()
	}
	return i >= 0 && value[i] == ']'
}
