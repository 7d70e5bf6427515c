package rules

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
)

func threadLocalAllocatorFree() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-E005",
			Name:      "thread-local-allocator-free",
			Class:     "E",
			Severity:  diag.Warning,
			Precision: "medium",
			Summary:   "memory is freed through the calling thread's own caching allocator, which may not be the one that handed it out",
			Help: `What it does: finds a free (a call the API model gives the free role)
made on the allocator an accessor of the file returns, when that accessor
returns a static thread_local object: each thread has its own allocator.

Why it is bad: a buffer allocated on one thread (a worker that ran the
model) and freed on another (the caller that dropped the result) goes back
to an allocator that never handed it out. A caching allocator then caches
a block it does not own, hands it out twice, or frees it with the wrong
device or stream, while the owner still counts it as in use.

Known problems: code that never frees on another thread than the one that
allocated is reported too; every finding is latent.`,
			Example: diag.Example{
				Bad: `static CachingAllocator& allocator() {
  static thread_local CachingAllocator a;
  return a;
}
void free_data(void* data, int device) {
  allocator().DeviceFree(device, data);   // this thread's allocator, maybe not the owner
}`,
				Good: `static CachingAllocator& allocator() {
  static CachingAllocator a;              // one allocator, shared (it locks)
  return a;
}
void free_data(void* data, int device) {
  allocator().DeviceFree(device, data);
}`,
			},
			Fix:  "free through the allocator that allocated the block (record it with the allocation), or share one allocator between threads",
			Hint: "free through the allocator that allocated the block",
			Tags: []string{"memory-safety", "concurrency", "allocator"},
			CWE:  []int{763},
		},
		Check: checkThreadLocalAllocatorFree,
	}
}

func checkThreadLocalAllocatorFree(p *Pass, fn *lifetime.Func) {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Free || e.Node < 0 {
			continue
		}
		call := e.Node
		if p.File.Kind(call) != parser.KindCallExpression {
			call = fn.EnclosingCall(e.Node)
		}
		if call == parser.None {
			continue
		}
		callee := p.File.Field(call, parser.FieldFunction)
		if p.File.Kind(callee) != parser.KindFieldExpression {
			continue
		}
		recv := p.File.Field(callee, parser.FieldArgument)
		if p.File.Kind(recv) != parser.KindCallExpression {
			continue
		}
		name := calleeText(p.File, recv)
		g := p.callee(name, 0)
		if g == nil {
			continue
		}
		local := threadLocalReturned(g)
		if local == "" {
			continue
		}
		msg := fmt.Sprintf("%s frees through %s(), which returns the calling thread's own thread_local allocator",
			e.Call, name)
		w := []diag.Step{
			p.Step(fn, diag.StepFree, e, fn.VarName(e.Var), "", fmt.Sprintf("%s returns the block to this thread's allocator", e.Call)),
		}
		w[0].Assumed = true
		w[0].Message = fmt.Sprintf("assumed: the block was allocated on another thread, through that thread's %s() ('%s' is thread_local); it goes back to an allocator that did not hand it out", name, local)
		p.Report(fn, e.At, p.nodeEnd(e), msg, "thread-local-free:"+name+":"+e.Call, w)
		return
	}
}

// threadLocalReturned returns the name of the static thread_local object
// function g returns, or "".
func threadLocalReturned(g *lifetime.Func) string {
	for i := range g.Events {
		r := &g.Events[i]
		if r.Kind != lifetime.Return {
			continue
		}
		v := g.Var(r.Var)
		if v == nil || !v.Static || v.Decl < 0 {
			continue
		}
		// The declaration statement says thread_local.
		for n := v.Decl; n != parser.None; n = g.File.Nodes[n].Parent {
			if g.File.Kind(n) == parser.KindDeclaration {
				if strings.Contains(g.File.Text(n), "thread_local") {
					return v.Name
				}
				break
			}
		}
	}
	return ""
}
