// Package summary holds what one file's functions do to their parameters,
// in a form other files can use: whole-tree summaries. The rules compute
// a file's summary from its lifetime models; a scan merges the summaries
// of every file of the tree into an Index, which the rules consult for a
// call the file itself does not define. Summaries are cached on disk by
// file content (see Cache), so a scan of a few files still sees the rest
// of the tree.
package summary

import (
	"cmp"
	"encoding/binary"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Func is what a function does to its parameters, by index.
type Func struct {
	// Name is the function's name without its qualification (a method's
	// name, not its class's).
	Name string `json:"name"`
	// Class is the class of a method ("" for a free function, or when
	// the definition does not say).
	Class string `json:"class,omitempty"`
	// Namespace is the namespace its definition is in ("" for the global
	// one); Local says no other translation unit can name it (static, or
	// in an unnamed namespace, in a source file).
	Namespace string `json:"namespace,omitempty"`
	Local     bool   `json:"local,omitempty"`
	File      string `json:"file"` // where it is defined, as the scan names it
	Arity     int    `json:"arity"`
	// Frees lists the pointer parameters it frees on every path.
	Frees []int `json:"frees,omitempty"`
	// FreesDeref lists the pointer-to-pointer parameters (T** pp) through
	// which it frees, on every path, the pointer stored there (delete *pp).
	FreesDeref []int `json:"frees_deref,omitempty"`
	// FreesFields lists "k.field": the pointer field of what pointer
	// parameter k points to that it frees on every path that returns and
	// leaves pointing at the freed memory.
	FreesFields []string `json:"frees_fields,omitempty"`
	// StoresIn lists "i>j.field": the pointer field of what pointer
	// parameter j points to holds what pointer parameter i points to on
	// every path that returns (q->field = p).
	StoresIn []string `json:"stores_in,omitempty"`
	// Holds lists "k:M" ("k*:M" for a pointer parameter): the object it
	// returns by value holds what parameter k refers to, as member M, on
	// every path that returns (see core.Call.Holds).
	Holds []string `json:"holds,omitempty"`
	// Fields lists "k:f,g": the fields f and g are all it reads of the
	// object reference or pointer parameter k names (see core.FieldReads).
	Fields []string `json:"fields,omitempty"`
	// MayFree says it may free its opaque (void*) parameter on some path:
	// as a completion, it may free the data handed with it.
	MayFree bool `json:"may_free,omitempty"`
	// Encodes maps the parameters it hands to encoded device work (work
	// that keeps nothing alive) to the call that encodes them.
	Encodes ArgNotes `json:"encodes,omitempty"`
	// Defers maps the callable parameters it keeps for later or defers to
	// how it does.
	Defers ArgNotes `json:"defers,omitempty"`
	// Keeps lists the parameters it may keep past the call (stores,
	// moves, captures, returns, or hands to code it cannot see).
	Keeps []int `json:"keeps,omitempty"`
	// Reaches lists the pointer parameters whose pointee it may reach
	// (dereferences, or hands to a call that may); one it only logs,
	// compares or keys a table with is not among them.
	Reaches []int `json:"reaches,omitempty"`
	// KeepsRefs maps the reference (or pointer) parameters a constructor
	// keeps in a reference or pointer member to that member: the object
	// refers to the caller's argument for as long as it lives.
	// MayKeepRefs is the same where the member's type is not known (the
	// class is declared elsewhere).
	KeepsRefs   ArgNotes `json:"keeps_refs,omitempty"`
	MayKeepRefs ArgNotes `json:"may_keep_refs,omitempty"`
	// Waits says it may wait, block or order work against a stream.
	Waits bool `json:"waits,omitempty"`
	// ByValue says it returns an object by value (a temporary at each
	// call); Storage that the object owns a buffer (a container, a string).
	ByValue bool `json:"by_value,omitempty"`
	Storage bool `json:"storage,omitempty"`
	// RetParam (1-based; 0: none) is the template type parameter its
	// declared return type names: see core.Call.RetParam.
	RetParam int `json:"ret_param,omitempty"`
	// Type is the declared type of the object it returns by value (see
	// core.Call.Type).
	Type string `json:"type,omitempty"`
	// Grows lists the container arguments (by reference, or by pointer
	// to the container) whose buffer it replaces on every path.
	Grows []int `json:"grows,omitempty"`
	// Refers (1-based; 0: none) is the parameter whose object the
	// returned reference or pointer refers to on every path (see
	// core.Call.Refers); RefersPtr says the result is a pointer.
	Refers     int    `json:"refers,omitempty"`
	RefersPtr  bool   `json:"refers_ptr,omitempty"`
	ReferType  string `json:"refer_type,omitempty"`
	ReferDeref bool   `json:"refer_deref,omitempty"`
	// Bound lists the parameters its declarations mark lifetimebound
	// ([[clang::lifetimebound]], or a macro a pack names): the result may
	// refer to what those arguments refer to. RefersView: the result is a
	// view (else a pointer when RefersPtr, or a reference).
	Bound      []int `json:"bound,omitempty"`
	RefersView bool  `json:"refers_view,omitempty"`
	// Reassigns lists the parameters declared as non-const references to
	// a pointer (T*&): the call may store a new pointer in the argument.
	Reassigns []int `json:"reassigns,omitempty"`
	// Decl says only a declaration was read (in a header, say, of a
	// function defined where holdfast does not see it): it says what the
	// function returns and nothing of what it does. LookupCall never
	// answers with one; Returns does.
	Decl bool `json:"decl,omitempty"`
	// Queues is the device work it leaves pending on its arguments on
	// every path that returns.
	Queues []Queued `json:"queues,omitempty"`
	// Forwards are the calls of functions its file does not define to
	// which it hands a pointer parameter on every path, while it has not
	// freed it: the parameter is freed when the callee frees that
	// argument. NewIndex follows them to a fixpoint over the tree, so a
	// file's summary depends on that file alone.
	Forwards []Forward `json:"forwards,omitempty"`
}

// Forward is one hand-off of a parameter (Param) to argument Arg of a call
// the function's file does not resolve.
type Forward struct {
	Param int  `json:"param"`
	Arg   int  `json:"arg"`
	Call  Call `json:"call"`
}

// Queued is device work a function queues on its arguments without
// waiting for it: the pointer arguments it reads and writes, the argument
// naming its queue (-1: the default stream), the call that queues it,
// and whether host memory counts only when page-locked.
type Queued struct {
	Reads      []int  `json:"reads,omitempty"`
	Writes     []int  `json:"writes,omitempty"`
	Queue      int    `json:"queue"`
	What       string `json:"what"`
	PinnedOnly bool   `json:"pinned_only,omitempty"`
}

// File is the summary of one file: its functions, sorted by name and
// arity.
type File struct {
	Funcs []Func `json:"funcs,omitempty"`
	// Classes are the classes the file defines: their data members'
	// declared types, by member name.
	Classes []Class `json:"classes,omitempty"`
	// Aliases are the type aliases the file declares: what each names.
	Aliases Names `json:"aliases,omitempty"`
	// Exits are what the file's functions and macros visible to other
	// files say of returning (see Exit).
	Exits []Exit `json:"exits,omitempty"`
}

// Exit is what one function or macro says of returning: it never does
// (NoReturn), or it never does when one of the names in Via never does
// (the call its body ends in, an attribute macro its declaration
// carries). A macro's Via may also say its expansion ends in a call of
// its parameter k ("#k", ParamVia), or in a call whose arguments that are
// names it lists ("name(a,,b)", CallVia): a macro of that name ending in
// a call of a parameter then ends as the argument there does. A function
// defined where no Exit names it returns.
type Exit struct {
	Name     string   `json:"name"`
	Macro    bool     `json:"macro,omitempty"` // a macro (else a function)
	Def      bool     `json:"def,omitempty"`   // a function definition (else a declaration)
	NoReturn bool     `json:"no_return,omitempty"`
	Via      []string `json:"via,omitempty"`
	// Returns: a macro whose expansion ends, on every path, in a return
	// statement: the function it is used in returns there.
	Returns bool `json:"returns,omitempty"`
	// Check: a macro that checks its parameter Check-1 (#define
	// VERIFY(c) if (!(c)) fail()): where the condition is false its
	// expansion ends as NoReturn and Via say, else it goes on. 0: none.
	Check int `json:"check,omitempty"`
	// ReturnIf: a macro whose expansion returns from the function it is
	// used in where a condition on one parameter holds, and goes on
	// where it does not (#define RET(e) if ((e) != OK) return e;), as
	// ReturnIf.String writes it. "": none.
	ReturnIf string `json:"return_if,omitempty"`
	// NotRun: the parameters (0-based) of a macro that does not always
	// return whose expansion names them only inside blocks that end in a
	// return or a throw (#define WARN_OR_FAIL(c, cleanup) if (!(c)) {
	// cleanup return e; }), or inside the bodies of lambdas it makes
	// (#define DEFER(f) auto d = scope_exit([&] { f; })): the path that
	// goes on past the macro has not run them there.
	NotRun []int `json:"not_run,omitempty"`
}

// ReturnIf is the condition under which a macro returns (see
// Exit.ReturnIf): parameter Param, with Suffix read through it (".ok()"
// or ""), compared by Op with Value (a number or a constant's name).
type ReturnIf struct {
	Param      int
	Suffix, Op string
	Value      string
}

// String writes r as Exit.ReturnIf holds it.
func (r ReturnIf) String() string {
	return strconv.Itoa(r.Param) + "|" + r.Suffix + "|" + r.Op + "|" + r.Value
}

// ParseReturnIf reads what ReturnIf.String wrote.
func ParseReturnIf(s string) (ReturnIf, bool) {
	p := strings.Split(s, "|")
	if len(p) != 4 {
		return ReturnIf{}, false
	}
	k, err := strconv.Atoi(p[0])
	if err != nil || k < 0 || p[2] == "" || p[3] == "" {
		return ReturnIf{}, false
	}
	return ReturnIf{Param: k, Suffix: p[1], Op: p[2], Value: p[3]}, true
}

// Class is one class definition's data members.
type Class struct {
	Name string `json:"name"`
	// Namespace is the scope the file defines the class (or its methods)
	// in: its namespaces and the classes it is nested in, joined by "::"
	// ("" at global scope, "?" when the file defines classes of the name
	// in several). Two classes of one name in different namespaces are
	// different classes.
	Namespace string `json:"ns,omitempty"`
	Members   Names  `json:"members"`
}

// Sort orders the functions of s by name, then arity, for stable output.
func (s *File) Sort() {
	slices.SortStableFunc(s.Funcs, func(a, b Func) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Arity, b.Arity), cmp.Compare(a.File, b.File))
	})
}

