// Frees through an accessor of a per-thread caching allocator.

#include <cub/util_allocator.cuh>

static cub::CachingDeviceAllocator& thread_allocator() {
  static thread_local cub::CachingDeviceAllocator allocator(8, 3, 12);
  return allocator;
}

static cub::CachingDeviceAllocator& shared_allocator() {
  static cub::CachingDeviceAllocator allocator(8, 3, 12);
  return allocator;
}

void* alloc_block(size_t size, int device) {
  void* data = nullptr;
  thread_allocator().DeviceAllocate(device, &data, size);
  return data;
}

void free_block(void* data, int device) {
  thread_allocator().DeviceFree(device, data);  // want "DeviceFree frees through thread_allocator\(\), which returns the calling thread's own thread_local allocator" not-modelled
}

// Correct: one allocator for every thread.
void free_shared(void* data, int device) {
  shared_allocator().DeviceFree(device, data);
}
