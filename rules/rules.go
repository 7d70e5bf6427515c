// Package rules holds holdfast's checks. Each rule is a value: its
// metadata (diag.Rule, which also drives `holdfast rules`, `explain`, the
// docs and SARIF) and a pure function over the lifetime model of one
// function. One rule per file; the registry below lists them explicitly.
package rules

import (
	"github.com/holdfast-dev/holdfast/internal/budget"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

// Rule is one check.
type Rule struct {
	Meta *diag.Rule
	// Check inspects one function's model and reports through the pass.
	Check func(p *Pass, fn *lifetime.Func)
	// CheckFile, when set, inspects what a file declares outside function
	// bodies (a class's constructor declarations), once per file.
	CheckFile func(p *Pass)
}

// All returns every rule, in ID order. The slice is new on each call.
func All() []*Rule {
	return []*Rule{
		asyncOutlivesBuffer(),
		holdDropped(),
		defaultedHold(),
		futureDiscarded(),
		streamWorkOutlivesLocal(),
		closureCapturesBorrow(),
		rawPointerEscapes(),
		useAfterCalleeFrees(),
		borrowFromTemporary(),
		elementReferenceInvalidated(),
		descriptorQueued(),
		recordCopyUnkept(),
		holdNeverFilled(),
		filledArrayNotPassed(),
		noopContiguous(),
		freeBeforeStream(),
		deferralStatusIgnored(),
		allocatorPointerInCallback(),
		crossStreamRelease(),
		threadLocalAllocatorFree(),
		writeToTemporary(),
		callbackOutlivesCapture(),
		gilObjectInCallback(),
		workWithoutFuture(),
		useAfterHandoff(),
		completionFreesIntoPool(),
		mutationInFlight(),
		hostReadsPending(),
		useAfterFree(),
		useAfterMove(),
	}
}

// ByID finds a rule by ID, name or former name.
func ByID(id string) *Rule {
	for _, r := range All() {
		if r.Meta.Named(id) {
			return r
		}
	}
	return nil
}

// Pass is a rule's window on one file: the functions' models, the API
// model, and a way to report. Rules never read files or print.
type Pass struct {
	File  *parser.File
	Model *apimodel.Model
	// Funcs are the models of every function of the file, for facts a
	// rule needs about the callees the file defines.
	Funcs []*lifetime.Func
	// Tree is what the other files of the scan say of their functions
	// (nil: nothing), for calls this file does not define.
	Tree *summary.Index
	// Meter is the file's work budget (nil: none); see Steps.
	Meter *budget.Meter
	rule  *Rule
	// findings grows by appends; what Steps yielded of it is never
	// written again (a finding is taken out of a copy).
	findings   []*diag.Finding
	frees      map[*lifetime.Func]map[int]bool   // see freeSummaries
	encodes    map[*lifetime.Func]map[int]string // see encodeSummaries
	mayFrees   map[*lifetime.Func]bool           // see mayFreeSummaries
	defers     map[*lifetime.Func]map[int]string // see deferSummaries
	byName     map[string][]*lifetime.Func       // the file's functions by last name component, for callee
	core       map[parser.NodeID][]core.Fault    // see coreFaults
	coreSums   *core.FileSummaries
	coreRan    map[parser.NodeID]map[parser.NodeID]bool // per function, the lambdas its execution ran
	coreCut    []string                                 // the functions whose paths the executor's bound cut
	coreMerged []string                                 // the functions whose paths the bound merged and did not cut
	order      []*lifetime.Func                         // see calleesFirst
	// usingNS and usingNames: what the file's using-directives and
	// -declarations name, read once (usingsRead; see scopeOf).
	usingNS, usingNames []string
	usingsRead          bool
}

// Run applies rules to the functions of one file and returns the findings
// in a deterministic order. tree (nil: none) is the summaries of the other
// files of the scan.
func Run(f *parser.File, m *apimodel.Model, funcs []*lifetime.Func, rs []*Rule, tree *summary.Index) []*diag.Finding {
	return RunFile(f, m, funcs, rs, tree).Findings
}

// Outcome is what the rules found in a file, and what they could not
// look at in full.
type Outcome struct {
	Findings []*diag.Finding
	// Cut names the functions (sorted) with more paths alive at once than
	// the executor follows: the paths past the bound were not executed.
	Cut []string
	// Merged names the functions (sorted) whose paths past the bound were
	// all executed, some of them merged into one that forgot the way they
	// went (see core.Result.Merged).
	Merged []string
}

// RunFile runs the rules over a file's functions (see Run).
func RunFile(f *parser.File, m *apimodel.Model, funcs []*lifetime.Func, rs []*Rule, tree *summary.Index) Outcome {
	var out Outcome
	for oc := range Steps(f, m, funcs, rs, tree, nil) {
		out = oc
	}
	return out.Sorted()
}

// Sorted returns the outcome in RunFile's order: the findings sorted
// (diag.Sort), the cut functions sorted, each once. o is not changed.
func (o Outcome) Sorted() Outcome {
	return Outcome{Findings: diag.Sort(slices.Clone(o.Findings)), Cut: sortedSet(o.Cut), Merged: sortedSet(o.Merged)}
}

// Steps runs the rules over a file's functions as RunFile does, one step
// at a time: a rule's look at what the file declares, or a rule over one
// function. After each step it yields what the steps so far found, in
// the order they found it (Sorted puts it in RunFile's); the last is
// RunFile's outcome. A caller that stops the loop stops the rules before
// the next step and keeps what the steps done found. Later steps do not
// change what was yielded, findings included, so a caller may hand it to
// another goroutine while the loop goes on.
//
// Each step spends work from meter (nil: no bound): a rule over a
// function spends a unit per readBytes bytes of the function, and the
// core's execution a unit per statement on each path. Once the meter is
// out, the steps stop; the caller reads the meter to tell why.
func Steps(f *parser.File, m *apimodel.Model, funcs []*lifetime.Func, rs []*Rule, tree *summary.Index, meter *budget.Meter) iter.Seq[Outcome] {
	return func(yield func(Outcome) bool) {
		p := &Pass{File: f, Model: m, Funcs: funcs, Tree: tree, Meter: meter}
		for _, fn := range funcs {
			fn.Ends = p.ends
		}
		// Steps only append to these or take a finding out of a copy
		// (see reportCoreIf), so what is below the lengths stays as it is.
		step := func() bool {
			return yield(Outcome{Findings: p.findings[:len(p.findings):len(p.findings)], Cut: p.coreCut[:len(p.coreCut):len(p.coreCut)], Merged: p.coreMerged[:len(p.coreMerged):len(p.coreMerged)]})
		}
		for _, r := range rs {
			p.rule = r
			if r.CheckFile != nil {
				if !meter.Spend(len(f.Src)/readBytes + 1) {
					return
				}
				r.CheckFile(p)
				if !step() || meter.Out() {
					return
				}
			}
			if r.Check == nil {
				continue
			}
			for _, fn := range funcs {
				if !meter.Spend(readCost(f, fn)) {
					return
				}
				r.Check(p, fn)
				if !step() || meter.Out() {
					return
				}
			}
		}
	}
}

// readBytes is how many bytes of source a rule reads for one unit of
// work: about the text of one statement.
const readBytes = 32

// readCost is the work of one rule's look at fn.
func readCost(f *parser.File, fn *lifetime.Func) int {
	if fn.Node < 0 {
		return 1
	}
	n := f.Nodes[fn.Node]
	return int(n.End-n.Start)/readBytes + 1
}

// Report records a finding of the running rule at byte range [start, end).
func (p *Pass) Report(fn *lifetime.Func, start, end uint32, msg, anchor string, witness []diag.Step) {
	name := p.funcName(fn)
	p.findings = append(p.findings, &diag.Finding{
		Rule:     p.rule.Meta,
		Severity: p.rule.Meta.Severity,
		At:       p.Span(start, end),
		Message:  msg,
		Function: name,
		Witness:  p.onPath(fn, witness),
		Anchor:   anchor,
	})
}

// funcName names the function a finding in fn is in: a lambda's
// enclosing function, a gtest test as Suite.Name.
func (p *Pass) funcName(fn *lifetime.Func) string {
	name, top := fn.Name, fn
	for g := fn; g.Kind == lifetime.LambdaFunc && g.Parent != nil; g = g.Parent {
		name, top = g.Parent.Name, g.Parent
	}
	if t := testName(p.File, top.Node, name); t != "" {
		return t
	}
	return name
}

// testMacros define a test as a function: TEST(Suite, Name) { ... }.
var testMacros = map[string]bool{
	"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true,
}

// testName names a gtest test as test runners do, Suite.Name, when the
// function definition def is one; "" otherwise.
func testName(f *parser.File, def parser.NodeID, name string) string {
	if !testMacros[name] || f.Kind(def) != parser.KindFunctionDefinition {
		return ""
	}
	d := f.Field(def, parser.FieldDeclarator)
	if f.Kind(d) != parser.KindFunctionDeclarator {
		return ""
	}
	var parts []string
	for c := range f.NamedChildren(f.Field(d, parser.FieldParameters)) {
		if f.Kind(c) != parser.KindComment {
			parts = append(parts, strings.TrimSpace(f.Text(c)))
		}
	}
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return ""
	}
	return parts[0] + "." + parts[1]
}