// Index is the merged summaries of a tree, by function name. It is
// read-only once built and safe to share between goroutines.
type Index struct {
	byName  map[string][]*Func
	decls   map[string][]*Func // declarations only (Func.Decl)
	classes map[string]map[string]string
	// scoped: the definitions merged into classes, by name, each with its
	// namespace (see MembersIn).
	scoped  map[string][]*Class
	aliases map[string]string
	// noReturn are the names whose calls never return (see NoReturns),
	// decided once when the index is made.
	noReturn map[string]bool
	// returns are the macros whose every definition returns from the
	// function it is used in (see Exit.Returns).
	returns map[string]bool
	// returnIfs are the macros whose every definition returns where the
	// same condition on a parameter holds (see Exit.ReturnIf).
	returnIfs map[string]string
	// notRun are the macros whose every definition names some
	// parameters only where it returns or in a lambda (see Exit.NotRun):
	// those.
	notRun map[string][]int
	// checks are the macros whose every definition checks one parameter
	// and ends the path where it is false (see Exit.Check): the
	// parameter's index + 1.
	checks map[string]int
	// cut says the fixpoint over the functions' forwards stopped at
	// MaxComposeRounds with facts still growing (see compose).
	cut bool
	// lz, when set, is where names not read yet are read from (see
	// NewTreeIndex); every method then holds its lock.
	lz *lazyIndex
}

