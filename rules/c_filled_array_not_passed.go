package rules

import (
	"fmt"
	"regexp"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func filledArrayNotPassed() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-C002",
			Name:      "filled-array-not-passed",
			Class:     "C",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "an array filled for a call, counted as it is filled, is never passed: the call gets the count with the address of a single value",
			Help: `What it does: finds a local array filled through a counter
(items[count++] = x), never read afterwards, when a call is given that
counter next to the address of a single value (&x) instead of the array.

Why it is bad: the call reads count elements from where the single value
lives: the one value, then whatever follows it on the stack. The array
that was built for it (often the list of resources the work must keep
alive) goes nowhere, so what it held is not kept: a keep-alive set gets a
stray stack word instead of the buffer the work reads.

Known problems: none known; the shape is rare outside this mistake.`,
			Example: diag.Example{
				Bad: `void bind(set_t* set, void* executable, buffer_t* indirect, bool uses_indirect) {
  int count = 1;
  const void* resources[2] = {executable, NULL};
  if (uses_indirect) {
    resources[count++] = indirect;
  }
  resource_set_insert(set, count, &executable);   // resources is never passed
}`,
				Good: `void bind(set_t* set, void* executable, buffer_t* indirect, bool uses_indirect) {
  int count = 1;
  const void* resources[2] = {executable, NULL};
  if (uses_indirect) {
    resources[count++] = indirect;
  }
  resource_set_insert(set, count, resources);
}`,
			},
			Fix:  "pass the array that was filled",
			Hint: "pass the array that was filled",
			Tags: []string{"memory-safety", "lifetime"},
			CWE:  []int{125, 825},
		},
		Check: checkFilledArrayNotPassed,
	}
}

var counterStore = regexp.MustCompile(`^([A-Za-z_]\w*)\[\s*([A-Za-z_]\w*)\s*\+\+\s*\]$`)

func checkFilledArrayNotPassed(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		s := &fn.Events[i]
		if s.Kind != lifetime.Store || s.Var == lifetime.NoVar {
			continue
		}
		m := counterStore.FindStringSubmatch(s.Call)
		if m == nil || m[1] != fn.VarName(s.Var) {
			continue
		}
		arr, counter := s.Var, m[2]
		if readAfter(fn, arr, p.File.Nodes[s.Node].End) {
			continue
		}
		for j := i + 1; j < len(fn.Events); j++ {
			c := &fn.Events[j]
			if c.Kind != lifetime.Use || c.Flags&lifetime.Argument == 0 || fn.VarName(c.Var) != counter {
				continue
			}
			ci := fn.ArgIndex(c)
			for k := range fn.Events {
				a := &fn.Events[k]
				if a.Kind != lifetime.PassRef || a.Flags&lifetime.AddressOf == 0 || a.Var == arr || !fn.SameCall(a.Node, c.Node) {
					continue
				}
				if ai := fn.ArgIndex(a); ai == ci+1 || ai == ci-1 {
					reportFilledArrayNotPassed(p, fn, s, c, a, fn.VarName(arr), counter)
					return
				}
			}
		}
	}
}

// readAfter reports whether value v is read or handed on after offset
// off.
func readAfter(fn *lifetime.Func, v lifetime.VarID, off uint32) bool {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Var == v && e.At >= off && e.Kind != lifetime.ScopeExit && e.Kind != lifetime.Store {
			return true
		}
	}
	return false
}

func reportFilledArrayNotPassed(p *Pass, fn *lifetime.Func, s, c, a *lifetime.Event, arr, counter string) {
	single := fn.VarName(a.Var)
	msg := fmt.Sprintf("%s gets the count of '%s' with '&%s', a single value, instead of '%s'",
		c.Call, arr, single, arr)
	w := []diag.Step{
		p.Step(fn, diag.StepDeclHold, s, arr, "", fmt.Sprintf("'%s' is filled here, counted by '%s'", arr, counter)),
		p.Step(fn, diag.StepUse, c, counter, "", fmt.Sprintf("%s gets '%s' and '&%s' instead of '%s': it reads %s elements from where '%s' lives, and '%s' is never passed anywhere", c.Call, counter, single, arr, counter, single, arr)),
	}
	p.Report(fn, c.At, p.nodeEnd(c), msg, "count-without-array:"+arr+":"+c.Call, w)
}
