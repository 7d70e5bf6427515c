// The same shape with other names: a release function of a type that owns
// a stream frees into a caching pool without ordering the free after
// device work it queued on that memory.

class ScratchArena {
 public:
  void Release(Block* block) {
    cudaMemsetAsync(block->ptr, 0, block->size, raw_stream_);
    pool_->DeallocateRaw(block->ptr);  // want "'block->ptr' goes back to the allocator via DeallocateRaw with nothing ordering it after 'stream_'" confirmed
  }

  // Correct: nothing was queued on the memory here; a stream beside the
  // free is not evidence that work still uses it.
  void ReleaseUnused(Block* block) {
    pool_->DeallocateRaw(block->ptr);
  }

  // Correct: the block is returned only after an event on the stream.
  void ReleaseAfterEvent(Block* block) {
    stream_->RecordEvent(block->event);
    pool_->DeallocateRaw(block->ptr);
  }

  // Correct: the free itself is stream-ordered.
  void ReleaseOrdered(void* ptr) {
    cudaFreeAsync(ptr, raw_stream_);
  }

  // Correct: cudaFree synchronises the device before it frees.
  void ReleaseSync(void* ptr) {
    cudaFree(ptr);
  }

  // Correct: the free runs from a host callback once the stream is done.
  void ReleaseDeferred(void* ptr) {
    auto status = stream_->DoHostCallback([pool = pool_shared_, ptr]() { pool->DeallocateRaw(ptr); });
    CHECK(status.ok()) << status;
  }

 private:
  std::unique_ptr<se::Stream> stream_;
  cudaStream_t raw_stream_;
  tsl::Allocator* pool_;
  std::shared_ptr<tsl::Allocator> pool_shared_;
};

// A free function beside a stream: the stream is a parameter.
void ReturnScratch(se::Stream* stream, se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase scratch) {
  stream->MemZero(&scratch, scratch.size()).IgnoreError();
  allocator->Deallocate(stream->parent()->device_ordinal(), scratch);  // want "'scratch' goes back to the allocator via Deallocate with nothing ordering it after 'stream'" confirmed
}

// Correct: allocated and freed with no work in between.
void ReturnScratchUnused(se::Stream* stream, se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase scratch) {
  allocator->Deallocate(stream->parent()->device_ordinal(), scratch);
}

// Correct: the same, waiting first.
void ReturnScratchSynced(se::Stream* stream, se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase scratch) {
  TF_CHECK_OK(stream->BlockHostUntilDone());
  allocator->Deallocate(stream->parent()->device_ordinal(), scratch);
}

// Out-of-line destructor of a class declared in this file.
class PinnedBuffer {
 public:
  ~PinnedBuffer();
  void Upload(const void* src) { device_->host_to_device_stream()->Memcpy(&memory_, src, 64).IgnoreError(); }

 private:
  LocalDeviceState* device_;
  se::DeviceMemoryAllocator* allocator_;
  se::DeviceMemoryBase memory_;
};

PinnedBuffer::~PinnedBuffer() {
  allocator_->Deallocate(0, memory_);  // want "'memory_' goes back to the allocator via Deallocate in the destructor" confirmed
}

// A wait in a branch: the path that skips it frees while the stream may
// still run, and the witness takes that path, where the replay faults.
void ReturnScratchMaybeSynced(se::Stream* stream, se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase scratch, bool sync) {
  stream->MemZero(&scratch, scratch.size()).IgnoreError();
  if (sync) {
    TF_CHECK_OK(stream->BlockHostUntilDone());
  }
  allocator->Deallocate(stream->parent()->device_ordinal(), scratch);  // want "'scratch' goes back to the allocator via Deallocate, ordered after 'stream' only on some paths" confirmed
}

// A wait in a loop body, once per pending chunk: with nothing pending the
// loop does not run, so nothing proves the free is ordered after the
// stream and the rule reports; the witness goes through the loop body,
// where the replay is clean.
void ReturnScratchAfterPending(se::Stream* stream, se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase scratch, const std::vector<Chunk>& pending) {
  stream->MemZero(&scratch, scratch.size()).IgnoreError();
  for (const Chunk& chunk : pending) {
    TF_CHECK_OK(stream->BlockHostUntilDone());
  }
  allocator->Deallocate(stream->parent()->device_ordinal(), scratch);  // want "'scratch' goes back to the allocator via Deallocate, ordered after 'stream' only on some paths" not-reproduced
}