// NewIndex merges file summaries: NewTreeIndex of them all, every name
// read at once, so that no method needs a lock.
func NewIndex(files ...*File) *Index {
	ix := NewTreeIndex(files, nil)
	lz := ix.lz
	for k := range kinds {
		for _, name := range slices.Sorted(maps.Keys(lz.at[k])) {
			lz.read(ix, k, name)
		}
	}
	ix.lz = nil
	ix.compose()
	return ix
}

// MaxComposeRounds bounds the rounds of the tree's fixpoint over
// forwards: each round adds the frees a chain one call longer implies, so
// only chains longer than this (or a cycle of hand-offs that keeps
// adding) reach it.
const MaxComposeRounds = 32

// compose adds to each function the parameters it frees through the
// functions of other files it hands them to (Func.Forwards), to a
// fixpoint: a wrapper of a wrapper of a free frees. Facts only grow, so
// it ends; past MaxComposeRounds it stops and says so (Cut). A function
// that gains a fact is replaced in the index by a copy: the files'
// summaries (what the cache keeps) stay what their own files say.
func (ix *Index) compose() {
	ix.composeNames(slices.Sorted(maps.Keys(ix.byName)))
}

// composeNames is compose over the functions of names (sorted), whose
// forwards reach only functions of names or of names composed before.
func (ix *Index) composeNames(names []string) {
	type at struct {
		name string
		i    int
	}
	var todo []at // the functions with forwards, by place in byName
	for _, name := range names {
		for i, f := range ix.byName[name] {
			if len(f.Forwards) > 0 {
				todo = append(todo, at{name, i})
			}
		}
	}
	for round := 0; len(todo) > 0; round++ {
		type gain struct {
			at    at
			frees []int
		}
		var gains []gain
		for _, a := range todo {
			f := ix.byName[a.name][a.i]
			var add []int
			for _, fw := range f.Forwards {
				if !slices.Contains(f.Frees, fw.Param) && !slices.Contains(add, fw.Param) && ix.lookupCall(fw.Call).FreesArg(fw.Arg) {
					add = append(add, fw.Param)
				}
			}
			if len(add) > 0 {
				gains = append(gains, gain{a, add})
			}
		}
		if len(gains) == 0 {
			return
		}
		if round == MaxComposeRounds {
			ix.cut = true
			return
		}
		// Applied after the round, so that a round's answers do not
		// depend on the order the functions are visited in. The index
		// slices are its own; the files' Funcs are not written.
		for _, g := range gains {
			c := *ix.byName[g.at.name][g.at.i]
			c.Frees = slices.Sorted(slices.Values(append(slices.Clone(c.Frees), g.frees...)))
			ix.byName[g.at.name][g.at.i] = &c
		}
	}
}

