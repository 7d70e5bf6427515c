//go:build cgo

// Package parser turns C, C++, CUDA and Objective-C++ source into a flat
// syntax table (File) with tree-sitter's C++ grammar. tree-sitter types
// never leave this package: every parser and tree is closed here, and the
// later stages work on Go data only.
package parser

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"math"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/holdfast-dev/holdfast/parser/objc"
)

// Parser parses files one at a time. It is not safe for concurrent use:
// give each worker its own, and Close it when done.
type Parser struct {
	p    *sitter.Parser
	g    *grammar
	opts Options
	raw  []rawNode // the C-shaped table, reused from file to file
	decl map[string]bool
}

// Options configure a Parser.
type Options struct {
	// DeclMacros name macros whose first argument declares a variable
	// initialised by the second, like TF_ASSIGN_OR_RETURN(auto x, f()).
	// Macro calls of that shape are read as declarations without being
	// listed; a listed macro is rewritten whatever its arguments look like.
	DeclMacros []string
	// Timeout bounds the time spent parsing one file; 0 means no bound.
	Timeout time.Duration
}

// ErrTimeout is returned when a file takes longer than Options.Timeout.
var ErrTimeout = errors.New("parse time budget exceeded")

// New returns a Parser for C++. It also makes tree-sitter allocate with the
// C library's allocator rather than the binding's Go callbacks, which are
// markedly slower.
func New(opts Options) (*Parser, error) {
	useCAllocator()
	g := cppGrammar()
	p := sitter.NewParser()
	if err := p.SetLanguage(g.lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("loading the C++ grammar: %w", err)
	}
	if opts.Timeout > 0 {
		//nolint:staticcheck // the per-parse budget is what this bounds; the progress-callback form re-enters Go for every chunk.
		p.SetTimeoutMicros(uint64(opts.Timeout.Microseconds()))
	}
	decl := make(map[string]bool, len(opts.DeclMacros))
	for _, name := range opts.DeclMacros {
		if name != "" {
			decl[name] = true
		}
	}
	return &Parser{p: p, g: g, opts: opts, decl: decl}, nil
}

// Close releases the tree-sitter parser.
func (p *Parser) Close() {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
}

// Parse parses src. path is kept for reporting; ext (".mm", ".m", ".cc",
// ...) decides whether Objective-C constructs are neutralised first. Before
// parsing, dead `#if 0` branches are blanked and declaration macros
// rewritten; when the parse has errors where a conditional splits a
// statement, the text with only its first branch is parsed too and the
// one with fewer errors kept. Every rewrite keeps each byte in its place.
// The returned File owns src (or its rewritten copy).
func (p *Parser) Parse(path, ext string, src []byte) (*File, error) {
	if p.p == nil {
		return nil, errors.New("parser is closed")
	}
	var boxed []uint32
	if ext == ".mm" || ext == ".m" || objectiveC(src) {
		src, boxed = objc.NeutraliseBoxed(src)
	}
	dirs, chains := conditionals(src)
	src = blankDeadBranches(src, dirs, chains)
	src = joinElseGroups(src, dirs, chains)
	src = neutraliseCUDA(src, true)
	src = rewriteDeclMacros(src, p.decl)
	src = rewriteBraceCaptures(src)
	if uint64(len(src)) > math.MaxUint32 {
		return nil, errors.New("file too large for tree-sitter (4 GiB)")
	}
	f, tree, err := p.parse(path, ext, src, nil)
	if err != nil {
		return nil, err
	}
	// Conditionals may split a statement or a brace between branches; if
	// keeping only their first branches leaves fewer errors, read that.
	// Then unknown attribute and format macros on the lines of the errors
	// left are read as what they expand to (see attributeMacros), kept
	// when that leaves fewer errors. Each reparse reuses the tree it
	// improves on outside the edited lines.
	if f.Errors > 0 && len(chains) > 0 {
		before := f
		f, tree = p.retry(path, ext, f, tree, func(f *File) ([]byte, [][2]int) { return firstBranches(f, dirs, chains) })
		f.FirstBranches = f != before
	}
	if f.Errors > 0 {
		first := f.FirstBranches
		f, tree = p.retry(path, ext, f, tree, blockMacros)
		f, tree = p.retry(path, ext, f, tree, classHeadConditionals)
		f.FirstBranches = first
	}
	if f.Errors > 0 {
		first, before := f.FirstBranches, f
		f, tree = p.retry(path, ext, f, tree, attributeMacros)
		f.FirstBranches = first
		if f != before {
			f.Blanked = blankedWords(before.Src, f.Src)
		}
	}
	deleteTree(tree)
	f.Boxed = boxed
	return f, nil
}

