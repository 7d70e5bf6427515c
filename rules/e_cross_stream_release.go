package rules

import (
	"fmt"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func crossStreamRelease() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-E004",
			Name:      "cross-stream-use-without-record-stream",
			Class:     "E",
			Severity:  diag.Error,
			Precision: "medium",
			Summary:   "a tensor used on a stream other than the one it was allocated on is released with no record_stream and no wait",
			Help: `What it does: finds a local tensor allocated (by a factory such as
at::empty or by clone) on one stream and used by work
on another (inside a CUDAStreamGuard or after setCurrentCUDAStream to a
stream from getStreamFromPool, or passed to a kernel launch or an async copy
with an explicit side stream), that is then released at the end of its
scope with no record_stream for that stream and no wait or event between
the use and the release.

Why it is bad: the caching allocator keys a freed block by the stream it
was allocated on and reuses it at once for the next allocation on that
stream: it only knows about other streams that record_stream told it
about. The side stream's kernel may not even have started when the block
is handed to a new tensor on the allocating stream, whose kernels then
overwrite memory the side stream still reads, or the other way round.

Known problems: a tensor handed to a caller or a container is not
reported, nor is work on a stream passed in as a parameter (it may be the
current stream). Uses through aliases made before the switch (views,
data pointers kept in other locals) are not followed.`,
			Example: diag.Example{
				Bad: `at::Tensor scratch = at::empty_like(input);
auto side = at::cuda::getStreamFromPool();
{
  c10::cuda::CUDAStreamGuard guard(side);
  fill_kernel<<<grid, block, 0, side>>>(scratch.data_ptr<float>(), n);
}
// scratch is released here: its block can go to the next allocation on
// the current stream while fill_kernel still writes it`,
				Good: `at::Tensor scratch = at::empty_like(input);
auto side = at::cuda::getStreamFromPool();
{
  c10::cuda::CUDAStreamGuard guard(side);
  fill_kernel<<<grid, block, 0, side>>>(scratch.data_ptr<float>(), n);
}
scratch.record_stream(side);`,
			},
			Fix:  "call t.record_stream(s) for every stream other than the allocating one that used t (or recordStream on its storage), or make the allocating stream wait for that stream before t is released",
			Hint: "call record_stream for every other stream that used the tensor",
			Tags: []string{"memory-safety", "use-after-free", "streams", "caching-allocator"},
			CWE:  []int{416},
		},
		Check: checkCrossStreamRelease,
	}
}

// streamRegion is where a switch keeps another stream current.
type streamRegion struct {
	sw         *lifetime.Event
	stream     string
	start, end uint32
}

func checkCrossStreamRelease(p *Pass, fn *lifetime.Func) {
	regions := switchedRegions(fn)
	onStream := false
	for i := range fn.Events {
		onStream = onStream || fn.Events[i].Kind == lifetime.OnStream
	}
	if len(regions) == 0 && !onStream {
		return
	}
	for v := range fn.Vars {
		x := &fn.Vars[v]
		if x.Param || x.Static || x.Captured || x.Kind != lifetime.Owner || !p.Model.IsTensor(x.Base) {
			continue
		}
		id := lifetime.VarID(v)
		rel := fn.ScopeExitOf(id)
		if rel == nil || escapes(fn, id) || recordsStream(fn, id) {
			continue
		}
		checkTensorStreams(p, fn, id, regions, rel)
	}
}

// switchedRegions returns where switches keep another stream current: a
// stream guard until it dies, a switch call to a side stream until the
// next switch.
func switchedRegions(fn *lifetime.Func) []streamRegion {
	var out []streamRegion
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind != lifetime.Switch {
			continue
		}
		r := streamRegion{sw: e, stream: fn.VarName(e.Var), start: e.At, end: fn.Scopes[0].End}
		if r.stream == "" {
			r.stream = "the guarded stream"
		}
		if e.Other != lifetime.NoVar {
			if d := fn.ScopeExitOf(e.Other); d != nil {
				r.end = d.At
			}
		} else if s := fn.Var(e.Var); s == nil || !s.SideStream {
			continue // switching back, or to a stream of unknown origin
		}
		for j := i + 1; j < len(fn.Events); j++ {
			if n := &fn.Events[j]; n.Kind == lifetime.Switch && n.Other == lifetime.NoVar && n.At < r.end {
				r.end = n.At
				break
			}
		}
		out = append(out, r)
	}
	return out
}

func regionAt(regions []streamRegion, at uint32) *streamRegion {
	var in *streamRegion
	for i := range regions {
		if r := &regions[i]; r.start <= at && at < r.end {
			in = r
		}
	}
	return in
}