// dedupeList keeps the first of the functions of fs (all of one name)
// whose facts are the same.
func dedupeList(fs []*Func) []*Func {
	// Functions of one name whose facts are the same (copies of a header
	// in several folders, generated overloads) answer alike: one stands
	// for them all, so a name defined thousands of times costs a lookup
	// no more than once.
	if len(fs) < 2 {
		return fs
	}
	// Most names have a few distinct facts: they are compared one by
	// one, and a set is made only past a few.
	var facts []string
	var seen map[string]bool
	kept := fs[:0:0]
	var buf []byte
	for _, fn := range fs {
		buf = appendFacts(buf[:0], fn)
		if seen != nil && seen[string(buf)] || seen == nil && slices.Contains(facts, string(buf)) {
			continue
		}
		kept = append(kept, fn)
		if seen != nil {
			seen[string(buf)] = true
			continue
		}
		facts = append(facts, string(buf))
		if len(facts) > 8 {
			seen = make(map[string]bool, len(fs))
			for _, b := range facts {
				seen[b] = true
			}
		}
	}
	return kept
}

// appendFacts appends a function's facts, where it is defined left out,
// as bytes that are equal exactly when the facts are.
func appendFacts(b []byte, fn *Func) []byte {
	str := func(s string) { b = appendString(b, s) }
	num := func(n int) { b = binary.AppendVarint(b, int64(n)) }
	flag := func(v bool) {
		if v {
			num(1)
		} else {
			num(0)
		}
	}
	ints := func(xs []int) {
		num(len(xs))
		for _, x := range xs {
			num(x)
		}
	}
	notes := func(m ArgNotes) {
		num(len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			num(k)
			str(m[k])
		}
	}
	str(fn.Name)
	str(fn.Class)
	str(fn.Namespace)
	flag(fn.Local)
	num(fn.Arity)
	ints(fn.Frees)
	ints(fn.FreesDeref)
	num(len(fn.FreesFields))
	for _, f := range fn.FreesFields {
		str(f)
	}
	num(len(fn.StoresIn))
	for _, f := range fn.StoresIn {
		str(f)
	}
	num(len(fn.Holds))
	for _, f := range fn.Holds {
		str(f)
	}
	num(len(fn.Fields))
	for _, f := range fn.Fields {
		str(f)
	}
	flag(fn.MayFree)
	notes(fn.Encodes)
	notes(fn.Defers)
	ints(fn.Keeps)
	ints(fn.Reaches)
	notes(fn.KeepsRefs)
	notes(fn.MayKeepRefs)
	flag(fn.Waits)
	flag(fn.ByValue)
	flag(fn.Storage)
	num(fn.RetParam)
	str(fn.Type)
	ints(fn.Grows)
	num(fn.Refers)
	flag(fn.RefersPtr)
	str(fn.ReferType)
	flag(fn.ReferDeref)
	ints(fn.Bound)
	flag(fn.RefersView)
	ints(fn.Reassigns)
	flag(fn.Decl)
	num(len(fn.Queues))
	for _, q := range fn.Queues {
		ints(q.Reads)
		ints(q.Writes)
		num(q.Queue)
		str(q.What)
		flag(q.PinnedOnly)
	}
	num(len(fn.Forwards))
	for _, fw := range fn.Forwards {
		num(fw.Param)
		num(fw.Arg)
		str(fw.Call.Name)
		num(fw.Call.Nargs)
		flag(fw.Call.Member)
		str(fw.Call.Receiver)
		str(fw.Call.Within)
	}
	return b
}

