package objc

import (
	"fmt"
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_cpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
)

func TestProbe(t *testing.T) {
	f := os.Getenv("PROBE")
	if f == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(f)
	if os.Getenv("NEUT") != "" {
		src = Neutralise(src)
		os.WriteFile(f+".out", src, 0o644)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(sitter.NewLanguage(tree_sitter_cpp.Language()))
	tr := p.Parse(src, nil)
	defer tr.Close()
	if os.Getenv("SEXP") != "" {
		fmt.Println(tr.RootNode().ToSexp())
	}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.IsError() || n.IsMissing() {
			s := n.Utf8Text(src)
			if len(s) > 80 {
				s = s[:80]
			}
			fmt.Printf("%s %v: %q (parent %s)\n", n.Kind(), n.StartPosition(), s, n.Parent().Kind())
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i))
		}
	}
	walk(tr.RootNode())
}
