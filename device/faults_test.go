package device

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
)

// TestFaultKindsAreExplained: every FaultKind the device declares is in
// diag.Faults, which the text output and docs/verification.md explain.
func TestFaultKindsAreExplained(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "machine.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "FaultKind" {
				continue
			}
			for _, v := range vs.Values {
				name, err := strconv.Unquote(v.(*ast.BasicLit).Value)
				if err != nil {
					t.Fatal(err)
				}
				n++
				if diag.FaultMeaning(name) == "" {
					t.Errorf("fault %s is not in diag.Faults", name)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("machine.go declares no FaultKind")
	}
}