// Past these counts a call's name is taken for unknown: a name the tree
// defines that many different ways says nothing of which one runs, and
// joining them all would only cost time (maxScanned: definitions looked
// at; maxCandidates: those that fit the call).
const (
	maxScanned    = 4096
	maxCandidates = 64
)

// mergeClass joins two files' entries for one class name. An entry
// without data members holds only what methods defined outside the class
// do (keys in parentheses: see core.Classes): it adds to the definition.
// Two definitions (other namespaces, other builds) keep only what both
// say alike.
// unionFact says a class fact is a list that two definitions add to: the
// destructor's hand-offs, the owning members a pointer member is set from,
// the members a method sets and the methods it calls (overloads defined
// apart), and the facts of methods defined apart from their class (see
// core's probes.go).
func unionFact(k string) bool {
	return k == "(~)" || k == "(acq)" || strings.HasPrefix(k, "(?") || strings.HasPrefix(k, "(^") || strings.HasPrefix(k, "(set:") || strings.HasPrefix(k, "(this:") || strings.HasPrefix(k, "(reads:") || strings.HasPrefix(k, "(ureads:")
}

func mergeClass(a, b map[string]string) map[string]string {
	facts := func(m map[string]string) bool {
		for k := range m {
			if !strings.HasPrefix(k, "(") {
				return false
			}
		}
		return true
	}
	merged := map[string]string{}
	if facts(a) || facts(b) {
		maps.Copy(merged, a)
		for k, t := range b {
			if unionFact(k) && merged[k] != "" && merged[k] != t {
				// Both definitions' lists (one is usually empty).
				parts := append(strings.Split(merged[k], ","), strings.Split(t, ",")...)
				slices.Sort(parts)
				t = strings.Join(slices.Compact(parts), ",")
			}
			switch {
			case strings.HasPrefix(k, "(=") && strings.HasPrefix(merged[k], "value") && strings.HasPrefix(t, "value") && merged[k] != t:
				// By value both, of types written differently: by value,
				// of no known type.
				merged[k] = "value"
			case strings.HasPrefix(k, "(=") && merged[k] != "" && merged[k] != t:
				// Overloads defined apart that return differently (a
				// by-value and a by-reference form): neither is known.
				merged[k] = "no"
			case strings.HasPrefix(k, "(<") && merged[k] != "" && merged[k] != t:
				// Overloads of one arity that keep different things.
				merged[k] = "!"
			case strings.HasPrefix(k, "(#"):
				// The most overloads of one arity either side counts.
				if a, _ := strconv.Atoi(merged[k]); a < atoi(t) {
					merged[k] = t
				}
			case merged[k] == "" || merged[k] == "method", unionFact(k):
				merged[k] = t
			}
		}
		// A class declared in a header and defined in a source: what one
		// overload of an arity the header declares several of keeps is
		// not known of a call (see core.SettleOverloads).
		for k := range merged {
			if key, ok := strings.CutPrefix(k, "(#"); ok && merged["(<"+key] != "" {
				merged["(<"+key] = "!"
			}
		}
		return merged
	}
	for m, t := range a {
		if b[m] == t {
			merged[m] = t
		}
	}
	if a["(cp)"] != "" || b["(cp)"] != "" {
		// Either definition copies as it says: neither copies implicitly.
		merged["(cp)"] = "declared"
	}
	return merged
}

// Len returns the number of functions in the index.
func (ix *Index) Len() int {
	if ix == nil {
		return 0
	}
	if ix.lz != nil {
		return ix.lz.funcs
	}
	n := 0
	for _, fs := range ix.byName {
		n += len(fs)
	}
	return n
}

// Call is a call site as the index matches it.
type Call struct {
	Name  string // as written: f, ns::f, Class::f
	Nargs int    // < 0: not known
	// Member says it is called on an object (x.f(), p->f()); Receiver is
	// the object's class when known.
	Member   bool
	Receiver string
	// Within is the class of the calling method, whose own methods an
	// unqualified call may name.
	Within string
	// Scope is the namespace the call is made from (see parser.File.Scope)
	// and Namespaces and Names what the calling file's using-directives
	// and using-declarations name (see parser.File.Usings): together they
	// say which namespaces' functions the call can name. Scoped says they
	// are known; without it every namespace is.
	Scope             string
	Namespaces, Names []string
	Scoped            bool
}

