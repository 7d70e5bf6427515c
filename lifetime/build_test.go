package lifetime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

func build(t testing.TB, src string) []*Func {
	t.Helper()
	return buildExt(t, ".cc", src)
}

func dump(t *testing.T, fn *Func) string {
	t.Helper()
	var b strings.Builder
	if err := fn.Dump(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDesignExample checks the worked example of the design document,
// event by event.
func TestDesignExample(t *testing.T) {
	fns := build(t, `Status Sender::Send(const std::vector<Tensor>& ts) {
  std::vector<DeviceMemory*> raw;
  for (const Tensor& t : ts) {
    BufferHandle h = Materialize(t);
    DeviceMemory* m = h.Get();
    raw.push_back(m);
  }
  WaitForPeer();
  return transport_->Send(raw);
}
`)
	if len(fns) != 1 {
		t.Fatalf("%d functions", len(fns))
	}
	want := `method Sender::Send (line 1)
  scope S0 body lines 1-10
  scope S1 loop lines 3-7 in S0
  scope S2 block lines 3-7 in S1
     2  declare     raw : std::vector<DeviceMemory*> (container) scope S0
     3  use         ts
     3  declare     t : Tensor& (reference, const) scope S1
     4  declare     h : BufferHandle (owner, from-call) scope S2
     4  use         t  via Materialize
     5  declare     m : DeviceMemory* (pointer, from-call) scope S2
     5  borrow      m  borrowed from h  via Get
     5  use         h  via Get
     6  use         raw  via push_back
     6  use         m  via push_back
     6  store       raw  <- m  via push_back
     7  scope-exit  m  via }
     7  scope-exit  h  via }
     7  scope-exit  t  via }
     9  use         raw  via Send
     9  return      via return
    10  scope-exit  raw  via }
`
	if got := dump(t, fns[0]); got != want {
		t.Errorf("model:\n%s\nwant:\n%s", got, want)
	}
}

type ev struct {
	kind        EventKind
	v, other, o string
	call        string
}

func events(fn *Func) []ev {
	var out []ev
	for _, e := range fn.Events {
		out = append(out, ev{e.Kind, fn.VarName(e.Var), fn.VarName(e.Other), fn.VarName(e.Owner), e.Call})
	}
	return out
}

func has(fn *Func, want ev) bool {
	for _, e := range events(fn) {
		if e == want {
			return true
		}
	}
	return false
}

func TestEvents(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		fn   int
		want []ev
		not  []ev
	}{
		{"decl macro borrow", `void f(const Tensor& t) {
  TT_ASSIGN_OR_THROW(const DeviceBufferRef b, MaterializeAndReturn(t));
  TT_ASSIGN_OR_THROW(xla::PjRtBuffer * p, b.AwaitBuffer());
}`, 0, []ev{{Materialise, "b", "t", "", "MaterializeAndReturn"}, {Borrow, "p", "", "b", "AwaitBuffer"}}, nil},
		{"address of owned storage", `void f() {
  Desc d; Desc* p = &d; Desc* q = &d.inner; int* r = &it->second;
  std::unique_ptr<Desc> u; Desc* s = &*u; Desc* w = &u->inner;
}`, 0, []ev{{Borrow, "p", "", "d", "&"}, {Borrow, "q", "", "d", "&"}, {Borrow, "s", "", "u", "&"}, {Borrow, "w", "", "u", "&"}},
			[]ev{{Borrow, "r", "", "it", "&"}}},
		{"no borrow into a value", `void f() {
  Holder h; std::shared_ptr<Op> op = h.get(); Op* raw = h.get();
}`, 0, []ev{{Borrow, "raw", "", "h", "get"}}, []ev{{Borrow, "op", "", "h", "get"}}},
		{"assignment through a reference copies", `void f(Tensor& dst) {
  Tensor tmp = dst.to(kFloat);
  dst = tmp.to(kHalf);
}`, 0, nil, []ev{{Borrow, "dst", "", "tmp", "to"}}},
		{"async, callback and captures", `xla::Future<> StartD2H(Buffer& b) {
  auto literal = MakeLiteral();
  xla::Future<> future = buffer->ToLiteral(literal.get());
  future.OnReady([literal = std::move(literal), &b, this](absl::Status s) { b.Done(); });
  return future;
}`, 0, []ev{{Async, "future", "", "", "ToLiteral"}, {Move, "literal", "", "", "a lambda"}, {Callback, "future", "", "", "OnReady"}, {Return, "future", "", "", "return"}}, nil},
		{"moves and stores", `void f(Acc& acc) {
  std::vector<std::shared_ptr<void>> holds;
  std::vector<int> v;
  holds.push_back(std::make_shared<int>(1));
  v.emplace_back(2);
  acc.AndThen(std::move(holds));
}`, 0, []ev{{Store, "holds", "", "", "push_back"}, {Store, "v", "", "", "emplace_back"}, {Move, "holds", "", "", "AndThen"}}, nil},
		{"waits, mutation, free", `void f(Stream& s) {
  at::Tensor t = at::empty({4});
  HostFuture<void> fut = CopyAsync(t);
  t.zero_();
  fut.Await();
  char* p = new char[4];
  delete[] p;
}`, 0, []ev{{Async, "fut", "t", "", "CopyAsync"}, {Mutate, "t", "", "", "zero_"}, {Wait, "fut", "", "", "Await"}, {Free, "p", "", "", "delete"}}, nil},
		{"lambda implicit capture", `void f() {
  std::vector<std::shared_ptr<void>> holds;
  auto fill = [&]() { holds.push_back(nullptr); };
}`, 0, []ev{{Capture, "holds", "", "", "capture"}}, nil},
		{"lambdas handed to calls that may run them later", `void f(Loop& loop) {
  int n = 0;
  auto task = [&n]() { n++; };
  loop.deferToLoop([&n]() { n++; });
  loop.enqueue(task);
  future.OnReady([&n](absl::Status s) { n++; });
}`, 0, []ev{{Defer, "loop", "", "", "deferToLoop"}, {Defer, "loop", "task", "", "enqueue"}},
			[]ev{{Defer, "future", "", "", "OnReady"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fns := build(t, tc.src)
			fn := fns[tc.fn]
			for _, w := range tc.want {
				if !has(fn, w) {
					t.Errorf("missing %+v in\n%s", w, dump(t, fn))
				}
			}
			for _, w := range tc.not {
				if has(fn, w) {
					t.Errorf("unexpected %+v in\n%s", w, dump(t, fn))
				}
			}
		})
	}
}

func TestFunctionKindsAndNames(t *testing.T) {
	fns := build(t, `struct Work {
  Work(Future f) : f_(f) {}
  ~Work() { Release(); }
  void wait() { f_.Await(); }
};
Status Work::Run() { return OkStatus(); }
void free_fn() { auto l = [](int x) { return x; }; }
`)
	var got []string
	for _, fn := range fns {
		got = append(got, fn.Kind.String()+" "+fn.Name)
	}
	want := "constructor Work::Work|destructor Work::~Work|method Work::wait|method Work::Run|function free_fn|lambda free_fn::lambda@7"
	if strings.Join(got, "|") != want {
		t.Errorf("functions:\n%s\nwant:\n%s", strings.Join(got, "|"), want)
	}
}

func TestHoldClassification(t *testing.T) {
	fns := build(t, `void f() {
  std::vector<std::shared_ptr<void>> a;
  std::vector<int> keepalive;
  std::vector<std::unique_ptr<Buf>> bufs;
  absl::InlinedVector<std::shared_ptr<const void>, 4> b;
}`)
	want := map[string]bool{"a": true, "keepalive": true, "bufs": false, "b": true}
	for _, v := range fns[0].Vars {
		if w, ok := want[v.Name]; ok && v.Hold != w {
			t.Errorf("%s: Hold = %v, want %v", v.Name, v.Hold, w)
		}
	}
}

func TestDeepNestingIsBounded(t *testing.T) {
	depth := 50000
	src := "void f() { int x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "; }"
	fns := build(t, src)
	if len(fns) != 1 {
		t.Fatalf("%d functions", len(fns))
	}
	src = "void f() {" + strings.Repeat("if (x) { ", 3000) + strings.Repeat("}", 3000) + "}"
	if fns = build(t, src); len(fns) != 1 || !fns[0].Truncated {
		t.Errorf("blocks nested past maxDepth: %d functions, want one marked Truncated", len(fns))
	}
}

// TestNestedLambdasStayLinear builds thousands of nested lambdas and
// Objective-C blocks: names must not grow with the nesting (each used to
// be its parent's plus a suffix, quadratic in all), the depth bound must
// span the whole nest rather than restart in each lambda, and the part
// past it must be reported as truncated.
func TestNestedLambdasStayLinear(t *testing.T) {
	const n = 3000
	for _, tc := range []struct{ ext, src string }{
		{".cc", "void f() { auto g = " + strings.Repeat("[&]{ return ", n) + "0" + strings.Repeat("; }", n) + "; }\n"},
		{".mm", "void f() { dispatch_async(q, " + strings.Repeat("^{ dispatch_async(q, ", n) + "^{}" + strings.Repeat("); }", n) + "); }\n"},
	} {
		fns := buildExt(t, tc.ext, tc.src)
		names, truncated := 0, false
		for _, fn := range fns {
			names += len(fn.Name)
			truncated = truncated || fn.Truncated
		}
		if len(fns) < 2 {
			t.Fatalf("%s: %d functions", tc.ext, len(fns))
		}
		if limit := 256 * len(fns); names > limit {
			t.Errorf("%s: %d functions have names of %d bytes in all, more than %d", tc.ext, len(fns), names, limit)
		}
		if len(fns) > maxDepth+1 {
			t.Errorf("%s: %d nested functions modelled, more than maxDepth (%d) allows", tc.ext, len(fns), maxDepth)
		}
		if !truncated {
			t.Errorf("%s: nesting past maxDepth was left out, but no function is Truncated", tc.ext)
		}
	}
	// Shallow nests keep their full names.
	fns := build(t, "void f() {\n auto g = [&]{\n return [&]{ return 0; };\n };\n}\n")
	if got := fns[len(fns)-1].Name; got != "f::lambda@2::lambda@3" {
		t.Errorf("innermost lambda is named %q", got)
	}
}

// BenchmarkBuild measures building the model of every function of the
// testdata files and examples.
func BenchmarkBuild(b *testing.B) {
	var srcs []string
	for _, pat := range []string{"../rules/testdata/*/*.cc", "../examples/*/*.cc"} {
		paths, _ := filepath.Glob(pat)
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			srcs = append(srcs, string(src))
		}
	}
	m, err := apimodel.Load()
	if err != nil {
		b.Fatal(err)
	}
	p, err := parser.New(parser.Options{DeclMacros: m.DeclMacros()})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	var files []*parser.File
	size := 0
	for _, s := range srcs {
		f, err := p.Parse("b.cc", ".cc", []byte(s))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
		size += len(s)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, f := range files {
			Build(f, m)
		}
	}
}
