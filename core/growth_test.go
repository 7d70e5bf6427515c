package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/parser"
)

// visitsOf executes the first function of src and returns the statements
// its execution entered.
func visitsOf(t *testing.T, src string) int {
	t.Helper()
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("growth.cc", ".cc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Nodes {
		if f.Nodes[i].Kind == parser.KindFunctionDefinition {
			return execute(f, parser.NodeID(i), Options{}).visits
		}
	}
	t.Fatal("no function")
	return 0
}

// TestSwitchGrowsLinearly: a switch of n short cases is executed with work
// that grows with n, not n*n. Each case starts its own paths and falls
// through into the next only while some path has neither broken nor
// returned, and once the function's step budget is spent no further case
// is started.
func TestSwitchGrowsLinearly(t *testing.T) {
	gen := func(n int, body string) string {
		var b strings.Builder
		b.WriteString("int g(int x) {\n  int y = 0;\n  switch (x) {\n")
		for i := range n {
			fmt.Fprintf(&b, "  case %d: "+body+"\n", i, i)
		}
		b.WriteString("  }\n  return y;\n}\n")
		return b.String()
	}
	for _, tc := range []struct {
		name, body string
		n          int
	}{
		{"break", "y = %d; break;", 1000},
		{"return", "return %d;", 1000},
		{"past the step budget", "y = %d; break;", 11000},
	} {
		small, large := visitsOf(t, gen(tc.n, tc.body)), visitsOf(t, gen(2*tc.n, tc.body))
		if large > 3*small {
			t.Errorf("%s: %d cases took %d statement visits, %d cases %d: more than linear", tc.name, tc.n, small, 2*tc.n, large)
		}
	}
}
