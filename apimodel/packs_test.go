package apimodel

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEveryPackEntryResolves reads each built-in pack on its own and checks
// that the merged model gives every entry the meaning the pack writes: each
// call has at least the roles listed (other packs may add more), each type
// list answers its question, each layout and memory format is what the pack
// says. A typo in a pack, or a pack shadowed by another, fails here.
func TestEveryPackEntryResolves(t *testing.T) {
	m := load(t)
	srcs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	layoutOwners := map[string][]string{}
	for _, name := range sortedKeys(srcs) {
		p, err := ParsePack(name, srcs[name])
		if err != nil {
			t.Fatal(err)
		}
		for call := range p.Layout {
			layoutOwners[call] = append(layoutOwners[call], p.Name)
		}
	}
	for _, name := range sortedKeys(srcs) {
		p, err := ParsePack(name, srcs[name])
		if err != nil {
			t.Fatal(err)
		}
		t.Run(p.Name, func(t *testing.T) {
			for _, call := range sortedKeys(p.Calls) {
				want := roles(t, p.Calls[call])
				name, method := strings.CutPrefix(call, ".")
				if got := m.CallOn(name, method); got&want != want {
					t.Errorf("calls.%s = %v, want at least %v", call, got, want)
				}
			}
			for _, call := range sortedKeys(p.FutureCalls) {
				want := roles(t, p.FutureCalls[call])
				if got, ok := m.FutureCall(call); !ok || got&want != want {
					t.Errorf("future_calls.%s = %v, want at least %v", call, got, want)
				}
			}
			for _, tc := range []struct {
				key   string
				names []string
				f     func(string) bool
			}{
				{"owners", p.Owners, m.IsOwner},
				{"futures", p.Futures, m.IsFuture},
				{"containers", p.Containers, m.IsContainer},
				{"smart_ptrs", p.SmartPtrs, m.IsSmartPtr},
				{"tensors", p.Tensors, m.IsTensor},
				{"views", p.Views, m.IsView},
				{"consumers", p.Consumers, m.IsConsumer},
				{"hold_words", p.HoldWords, m.IsHoldName},
				{"lifetime_bound_macros", p.BoundMacros, m.IsBoundMacro},
				{"defer_words", p.DeferWords, m.IsDeferName},
				{"decl_macros", p.DeclMacros, func(s string) bool { return slices.Contains(m.DeclMacros(), s) }},
			} {
				for _, n := range tc.names {
					if !tc.f(n) {
						t.Errorf("%s: %q is not recognised", tc.key, n)
					}
				}
			}
			for _, call := range sortedKeys(p.Layout) {
				got, ok := m.Layout(call)
				if !ok {
					t.Errorf("layout.%s is not recognised", call)
					continue
				}
				if len(layoutOwners[call]) == 1 && !reflect.DeepEqual(got, p.Layout[call]) {
					t.Errorf("layout.%s = %+v, want %+v", call, got, p.Layout[call])
				}
			}
			for _, f := range sortedKeys(p.MemoryFormats) {
				if got, ok := m.MemoryFormat(f); !ok || got != p.MemoryFormats[f] {
					t.Errorf("memory_formats.%s = %q, want %q", f, got, p.MemoryFormats[f])
				}
			}
		})
	}
}

func roles(t *testing.T, names []string) Role {
	t.Helper()
	var r Role
	for _, n := range names {
		role, ok := ParseRole(n)
		if !ok {
			t.Fatalf("unknown role %q", n)
		}
		r |= role
	}
	return r
}

// TestNewEntries pins the entries the rules of classes A, D, F and H rely
// on, qualified the way backends write them.
func TestNewEntries(t *testing.T) {
	m := load(t)
	for _, tc := range []struct {
		name string
		want Role
	}{
		{"xla::PjRtBuffer::CopyRawToHost", Async | Yield | WriteArg},
		{"CopyRawToHostFuture", Async | Yield | WriteArg},
		{"CopyToRemoteDevice", Async},
		{"AcquireExternalReference", Borrow},
		{"GetReadyFuture", Yield},
		{"PJRT_Buffer_ToHostBuffer", Async},
		{"PJRT_Event_Await", Wait},
		{"PJRT_Event_OnReady", Callback},
		{"MaterializeAndReturn", Materialise},
		{"GetBuffer", Materialise},
		{"AwaitBuffer", Borrow},
		{"CopyHtoD", Async | Yield | Keep | Write},
		{"ValidateContiguousBase", Check},
		{"at::Tensor::copy_", Mutate | Write},
		{"is_contiguous", Check},
		{"cudaMemcpyAsync", Async | WriteArg},
		{"hipMemcpyAsync", Async | WriteArg},
		{"cudaMemcpy2DAsync", Async | WriteArg},
		{"cudaMemsetAsync", Async | WriteArg},
		{"cudaStreamSynchronize", Wait},
		{"cudaEventSynchronize", Wait},
		{"setBuffer", Bind},
		{"waitUntilCompleted", Wait},
		{"contents", Borrow},
	} {
		if got := m.Call(tc.name); got&tc.want != tc.want {
			t.Errorf("Call(%q) = %v, want at least %v", tc.name, got, tc.want)
		}
	}
	if r, ok := m.FutureCall("get"); !ok || r != Wait {
		t.Errorf("FutureCall(get) = %v, %v; want wait", r, ok)
	}
	for name, want := range map[string]string{"at::empty": "contiguous", "view": "keep", "transpose": "strided", "chunk": "keep"} {
		if op, ok := m.Layout(name); !ok || op.Result != want {
			t.Errorf("Layout(%q) = %+v, want %s", name, op, want)
		}
	}
	if op, _ := m.Layout("chunk"); op.Dim == nil || *op.Dim != 1 {
		t.Errorf("chunk's dim argument = %v, want 1", op.Dim)
	}
	if f, ok := m.MemoryFormat("at::MemoryFormat::ChannelsLast"); !ok || f != LayoutStrided {
		t.Errorf("MemoryFormat(ChannelsLast) = %q, %v", f, ok)
	}
	for _, typ := range []string{"cudaEvent_t", "hipEvent_t"} {
		if !m.IsFuture(typ) {
			t.Errorf("IsFuture(%q) = false", typ)
		}
	}
}

func TestLayoutValidation(t *testing.T) {
	for _, src := range []string{
		"name: x\nlayout:\n  view: {result: sideways}\n",
		"name: x\nmemory_formats:\n  Odd: diagonal\n",
		"name: x\nfuture_calls:\n  get: [waits]\n",
	} {
		if _, err := ParsePack("p.yaml", []byte(src)); err == nil {
			t.Errorf("ParsePack(%q) accepted a bad entry", src)
		}
	}
}
