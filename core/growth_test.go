package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/internal/budget"
	"github.com/holdfast-dev/holdfast/parser"
)

// executeFirst executes the first function of src.
func executeFirst(t *testing.T, src string) *exec {
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
			return execute(f, parser.NodeID(i), Options{})
		}
	}
	t.Fatal("no function")
	return nil
}

// visitsOf executes the first function of src and returns the statements
// its execution entered.
func visitsOf(t *testing.T, src string) int {
	t.Helper()
	return executeFirst(t, src).visits
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

// TestMeterStopsTheExecution: an execution spends a unit of the file's
// meter per statement on each path, and stops at its next statement once
// the meter is out, whether spent or stopped from outside (the wall-clock
// limit, an interrupt): abandoned work does not go on in the background.
func TestMeterStopsTheExecution(t *testing.T) {
	var b strings.Builder
	b.WriteString("int g(int x) {\n  int y = 0;\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "  if (x > %d) y += %d;\n", i, i)
	}
	b.WriteString("  return y;\n}\n")
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("meter.cc", ".cc", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	def := parser.None
	for i := range f.Nodes {
		if f.Nodes[i].Kind == parser.KindFunctionDefinition {
			def = parser.NodeID(i)
		}
	}
	full := execute(f, def, Options{}).visits
	const total = 1 << 40
	m := budget.New(total)
	if got := execute(f, def, Options{Meter: m}).visits; got != full || total-m.Left() < int64(full) {
		t.Fatalf("an ample meter changed the execution (%d statements, %d without) or was not spent (%d)", got, full, total-m.Left())
	}
	m = budget.New(100)
	if got := execute(f, def, Options{Meter: m}); got.visits > 200 || !m.Spent() || got.cut {
		t.Errorf("a meter of 100 units: %d statements entered (of %d), spent %v, cut %v (the file's warning says it, not the function's)", got.visits, full, m.Spent(), got.cut)
	}
	m = budget.New(total)
	m.Stop()
	if got := execute(f, def, Options{Meter: m}).visits; got > 2 {
		t.Errorf("a stopped meter: %d statements entered, want the first alone", got)
	}
}

// statesOf executes the first function of src and returns the most paths
// that were alive at once after a statement of a block (see exec.peak).
func statesOf(t *testing.T, src string) int {
	t.Helper()
	return executeFirst(t, src).peak
}

// TestMacroBlocksStayBounded: statement macros in a row (FOR_EACH(x, l)
// and an indented statement on the next line), each run zero times or once, keep the paths alive within the
// bound, as branches do: the paths that skip one block and those that run
// it are one set, bounded before the next statement, and a path that
// returned inside an earlier block passes the later ones by once. Before,
// each macro copied the paths that had returned already, doubling them, and
// a vendored googlemock test file (parsed with errors into one long body)
// filled 24 GB.
func TestMacroBlocksStayBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("int g(List* l) {\n  int y = 0;\n")
	for i := range 14 {
		fmt.Fprintf(&b, "  FOR_EACH(x, l)\n    if (x == %d) return y;\n", i)
	}
	b.WriteString("  return y;\n}\n")
	if got := statesOf(t, b.String()); got > DefaultMaxStates {
		t.Errorf("14 statement macros in a row: %d paths alive at once, want at most %d", got, DefaultMaxStates)
	}
}