// escapes reports whether v is handed on: moved, returned, stored,
// captured, assigned to another value.
func escapes(fn *lifetime.Func, v lifetime.VarID) bool {
	for i := range fn.Events {
		e := &fn.Events[i]
		switch {
		case e.Kind == lifetime.Move && e.Var == v,
			e.Kind == lifetime.Return && e.Var == v,
			e.Kind == lifetime.Store && e.Other == v,
			e.Kind == lifetime.Capture && e.Var == v,
			e.Kind == lifetime.Assign && e.Other == v:
			return true
		}
	}
	return false
}

// recordsStream reports whether v's memory is ordered against another
// stream anywhere (t.record_stream(s), recordStream(t.storage()...)).
func recordsStream(fn *lifetime.Func, v lifetime.VarID) bool {
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == lifetime.Sync && e.Var == v {
			return true
		}
	}
	return false
}

// checkTensorStreams looks for a use of tensor v on a stream other than
// the one it was last allocated on, with no wait or sync between that use
// and the release rel.
func checkTensorStreams(p *Pass, fn *lifetime.Func, v lifetime.VarID, regions []streamRegion, rel *lifetime.Event) {
	alloc := fn.Var(v).At
	fresh := false // the value holds memory allocated here that it alone owns
	var allocIn *streamRegion
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At >= rel.At {
			break
		}
		if (e.Kind == lifetime.Result || e.Kind == lifetime.Assign || e.Kind == lifetime.Declare) && e.Var == v {
			alloc, allocIn = e.At, regionAt(regions, e.At)
			fresh = e.Kind == lifetime.Result && p.Model.Call(e.Call)&apimodel.Alloc != 0
			continue
		}
		if !fresh {
			continue
		}
		var stream string
		switch {
		case e.Kind == lifetime.OnStream && e.Var == v && fn.Var(e.Other) != nil && fn.Var(e.Other).SideStream:
			if allocIn != nil && allocIn.sw.Var == e.Other {
				continue
			}
			stream = fn.VarName(e.Other)
		case (e.Kind == lifetime.Use || e.Kind == lifetime.OnStream) && e.Var == v, e.Kind == lifetime.Borrow && e.Owner == v:
			in := regionAt(regions, e.At)
			if in == allocIn || in == nil && allocIn == nil {
				continue
			}
			if in != nil && allocIn != nil && in.sw.Var == allocIn.sw.Var && in.sw.Var != lifetime.NoVar {
				continue
			}
			if in == nil {
				stream = "the current stream"
			} else {
				stream = in.stream
			}
		default:
			continue
		}
		proven, pw := waitBetween(fn, e.At, rel)
		if proven {
			return
		}
		reportCrossStream(p, fn, v, alloc, e, stream, rel, pw)
		return
	}
}

// waitBetween reports whether a wait or a sync lies between offset from
// and the release rel on every path to it; pw holds the ones that only
// some paths reach.
func waitBetween(fn *lifetime.Func, from uint32, rel *lifetime.Event) (proven bool, pw partialWaits) {
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.At > from && e.At < rel.At && (e.Kind == lifetime.Wait || e.Kind == lifetime.Sync) {
			if pw.add(fn, e, rel.Scope) {
				return true, partialWaits{}
			}
		}
	}
	return false, pw
}

func reportCrossStream(p *Pass, fn *lifetime.Func, v lifetime.VarID, alloc uint32, use *lifetime.Event, stream string, rel *lifetime.Event, pw partialWaits) {
	t := fn.VarName(v)
	msg := fmt.Sprintf("'%s' is used on %s here and released at line %d with no record_stream and no wait",
		t, quoteStream(stream), p.Line(rel.At))
	freed := fmt.Sprintf("'%s' (allocated at line %d) dies here; its block goes back to its own stream's pool, which can hand it out while %s still uses it",
		t, p.Line(alloc), quoteStream(stream))
	if cond := pw.named(); cond != nil {
		msg = fmt.Sprintf("'%s' is used on %s here and released at line %d with no record_stream, and waited for only on some paths",
			t, quoteStream(stream), p.Line(rel.At))
		if pw.loop == nil {
			freed += fmt.Sprintf("; the only wait (%s at line %d) is %s", cond.Call, p.Line(cond.At), pw.gap())
		}
	}
	via := use.Call
	if via == "" {
		via = "stream work"
	}
	w := []diag.Step{
		p.Step(fn, diag.StepAsync, use, t, stream, fmt.Sprintf("'%s' is used by work on %s", t, quoteStream(stream))),
	}
	w[0].Via = via
	if pw.loop != nil {
		w = append(w, loopWaitStep(p, fn, pw.loop, stream))
	}
	w = append(w, p.Step(fn, diag.StepFree, rel, t, "", freed))
	w[len(w)-1].Via = "scope exit"
	p.Report(fn, use.At, p.nodeEnd(use), msg, "stream:"+t+":"+stream, w)
}

func quoteStream(s string) string {
	if s == "" || s[0] == ' ' || len(s) > 4 && s[:4] == "the " {
		return s
	}
	return "'" + s + "'"
}
