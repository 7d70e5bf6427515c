package verify

import (
	"reflect"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
)

func st(kind diag.StepKind, line int, value, other, via, msg string) diag.Step {
	return diag.Step{
		Kind: kind,
		At: diag.Span{
			Start: diag.Pos{File: "backend/x.cc", Line: line, Col: 3, Offset: line * 40},
			End:   diag.Pos{File: "backend/x.cc", Line: line, Col: 20, Offset: line*40 + 17},
		},
		Value: value, Other: other, Via: via, Message: msg,
	}
}

func finding(class string, w ...diag.Step) *diag.Finding {
	return &diag.Finding{
		Rule:    &diag.Rule{ID: "HF-" + class + "001", Class: class},
		At:      w[0].At,
		Witness: w,
	}
}

// insert returns w with s inserted before index i.
func insert(w []diag.Step, i int, s diag.Step) []diag.Step {
	out := append([]diag.Step(nil), w[:i]...)
	out = append(out, s)
	return append(out, w[i:]...)
}

func opts() Options { return Options{StateCap: 20000} }

func want(t *testing.T, f *diag.Finding, v diag.Verdict) *diag.Verification {
	t.Helper()
	got := Verify(f, opts())
	if got.Verdict != v {
		t.Fatalf("verdict %s, want %s: %s\ntrace:\n%s\nfixed:\n%s", got.Verdict, v, got.Reason, dump(got.Trace), dump(got.Fixed))
	}
	if got.Reason == "" || strings.Contains(got.Reason, "\n") || got.Reason[:1] != strings.ToLower(got.Reason[:1]) {
		t.Fatalf("reason must be one lower-case line: %q", got.Reason)
	}
	return got
}

