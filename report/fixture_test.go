package report

import (
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
)

// The fixture: a few hand-built rules, sources and findings that cover
// what the printers must handle. Each test builds its own copy, so tests
// can change it freely.

const (
	fixtureRoot    = "/work/src/backend"
	fixtureVersion = "0.1.0"
)

// fixtureSources are the scanned files, by path relative to the root.
func fixtureSources() map[string]string {
	return map[string]string{
		"xla/pjrt/send.cc": `// Sends tensors to the peer.
#include <vector>

absl::Status Sender::Send(absl::Span<const Tensor> tensors) {
  std::vector<PjRtBuffer*> pjrt_buffers;
  for (const Tensor& t : tensors) {
    DeviceBufferRef device_buffer = GetDeviceBuffer(t);
    PjRtBuffer* pjrt_buffer = device_buffer.AwaitBuffer();
    pjrt_buffers.push_back(pjrt_buffer);
  }
  WaitForRendezvous();
  return transport_->Send(pjrt_buffers);
}
`,
		"xla/pjrt/holds.cc": `xla::Future<> Copier::Start(Buffer* src, Buffer* dst) {
  std::vector<std::shared_ptr<void>> holds;
  auto future = stream_->CopyAsync(src, dst);
  return std::move(future).OnReady([holds = std::move(holds)](absl::Status) {});
}
`,
		"torch_tpu/d2h.cc": `xla::Future<> StartD2H(const at::Tensor& t, Literal* out) {
  auto buffer = MakeBuffer(t);
  auto f = buffer->ToLiteral(out);
  f.Await();
  return f;
}
`,
		"torch_tpu/ops.cc": `at::Tensor Pack(const at::Tensor& x) {
  // holdfast:ignore HF-D001 layout is checked by the caller
  return x.contiguous().contiguous();
}
`,
		// A tab, a two-byte and a four-byte character precede the finding,
		// so byte, UTF-16 and display columns all differ.
		"src/mixed ü.mm": "void Queue::Push(Owner owner) {\n\tlabel_ = \"größe 🚀\"; Device* d = owner.get(); queue_.push(d);\n}\n",
	}
}

// fixtureRules is every rule that ran, in ID order. HF-E001 ran but found
// nothing; it must still be described in SARIF.
func fixtureRules() []*diag.Rule {
	return []*diag.Rule{
		{
			ID: "HF-A001", Name: "async-outlives-buffer", Class: "A", Severity: diag.Error, Precision: "high",
			Summary: "async work reads or writes a buffer after its last owner is dropped",
			Help:    "Flags an async call whose future escapes while the only owner of its buffer is a local.\n\nThe device may touch the memory after the allocator has handed it to someone else.",
			Example: diag.Example{
				Bad:  "auto buffer = MakeBuffer(t);\nreturn buffer->ToLiteral(out);",
				Good: "auto buffer = MakeBuffer(t);\nauto f = buffer->ToLiteral(out);\nreturn f.OnReady([buffer](absl::Status) {});",
			},
			Fix:  "capture the owner in the continuation",
			Tags: []string{"lifetime", "async"},
		},
		{
			ID: "HF-B001", Name: "raw-pointer-escapes-owner", Class: "B", Severity: diag.Warning, Precision: "high",
			Summary: "a raw pointer borrowed from an owner outlives the owner's scope",
			Help:    "Flags a raw pointer taken from an owner in an inner scope and stored in something that outlives that scope.\n\nOnce the owner dies the pointer dangles, and the allocator may re-serve its memory.",
			Example: diag.Example{
				Bad:  "for (auto& t : ts) {\n  DeviceBufferRef b = Get(t);\n  raw.push_back(b.AwaitBuffer());\n}\nSend(raw);",
				Good: "std::vector<DeviceBufferRef> owners;\nfor (auto& t : ts) {\n  owners.push_back(Get(t));\n  raw.push_back(owners.back().AwaitBuffer());\n}\nSend(raw);",
			},
			Fix:  "keep the owners in a container that lives as long as the pointers",
			Tags: []string{"lifetime", "memory", "correctness"},
		},
		{
			ID: "HF-C001", Name: "hold-container-never-filled", Class: "C", Severity: diag.Warning, Precision: "very-high",
			Summary: "a hold container is moved into a consumer but never filled",
			Help:    "Flags a container meant to keep buffers alive that nothing is ever put into.",
			Example: diag.Example{
				Bad:  "std::vector<std::shared_ptr<void>> holds;\nreturn f.OnReady([holds = std::move(holds)](absl::Status) {});",
				Good: "std::vector<std::shared_ptr<void>> holds;\nholds.push_back(buffer);\nreturn f.OnReady([holds = std::move(holds)](absl::Status) {});",
			},
			Tags: []string{"lifetime"},
		},
		{
			ID: "HF-D001", Name: "noop-contiguous", Class: "D", Severity: diag.Note, Precision: "medium",
			Summary: "`.contiguous()` on a tensor that is already contiguous returns the same tensor",
			Help:    "Flags `.contiguous()` where the receiver is provably contiguous, so no copy is made.",
			Example: diag.Example{Bad: "auto y = x.contiguous().contiguous();", Good: "auto y = x.clone(at::MemoryFormat::Contiguous);"},
			Fix:     "use `.clone(at::MemoryFormat::Contiguous)` if a copy is meant, or drop the call",
			Tags:    []string{"performance", "correctness"},
		},
		{
			ID: "HF-E001", Name: "free-before-stream-done", Class: "E", Severity: diag.Error, Precision: "high",
			Summary: "device memory is freed before the stream is done with it",
			Help:    "Flags a release of device memory at host refcount zero with no stream ordering.",
			Tags:    []string{"lifetime", "memory"},
		},
	}
}

