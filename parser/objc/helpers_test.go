package objc

import (
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_cpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
)

// newCPPParser returns a tree-sitter parser for C++; the caller closes it.
func newCPPParser(t testing.TB) *sitter.Parser {
	t.Helper()
	p := sitter.NewParser()
	if err := p.SetLanguage(sitter.NewLanguage(tree_sitter_cpp.Language())); err != nil {
		p.Close()
		t.Fatalf("set language: %v", err)
	}
	return p
}

// countErrors parses src as C++ and counts ERROR and MISSING nodes.
func countErrors(t testing.TB, p *sitter.Parser, src []byte) int {
	t.Helper()
	tree := p.Parse(src, nil)
	if tree == nil {
		t.Fatalf("parse returned no tree")
	}
	defer tree.Close()
	c := tree.Walk()
	defer c.Close()
	n := 0
	for {
		node := c.Node()
		if node.IsError() || node.IsMissing() {
			n++
		}
		if c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return n
			}
		}
	}
}

// checkInvariants asserts the length and line-break guarantees.
func checkInvariants(t testing.TB, name string, src, out []byte) {
	t.Helper()
	if len(out) != len(src) {
		t.Fatalf("%s: length changed from %d to %d", name, len(src), len(out))
	}
	for i := range src {
		if (src[i] == '\n') != (out[i] == '\n') || (src[i] == '\r') != (out[i] == '\r') {
			t.Fatalf("%s: line break moved at offset %d (%q -> %q)", name, i, src[i], out[i])
		}
	}
}