// sees says call c can name function f, by the rules of qualified and
// unqualified name lookup ([basic.lookup]): a function no other
// translation unit can name never; a method as the class checks say; a
// qualified call a function of a namespace its qualifier ends with; an
// unqualified one a function of the global namespace, of the caller's
// namespace or one around it, or of a namespace a using-directive or
// using-declaration of the caller's file names. Argument-dependent lookup
// is not modelled: a call it alone resolves is taken for one the tree
// does not define, as calls of code it cannot see are.
func (c Call) sees(f *Func, qual string) bool {
	if f.Local {
		return false
	}
	if !c.Scoped || c.Member || f.Class != "" {
		return true
	}
	ns := f.Namespace
	if qual != "" {
		qual = strings.TrimPrefix(qual, "::")
		return ns == qual || strings.HasSuffix(ns, "::"+qual)
	}
	if ns == "" || c.Scope == ns || strings.HasPrefix(c.Scope, ns+"::") {
		return true
	}
	for _, u := range c.Namespaces {
		if ns == u || strings.HasSuffix(ns, "::"+u) {
			return true
		}
	}
	full := ns + "::" + f.Name
	for _, u := range c.Names {
		if full == u || strings.HasSuffix(full, "::"+u) {
			return true
		}
	}
	return false
}

// Lookup returns what a call of name with nargs arguments (nargs < 0: not
// known) runs: LookupCall for a call with nothing else known of it.
func (ix *Index) Lookup(name string, nargs int) *Func {
	return ix.LookupCall(Call{Name: name, Nargs: nargs})
}

// LookupCall returns what call c runs, as far as the tree says: the facts
// of the functions that name, arity (every arity when not known) and class
// fit, joined in the program's favour when there are several (a
// definition in a header and another in a source file, overloads,
// methods of different classes): a fact that would make a finding (frees,
// encodes, defers) holds only when every candidate has it; one that would
// excuse one (keeps, reaches, waits) when any does. A method called on an
// object of a class holdfast cannot tell gets only the excusing facts:
// the call may run a method no file of the tree defines. nil when the
// tree defines no fitting function.
func (ix *Index) LookupCall(c Call) *Func {
	if ix == nil {
		return nil
	}
	if ix.lz != nil {
		ix.lz.mu.Lock()
		defer ix.lz.mu.Unlock()
		ix.ensure(lastName(c.Name))
	}
	return ix.lookupCall(c)
}

// lookupCall is LookupCall of a name already read.
func (ix *Index) lookupCall(c Call) *Func {
	name, qual, fullQual := c.Name, "", ""
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name, qual = name[i+2:], name[:i]
		fullQual = qual
		if j := strings.LastIndex(qual, "::"); j >= 0 {
			qual = qual[j+2:]
		}
	}
	var cands []*Func
	all := ix.byName[name]
	if len(all) > maxScanned {
		return nil
	}
	for _, f := range all {
		if c.Nargs >= 0 && f.Arity != c.Nargs {
			continue
		}
		switch {
		case c.Member && c.Receiver != "":
			if f.Class != c.Receiver {
				continue
			}
		case c.Member:
			if f.Class == "" {
				continue
			}
		case qual != "":
			if f.Class != qual && f.Class != "" {
				continue
			}
		default:
			if f.Class != "" && f.Class != c.Within {
				continue
			}
		}
		if !c.sees(f, fullQual) {
			continue
		}
		cands = append(cands, f)
	}
	if len(cands) == 0 || len(cands) > maxCandidates {
		return nil
	}
	out := join(cands)
	if c.Member && c.Receiver == "" {
		out.Frees, out.MayFree, out.Encodes, out.Defers, out.KeepsRefs, out.MayKeepRefs = nil, false, nil, nil, nil, nil
		out.FreesDeref, out.FreesFields, out.StoresIn, out.Holds = nil, nil, nil, nil
		out.ByValue, out.Storage, out.Type, out.Queues = false, false, "", nil
	}
	return out
}

// Result is what a declaration says a call returns (see Index.Returns).
type Result struct {
	ByValue, Storage bool
	RetParam         int
	Type             string
	// Bound, RefersPtr, RefersView, Reassigns: see Func.
	Bound                 []int
	RefersPtr, RefersView bool
	Reassigns             []int
}

