package lifetime

import (
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// event returns the first event of kind k on the value called v (any
// value when v is "") made by call (any call when call is "").
func event(fn *Func, k EventKind, v, call string) *Event {
	return find(fn, k, func(e *Event) bool {
		return (v == "" || fn.VarName(e.Var) == v) && (call == "" || e.Call == call)
	})
}

func TestLayoutNoCopy(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		noCopy    bool
		why       string
	}{
		{"chunk of a flattened contiguous", `void f(const at::Tensor& x) {
  auto chunks = x.contiguous().view(-1).chunk(4, 0);
  at::Tensor c = chunks[1].contiguous();
}`, true, "'chunks[1]' is one of the chunk() pieces of a 1-D view() of the result of .contiguous()"},
		{"fresh tensor", `void f() { at::Tensor t = at::empty({2, 3}); at::Tensor c = t.contiguous(); }`, true, "'t' is a new tensor from empty()"},
		{"reassigned from itself, then again", `void f(at::Tensor x) { x = x.contiguous(); at::Tensor c = x.contiguous(); }`, true, "'x' is the result of .contiguous()"},
		{"parameter", `void f(const at::Tensor& x) { at::Tensor c = x.contiguous(); }`, false, ""},
		{"transpose", `void f() { at::Tensor t = at::empty({2, 3}); at::Tensor c = t.transpose(0, 1).contiguous(); }`, false, ""},
		{"column chunk of a matrix", `void f() { auto cols = at::zeros({4, 4}).chunk(2, 1); at::Tensor c = cols[0].contiguous(); }`, false, ""},
		{"last dim of a 1-D tensor", `void f() { auto p = at::zeros({16}).split(4, -1); at::Tensor c = p[0].contiguous(); }`, true, "split() pieces"},
		{"slice with a step", `void f() { at::Tensor t = at::ones({8}); at::Tensor c = t.slice(0, 0, 8, 2).contiguous(); }`, false, ""},
		{"channels last", `void f() { at::Tensor t = at::empty({1, 3, 4, 4}, at::MemoryFormat::ChannelsLast); at::Tensor c = t.contiguous(); }`, false, ""},
		{"assigned in a branch", `void f(bool b) { at::Tensor t = at::empty({4, 4}); if (b) { t = t.t(); } at::Tensor c = t.contiguous(); }`, false, ""},
		{"mutated in place", `void f() { at::Tensor t = at::empty({4, 4}); t.t_(); at::Tensor c = t.contiguous(); }`, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fn := build(t, tc.src)[0]
			e := event(fn, Materialise, "c", "contiguous")
			if e == nil {
				t.Fatalf("no materialise of c in\n%s", dump(t, fn))
			}
			if got := e.Flags&NoCopy != 0; got != tc.noCopy {
				t.Fatalf("no-copy = %v, want %v\n%s", got, tc.noCopy, dump(t, fn))
			}
			if tc.why != "" && !strings.Contains(e.Text, tc.why) {
				t.Errorf("why = %q, want it to contain %q", e.Text, tc.why)
			}
		})
	}
}

// TestLayoutSelfAssignment checks that x = x.contiguous() reads x's layout
// from before the assignment.
func TestLayoutSelfAssignment(t *testing.T) {
	fn := build(t, `void f(at::Tensor x) { x = x.contiguous(); }`)[0]
	if e := event(fn, Materialise, "x", "contiguous"); e == nil || e.Flags&NoCopy != 0 {
		t.Errorf("x = x.contiguous() on a parameter may copy:\n%s", dump(t, fn))
	}
}

func TestOperands(t *testing.T) {
	fn := build(t, `void f(at::Tensor& out, const void* src, size_t n, cudaStream_t s, Kernel* k) {
  at::Tensor out_c = out.contiguous();
  cudaMemcpyAsync(out_c.data_ptr(), src, n, cudaMemcpyHostToDevice, s);
  k->setArg(0, out_c);
  TORCH_CHECK(out.is_contiguous());
}`)[0]
	if e := event(fn, Operand, "out_c", "cudaMemcpyAsync"); e == nil || e.Flags&Written == 0 {
		t.Errorf("cudaMemcpyAsync should write out_c:\n%s", dump(t, fn))
	}
	if e := event(fn, Operand, "s", "cudaMemcpyAsync"); e == nil || e.Flags&Written != 0 {
		t.Errorf("the stream is an operand that is not written:\n%s", dump(t, fn))
	}
	if e := event(fn, Operand, "out_c", "setArg"); e == nil || e.Flags&Bound == 0 {
		t.Errorf("setArg should bind out_c:\n%s", dump(t, fn))
	}
	if event(fn, Check, "out", "is_contiguous") == nil {
		t.Errorf("no layout check of out:\n%s", dump(t, fn))
	}
	if e := event(fn, Materialise, "out_c", "contiguous"); e == nil || e.Text != "'out'" {
		t.Errorf("the materialise should name its input:\n%s", dump(t, fn))
	}

	launch := buildExt(t, ".cu", `void g(at::Tensor& out, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(out.data_ptr<float>(), 4);
}`)[0]
	if e := event(launch, Operand, "out", "fill<<<>>>"); e == nil || e.Flags&Bound == 0 {
		t.Errorf("a launch should bind its arguments:\n%s", dump(t, launch))
	}
}