// callee returns the function of the file a call of name with nargs
// arguments runs: the only definition of that name, or among overloads
// the only one with nargs parameters (nargs < 0: not known); nil when the
// file defines none or the overloads do not tell.
func (p *Pass) callee(name string, nargs int) *lifetime.Func {
	var only, byArity *lifetime.Func
	n, arity := 0, 0
	for _, g := range p.named(name) {
		n++
		only = g
		if nargs >= 0 && len(g.Params()) == nargs {
			arity++
			byArity = g
		}
	}
	switch {
	case n == 1:
		return only
	case arity == 1:
		return byArity
	}
	return nil
}

// calleeAt returns the function of the file that the call of event e
// (an argument or receiver of e.Call) runs, or nil.
func (p *Pass) calleeAt(fn *lifetime.Func, e *lifetime.Event) *lifetime.Func {
	return p.callee(e.Call, fn.ArgCount(e))
}

// summarise computes facts about the parameters of the file's functions
// (lambdas left out), by index, to a fixpoint: facts(f, known) returns
// what f's body says of its parameters given the facts known so far about
// the functions it calls; a fact, once found, stays. The functions are
// visited callees first, so a chain of calls settles in one round
// whatever the order of the file; recursion takes more rounds, bounded by
// maxRounds.
func summarise[T any](p *Pass, facts func(f *lifetime.Func, known map[*lifetime.Func]map[int]T) map[int]T) map[*lifetime.Func]map[int]T {
	out := map[*lifetime.Func]map[int]T{}
	order := p.calleesFirst()
	for grew, round := true, 0; grew && round < maxRounds; round++ {
		grew = false
		for _, f := range order {
			for i, t := range facts(f, out) {
				if _, had := out[f][i]; had {
					continue
				}
				if out[f] == nil {
					out[f] = map[int]T{}
				}
				out[f][i] = t
				grew = true
			}
		}
	}
	return out
}