// Returns says what a call of a function the tree only declares returns
// (see Func.Decl): ok when every declaration that fits it is known and
// they agree on RetParam; by value only when every one does, owning a
// buffer only when every one does, of a type only when all name it.
func (ix *Index) Returns(c Call) (Result, bool) {
	if ix == nil {
		return Result{}, false
	}
	name := lastName(c.Name)
	if ix.lz != nil {
		ix.lz.mu.Lock()
		defer ix.lz.mu.Unlock()
		ix.lz.read(ix, kindDecl, name)
	}
	all := ix.decls[name]
	if len(all) > maxScanned {
		return Result{}, false
	}
	r := Result{ByValue: true, Storage: true, RetParam: -1}
	ok := false
	qual := ""
	if i := strings.LastIndex(c.Name, "::"); i > 0 {
		qual = strings.TrimPrefix(c.Name[:i], "::")
	}
	for _, f := range all {
		if c.Nargs >= 0 && f.Arity != c.Nargs || f.Class != "" {
			continue
		}
		if qual != "" && f.Namespace != "" && f.Namespace != qual && !strings.HasSuffix(f.Namespace, "::"+qual) {
			// std::get is not a get another namespace declares (one
			// declared in no namespace holdfast read may be, when the
			// namespace is opened by a macro).
			continue
		}
		if r.RetParam >= 0 && f.RetParam != r.RetParam {
			return Result{}, false
		}
		if !ok {
			r.Type = f.Type
			r.Bound, r.RefersPtr, r.RefersView = f.Bound, f.RefersPtr, f.RefersView
			r.Reassigns = f.Reassigns
		} else {
			r.Reassigns = Union(r.Reassigns, f.Reassigns)
			if f.Type != r.Type {
				r.Type = ""
			}
			r.Bound = intersect(r.Bound, f.Bound)
		}
		r.RetParam = f.RetParam
		r.ByValue, r.Storage = r.ByValue && f.ByValue, r.Storage && f.Storage
		ok = true
	}
	if !ok {
		return Result{}, false
	}
	if !r.ByValue {
		r.Type = ""
	}
	return r, true
}

func lastName(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[i+2:]
	}
	return s
}

// join merges the facts of the functions a call may run.
func join(cands []*Func) *Func {
	if len(cands) == 1 {
		out := *cands[0]
		return &out
	}
	out := *cands[0]
	out.Keeps, out.Reaches = slices.Clone(out.Keeps), slices.Clone(out.Reaches)
	for _, c := range cands[1:] {
		out.Frees = intersect(out.Frees, c.Frees)
		out.FreesDeref = intersect(out.FreesDeref, c.FreesDeref)
		out.FreesFields = slices.DeleteFunc(slices.Clone(out.FreesFields), func(f string) bool { return !slices.Contains(c.FreesFields, f) })
		out.StoresIn = slices.DeleteFunc(slices.Clone(out.StoresIn), func(f string) bool { return !slices.Contains(c.StoresIn, f) })
		out.Holds = slices.DeleteFunc(slices.Clone(out.Holds), func(f string) bool { return !slices.Contains(c.Holds, f) })
		out.Fields = joinFields(out.Fields, c.Fields)
		out.Grows = intersect(out.Grows, c.Grows)
		out.Bound = intersect(out.Bound, c.Bound)
		// The program's favour: any of them may store a new pointer.
		out.Reassigns = Union(out.Reassigns, c.Reassigns)
		out.RefersView = out.RefersView && c.RefersView
		out.MayFree = out.MayFree && c.MayFree
		out.Encodes = intersectMap(out.Encodes, c.Encodes)
		out.Defers = intersectMap(out.Defers, c.Defers)
		out.KeepsRefs = intersectMap(out.KeepsRefs, c.KeepsRefs)
		out.MayKeepRefs = intersectMap(out.MayKeepRefs, c.MayKeepRefs)
		out.Keeps = Union(out.Keeps, c.Keeps)
		out.Reaches = Union(out.Reaches, c.Reaches)
		out.Waits = out.Waits || c.Waits
		out.ByValue = out.ByValue && c.ByValue
		out.Storage = out.Storage && c.Storage
		if out.Type != c.Type || !out.ByValue {
			out.Type = ""
		}
		if !slices.EqualFunc(out.Queues, c.Queues, func(a, b Queued) bool {
			return a.Queue == b.Queue && slices.Equal(a.Reads, b.Reads) && slices.Equal(a.Writes, b.Writes) && a.PinnedOnly == b.PinnedOnly
		}) {
			out.Queues = nil
		}
		if out.Refers != c.Refers || out.RefersPtr != c.RefersPtr || out.ReferType != c.ReferType || out.ReferDeref != c.ReferDeref {
			out.Refers, out.RefersPtr, out.ReferType, out.ReferDeref = 0, false, "", false
		}
		if out.Arity != c.Arity {
			out.Arity = -1
		}
	}
	return &out
}

// FreesArg reports whether f frees its argument i on every path.
func (f *Func) FreesArg(i int) bool { return f != nil && slices.Contains(f.Frees, i) }

// ReachesArg reports whether f may reach what its argument i points to.
func (f *Func) ReachesArg(i int) bool { return f != nil && slices.Contains(f.Reaches, i) }