// objectiveC says source of another extension is Objective-C++ all the
// same (a .cc or .h file a build compiles with -x objective-c++): it
// holds an @implementation, @interface or @protocol, which no C++ does.
func objectiveC(src []byte) bool {
	return bytes.Contains(src, []byte("@implementation")) || bytes.Contains(src, []byte("@interface")) ||
		bytes.Contains(src, []byte("@protocol"))
}

// retry reparses f with the text edit gives (nil: no edit), reusing tree,
// and returns the parse with fewer errors and its tree; the other tree is
// deleted.
func (p *Parser) retry(path, ext string, f *File, tree unsafe.Pointer, edit func(*File) ([]byte, [][2]int)) (*File, unsafe.Pointer) {
	alt, edits := edit(f)
	if alt == nil {
		return f, tree
	}
	// An edit only marks the ranges to read again, so the tree stays a
	// sound base for a later reparse whichever text is kept.
	editTree(tree, alt, edits)
	g, tree2, err := p.parse(path, ext, alt, tree)
	if err != nil {
		return f, tree
	}
	if g.Errors < f.Errors {
		deleteTree(tree)
		return g, tree2
	}
	deleteTree(tree2)
	return f, tree
}

// parse runs tree-sitter over src, reusing old when it is not nil, and
// copies the tree into a File. The caller deletes the tree it returns.
func (p *Parser) parse(path, ext string, src []byte, old unsafe.Pointer) (*File, unsafe.Pointer, error) {
	tree := parseTree(p.p, old, src)
	if tree == nil {
		// A parse stopped by the budget keeps its state for resuming;
		// drop it so the next file starts clean.
		p.p.Reset()
		if p.opts.Timeout > 0 {
			return nil, nil, fmt.Errorf("%w (%s)", ErrTimeout, p.opts.Timeout)
		}
		return nil, nil, errors.New("tree-sitter returned no tree")
	}
	raw, err := flattenPtr(tree, p.raw)
	if err != nil {
		deleteTree(tree)
		return nil, nil, err
	}
	p.raw = raw // reused by the next file: the table below is a copy
	f := &File{Path: path, Ext: ext, Src: src, Nodes: make([]Node, len(raw))}
	kinds, fields := p.g.kinds, p.g.fields
	for i := range raw {
		r := &raw[i]
		n := &f.Nodes[i]
		n.Start, n.End, n.Parent, n.Next = r.Start, r.End, r.Parent, r.Next
		n.Named = r.Flags&flagNamed != 0
		n.Error = r.Flags&flagError != 0
		n.Missing = r.Flags&flagMissing != 0
		switch {
		case n.Error:
			n.Kind = KindError
		case int(r.Sym) < len(kinds):
			n.Kind = kinds[r.Sym]
		}
		if int(r.Field) < len(fields) {
			n.Field = fields[r.Field]
		}
		if n.Error || n.Missing {
			f.Errors++
		}
	}
	if f.Errors > 0 {
		f.Errors -= markBenign(f)
		f.Errors += misreadStatements(f)
	}
	f.Errors += misreadClassHeads(f)
	macroBlocks(f)
	return f, tree, nil
}

// statementWords are the keywords that begin a statement: no
// declaration's type is one.
var statementWords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "do": true,
	"return": true, "else": true, "case": true, "goto": true, "break": true, "continue": true}

