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
			if !ok || len(ret.Results) == 0 {
				return true
			}
			// The fault is the last result.
			last := ret.Results[len(ret.Results)-1]
			lit, ok := last.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("coreMessage returns a fault that is not a string literal: %T", last)
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