// KeepsArg reports whether f may keep its argument i past the call.
func (f *Func) KeepsArg(i int) bool { return f != nil && slices.Contains(f.Keeps, i) }

func intersect(a, b []int) []int {
	var out []int
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// Union returns the sorted union of two sets of argument positions.
func Union(a, b []int) []int {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

func intersectMap(a, b map[int]string) map[int]string {
	var out map[int]string
	for k, v := range a {
		if w, ok := b[k]; ok {
			if out == nil {
				out = map[int]string{}
			}
			if w < v {
				v = w // the same answer whatever the merge order
			}
			out[k] = v
		}
	}
	return out
}

// Members returns the data members of the class the tree defines under
// name (its last component), by member name, or nil.
func (ix *Index) Members(class string) map[string]string {
	if ix == nil {
		return nil
	}
	if i := strings.LastIndex(class, "::"); i >= 0 {
		class = class[i+2:]
	}
	if ix.lz != nil {
		ix.lz.mu.Lock()
		defer ix.lz.mu.Unlock()
		ix.lz.read(ix, kindClass, class)
	}
	return ix.classes[class]
}

// MembersIn returns the data members of the class named class as an
// unqualified or qualified name written in scope (see
// parser.File.Scope) finds it ([basic.lookup.unqual],
// [basic.lookup.qual]): of the classes of that name the tree defines in
// different namespaces, those of the innermost namespace enclosing scope
// that has one, with the definitions whose namespace is not known or is
// the global one. When no enclosing namespace has one (a
// using-directive, argument-dependent lookup), or all are in one
// namespace, it answers as Members does.
func (ix *Index) MembersIn(class, scope string) map[string]string {
	all := ix.Members(class)
	if all == nil {
		return nil
	}
	last, qual := class, ""
	if i := strings.LastIndex(class, "::"); i >= 0 {
		last, qual = class[i+2:], strings.TrimPrefix(class[:i], "::")
	}
	if ix.lz != nil {
		ix.lz.mu.Lock()
		defer ix.lz.mu.Unlock()
	}
	known := map[string][]*Class{}
	for _, c := range ix.scoped[last] {
		if c.Namespace != "" && c.Namespace != "?" {
			known[c.Namespace] = append(known[c.Namespace], c)
		}
	}
	if len(known) < 2 {
		return all
	}
	for s := scope; ; {
		key := qual
		switch {
		case s != "" && qual != "":
			key = s + "::" + qual
		case s != "":
			key = s
		}
		if len(known[key]) > 0 {
			// In the order the definitions were read, as Members merges.
			var out map[string]string
			for _, c := range ix.scoped[last] {
				if c.Namespace != key && c.Namespace != "" && c.Namespace != "?" {
					continue
				}
				if out == nil {
					out = c.Members
				} else {
					out = mergeClass(out, c.Members)
				}
			}
			return out
		}
		if s == "" {
			return all
		}
		if i := strings.LastIndex(s, "::"); i >= 0 {
			s = s[:i]
		} else {
			s = ""
		}
	}
}

// Alias returns what the type alias name names in the tree, or "".
func (ix *Index) Alias(name string) string {
	if ix == nil {
		return ""
	}
	if ix.lz != nil {
		ix.lz.mu.Lock()
		defer ix.lz.mu.Unlock()
		ix.lz.read(ix, kindAlias, name)
	}
	return ix.aliases[name]
}

// Cut says the fixpoint over the functions' forwards stopped at
// MaxComposeRounds with facts still growing, for the functions the index
// has been asked about so far.
func (ix *Index) Cut() bool {
	if ix == nil {
		return false
	}
	if ix.lz != nil {
		ix.lz.mu.Lock()
		defer ix.lz.mu.Unlock()
	}
	return ix.cut
}

// atoi is the number s says, 0 when it says none.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// joinFields is what either of two functions may read of their object
// parameters (see Func.Fields): a parameter only one of them lists may be
// read whole by the other.
func joinFields(a, b []string) []string {
	of := func(l []string) map[string][]string {
		m := map[string][]string{}
		for _, e := range l {
			if k, fs, ok := strings.Cut(e, ":"); ok {
				m[k] = strings.Split(fs, ",")
			}
		}
		return m
	}
	ma, mb := of(a), of(b)
	var out []string
	for k, fa := range ma {
		fb, ok := mb[k]
		if !ok {
			continue
		}
		all := slices.DeleteFunc(append(slices.Clone(fa), fb...), func(f string) bool { return f == "" })
		slices.Sort(all)
		out = append(out, k+":"+strings.Join(slices.Compact(all), ","))
	}
	slices.Sort(out)
	return out
}
