package apimodel

import "testing"

// TestStreamEntriesResolve reads each built-in pack on its own and checks
// that the merged model recognises every stream, stream guard and
// interpreter-bound type it lists.
func TestStreamEntriesResolve(t *testing.T) {
	m := load(t)
	srcs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(srcs) {
		p, err := ParsePack(name, srcs[name])
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			key   string
			names []string
			f     func(string) bool
		}{
			{"streams", p.Streams, m.IsStream},
			{"stream_guards", p.StreamGuards, m.IsStreamGuard},
			{"gil_objects", p.GILObjects, m.IsGILObject},
			{"consumers", p.Consumers, m.IsWork},
		} {
			for _, n := range tc.names {
				if !tc.f(n) {
					t.Errorf("%s: %s: %q is not recognised", p.Name, tc.key, n)
				}
			}
		}
	}
}

// TestStreamEntries pins the entries the rules of classes E and G rely on,
// written the way backends write them.
func TestStreamEntries(t *testing.T) {
	m := load(t)
	for _, tc := range []struct {
		name string
		want Role
	}{
		{"LocalDeviceState::ThenExecuteCallback", Callback | Status},
		{"DoHostCallback", Callback | Status},
		{"se::Stream::BlockHostUntilDone", Wait},
		{"SynchronizeAllActivity", Wait},
		{"ThenRelease", Sync},
		{"WaitFor", Sync},
		{"se::DeviceMemoryAllocator::Deallocate", Free},
		{"hipFree", Free | Wait},
		{"cudaFreeAsync", Free | Sync},
		{"hipFreeAsync", Free | Sync},
		{"cudaLaunchHostFunc", Callback | Status},
		{"hipLaunchHostFunc", Callback | Status},
		{"cudaEventRecord", Sync},
		{"cudaStreamWaitEvent", Sync},
		{"cudaStreamSynchronize", Wait},
		{"c10::cuda::CUDACachingAllocator::raw_delete", Free | Sync},
		{"cudaFree", Free | Wait},
		{"c10::cuda::CUDACachingAllocator::recordStream", Sync},
		{"record_stream", Sync},
		{"at::cuda::getStreamFromPool", Stream},
		{"c10::cuda::setCurrentCUDAStream", Switch},
		{"commit", Async},
		{"waitUntilCompleted", Wait},
		{"addCompletedHandler", Callback},
		{"recycle", Free},
		{"then", Callback},
		{"addCallback", Callback},
		{"getFuture", Yield},
		{"wait", Wait},
		{"shared_from_this", Self},
		{"weak_from_this", Self},
		{"c10::intrusive_ptr<Work>::reclaim_copy", Self},
		{"lock", Self},
	} {
		if got := m.Call(tc.name); got&tc.want != tc.want {
			t.Errorf("Call(%q) = %v, want at least %v", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		typ  string
		f    func(string) bool
		want bool
	}{
		{"se::Stream", m.IsStream, true},
		{"LocalDeviceState", m.IsStream, true},
		{"cudaStream_t", m.IsStream, true},
		{"c10::cuda::CUDAStream", m.IsStream, true},
		{"MTLCommandQueue", m.IsStream, true},
		{"std::ostream", m.IsStream, false},
		{"c10::cuda::CUDAStreamGuard", m.IsStreamGuard, true},
		{"c10::cuda::OptionalCUDAStreamGuard", m.IsStreamGuard, true},
		{"std::lock_guard", m.IsStreamGuard, false},
		{"at::Tensor", m.IsGILObject, true},
		{"py::object", m.IsGILObject, true},
		{"c10::IValue", m.IsGILObject, true},
		{"DeviceBufferRef", m.IsGILObject, false},
		{"TpuWork", m.IsWork, true},
		{"c10d::ProcessGroupNCCL::WorkNCCL", m.IsWork, true},
		{"RecvWork", m.IsWork, true},
		{"Worker", m.IsWork, false},
	} {
		if got := tc.f(tc.typ); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.typ, got, tc.want)
		}
	}
}