// maxRounds bounds the rounds of a file's summary fixpoint; facts only
// grow, so the bound is reached only through long recursive cycles.
const maxRounds = 16

// calleesFirst orders the file's functions (lambdas left out) so that a
// function comes after the functions of the file it calls, where the
// calls allow it (a depth-first post-order over the file's call graph,
// from the functions in file order).
func (p *Pass) calleesFirst() []*lifetime.Func {
	if p.order != nil {
		return p.order
	}
	state := map[*lifetime.Func]uint8{} // 1: on the path, 2: placed
	var out []*lifetime.Func
	var visit func(f *lifetime.Func)
	visit = func(f *lifetime.Func) {
		if state[f] != 0 {
			return
		}
		state[f] = 1
		seen := map[string]bool{}
		for i := range f.Events {
			c := f.Events[i].Call
			if c == "" || seen[c] {
				continue
			}
			seen[c] = true
			for _, g := range p.named(c) {
				visit(g)
			}
		}
		state[f] = 2
		out = append(out, f)
	}
	for _, f := range p.Funcs {
		if f.Kind != lifetime.LambdaFunc {
			visit(f)
		}
	}
	p.order = out
	return out
}

// treeFacts returns what the other files of the scan say a call of name
// with nargs arguments (nargs < 0: not known) does, when this file does
// not define name itself; nil when they say nothing.
func (p *Pass) treeFacts(name string, nargs int) *summary.Func {
	if p.Tree == nil || p.definedHere(name) {
		return nil
	}
	return p.Tree.Lookup(name, nargs)
}

