// PR 979: the deferred free calls the allocator through a raw pointer
// copied into the callback; it is safe only because the client destroys
// its devices (which drain the callback streams) before its allocator.
class AllocatedRawSEDeviceMemory : public RawSEDeviceMemory {
 public:
  ~AllocatedRawSEDeviceMemory() override {
    absl::Status s = local_device_->ThenExecuteCallback(
        local_device_->compute_stream(),
        [allocator = allocator_, device_ordinal = device_ordinal_, memory = mem()]() {
          absl::Status status = allocator->Deallocate(device_ordinal, memory);  // want "the deferred callback frees 'memory' through 'allocator', a raw allocator pointer copied into it" not-modelled
          if (!status.ok()) {
            LOG(ERROR) << "Deferred buffer deallocation failed: " << status;
          }
        });
    if (!s.ok()) {
      LOG(WARNING) << s;
    }
  }

 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  int device_ordinal_;
};

// Correct: the callback owns a reference to the allocator.
class SharedAllocatorMemory {
 public:
  ~SharedAllocatorMemory() {
    local_device_->ThenExecuteCallback(
        local_device_->compute_stream(),
        [allocator = allocator_, device_ordinal = device_ordinal_, memory = mem_]() {
          allocator->Deallocate(device_ordinal, memory).IgnoreError();
        }).IgnoreError();
  }

 private:
  std::shared_ptr<se::DeviceMemoryAllocator> allocator_;
  LocalDeviceState* local_device_;
  int device_ordinal_;
  se::DeviceMemoryBase mem_;
};

// Correct: an immediate free is not a deferred one.
void FreeNow(se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase mem) {
  allocator->Deallocate(0, mem);
}
