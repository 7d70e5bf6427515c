// PR 979 as first written: the status of ThenExecuteCallback is tested and
// then dropped, so a failed deferral falls back to an immediate free that
// nobody hears about.
class AllocatedRawSEDeviceMemory : public RawSEDeviceMemory {
 public:
  ~AllocatedRawSEDeviceMemory() override {
    if (allocator_) {
      if (local_device_->allocation_model() == LocalDeviceState::kComputeSynchronized) {
        absl::Status s = local_device_->ThenExecuteCallback(  // want "the status of ThenExecuteCallback in 's' is only tested: on failure 'mem\(\)' is freed at once at line 23" confirmed
            local_device_->compute_stream(),
            [allocator = allocator_, device_ordinal = device_ordinal_, memory = mem()]() {
              absl::Status status = allocator->Deallocate(device_ordinal, memory);
              if (!status.ok()) {
                LOG(ERROR) << "Deferred buffer deallocation failed: " << status;
              }
            });
        if (s.ok()) {
          return;
        }
        // Fall through to an immediate free if the callback could not be
        // enqueued.
      }
      absl::Status status = allocator_->Deallocate(device_ordinal_, mem());
      if (!status.ok()) {
        LOG(ERROR) << "Buffer deallocation failed: " << status;
      }
    }
  }

 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  int device_ordinal_;
};

// The review's fix: the status is logged before falling back.
class LoggedRawSEDeviceMemory : public RawSEDeviceMemory {
 public:
  ~LoggedRawSEDeviceMemory() override {
    if (local_device_->allocation_model() == LocalDeviceState::kComputeSynchronized) {
      absl::Status s = local_device_->ThenExecuteCallback(
          local_device_->compute_stream(),
          [allocator = allocator_, device_ordinal = device_ordinal_, memory = mem()]() {
            allocator->Deallocate(device_ordinal, memory).IgnoreError();
          });
      if (s.ok()) {
        return;
      }
      LOG(WARNING) << "Could not enqueue deferred deallocation, falling back to immediate free: " << s;
    }
    allocator_->Deallocate(device_ordinal_, mem()).IgnoreError();
  }

 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  int device_ordinal_;
};