// whereDefined says where the function a call event runs is defined: "in
// this file", or in which other file of the scan.
func (p *Pass) whereDefined(fn *lifetime.Func, e *lifetime.Event) string {
	if p.calleeAt(fn, e) == nil {
		if t := p.treeFactsAt(fn, e); t != nil && t.File != "" {
			return "in " + esc.Name(t.File)
		}
	}
	return "in this file"
}

// treeFactsAt is treeFacts for the call of event e (an argument or
// receiver of e.Call), matched by its receiver's class when it has one.
func (p *Pass) treeFactsAt(fn *lifetime.Func, e *lifetime.Event) *summary.Func {
	if p.Tree == nil {
		return nil
	}
	c, ok := p.treeCall(fn, e)
	if !ok {
		return nil
	}
	return p.Tree.LookupCall(c)
}

// treeCall describes the call of event e of fn as the tree's index
// matches it; false when the file defines the function called (the
// file's own summaries answer for it) or e names no call.
func (p *Pass) treeCall(fn *lifetime.Func, e *lifetime.Event) (summary.Call, bool) {
	if e.Call == "" || p.definedHere(e.Call) {
		return summary.Call{}, false
	}
	c := summary.Call{Name: e.Call, Nargs: fn.ArgCount(e)}
	if cls := enclosing(fn).Class; cls != nil {
		c.Within = cls.Name
	}
	c.Scope, c.Namespaces, c.Names, c.Scoped = p.scopeOf(enclosing(fn).Node)
	call := fn.EnclosingCall(e.Node)
	if e.Node >= 0 && p.File.Kind(e.Node) == parser.KindCallExpression {
		call = e.Node
	}
	if call != parser.None {
		if callee := p.File.Field(call, parser.FieldFunction); p.File.Kind(callee) == parser.KindFieldExpression {
			c.Member = true
			c.Receiver = classOf(p.valueType(fn, p.File.Field(callee, parser.FieldArgument)))
		}
	}
	return c, true
}

// valueType returns the declared type of the value expression n names (a
// local or parameter of fn, this->member or a member by name), or "".
func (p *Pass) valueType(fn *lifetime.Func, n parser.NodeID) string {
	file := p.File
	if n == parser.None {
		return ""
	}
	switch file.Kind(n) {
	case parser.KindParenthesizedExpression:
		for c := range file.NamedChildren(n) {
			return p.valueType(fn, c)
		}
		return ""
	case parser.KindFieldExpression:
		if file.Kind(file.Field(n, parser.FieldArgument)) != parser.KindThis {
			return ""
		}
		n = file.Field(n, parser.FieldField)
	case parser.KindIdentifier, parser.KindFieldIdentifier:
	default:
		return ""
	}
	name := file.Text(n)
	at := file.Nodes[n].Start
	best := -1
	for i := range fn.Vars {
		if v := &fn.Vars[i]; v.Name == name && v.At <= at && (best < 0 || v.At >= fn.Vars[best].At) {
			best = i
		}
	}
	if best >= 0 {
		return fn.Vars[best].Type
	}
	if m := enclosing(fn).Class.Member(name); m != nil && !m.Method {
		return m.Type
	}
	return ""
}