// misreadStatements marks as errors the function definitions that error
// recovery made of statements (if (a && b) { ... } read as a function of
// type "if" whose declarator is "(a && b)"): what they declare is not a
// function, and no stage may read its declarator. It returns how many it
// marked.
func misreadStatements(f *File) int {
	marked := 0
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Kind != KindFunctionDefinition {
			continue
		}
		if t := f.Field(NodeID(i), FieldType); t != None && statementWords[f.Text(t)] {
			n.Kind, n.Error = KindError, true
			marked++
		}
	}
	return marked
}

// misreadClassHeads marks as errors the function definitions the
// grammar made of a class whose head holds an unknown macro (class
// EXPORT_API Name { ... } read as a function of type class EXPORT_API
// whose declarator is the name Name): a function's declarator declares
// a function, never a plain name, so the attribute-macro reparse reads
// the head again with the macro blanked. It returns how many it marked.
func misreadClassHeads(f *File) int {
	marked := 0
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Kind != KindFunctionDefinition {
			continue
		}
		t, d := f.Field(NodeID(i), FieldType), f.Field(NodeID(i), FieldDeclarator)
		switch f.Kind(t) {
		case KindClassSpecifier, KindStructSpecifier:
		default:
			continue
		}
		if f.Kind(d) == KindIdentifier && f.Field(t, FieldBody) == None {
			n.Kind, n.Error = KindError, true
			marked++
		}
	}
	return marked
}

// markBenign marks the MISSING nodes the grammar inserts into code that is
// well formed as written, and returns how many it marked:
//   - the type of a braced default argument or initialiser (T x = {}):
//     the grammar reads `= {}` as a compound literal whose type is
//     missing;
//   - the semicolon of a statement macro (FOR_EACH_TYPE(CASE) at the end
//     of its line, with no semicolon: it expands to statements that end
//     in their own): the grammar reads it as a call statement, as
//     MacroStatementBody expects.
func markBenign(f *File) int {
	marked := 0
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if !n.Missing || n.Start != n.End || n.Parent < 0 {
			continue
		}
		p := n.Parent
		switch {
		case n.Kind == KindTypeIdentifier && n.Field == FieldType && f.Kind(p) == KindCompoundLiteralExpression &&
			f.Kind(f.Field(p, FieldValue)) == KindInitializerList:
		case f.Kind(p) == KindExpressionStatement && n.Next == None && macroStatementEnd(f, p):
		default:
			continue
		}
		n.Benign = true
		marked++
	}
	return marked
}

// macroStatementEnd reports whether expression statement stmt is a call
// of a plain name whose text ends its line: a statement macro written
// without a semicolon.
func macroStatementEnd(f *File, stmt NodeID) bool {
	call := f.FirstChild(stmt)
	if f.Kind(call) != KindCallExpression || f.Kind(f.Field(call, FieldFunction)) != KindIdentifier {
		return false
	}
	end := int(f.Nodes[call].End)
	for end < len(f.Src) && (f.Src[end] == ' ' || f.Src[end] == '\t' || f.Src[end] == '\r') {
		end++
	}
	return end >= len(f.Src) || f.Src[end] == '\n' || f.Src[end] == '/'
}

// BlockArgument returns the block a call expression takes as an argument
// (FOREACH(k, v, { ... })): C and C++ have no such argument, so the call
// is a statement macro that runs the block. None for any other call.
func BlockArgument(f *File, call NodeID) NodeID {
	for a := range f.NamedChildren(f.Field(call, FieldArguments)) {
		if f.Kind(a) == KindCompoundStatement {
			return a
		}
	}
	return None
}

