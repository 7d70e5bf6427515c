// The shape of XLA's AllocatedRawSEDeviceMemory before PR 979: under the
// kComputeSynchronized allocation model the destructor hands the chunk
// back to the allocator while kernels on the compute stream may still use it.
class AllocatedRawSEDeviceMemory : public RawSEDeviceMemory {
 public:
  AllocatedRawSEDeviceMemory(se::DeviceMemoryBase value, LocalDeviceState* local_device,
                             se::DeviceMemoryAllocator* allocator)
      : RawSEDeviceMemory(value), allocator_(allocator), local_device_(local_device) {
    if (local_device_->allocation_model() == LocalDeviceState::kComputeSynchronized) {
      sync_point_ = local_device_->GetNextComputeStreamSyncPoint();
    }
  }

  ~AllocatedRawSEDeviceMemory() override {
    if (allocator_) {
      absl::Status status = allocator_->Deallocate(local_device_->local_device_id().value(), mem());  // want "'mem\(\)' goes back to the allocator via Deallocate in the destructor with nothing ordering it after 'local_device_'" confirmed
      if (!status.ok()) {
        LOG(ERROR) << "Buffer deallocation failed: " << status;
      }
    }
  }

 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  size_t sync_point_ = std::numeric_limits<size_t>::max();
};

// PR 979: the free is deferred until the compute stream drains; only when
// the callback cannot be enqueued does it fall back to an immediate free.
class DeferredRawSEDeviceMemory : public RawSEDeviceMemory {
 public:
  ~DeferredRawSEDeviceMemory() override {
    if (allocator_) {
      if (local_device_->allocation_model() == LocalDeviceState::kComputeSynchronized) {
        absl::Status s = local_device_->ThenExecuteCallback(
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
        LOG(WARNING) << "Could not enqueue deferred deallocation: " << s;
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

// Correct: the destructor waits for the stream first.
class WaitingDeviceMemory {
 public:
  ~WaitingDeviceMemory() {
    local_device_->compute_stream()->BlockHostUntilDone().IgnoreError();
    allocator_->Deallocate(device_ordinal_, mem_).IgnoreError();
  }

 private:
  se::DeviceMemoryAllocator* allocator_;
  LocalDeviceState* local_device_;
  int device_ordinal_;
  se::DeviceMemoryBase mem_;
};

// Correct: nothing here lives beside a stream (a host-only staging pool).
class HostOnlyChunk {
 public:
  ~HostOnlyChunk() { allocator_->Deallocate(0, mem_).IgnoreError(); }

 private:
  HostAllocator* allocator_;
  se::DeviceMemoryBase mem_;
};
