package rules

import (
	"slices"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

// TestStepsStopWhenTheCallerDoes: a caller out of time stops the rules
// between functions and keeps the findings of the steps done; the rules
// do not go on over the rest of the file.
func TestStepsStopWhenTheCallerDoes(t *testing.T) {
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	f, funcs := model(t, m, "three.cc", []byte("void first() {}\nvoid second() {}\nvoid third() {}\n"))
	var looked []string
	r := &Rule{
		Meta: &diag.Rule{ID: "HF-T001", Name: "every-function", Severity: diag.Warning},
		Check: func(p *Pass, fn *lifetime.Func) {
			looked = append(looked, fn.Name)
			n := p.File.Nodes[fn.Node]
			p.Report(fn, n.Start, n.End, "function "+fn.Name, "", nil)
		},
	}

	whole := RunFile(f, m, funcs, []*Rule{r}, nil)
	if got := names(whole.Findings); !slices.Equal(got, []string{"first", "second", "third"}) {
		t.Fatalf("the whole run found %v", got)
	}

	looked = nil
	var kept Outcome
	for oc := range Steps(f, m, funcs, []*Rule{r}, nil, nil) {
		kept = oc
		if len(looked) == 2 {
			break
		}
	}
	if !slices.Equal(looked, []string{"first", "second"}) {
		t.Errorf("the rule looked at %v after the caller stopped at the second function", looked)
	}
	if got := names(kept.Findings); !slices.Equal(got, []string{"first", "second"}) {
		t.Errorf("the steps done found %v, want first and second", got)
	}
}

func names(fs []*diag.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Function)
	}
	return out
}
