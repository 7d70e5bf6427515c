package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
)

// TestCoreFaultsAreExplained: every fault name coreMessage gives a
// finding of the semantic core is in diag.Faults, which the text output
// and docs/verification.md explain.
func TestCoreFaultsAreExplained(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "core_faults.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "coreMessage" {
			continue
		}
		ast.Inspect(fd.Body, func(node ast.Node) bool {
			ret, ok := node.(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 2 {
				return true
			}
			lit, ok := ret.Results[1].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("coreMessage returns a fault that is not a string literal: %T", ret.Results[1])
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			n++
			if diag.FaultMeaning(name) == "" {
				t.Errorf("coreMessage gives fault %s, which diag.Faults does not explain", name)
			}
			return true
		})
	}
	if n == 0 {
		t.Fatal("no fault found in coreMessage")
	}
}