// classOf returns the class a value of the declared type refers to:
// without qualifiers, namespaces, pointers, references and template
// arguments, and through a smart pointer to what it points to
// (std::unique_ptr<ns::Pool>&: Pool); "" when the type is not written.
func classOf(typ string) string {
	t := strings.TrimSpace(typ)
	for _, q := range []string{"const ", "volatile ", "struct ", "class "} {
		t = strings.TrimPrefix(t, q)
	}
	t = strings.TrimRight(t, "*& ")
	t = strings.TrimSuffix(t, " const")
	if i := strings.IndexByte(t, '<'); i >= 0 {
		base := t[:i]
		if j := strings.LastIndex(base, "::"); j >= 0 {
			base = base[j+2:]
		}
		switch base {
		case "unique_ptr", "shared_ptr", "RefCountPtr", "intrusive_ptr", "scoped_refptr", "weak_ptr":
			if k := strings.LastIndexByte(t, '>'); k > i {
				return classOf(t[i+1 : k])
			}
		}
		t = base
	}
	if j := strings.LastIndex(t, "::"); j >= 0 {
		t = t[j+2:]
	}
	if t == "auto" || strings.ContainsAny(t, " ()[]") {
		return ""
	}
	return t
}

// classOfFunc returns the class a function of the file is a method of:
// its class in the file, else the qualifier its definition is written
// with (Pool::release: Pool); "" for a free function.
func classOfFunc(g *lifetime.Func) string {
	if g.Class != nil && g.Class.Name != "" {
		return g.Class.Name
	}
	q := g.Name
	i := strings.LastIndex(q, "::")
	if i < 0 {
		return ""
	}
	q = q[:i]
	if j := strings.LastIndex(q, "::"); j >= 0 {
		q = q[j+2:]
	}
	if k := strings.IndexByte(q, '<'); k >= 0 {
		q = q[:k]
	}
	return q
}

// linkage returns the namespace function definition def is in and
// whether no other translation unit can name it: a function that is
// not a method, declared static or in an unnamed namespace, in a source
// file (not a header, which other files include) ([basic.link]).
func linkage(f *parser.File, def parser.NodeID, class string) (ns string, local bool) {
	ns, local = f.Namespace(def)
	if class == "" && f.Kind(def) == parser.KindFunctionDefinition {
		for c := range f.NamedChildren(def) {
			if f.Text(c) == "static" {
				local = true
				break
			}
		}
	}
	return ns, local && sourceFile(f.Ext)
}

// sourceFile says a file of extension ext is compiled on its own rather
// than included.
func sourceFile(ext string) bool {
	switch ext {
	case ".c", ".cc", ".cpp", ".cxx", ".c++", ".cu", ".m", ".mm":
		return true
	}
	return false
}

// scopeOf returns the scope of the calls made in function definition
// def and what the file's using-directives and -declarations name (see
// summary.Call); ok false when def is no node.
func (p *Pass) scopeOf(def parser.NodeID) (scope string, namespaces, names []string, ok bool) {
	if def < 0 {
		return "", nil, nil, false
	}
	namespaces, names = p.usings()
	return p.File.Scope(def), namespaces, names, true
}

// usings returns what the file's using-directives and -declarations name
// (see parser.File.Usings), read once.
func (p *Pass) usings() (namespaces, names []string) {
	if !p.usingsRead {
		p.usingNS, p.usingNames = p.File.Usings()
		p.usingsRead = true
	}
	return p.usingNS, p.usingNames
}

// freesThroughPointer says definition def may free through a pointer to
// a pointer (a T** parameter and a delete or free in its body): the core
// then says whether it frees *pp on every path.
func freesThroughPointer(f *parser.File, def parser.NodeID) bool {
	text := f.Text(def)
	body := f.Text(f.Field(def, parser.FieldBody))
	return len(text) > len(body) && strings.Contains(text[:len(text)-len(body)], "**") &&
		(strings.Contains(body, "delete") || strings.Contains(body, "free("))
}

// freesField says definition def may free a field of what a parameter
// points to (free(c->buf), delete p->next): worth executing for its
// summary (see core.Call.FreesFields).
func freesField(f *parser.File, def parser.NodeID) bool {
	body := f.Text(f.Field(def, parser.FieldBody))
	return strings.Contains(body, "->") && (strings.Contains(body, "delete") || strings.Contains(body, "free"))
}

// storesField says definition def may store one pointer parameter in a
// field of what another points to (q->field = p): worth executing for
// its summary (see core.Call.StoresIn).
func storesField(f *parser.File, def parser.NodeID) bool {
	names := core.PointerParams(f, def)
	if len(names) < 2 {
		return false
	}
	body := f.Text(f.Field(def, parser.FieldBody))
	for _, q := range names {
		if !strings.Contains(body, q+"->") {
			continue
		}
		for _, p := range names {
			if p != q && (strings.Contains(body, "= "+p) || strings.Contains(body, "="+p)) {
				return true
			}
		}
	}
	return false
}