func dump(ts []diag.TraceStep) string {
	var b strings.Builder
	for _, s := range ts {
		b.WriteString(s.Thread + ": " + s.Text)
		if s.At != nil {
			b.WriteString(" @" + s.At.Start.File + ":" + itoa(s.At.Start.Line))
		}
		if s.Fault != "" {
			b.WriteString(" !" + s.Fault)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

// faultAt checks that the trace faults with kind on a step that points at
// the span of witness step ws.
func faultAt(t *testing.T, v *diag.Verification, kind string, ws diag.Step) {
	t.Helper()
	if v.Fault != kind {
		t.Fatalf("fault %s, want %s", v.Fault, kind)
	}
	for _, s := range v.Trace {
		if s.Fault == kind {
			if s.At == nil || *s.At != ws.At {
				t.Fatalf("faulting step %q points at %v, want the %s step at line %d", s.Text, s.At, ws.Kind, ws.At.Start.Line)
			}
			return
		}
	}
	t.Fatalf("no trace step carries %s\n%s", kind, dump(v.Trace))
}

// everyTagged checks that trace steps point only at witness spans and that
// every witness step shows up in the trace.
func everyTagged(t *testing.T, v *diag.Verification, w []diag.Step) {
	t.Helper()
	seen := map[int]bool{}
	for _, s := range v.Trace {
		if s.At == nil {
			continue
		}
		found := false
		for i, ws := range w {
			if ws.At == *s.At {
				seen[i] = true
				found = true
			}
		}
		if !found {
			t.Fatalf("trace step %q points at a span that is not in the witness", s.Text)
		}
	}
	for i, ws := range w {
		if !seen[i] {
			t.Fatalf("witness step %d (%s) does not appear in the trace\n%s", i+1, ws.Kind, dump(v.Trace))
		}
	}
	for _, s := range v.Trace {
		if s.Thread != "host" && s.Thread != "callback" && s.Thread != "driver" && !strings.HasPrefix(s.Thread, "stream:") {
			t.Fatalf("unexpected thread %q", s.Thread)
		}
	}
}

// ---- A ----

func witnessA() []diag.Step {
	return []diag.Step{
		st(diag.StepDeclare, 10, "converted_src_buf", "", "GetBuffer", ""),
		st(diag.StepAsync, 11, "converted_src_buf", "future", "ToLiteral", "device-to-host copy reads the buffer"),
		st(diag.StepCallback, 12, "future", "literal", "OnReady", "captures literal, promise"),
		st(diag.StepEscape, 13, "future", "", "return", "returned"),
		st(diag.StepOwnerDies, 14, "converted_src_buf", "", "}", ""),
	}
}

func TestAConfirmed(t *testing.T) {
	w := witnessA()
	v := want(t, finding("A", w...), diag.Confirmed)
	faultAt(t, v, "DEV_UAF_REUSED", w[1])
	everyTagged(t, v, w)
	if len(v.Fixed) == 0 {
		t.Fatal("no fixed trace")
	}
	for _, s := range v.Fixed {
		if s.Fault != "" {
			t.Fatalf("fixed trace faults: %s", s.Text)
		}
	}
}

func TestANotReproduced(t *testing.T) {
	// the future is awaited before the owner dies
	w := insert(witnessA(), 4, st(diag.StepWait, 14, "future", "", "Await", ""))
	v := want(t, finding("A", w...), diag.NotReproduced)
	if v.Fault != "" || !strings.Contains(v.Reason, "awaited before the owner dies") {
		t.Fatalf("fault %q reason %q", v.Fault, v.Reason)
	}
	// the continuation captures the owner
	w = witnessA()
	w[2].Other = "converted_src_buf"
	v = want(t, finding("A", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "captures converted_src_buf") {
		t.Fatalf("reason %q", v.Reason)
	}
	// a wait after the owner died does not help
	w = append(witnessA(), st(diag.StepWait, 20, "future", "", "Await", ""))
	want(t, finding("A", w...), diag.Confirmed)
	// a continuation that captures something else does not help either
	w = witnessA()
	w[2].Other = "promise"
	want(t, finding("A", w...), diag.Confirmed)
}

func TestANotModelled(t *testing.T) {
	w := witnessA()[:4] // the owner never dies in the witness
	v := want(t, finding("A", w...), diag.NotModelled)
	if !strings.Contains(v.Reason, "owner-dies") {
		t.Fatalf("reason %q", v.Reason)
	}
	w = insert(witnessA(), 2, diag.Step{Kind: "teleport", Value: "x"})
	v = want(t, finding("A", w...), diag.NotModelled)
	if !strings.Contains(v.Reason, `"teleport"`) || !strings.Contains(v.Reason, "step 3") {
		t.Fatalf("reason %q", v.Reason)
	}
}

// ---- B ----

func witnessB() []diag.Step {
	return []diag.Step{
		st(diag.StepDeclare, 20, "device_buffer", "", "MaterializeAndReturn", ""),
		st(diag.StepBorrow, 21, "pjrt_buffer", "device_buffer", "AwaitBuffer", ""),
		st(diag.StepStore, 22, "pjrt_buffer", "pjrt_buffers", "push_back", ""),
		st(diag.StepOwnerDies, 24, "device_buffer", "", "}", ""),
		st(diag.StepBlock, 26, "", "", "multiGet", "blocks until the receiver is ready"),
		st(diag.StepUse, 27, "pjrt_buffers", "", "CopyToRemoteDevice", ""),
	}
}

func TestBConfirmed(t *testing.T) {
	w := witnessB()
	v := want(t, finding("B", w...), diag.Confirmed)
	faultAt(t, v, "HOST_UAF", w[5])
	everyTagged(t, v, w)
	// the run continues as undefined behaviour: the send reads the re-served chunk
	reused := false
	for _, s := range v.Trace {
		if s.Fault == "DEV_UAF_REUSED" && s.At != nil && *s.At == w[5].At {
			reused = true
		}
	}
	if !reused {
		t.Fatalf("the send did not read the re-served chunk\n%s", dump(v.Trace))
	}
}

func TestBNotReproduced(t *testing.T) {
	// the owner is kept in an outer container
	w := insert(witnessB(), 3, st(diag.StepStore, 23, "device_buffer", "keepalive", "push_back", ""))
	v := want(t, finding("B", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "device_buffer is kept in keepalive") {
		t.Fatalf("reason %q", v.Reason)
	}
	// the host waits for the consumer before the owner dies
	w = insert(witnessB(), 3, st(diag.StepWait, 23, "pjrt_buffers", "", "Await", ""))
	v = want(t, finding("B", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "consumer before the owner dies") {
		t.Fatalf("reason %q", v.Reason)
	}
	// the pointer itself stored in a container keeps nothing alive
	want(t, finding("B", witnessB()...), diag.Confirmed)
	// storing the owner after it died does not help
	w = insert(witnessB(), 4, st(diag.StepStore, 25, "device_buffer", "keepalive", "push_back", ""))
	v = Verify(finding("B", w...), opts())
	if v.Verdict == diag.NotReproduced {
		t.Fatalf("a store after the owner died made the replay clean: %s", v.Reason)
	}
}

func TestBNotModelled(t *testing.T) {
	w := witnessB()
	w[5].Value = "something_else" // a use of a value the witness never produced
	v := want(t, finding("B", w...), diag.NotModelled)
	if !strings.Contains(v.Reason, "use step") {
		t.Fatalf("reason %q", v.Reason)
	}
	want(t, finding("B", witnessB()[:5]...), diag.NotModelled)
}

// ---- C ----

func witnessC() []diag.Step {
	return []diag.Step{
		st(diag.StepDeclHold, 30, "batch_holds", "", "", ""),
		st(diag.StepDeclare, 31, "dst_buffer_ref", "", "GetPjrtBuffer", ""),
		st(diag.StepAsync, 32, "dst_buffer_ref", "", "CopyRawHostToDevice", "host-to-device dma writes the buffer"),
		st(diag.StepOwnerDies, 33, "dst_buffer_ref", "", "}", ""),
		st(diag.StepMove, 35, "batch_holds", "AndThen", "std::move", ""),
		st(diag.StepWait, 40, "transfer", "", "Await", ""),
	}
}

func TestCConfirmed(t *testing.T) {
	w := witnessC()
	v := want(t, finding("C", w...), diag.Confirmed)
	faultAt(t, v, "DEV_UAF_REUSED", w[2])
	everyTagged(t, v, w)
	if !strings.Contains(v.Reason, "hold container keeps the owner") {
		t.Fatalf("reason %q", v.Reason)
	}
}

func TestCNotReproduced(t *testing.T) {
	// the container is filled with the owner
	w := insert(witnessC(), 3, st(diag.StepStore, 33, "dst_buffer_ref", "batch_holds", "push_back", ""))
	v := want(t, finding("C", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "filled with dst_buffer_ref") {
		t.Fatalf("reason %q", v.Reason)
	}
	// the transfer is awaited before the owner dies
	w = insert(witnessC(), 3, st(diag.StepWait, 33, "transfer", "", "Await", ""))
	w = w[:len(w)-1]
	want(t, finding("C", w...), diag.NotReproduced)
	// without the trailing wait the caller waits later: still a bug
	want(t, finding("C", witnessC()[:5]...), diag.Confirmed)
}

func TestCNotModelled(t *testing.T) {
	w := witnessC()[1:] // no hold container
	v := want(t, finding("C", w...), diag.NotModelled)
	if !strings.Contains(v.Reason, "async step") && !strings.Contains(v.Reason, "hold") {
		t.Fatalf("reason %q", v.Reason)
	}
}

// ---- D ----

func witnessD() []diag.Step {
	return []diag.Step{
		st(diag.StepMaterial, 50, "chunk_c", "chunk", "contiguous", "the receiver is contiguous (a 1-d chunk along dim 0)"),
		st(diag.StepAsync, 51, "chunk_c", "", "send", ""),
		st(diag.StepMutate, 52, "chunk", "", "add_", ""),
	}
}

func TestDConfirmed(t *testing.T) {
	w := witnessD()
	v := want(t, finding("D", w...), diag.Confirmed)
	// W runs the mutation first; the consumer then reads the mutated data
	faultAt(t, v, "ALIAS_MUTATION", w[1])
	everyTagged(t, v, w)
}

func TestDNotReproduced(t *testing.T) {
	w := witnessD()
	w[0].Message = "the receiver is not contiguous"
	v := want(t, finding("D", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "copies") {
		t.Fatalf("reason %q", v.Reason)
	}
	// the consumer is awaited before the mutation
	w = insert(witnessD(), 2, st(diag.StepWait, 52, "chunk_c", "", "wait", ""))
	v = want(t, finding("D", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "awaited before the mutation") {
		t.Fatalf("reason %q", v.Reason)
	}
}

func TestDNotModelled(t *testing.T) {
	v := want(t, finding("D", witnessD()[:1]...), diag.NotModelled)
	if !strings.Contains(v.Reason, "copy intent") {
		t.Fatalf("reason %q", v.Reason)
	}
}

// ---- E ----

func witnessE() []diag.Step {
	return []diag.Step{
		st(diag.StepAsync, 60, "memory", "compute", "conv_backward_filter", ""),
		st(diag.StepFree, 61, "memory", "", "Deallocate", ""),
	}
}

func TestEConfirmed(t *testing.T) {
	w := witnessE()
	v := want(t, finding("E", w...), diag.Confirmed)
	faultAt(t, v, "DEV_UAF_REUSED", w[0])
	everyTagged(t, v, w)
	if !strings.Contains(v.Reason, "then_callback") {
		t.Fatalf("reason %q", v.Reason)
	}
	// the kernel reads the autotuner's zeros: the all-zero gradient
	zeros := false
	for _, s := range v.Trace {
		if strings.Contains(s.Text, "memory result") && strings.Contains(s.Text, "= 0") {
			zeros = true
		}
	}
	if !zeros {
		t.Fatalf("the result is not all zeros\n%s", dump(v.Trace))
	}
}

func TestENotReproduced(t *testing.T) {
	w := insert(witnessE(), 1, st(diag.StepWait, 61, "compute", "", "BlockHostUntilDone", ""))
	v := want(t, finding("E", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "waits for the stream before the free") {
		t.Fatalf("reason %q", v.Reason)
	}
	// a wait after the free is too late
	w = append(witnessE(), st(diag.StepWait, 62, "compute", "", "BlockHostUntilDone", ""))
	want(t, finding("E", w...), diag.Confirmed)
}

func TestECachingAllocator(t *testing.T) {
	w := []diag.Step{
		st(diag.StepAsync, 70, "t", "side_stream", "kernel<<<side>>>", "used on a side stream without record_stream"),
		st(diag.StepFree, 71, "t", "", "}", ""),
	}
	v := want(t, finding("E", w...), diag.Confirmed)
	faultAt(t, v, "DEV_UAF_REUSED", w[0])
	if !strings.Contains(v.Reason, "record_stream") {
		t.Fatalf("reason %q", v.Reason)
	}
	// the same tensor used on its own stream is fine
	w[0].Other = "default"
	want(t, finding("E", w...), diag.NotReproduced)
	// waiting for the streams before the drop is fine
	w[0].Other = "side_stream"
	w = insert(w, 1, st(diag.StepWait, 71, "side_stream", "", "synchronize", ""))
	want(t, finding("E", w...), diag.NotReproduced)
}

func TestENotModelled(t *testing.T) {
	w := []diag.Step{witnessE()[1], witnessE()[0]} // free before any use
	v := want(t, finding("E", w...), diag.NotModelled)
	if !strings.Contains(v.Reason, "free step") {
		t.Fatalf("reason %q", v.Reason)
	}
}

// ---- F ----

func witnessF() []diag.Step {
	return []diag.Step{
		st(diag.StepMaterial, 80, "packed", "out", "materialize_packed", "a non-packed view is replaced by a packed copy"),
		st(diag.StepWrite, 81, "packed", "", "setArg", "the kernel writes the output slot"),
	}
}

func TestFConfirmed(t *testing.T) {
	w := witnessF()
	v := want(t, finding("F", w...), diag.Confirmed)
	if v.Fault != "LOST_WRITE" {
		t.Fatalf("fault %s", v.Fault)
	}
	everyTagged(t, v, w)
}

func TestFNotReproduced(t *testing.T) {
	w := append(witnessF(), st(diag.StepWrite, 82, "out", "packed", "copy_", ""))
	v := want(t, finding("F", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "written back into out") {
		t.Fatalf("reason %q", v.Reason)
	}
	w = append(witnessF(), st(diag.StepStore, 82, "out", "packed", "copy_", ""))
	want(t, finding("F", w...), diag.NotReproduced)
	// a copy back into another tensor does not count
	w = append(witnessF(), st(diag.StepWrite, 82, "other", "packed", "copy_", ""))
	if v := Verify(finding("F", w...), opts()); v.Verdict != diag.NotModelled {
		t.Fatalf("verdict %s", v.Verdict)
	}
}

func TestFNotModelled(t *testing.T) {
	v := want(t, finding("F", witnessF()[1:]...), diag.NotModelled)
	if !strings.Contains(v.Reason, "class F") {
		t.Fatalf("reason %q", v.Reason)
	}
}

// ---- G ----

func witnessG() []diag.Step {
	return []diag.Step{
		st(diag.StepCallback, 90, "future_", "this", "OnReady", "captures this"),
		st(diag.StepOwnerDies, 95, "this", "", "~TpuWork", ""),
	}
}

func TestGConfirmed(t *testing.T) {
	w := witnessG()
	v := want(t, finding("G", w...), diag.Confirmed)
	faultAt(t, v, "HOST_UAF", w[0])
	everyTagged(t, v, w)
	callback := false
	for _, s := range v.Trace {
		if s.Fault == "HOST_UAF" && s.Thread == "callback" {
			callback = true
		}
	}
	if !callback {
		t.Fatalf("the dangling dereference is not on the callback thread\n%s", dump(v.Trace))
	}
}

func TestGNotReproduced(t *testing.T) {
	w := insert(witnessG(), 1, st(diag.StepWait, 94, "future_", "", "wait", ""))
	v := want(t, finding("G", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "awaited") {
		t.Fatalf("reason %q", v.Reason)
	}
}

func witnessG3() []diag.Step {
	return []diag.Step{
		st(diag.StepAsync, 100, "dst", "recv_future", "recv", ""),
		st(diag.StepDeclare, 101, "work", "", "work-without-future", "TpuWork built without the future"),
		st(diag.StepWait, 102, "work", "", "wait", ""),
		st(diag.StepUse, 103, "dst", "", "read", ""),
	}
}

func TestG3Confirmed(t *testing.T) {
	w := witnessG3()
	v := want(t, finding("G", w...), diag.Confirmed)
	faultAt(t, v, "STALE_READ", w[0])
	everyTagged(t, v, w)
}

func TestG3NotReproduced(t *testing.T) {
	w := witnessG3()
	w[2].Value = "recv_future" // the receive's own future is awaited
	v := want(t, finding("G", w...), diag.NotReproduced)
	if !strings.Contains(v.Reason, "future itself is awaited") {
		t.Fatalf("reason %q", v.Reason)
	}
}

func TestGNotModelled(t *testing.T) {
	// a callback whose captured object never dies in the witness
	want(t, finding("G", witnessG()[:1]...), diag.NotModelled)
	w := witnessG()
	w[1].Value = "stranger"
	want(t, finding("G", w...), diag.NotModelled)
}

// ---- H ----

func witnessH() []diag.Step {
	return []diag.Step{
		st(diag.StepAsync, 110, "t", "copy", "TpuAsyncDmaCopyDtoH", "device-to-host copy reads t"),
		st(diag.StepMutate, 111, "t", "", "zero_", ""),
		st(diag.StepWait, 112, "copy", "", "Await", ""),
	}
}

func TestHConfirmedSwap(t *testing.T) {
	w := witnessH()
	v := want(t, finding("H", w...), diag.Confirmed)
	faultAt(t, v, "DEV_UAF_REUSED", w[0])
	everyTagged(t, v, w)
	w[1].Via = "OverwriteDataPtr"
	v = Verify(finding("H", w...), Options{StateCap: 20000, Mutation: InPlace})
	if v.Verdict != diag.Confirmed || v.Fault != "DEV_UAF_REUSED" {
		t.Fatalf("an explicit swap must use swap semantics: %s %s", v.Verdict, v.Fault)
	}
}

func TestHConfirmedInPlace(t *testing.T) {
	w := witnessH()
	v := Verify(finding("H", w...), Options{StateCap: 20000, Mutation: InPlace})
	if v.Verdict != diag.Confirmed || v.Fault != "ALIAS_MUTATION" {
		t.Fatalf("in place: %s %s: %s\n%s", v.Verdict, v.Fault, v.Reason, dump(v.Trace))
	}
	faultAt(t, v, "ALIAS_MUTATION", w[1])
}

func TestHNotReproduced(t *testing.T) {
	w := []diag.Step{witnessH()[0], witnessH()[2], witnessH()[1]}
	for _, m := range []Mutation{SwapThenReuse, InPlace} {
		v := Verify(finding("H", w...), Options{StateCap: 20000, Mutation: m})
		if v.Verdict != diag.NotReproduced || !strings.Contains(v.Reason, "awaited before the mutation") {
			t.Fatalf("mutation %d: %s: %s", m, v.Verdict, v.Reason)
		}
	}
}

func TestHNotModelled(t *testing.T) {
	w := witnessH()
	w[1].Value = "u" // mutates a tensor the async step never used
	want(t, finding("H", w...), diag.NotModelled)
}

// ---- generic ----

func TestNotModelledGeneric(t *testing.T) {
	if v := Verify(nil, Options{}); v.Verdict != diag.NotModelled {
		t.Fatal("nil finding")
	}
	if v := Verify(&diag.Finding{Rule: &diag.Rule{Class: "A"}}, Options{}); v.Verdict != diag.NotModelled {
		t.Fatal("no witness")
	}
	v := Verify(finding("Z", witnessA()...), Options{})
	if v.Verdict != diag.NotModelled || !strings.Contains(v.Reason, `"Z"`) {
		t.Fatalf("unknown class: %s %s", v.Verdict, v.Reason)
	}
	v = Verify(finding("A", witnessA()...), Options{Allocator: "magic"})
	if v.Verdict != diag.NotModelled || !strings.Contains(v.Reason, "magic") {
		t.Fatalf("unknown allocator: %s %s", v.Verdict, v.Reason)
	}
}

// The verdict comes from the events, not from the rule: the same witness
// under another rule class is replayed by that class's model.
func TestVerdictFromRunsOnly(t *testing.T) {
	f := finding("A", witnessA()...)
	f.Rule.Summary = "this is definitely a bug"
	f.Rule.Help = "confirmed"
	f.Message = "confirmed use after free"
	w := insert(witnessA(), 4, st(diag.StepWait, 14, "future", "", "Await", ""))
	f.Witness = w
	if v := Verify(f, opts()); v.Verdict != diag.NotReproduced {
		t.Fatalf("the rule's text decided: %s", v.Verdict)
	}
}

func TestAllocatorOption(t *testing.T) {
	for _, a := range []string{"bfc", "caching", "stream-ordered", "metal-pool"} {
		v := Verify(finding("A", witnessA()...), Options{StateCap: 20000, Allocator: a})
		if v.Verdict == "" || v.Reason == "" {
			t.Fatalf("%s: empty verdict", a)
		}
		w := insert(witnessA(), 4, st(diag.StepWait, 14, "future", "", "Await", ""))
		if v := Verify(finding("A", w...), Options{StateCap: 20000, Allocator: a}); v.Verdict != diag.NotReproduced {
			t.Fatalf("%s: awaited future replays %s: %s", a, v.Verdict, v.Reason)
		}
	}
}

func TestDeterminism(t *testing.T) {
	fs := []*diag.Finding{
		finding("A", witnessA()...), finding("B", witnessB()...), finding("C", witnessC()...),
		finding("D", witnessD()...), finding("E", witnessE()...), finding("F", witnessF()...),
		finding("G", witnessG()...), finding("G", witnessG3()...), finding("H", witnessH()...),
	}
	for _, f := range fs {
		a, b := Verify(f, opts()), Verify(f, opts())
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("class %s: two replays differ", f.Rule.Class)
		}
		if a.Verdict != diag.Confirmed {
			t.Fatalf("class %s: %s: %s", f.Rule.Class, a.Verdict, a.Reason)
		}
	}
}

// TestCoreDecides: for a rule the core decides, a witness only the rule's
// reading made is at most latent, whatever its replay says; the replay's
// reason is kept after the one that says so.
func TestCoreDecides(t *testing.T) {
	f := finding("B", witnessB()...)
	r := *f.Rule
	r.CoreDecides = true
	f.Rule = &r
	v := Verify(f, Options{})
	if v.Verdict != diag.Latent || !strings.HasPrefix(v.Reason, "not made by executing the function's paths") || !strings.Contains(v.Reason, "HOST_UAF") {
		t.Fatalf("got %s: %s", v.Verdict, v.Reason)
	}
	// A clean replay stays clean.
	w := witnessB()
	w = append(w[:3], w[4:]...) // the owner does not die
	f = finding("B", w...)
	f.Rule = &r
	if v := Verify(f, Options{}); v.Verdict == diag.Confirmed || v.Verdict == diag.Latent {
		t.Fatalf("an owner that does not die: got %s: %s", v.Verdict, v.Reason)
	}
}