func TestFuturesPassedAndWaited(t *testing.T) {
	fn := build(t, `xla::Future<> f(xla::PjRtBuffer* b, HostFuture<void> h, void* dst) {
  h.get();
  xla::Future<> ready = b->GetReadyFuture();
  return b->CopyRawToHostFuture(dst, 0, 4);
}`)[0]
	if event(fn, Wait, "h", "get") == nil {
		t.Errorf("get() on a future should wait:\n%s", dump(t, fn))
	}
	if event(fn, Async, "ready", "") != nil {
		t.Errorf("GetReadyFuture starts no work:\n%s", dump(t, fn))
	}
	if e := event(fn, Async, "", "CopyRawToHostFuture"); e == nil || e.Flags&Passed == 0 {
		t.Errorf("a returned future should be passed on:\n%s", dump(t, fn))
	}
	cuda := build(t, `void g(void* d, const void* s) { AT_CUDA_CHECK(cudaMemcpyAsync(d, s, 4, cudaMemcpyDeviceToHost, 0)); }`)[0]
	if e := event(cuda, Async, "", "cudaMemcpyAsync"); e == nil || e.Flags&Passed != 0 {
		t.Errorf("a CUDA status handed to a check is not a future passed on:\n%s", dump(t, cuda))
	}
}

func TestPairs(t *testing.T) {
	fns := build(t, `struct CopyResult {
  xla::Future<> future;
  std::shared_ptr<void> buffer_hold;
};
class Job {
 public:
  Job(xla::Future<> done, std::shared_ptr<void> hold = nullptr);
};
CopyResult Start(const at::Tensor& t);
void f(const at::Tensor& t) {
  auto r = Start(t);
  auto job = std::make_unique<Job>(std::move(r.future));
}`)
	fn := fns[len(fns)-1]
	r := fn.Var(0)
	for v := range fn.Vars {
		if fn.Vars[v].Name == "r" {
			r = &fn.Vars[v]
		}
	}
	if r.PairFuture != "future" || r.PairHold != "buffer_hold" {
		t.Fatalf("r should be a pair of future and buffer_hold:\n%s", dump(t, fn))
	}
	if e := event(fn, Move, "r", ""); e == nil || e.Text != "future" {
		t.Errorf("the move should name the member it takes:\n%s", dump(t, fn))
	}
	if e := event(fn, Defaulted, "", "Job"); e == nil || e.Text != "hold" {
		t.Errorf("the Job is built without its hold:\n%s", dump(t, fn))
	}
	if !strings.Contains(dump(t, fn), "pair of future future and hold buffer_hold") {
		t.Errorf("the dump should show the pair:\n%s", dump(t, fn))
	}
}

func TestHoldDefaults(t *testing.T) {
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("t.h", ".h", []byte(`class W {
 public:
  explicit W(xla::Future<> future, std::shared_ptr<void> hold = nullptr);
  W(int priority = 0);
};
void Plain(std::shared_ptr<void> cookie = nullptr);
`))
	if err != nil {
		t.Fatal(err)
	}
	got := HoldDefaults(f, m)
	if len(got) != 1 || got[0].Func != "W" || got[0].Param != "hold" || got[0].Future != "future" || got[0].Default != "nullptr" || got[0].Index != 1 {
		t.Errorf("HoldDefaults = %+v", got)
	}
}

func TestDeclarationFacts(t *testing.T) {
	fn := build(t, `at::Tensor& f(const at::Tensor& in, at::Tensor& out, int n = 4) {
  at::Tensor copy = in.contiguous();
  at::Tensor alias = out;
  return out;
}`)[0]
	if fn.Name != "f" {
		t.Errorf("a function returning a reference should keep its name, got %q", fn.Name)
	}
	facts := map[string]string{}
	for _, v := range fn.Vars {
		facts[v.Name] = v.pairMarks()
		if v.Const {
			facts[v.Name] += ", const"
		}
	}
	for name, want := range map[string]string{"in": ", const", "out": "", "n": ", default 4", "copy": ", from-call", "alias": ""} {
		if got := strings.ReplaceAll(facts[name], ", const, const", ", const"); got != want {
			t.Errorf("%s: marks %q, want %q\n%s", name, got, want, dump(t, fn))
		}
	}
}