// Summarise returns the summary of a file's functions (lambdas left out)
// for the other files of a scan: what each does to its parameters. It
// spends work from meter (nil: no bound) as Steps does; once the meter is
// out it returns nil, as a summary cut short would speak for functions
// it did not read in full.
func Summarise(f *parser.File, m *apimodel.Model, funcs []*lifetime.Func, tree *summary.Index, meter *budget.Meter) *summary.File {
	p := &Pass{File: f, Model: m, Funcs: funcs, Tree: tree, Meter: meter}
	if !meter.Spend(4 * (len(f.Src)/readBytes + 1)) {
		return nil
	}
	frees, mayFrees, encodes, defers := p.freeSummaries(), p.mayFreeSummaries(), p.encodeSummaries(), p.deferSummaries()
	// The file's own classes: what an object of one that a function
	// returns keeps of its arguments (core.Call.Holds). Classes of other
	// files are not read here, so the summary depends on this file alone.
	classes := core.Classes(f)
	members := func(c string) map[string]string { return classes[c] }
	out := &summary.File{}
	for _, g := range funcs {
		if g.Kind == lifetime.LambdaFunc || g.Node < 0 {
			continue
		}
		ps := g.Params()
		// The walks below read the function once for each parameter and
		// a few times more.
		if !meter.Spend((len(ps) + 4) * readCost(f, g)) {
			return nil
		}
		s := summary.Func{Name: shortName(g.Name), Class: classOfFunc(g), File: f.Path, Arity: len(ps), MayFree: mayFrees[g], Waits: p.mayWaitIn(g)}
		s.Namespace, s.Local = linkage(f, g.Node, s.Class)
		s.ByValue, s.Storage = core.Returns(f, g.Node)
		s.RetParam = core.RetParam(f, g.Node)
		s.Type = core.ResultType(f, g.Node)
		s.Bound, s.RefersPtr, s.RefersView = core.BoundParams(f, g.Node, m)
		s.Reassigns = core.ReassignedParams(f, g.Node)
		s.Fields = core.FieldReads(f, g.Node)
		if def := f.Kind(g.Node) == parser.KindFunctionDefinition; def && (callsDevice(f, m, g.Node) || freesThroughPointer(f, g.Node) || freesField(f, g.Node) || storesField(f, g.Node) || core.MayGrow(f, g.Node) || core.MayRefer(f, g.Node) || core.MayHold(f, g.Node)) {
			r := core.Summarise(f, g.Node, core.Options{API: m, Meter: meter, Members: members})
			s.Grows = r.Grows
			for _, q := range r.Queues {
				s.Queues = append(s.Queues, summary.Queued{Reads: q.Reads, Writes: q.Writes, Queue: q.Queue, What: q.What, PinnedOnly: q.PinnedOnly})
			}
			s.FreesDeref, s.FreesFields, s.StoresIn, s.Holds = r.FreesDeref, r.FreesFields, r.StoresIn, r.Holds
			s.Refers, s.RefersPtr, s.ReferType, s.ReferDeref = r.Refers, r.RefersPtr, r.ReferType, r.ReferDeref
		}
		for i := range ps {
			if frees[g][i] {
				s.Frees = append(s.Frees, i)
			}
			if p.mayKeep(g, i) {
				s.Keeps = append(s.Keeps, i)
			}
			if p.mayReach(g, i) {
				s.Reaches = append(s.Reaches, i)
			}
		}
		if len(encodes[g]) > 0 {
			s.Encodes = encodes[g]
		}
		if len(defers[g]) > 0 {
			s.Defers = defers[g]
		}
		s.KeepsRefs, s.MayKeepRefs = keptReferences(g)
		s.Forwards = p.forwards(g, frees)
		out.Funcs = append(out.Funcs, s)
	}
	if meter.Out() {
		return nil
	}
	for _, d := range core.Declarations(f, m) {
		out.Funcs = append(out.Funcs, summary.Func{Name: d.Name, File: f.Path, Arity: d.Arity, ByValue: d.ByValue, Storage: d.Storage, RetParam: d.RetParam, Type: d.Type, Decl: true, Namespace: d.Namespace,
			Bound: d.Bound, RefersPtr: d.RefersPtr, RefersView: d.RefersView, Reassigns: d.Reassigns})
	}
	if aliases := core.TreeAliases(f); len(aliases) > 0 {
		out.Aliases = aliases
	}
	out.Exits = core.TreeExits(f, m)
	scopes := core.ClassNamespaces(f)
	for _, name := range slices.Sorted(maps.Keys(classes)) {
		out.Classes = append(out.Classes, summary.Class{Name: name, Namespace: scopes[name], Members: classes[name]})
	}
	out.Sort()
	return out
}

