//go:build cgo

// Package parser turns C, C++, CUDA and Objective-C++ source into a flat
// syntax table (File) with tree-sitter's C++ grammar. tree-sitter types
// never leave this package: every parser and tree is closed here, and the
// later stages work on Go data only.
package parser

import (
	"errors"
	"fmt"
	"math"
	"time"

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
}

// Options configure a Parser.
type Options struct {
	// DeclMacros name macros whose first argument declares a variable
	// initialised by the second, like TF_ASSIGN_OR_RETURN(auto x, f()).
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
	return &Parser{p: p, g: g, opts: opts}, nil
}

// Close releases the tree-sitter parser.
func (p *Parser) Close() {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
}

// Parse parses src. path is kept for reporting; ext (".mm", ".cc", ...)
// decides whether Objective-C constructs are neutralised first. The
// returned File owns src (or its neutralised copy).
func (p *Parser) Parse(path, ext string, src []byte) (*File, error) {
	if p.p == nil {
		return nil, errors.New("parser is closed")
	}
	if ext == ".mm" {
		src = objc.Neutralise(src)
	}
	src = neutraliseCUDA(src, ext == ".cu" || ext == ".cuh")
	src = rewriteDeclMacros(src, p.opts.DeclMacros)
	if uint64(len(src)) > math.MaxUint32 {
		return nil, errors.New("file too large for tree-sitter (4 GiB)")
	}
	raw, ok, err := parseFlat(p.p, src, p.raw)
	if !ok {
		// A parse stopped by the budget keeps its state for resuming;
		// drop it so the next file starts clean.
		p.p.Reset()
		if p.opts.Timeout > 0 {
			return nil, fmt.Errorf("%w (%s)", ErrTimeout, p.opts.Timeout)
		}
		return nil, errors.New("tree-sitter returned no tree")
	}
	if err != nil {
		return nil, err
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
	return f, nil
}
