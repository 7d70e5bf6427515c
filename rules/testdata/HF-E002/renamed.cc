// Other names and APIs: the status of a host callback that frees is dropped.

void ReleaseLater(cudaStream_t stream, Pool* pool, void* ptr) {
  cudaLaunchHostFunc(stream, [](void* p) { Pool::Global()->recycle(p); }, ptr);  // want "the status of cudaLaunchHostFunc is dropped: when the deferral fails, the deferred free of 'p' never runs" not-modelled
}

void Scheduler::Retire(se::Stream* stream, Chunk chunk) {
  stream->DoHostCallback([this, chunk]() { allocator_->Deallocate(ordinal_, chunk.mem); });  // want "the status of DoHostCallback is dropped" not-modelled
}

// Correct: the status is returned to the caller.
absl::Status Scheduler::RetireChecked(se::Stream* stream, Chunk chunk) {
  absl::Status st = stream->DoHostCallback([this, chunk]() { allocator_->Deallocate(ordinal_, chunk.mem); });
  return st;
}

// Correct: the status is checked and the fall back waits for the stream.
void Scheduler::RetireOrWait(se::Stream* stream, Chunk chunk) {
  auto st = stream->DoHostCallback([this, chunk]() { allocator_->Deallocate(ordinal_, chunk.mem); });
  if (st.ok()) {
    return;
  }
  stream->BlockHostUntilDone().IgnoreError();
  allocator_->Deallocate(ordinal_, chunk.mem);
}

// Correct: a deferral that frees nothing is not this rule's business.
void Scheduler::Notify(se::Stream* stream) {
  stream->DoHostCallback([this]() { done_ = true; });
}

// The status is only tested and the fall back waits in a branch: the path
// that skips the wait frees at once, and the witness takes it, where the
// replay faults.
void Scheduler::RetireMaybeWait(se::Stream* stream, Chunk chunk, bool careful) {
  auto st = stream->DoHostCallback([this, chunk]() { allocator_->Deallocate(ordinal_, chunk.mem); });  // want "the status of DoHostCallback in 'st' is only tested" confirmed
  if (st.ok()) {
    return;
  }
  if (careful) {
    stream->BlockHostUntilDone().IgnoreError();
  }
  allocator_->Deallocate(ordinal_, chunk.mem);
}

// The status is only tested and the fall back waits in a loop body, once
// per queued chunk, which may run zero times: the rule reports; the witness
// goes through the loop body, where the replay is clean.
void Scheduler::RetireAfterQueued(se::Stream* stream, Chunk chunk, const std::vector<Chunk>& queued) {
  auto st = stream->DoHostCallback([this, chunk]() { allocator_->Deallocate(ordinal_, chunk.mem); });  // want "the status of DoHostCallback in 'st' is only tested" not-reproduced
  if (st.ok()) {
    return;
  }
  for (const Chunk& q : queued) {
    stream->BlockHostUntilDone().IgnoreError();
  }
  allocator_->Deallocate(ordinal_, chunk.mem);
}
