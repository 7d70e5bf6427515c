// Device memory that goes back to the allocator when its last host owner
// drops it. The chunk lives beside the device's compute stream, so freeing
// it at host refcount zero hands it to the next allocation while queued
// kernels may still use it.
#include "backend/device_state.h"

namespace backend {

class DeviceChunk {
 public:
  DeviceChunk(se::DeviceMemoryBase mem, LocalDeviceState* device, se::DeviceMemoryAllocator* allocator)
      : mem_(mem), device_(device), allocator_(allocator) {}

  ~DeviceChunk() {
    // Bad: freed now, while the compute stream may still run kernels on it.
    allocator_->Deallocate(device_->device_ordinal(), mem_).IgnoreError();
  }

 private:
  se::DeviceMemoryBase mem_;
  LocalDeviceState* device_;
  se::DeviceMemoryAllocator* allocator_;
};

class DeferredChunk {
 public:
  ~DeferredChunk() {
    // Good: the free runs from a callback once the compute stream has
    // passed every kernel queued so far.
    absl::Status s = device_->ThenExecuteCallback(
        device_->compute_stream(),
        [allocator = allocator_, ordinal = ordinal_, mem = mem_]() {
          allocator->Deallocate(ordinal, mem).IgnoreError();
        });
    if (s.ok()) {
      return;
    }
    // Bad (a warning): the status is only tested; nobody learns why the
    // deferral failed, and the fall back frees without waiting.
    allocator_->Deallocate(ordinal_, mem_).IgnoreError();
  }

 private:
  se::DeviceMemoryBase mem_;
  LocalDeviceState* device_;
  se::DeviceMemoryAllocator* allocator_;
  int ordinal_;
};

// A scratch tensor used by a kernel on a side stream.
void FillScratch(const at::Tensor& like, int n) {
  at::Tensor scratch = at::empty_like(like);
  auto side = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    LaunchFill(scratch.data_ptr<float>(), n, side);
  }
  // Bad: no scratch.record_stream(side); the caching allocator can reuse
  // the block on the current stream while the fill still runs.
}

}  // namespace backend