// named returns the functions the file defines under name (compared by
// its last component), lambdas left out.
func (p *Pass) named(name string) []*lifetime.Func {
	if p.byName == nil {
		p.byName = map[string][]*lifetime.Func{}
		for _, g := range p.Funcs {
			if g.Kind != lifetime.LambdaFunc {
				n := shortName(g.Name)
				p.byName[n] = append(p.byName[n], g)
			}
		}
	}
	return p.byName[shortName(name)]
}

// definedHere reports whether the file defines a function called name.
func (p *Pass) definedHere(name string) bool {
	return len(p.named(name)) > 0
}

// setSeverity sets the severity of the finding reported last.
func (p *Pass) setSeverity(s diag.Severity) {
	if n := len(p.findings); n > 0 {
		p.findings[n-1].Severity = s
	}
}

// Span converts a byte range of the file to a diag.Span.
func (p *Pass) Span(start, end uint32) diag.Span {
	return diag.Span{Start: p.Pos(start), End: p.Pos(end)}
}

// Pos converts a byte offset to a diag.Pos.
func (p *Pass) Pos(off uint32) diag.Pos {
	l, c := p.File.Position(int(off))
	return diag.Pos{File: p.File.Path, Offset: int(off), Line: l, Col: c}
}

// Step makes a witness step at an event.
func (p *Pass) Step(fn *lifetime.Func, k diag.StepKind, e *lifetime.Event, value, other, msg string) diag.Step {
	start, end := e.At, e.At+1
	if e.Node >= 0 && e.Kind != lifetime.ScopeExit {
		end = p.File.Nodes[e.Node].End
	}
	st := diag.Step{Kind: k, At: p.Span(start, end), Value: value, Other: other, Via: e.Call, Message: msg}
	if k == diag.StepAsync && e.Kind == lifetime.Async && e.Flags&lifetime.Inferred != 0 {
		// No pack says the call works behind the host: that it does is
		// the unseen callee's business, so the finding can only be latent.
		st.Assumed = true
		st.Message += " (assumed: no API model says " + e.Call + " runs behind the host)"
	}
	return st
}

// Line returns the 1-based line of an offset.
func (p *Pass) Line(off uint32) int {
	l, _ := p.File.Position(int(off))
	return l
}

// nodeEnd returns the end offset of an event's node.
func (p *Pass) nodeEnd(e *lifetime.Event) uint32 {
	if e.Node < 0 {
		return e.At + 1
	}
	return p.File.Nodes[e.Node].End
}

// callsDevice says definition def calls something the packs' device
// entries name: only such a function can leave device work pending, so
// only such a one is executed for its summary.
func callsDevice(f *parser.File, m *apimodel.Model, def parser.NodeID) bool {
	end := f.End(def)
	for n := def; n < end; n++ {
		if f.Nodes[n].Kind != parser.KindCallExpression {
			continue
		}
		fn := f.Field(n, parser.FieldFunction)
		method := f.Kind(fn) == parser.KindFieldExpression
		if method {
			fn = f.Field(fn, parser.FieldField)
		}
		name := f.Text(fn)
		if i := strings.IndexByte(name, '<'); i >= 0 {
			name = name[:i]
		}
		if _, ok := m.Device(strings.TrimSpace(name), method); ok {
			return true
		}
	}
	return false
}

// sortedSet returns the names of names sorted, each once; names is not
// changed.
func sortedSet(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}
