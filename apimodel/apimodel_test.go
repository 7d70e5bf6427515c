package apimodel

import (
	"strings"
	"testing"
)

func load(t *testing.T, extra ...*Pack) *Model {
	t.Helper()
	m, err := Load(extra...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBuiltinPacksLoad(t *testing.T) {
	m := load(t)
	if got := strings.Join(m.Packs(), ","); got != "absl,aten,c10d,cuda,folly,gtest,hosts,iree,llvm,metal,mlx,opencl,pjrt,python,std,stream_executor,sycl,torch_tpu,vulkan" {
		t.Errorf("packs = %s", got)
	}
}

func TestCallRoles(t *testing.T) {
	m := load(t)
	for _, tc := range []struct {
		name string
		want Role
	}{
		{"AwaitBuffer", Borrow},
		{"xla::PjRtBuffer::ToLiteral", Async | Yield | WriteArg},
		{"ToLiteral", Async | Yield | WriteArg},
		{"OnReady", Callback},
		{"AndThen", Callback | Consume},
		{"MaterializeAndReturn", Materialise},
		{"push_back", Fill},
		{"std::move", Move},
		{"zero_", Mutate},
		{"multiGet", Block},
		{"Await", Wait},
		{"PJRT_Buffer_ToHostBuffer", Async},
		{"NoSuchCall", 0},
	} {
		if got := m.Call(tc.name); got != tc.want {
			t.Errorf("Call(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTypeShapes(t *testing.T) {
	m := load(t)
	for _, tc := range []struct {
		typ  string
		f    func(string) bool
		want bool
	}{
		{"xla::PjRtBuffer", m.IsOwner, true},
		{"DeviceBufferRef", m.IsOwner, true},
		{"BufferHandle", m.IsOwner, false},
		{"HostFuture", m.IsFuture, true},
		{"xla::Future", m.IsFuture, true},
		{"se::DeviceEvent", m.IsFuture, true},
		{"Eventually", m.IsFuture, false},
		{"std::vector", m.IsContainer, true},
		{"absl::InlinedVector", m.IsContainer, true},
		{"std::unique_ptr", m.IsSmartPtr, true},
		{"at::Tensor", m.IsTensor, true},
	} {
		if got := tc.f(tc.typ); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.typ, got, tc.want)
		}
	}
}

func TestHoldNames(t *testing.T) {
	m := load(t)
	for name, want := range map[string]bool{
		"batch_holds": true, "keepAlive": true, "keepalive": true, "pinnedBuffers": true,
		"buffers": false, "threshold": false, "holdout_set": false, "kHolds": true,
	} {
		if got := m.IsHoldName(name); got != want {
			t.Errorf("IsHoldName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestDeferNames(t *testing.T) {
	m := load(t)
	for name, want := range map[string]bool{
		"deferToLoop": true, "EnqueueWork": true, "pool->Schedule": true, "PostTask": true,
		"runLater": true, "tq.ScheduleTimer": true, "std::post": true,
		"postpone_check": false, "RunInLoop": false, "ForEach": false, "reschedule_count": false, "": false,
	} {
		if got := m.IsDeferName(name); got != want {
			t.Errorf("IsDeferName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestExtraPackAddsNames(t *testing.T) {
	p, err := ParsePack("repo.yaml", []byte("name: repo\nowners: [BufferHandle]\ncalls:\n  Get: [borrow]\n  ReadToHost: [async]\ndecl_macros: [MY_ASSIGN_OR_RETURN]\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := load(t, p)
	if !m.IsOwner("BufferHandle") || m.Call("Get") != Borrow || m.Call("ReadToHost") != Async {
		t.Error("the extra pack's names were not merged")
	}
	found := false
	for _, d := range m.DeclMacros() {
		found = found || d == "MY_ASSIGN_OR_RETURN"
	}
	if !found {
		t.Error("extra decl macro missing")
	}
}

func TestParsePackErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"name: x\ncalls:\n  Get: [borow]\n", `unknown role "borow"`},
		{"name: x\nowner: [A]\n", "line 2"},
		{"name: x\nowners: {a: 1}\n", "line 2"},
	} {
		_, err := ParsePack("p.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "p.yaml") {
			t.Errorf("ParsePack(%q) error = %v, want it to mention %q and the file", tc.src, err, tc.want)
		}
	}
}

func TestViews(t *testing.T) {
	m := load(t)
	for typ, want := range map[string]bool{"std::string_view": true, "c10::IntArrayRef": true, "llvm::FunctionCallee": true, "DeviceBufferRef": false} {
		if got := m.IsView(typ); got != want {
			t.Errorf("IsView(%q) = %v, want %v", typ, got, want)
		}
	}
}

func TestDeviceOps(t *testing.T) {
	m := load(t)
	d, ok := m.Device("cudaMemcpyAsync", false)
	if !ok || d.Host != "pinned" || d.Queue == nil || *d.Queue != 4 || len(d.Writes) != 1 || d.Writes[0] != 0 {
		t.Errorf("cudaMemcpyAsync = %+v, %v", d, ok)
	}
	if _, ok := m.Device("memcpy", false); ok {
		t.Error("the C library's memcpy is no device op")
	}
	if d, ok := m.Device("memcpy", true); !ok || d.Host != "all" || len(d.On) == 0 {
		t.Errorf(".memcpy = %+v, %v", d, ok)
	}
	bad := &Pack{Name: "bad", Device: map[string]DeviceOp{"f": {Host: "sometimes", Doc: "x"}}}
	if err := bad.Validate(); err == nil {
		t.Error("an unknown host kind is accepted")
	}
	undocumented := &Pack{Name: "bad", Device: map[string]DeviceOp{"f": {Waits: "all"}}}
	if err := undocumented.Validate(); err == nil {
		t.Error("an entry without doc is accepted")
	}
}

// TestCounted: the metal pack's namespaces are counted, whatever the
// qualifiers; other namespaces and unqualified names are not.
func TestCounted(t *testing.T) {
	m := load(t)
	for typ, want := range map[string]bool{
		"MTL::Buffer*":         true,
		"const NS::String*":    true,
		"::CA::MetalLayer*":    true,
		"MTL::":                true,
		"std::string":          false,
		"Buffer*":              false,
		"cl::Buffer":           false,
		"MTLBufferNamespace::": false,
	} {
		if got := m.Counted(typ); got != want {
			t.Errorf("Counted(%q) = %v, want %v", typ, got, want)
		}
	}
	var none *Model
	if none.Counted("MTL::Buffer*") {
		t.Error("a nil model counts nothing")
	}
}

// TestMethodCalls checks that a pack's call named with a leading '.' is a
// method: its roles go to calls on an object, and to calls whose form is
// not known, never to a free function's call of the same name.
func TestMethodCalls(t *testing.T) {
	p, err := ParsePack("t", []byte("name: t\ncalls:\n  .StageCopy: [async, encode]\n  stageCopyAsync: [async]\n"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		method bool
		async  bool
	}{
		{"StageCopy", true, true},
		{"StageCopy", false, false},
		{"core::StageCopy", false, false},
		{"stageCopyAsync", false, true},
		{"stageCopyAsync", true, true},
	} {
		if got := m.CallOn(tc.name, tc.method)&Async != 0; got != tc.async {
			t.Errorf("CallOn(%q, %v): async %v, want %v", tc.name, tc.method, got, tc.async)
		}
	}
	if m.Call("StageCopy")&Async == 0 {
		t.Error("Call(StageCopy), made on an object or not: not async")
	}
}