// at builds a span of file from 1-based line and byte column pairs,
// computing offsets from the source.
func at(src map[string]string, file string, line, col, endLine, endCol int) diag.Span {
	return diag.Span{
		Start: diag.Pos{File: file, Offset: offsetOf(src[file], line, col), Line: line, Col: col},
		End:   diag.Pos{File: file, Offset: offsetOf(src[file], endLine, endCol), Line: endLine, Col: endCol},
	}
}

func offsetOf(text string, line, col int) int {
	off := 0
	for i := 1; i < line; i++ {
		off += strings.IndexByte(text[off:], '\n') + 1
	}
	return off + col - 1
}

// colOf is the 1-based byte column of the first needle on line.
func colOf(src map[string]string, file string, line int, needle string) int {
	l := strings.Split(src[file], "\n")[line-1]
	i := strings.Index(l, needle)
	if i < 0 {
		panic("fixture: " + needle + " not on line")
	}
	return i + 1
}

// spanOf is the span of the first needle on line.
func spanOf(src map[string]string, file string, line int, needle string) diag.Span {
	c := colOf(src, file, line, needle)
	return at(src, file, line, c, line, c+len(needle))
}

func ptr[T any](v T) *T { return &v }

// fixtureFindings is the findings of a scan, deliberately out of order and
// with one duplicate.
func fixtureFindings(src map[string]string, rules []*diag.Rule) []*diag.Finding {
	rule := func(id string) *diag.Rule {
		for _, r := range rules {
			if r.ID == id {
				return r
			}
		}
		panic("fixture: no rule " + id)
	}
	const send = "xla/pjrt/send.cc"
	b := &diag.Finding{
		Rule:     rule("HF-B001"),
		Severity: diag.Error,
		At:       spanOf(src, send, 9, "pjrt_buffers.push_back(pjrt_buffer)"),
		Message:  "raw pointer 'pjrt_buffer' taken from 'device_buffer' is used after 'device_buffer' dies at line 10",
		Function: "xla::Sender::Send",
		Anchor:   "device_buffer>pjrt_buffer>pjrt_buffers",
		Witness: []diag.Step{
			{Kind: diag.StepDeclare, At: spanOf(src, send, 7, "DeviceBufferRef device_buffer"), Value: "device_buffer", Message: "'device_buffer' declared here"},
			{Kind: diag.StepBorrow, At: spanOf(src, send, 8, "device_buffer.AwaitBuffer()"), Value: "pjrt_buffer", Other: "device_buffer", Via: "AwaitBuffer", Message: "raw pointer taken here via AwaitBuffer"},
			{Kind: diag.StepStore, At: spanOf(src, send, 9, "pjrt_buffers.push_back(pjrt_buffer)"), Value: "pjrt_buffer", Other: "pjrt_buffers", Via: "push_back"},
			{Kind: diag.StepOwnerDies, At: spanOf(src, send, 10, "}"), Value: "device_buffer", Via: "}", Message: "'device_buffer' dies here, at the end of the loop body"},
			{Kind: diag.StepBlock, At: spanOf(src, send, 11, "WaitForRendezvous()"), Via: "WaitForRendezvous", Message: "the host blocks on a rendezvous"},
			{Kind: diag.StepUse, At: spanOf(src, send, 12, "transport_->Send(pjrt_buffers)"), Value: "pjrt_buffers", Via: "Send", Message: "the dangling pointer is used here"},
		},
		Verification: &diag.Verification{
			Verdict: diag.Confirmed,
			Fault:   "DEV_UAF_REUSED",
			Reason:  "the chunk of 'device_buffer' was re-served to the next allocation before the send read it",
			Trace: []diag.TraceStep{
				{Thread: "host", Text: "allocate device_buffer (chunk #1, 4096 B)", At: ptr(spanOf(src, send, 7, "DeviceBufferRef device_buffer"))},
				{Thread: "host", Text: "pjrt_buffer = chunk #1", At: ptr(spanOf(src, send, 8, "device_buffer.AwaitBuffer()"))},
				{Thread: "host", Text: "free device_buffer: chunk #1 back to the allocator", At: ptr(spanOf(src, send, 10, "}"))},
				{Thread: "allocator", Text: "chunk #1 re-served to the next tensor"},
				{Thread: "stream:compute", Text: "DMA reads chunk #1 for the send", At: ptr(spanOf(src, send, 12, "transport_->Send(pjrt_buffers)")), Fault: "DEV_UAF_REUSED"},
			},
			Fixed: []diag.TraceStep{
				{Thread: "host", Text: "owners keeps chunk #1 alive"},
				{Thread: "stream:compute", Text: "DMA reads chunk #1 for the send"},
			},
		},
	}
	const holds = "xla/pjrt/holds.cc"
	c := &diag.Finding{
		Rule:     rule("HF-C001"),
		Severity: diag.Warning,
		At:       spanOf(src, holds, 2, "holds"),
		Message:  "hold container 'holds' is moved into a continuation but never filled",
		Function: "Copier::Start",
		Anchor:   "holds",
		Witness: []diag.Step{
			{Kind: diag.StepDeclHold, At: spanOf(src, holds, 2, "std::vector<std::shared_ptr<void>> holds"), Value: "holds"},
			{Kind: diag.StepAsync, At: spanOf(src, holds, 3, "stream_->CopyAsync(src, dst)"), Value: "src", Via: "CopyAsync", Message: "async copy starts here"},
			{Kind: diag.StepMove, At: spanOf(src, holds, 4, "std::move(holds)"), Value: "holds", Message: "moved empty into the continuation"},
		},
	}
	const d2h = "torch_tpu/d2h.cc"
	a := &diag.Finding{
		Rule:     rule("HF-A001"),
		Severity: diag.Error,
		At:       spanOf(src, d2h, 3, "buffer->ToLiteral(out)"),
		Message:  "future of 'ToLiteral' escapes while 'buffer' is its only owner",
		Function: "StartD2H",
		Anchor:   "buffer>f",
		Witness: []diag.Step{
			{Kind: diag.StepAsync, At: spanOf(src, d2h, 3, "buffer->ToLiteral(out)"), Value: "buffer", Via: "ToLiteral", Message: "async read of 'buffer' starts here"},
			{Kind: diag.StepOwnerDies, At: spanOf(src, d2h, 6, "}"), Value: "buffer", Via: "}", Message: "'buffer' dies here"},
		},
		Verification: &diag.Verification{
			Verdict: diag.NotReproduced,
			Reason:  "the future is awaited before 'buffer' dies",
			Trace: []diag.TraceStep{
				{Thread: "host", Text: "await f", At: ptr(spanOf(src, d2h, 4, "f.Await()"))},
			},
		},
	}
	const ops = "torch_tpu/ops.cc"
	d := &diag.Finding{
		Rule:       rule("HF-D001"),
		Severity:   diag.Note,
		At:         spanOf(src, ops, 3, "x.contiguous().contiguous()"),
		Message:    "'.contiguous()' of a contiguous tensor returns the same tensor, not a copy",
		Function:   "Pack",
		Anchor:     "x",
		Suppressed: "layout is checked by the caller",
	}
	const mixed = "src/mixed ü.mm"
	m := &diag.Finding{
		Rule:     rule("HF-B001"),
		Severity: diag.Warning,
		At:       spanOf(src, mixed, 2, "owner.get()"),
		Message:  "raw pointer 'd' taken from 'owner' is stored in member 'queue_', which outlives 'owner'",
		Function: "Queue::Push",
		Anchor:   "owner>d>queue_",
		Witness: []diag.Step{
			{Kind: diag.StepBorrow, At: spanOf(src, mixed, 2, "owner.get()"), Value: "d", Other: "owner", Via: "get"},
			{Kind: diag.StepStore, At: spanOf(src, mixed, 2, "queue_.push(d)"), Value: "d", Other: "queue_", Via: "push"},
		},
		// Not replayed (as with --no-verify): shown by default.
	}
	dup := *c
	return []*diag.Finding{m, a, c, b, d, &dup}
}

func fixtureNotices() []Notice {
	return []Notice{
		{Level: "warning", Message: "time limit hit: 2 functions were not analysed"},
		{Level: "warning", File: "third_party/huge.cc", Message: "skipped: larger than 4 MiB"},
		{Level: "warning", File: "src/send.cc", Line: 7, Message: "holdfast:ignore HF-B001 has no reason; say why the finding is wrong or acceptable (it suppresses nothing until then)"},
	}
}

// fixtureOptions are the options of the fixture's scan.
func fixtureOptions(src map[string]string) Options {
	return Options{
		Root:         fixtureRoot,
		ToolVersion:  fixtureVersion,
		Rules:        fixtureRules(),
		Source:       sourceFunc(src),
		AutomationID: "holdfast/",
		Notices:      fixtureNotices(),
	}
}

func sourceFunc(src map[string]string) func(string) []byte {
	return func(file string) []byte {
		if s, ok := src[file]; ok {
			return []byte(s)
		}
		return nil
	}
}