// MacroStatementBody returns the statement a statement macro written
// without a block argument runs (list_for_each(h, p) { ... }, or the
// same with an indented statement on the next line): the grammar reads
// MACRO(args) as an expression statement that lacks its semicolon, and
// the statement after it as its sibling. It returns None for any other
// statement: one with its semicolon, one that is not a call of a plain
// name, or one followed by nothing that can be a body (a block, or a
// statement indented past the macro on a later line).
func MacroStatementBody(f *File, stmt NodeID) NodeID {
	if f.Kind(stmt) != KindExpressionStatement {
		return None
	}
	last, call := None, None
	for c := range f.Children(stmt) {
		if call == None && f.Nodes[c].Named {
			call = c
		}
		last = c
	}
	if last == None || !f.Nodes[last].Missing || f.Kind(call) != KindCallExpression || f.Kind(f.Field(call, FieldFunction)) != KindIdentifier {
		return None
	}
	next := f.End(stmt)
	for int(next) < len(f.Nodes) && f.Nodes[next].Parent == f.Nodes[stmt].Parent && f.Kind(next) == KindComment {
		next = f.End(next)
	}
	if int(next) >= len(f.Nodes) || f.Nodes[next].Parent != f.Nodes[stmt].Parent {
		return None
	}
	switch f.Kind(next) {
	case KindCompoundStatement:
		return next
	case KindExpressionStatement, KindIfStatement, KindForStatement, KindWhileStatement, KindDoStatement, KindSwitchStatement:
		line, col := f.Position(int(f.Nodes[stmt].Start))
		nline, ncol := f.Position(int(f.Nodes[next].Start))
		if nline > line && ncol > col {
			return next
		}
	}
	return None
}

// MacroName is the name of the statement macro of a block call
// (BlockArgument) or a KindMacroBlock.
func MacroName(f *File, n NodeID) string {
	if f.Kind(n) == KindExpressionStatement {
		for c := range f.NamedChildren(n) {
			return f.Text(f.Field(c, FieldFunction))
		}
	}
	if f.Kind(n) != KindMacroBlock {
		return f.Text(f.Field(n, FieldFunction))
	}
	if t := f.Field(n, FieldType); t != None {
		return f.Text(t)
	}
	d := f.Field(n, FieldDeclarator)
	if f.Kind(d) == KindFunctionDeclarator {
		return f.Text(f.Field(d, FieldDeclarator))
	}
	return f.Text(d)
}

// MacroNames yields the names a statement macro's arguments args mention
// outside its block blk (identifiers, and the names the grammar read as
// parameter types in MACRO(a, b) { ... }): the variables the macro may
// assign.
func MacroNames(f *File, args, blk NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		if args == None {
			return
		}
		for m, end := args, f.End(args); m < end; m++ {
			if m == blk {
				m = f.End(blk) - 1
				continue
			}
			if k := f.Nodes[m].Kind; (k == KindIdentifier || k == KindTypeIdentifier) && !yield(m) {
				return
			}
		}
	}
}

// Unevaluated says a call of name is an operator whose operand is never
// evaluated that the grammar reads as a call: decltype
// ([dcl.type.decltype]) and GCC's typeof, __typeof__ and __typeof (C23's
// typeof, typeof_unqual).
func Unevaluated(name string) bool {
	switch name {
	case "decltype", "typeof", "__typeof__", "__typeof", "typeof_unqual":
		return true
	}
	return false
}

// macroBlocks marks as KindMacroBlock each function definition nested in
// a block of another function that has no return type or declares no
// function: C and C++ have no nested function definitions but GCC's,
// which have both, so MACRO(args) { ... } there is a statement macro
// applied to a block (a list or table iteration, a run-once guard) that
// the grammar read as a definition: of MACRO with its arguments as
// parameter types, or of a function named by its arguments' declarator
// returning MACRO.
func macroBlocks(f *File) {
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Kind != KindFunctionDefinition || n.Parent == None || f.Nodes[n.Parent].Kind != KindCompoundStatement ||
			f.Ancestor(NodeID(i), KindFunctionDefinition) == None {
			continue
		}
		decl := f.Field(NodeID(i), FieldDeclarator)
		function := false
		for m, end := decl, f.End(decl); decl != None && m < end; m++ {
			if f.Nodes[m].Kind == KindFunctionDeclarator {
				function = true
				break
			}
		}
		if !function || f.Field(NodeID(i), FieldType) == None {
			n.Kind = KindMacroBlock
		}
	}
}
