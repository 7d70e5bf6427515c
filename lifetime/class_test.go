package lifetime

import (
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

func buildExt(t testing.TB, ext, src string) []*Func {
	t.Helper()
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := parser.New(parser.Options{DeclMacros: m.DeclMacros()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("t"+ext, ext, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Build(f, m)
}

func named(t *testing.T, fns []*Func, name string) *Func {
	t.Helper()
	for _, fn := range fns {
		if fn.Name == name {
			return fn
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

func find(fn *Func, k EventKind, pred func(e *Event) bool) *Event {
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == k && (pred == nil || pred(e)) {
			return e
		}
	}
	return nil
}

func TestClassMembers(t *testing.T) {
	fns := build(t, `class Chunk {
 public:
  ~Chunk() { allocator_->Deallocate(ordinal_, mem()); }
  se::DeviceMemoryBase mem();
 private:
  se::DeviceMemoryAllocator* allocator_;
  std::unique_ptr<se::Stream> stream_;
  LocalDeviceState* device_;
  static int count_;
  int ordinal_;
};
void Chunk::Release() { allocator_->Deallocate(ordinal_, mem()); }
`)
	d := named(t, fns, "Chunk::~Chunk")
	c := d.Class
	if c == nil || c.Name != "Chunk" || c.Node == parser.None {
		t.Fatalf("class = %+v", c)
	}
	if m := c.Member("allocator_"); m == nil || m.Kind != Pointer || m.Stream {
		t.Errorf("allocator_ = %+v", m)
	}
	if m := c.Member("stream_"); m == nil || !m.Stream {
		t.Errorf("stream_ = %+v, want a stream through the smart pointer", m)
	}
	if m := c.StreamMember(); m == nil || m.Name != "stream_" {
		t.Errorf("StreamMember = %+v", m)
	}
	if m := c.Member("count_"); m == nil || !m.Static {
		t.Errorf("count_ = %+v", m)
	}
	if m := c.Member("mem"); m == nil || !m.Method {
		t.Errorf("mem = %+v", m)
	}
	if c.Destructor() != d || len(c.Methods) != 2 || named(t, fns, "Chunk::Release").Class != c {
		t.Errorf("methods = %d, destructor %v", len(c.Methods), c.Destructor())
	}
	free := find(d, Free, nil)
	if free == nil || free.Text != "mem()" || free.Flags&Member == 0 || free.Call != "Deallocate" {
		t.Errorf("free = %+v", free)
	}
	var uses []string
	for _, u := range d.ThisUses {
		uses = append(uses, u.Name)
	}
	if got := strings.Join(uses, ","); got != "allocator_,ordinal_,mem" {
		t.Errorf("this uses = %s", got)
	}
}

func TestLambdaCapturesThis(t *testing.T) {
	fns := build(t, `class Work {
  void Start(HostFuture<void> f) {
    f.Then([this](Status s) { status_ = s; });
    f.Then([=](Status s) { done_ = true; });
    f.Then([&](Status s) { int x = 0; x++; });
    f.Then([self = shared_from_this()](Status s) { self->done_ = true; });
    f.Then([weak = weak_from_this()](Status s) { if (auto p = weak.lock()) p->done_ = true; });
  }
  Status status_;
  bool done_;
};
`)
	fn := named(t, fns, "Work::Start")
	var this, self []Flags
	for i := range fn.Events {
		e := &fn.Events[i]
		if e.Kind == Capture && e.Flags&CapThis != 0 {
			this = append(this, e.Flags&(Implicit|CapThis))
		}
		if e.Kind == Capture && e.Flags&SelfRef != 0 {
			self = append(self, e.Flags&(SelfRef|Weak))
		}
	}
	if len(this) != 2 || this[0] != CapThis || this[1] != CapThis|Implicit {
		t.Errorf("this captures = %v, want one explicit and one implicit", this)
	}
	if len(self) != 2 || self[0] != SelfRef || self[1] != SelfRef|Weak {
		t.Errorf("self captures = %v", self)
	}
	n := 0
	for i := range fn.Events {
		if e := &fn.Events[i]; e.Kind == Callback && e.Lambda != nil {
			n++
		}
	}
	if n != 5 {
		t.Errorf("callbacks with a lambda = %d, want 5", n)
	}
}

func TestStreamsAndSwitches(t *testing.T) {
	fns := build(t, `void f(const at::Tensor& x, int n) {
  at::Tensor tmp = at::empty_like(x);
  auto side = at::cuda::getStreamFromPool();
  cudaStream_t cur = at::cuda::getCurrentCUDAStream();
  c10::cuda::CUDAStreamGuard guard(side);
  cudaMemcpyAsync(tmp.data_ptr(), x.data_ptr(), n, cudaMemcpyDeviceToDevice, side);
  tmp.record_stream(side);
  auto w = c10::make_intrusive<RecvWork>(std::move(fut));
}
`)
	fn := named(t, fns, "f")
	vars := map[string]*Var{}
	for i := range fn.Vars {
		vars[fn.Vars[i].Name] = &fn.Vars[i]
	}
	if v := vars["side"]; v == nil || !v.Stream || !v.SideStream {
		t.Errorf("side = %+v", v)
	}
	if v := vars["cur"]; v == nil || !v.Stream || v.SideStream {
		t.Errorf("cur = %+v", v)
	}
	if v := vars["guard"]; v == nil {
		t.Fatal("T x(a) was not read as a declaration")
	}
	sw := find(fn, Switch, nil)
	if sw == nil || fn.VarName(sw.Var) != "side" || fn.VarName(sw.Other) != "guard" {
		t.Errorf("switch = %+v", sw)
	}
	on := find(fn, OnStream, func(e *Event) bool { return fn.VarName(e.Var) == "tmp" })
	if on == nil || fn.VarName(on.Other) != "side" {
		t.Errorf("on-stream = %+v", on)
	}
	if s := find(fn, Sync, nil); s == nil || fn.VarName(s.Var) != "tmp" {
		t.Errorf("sync = %+v", s)
	}
	if r := find(fn, Result, func(e *Event) bool { return fn.VarName(e.Var) == "tmp" }); r == nil || r.Call != "at::empty_like" {
		t.Errorf("result = %+v", r)
	}
	if c := find(fn, Construct, func(e *Event) bool { return e.Call == "make_intrusive" }); c == nil || c.Text != "RecvWork" || c.Flags&WithFuture != 0 {
		t.Errorf("construct = %+v (fut is no future here)", c)
	}
}

func TestObjectiveCSendsAndBlocks(t *testing.T) {
	fns := buildExt(t, ".mm", `class Pool {
 public:
  void Release(id<MTLBuffer> buffer) {
    [last_ waitUntilCompleted];
    [last_ addCompletedHandler:^(id<MTLCommandBuffer> cb) {
      [cache_ recycle:buffer];
    }];
  }
 private:
  id<MTLCommandQueue> queue_;
  id<MTLCommandBuffer> last_;
  BufferCache* cache_;
};
`)
	fn := named(t, fns, "Pool::Release")
	if !fn.Class.Member("queue_").Stream {
		t.Error("id<MTLCommandQueue> is not a stream")
	}
	if w := find(fn, Wait, nil); w == nil || w.Call != "waitUntilCompleted" {
		t.Errorf("the unary send is not a wait: %+v", w)
	}
	cb := find(fn, Callback, nil)
	if cb == nil || cb.Lambda == nil || cb.Lambda.Default != '=' {
		t.Fatalf("callback = %+v", cb)
	}
	if find(fn, Capture, func(e *Event) bool { return e.Flags&CapThis != 0 && e.Flags&Implicit != 0 }) == nil {
		t.Error("the block's use of a member does not capture this")
	}
	if f := find(cb.Lambda, Free, nil); f == nil || cb.Lambda.VarName(f.Var) != "buffer" {
		t.Errorf("free in the block = %+v", f)
	}
}

func TestSingleton(t *testing.T) {
	fns := build(t, `Registry& Registry::Get() {
  static Registry* instance = new Registry();
  return *instance;
}
void Other::Run() { static int calls = 0; }
`)
	if !named(t, fns, "Registry::Get").Class.Singleton {
		t.Error("a static instance does not make a singleton")
	}
	if named(t, fns, "Other::Run").Class.Singleton {
		t.Error("a static int made Other a singleton")
	}
}
