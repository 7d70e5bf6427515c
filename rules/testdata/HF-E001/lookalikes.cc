// Correct look-alike: the free runs from absl::Cleanup at scope exit, after
// the host waited for the stream.
void ScratchRoundTrip(se::Stream* stream, se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase scratch) {
  auto cleanup = absl::MakeCleanup([&] { allocator->Deallocate(stream->parent()->device_ordinal(), scratch).IgnoreError(); });
  stream->MemZero(&scratch, scratch.size()).IgnoreError();
  TF_CHECK_OK(stream->BlockHostUntilDone());
}

// Correct look-alike: a record with a stream handle beside it is filled
// by host copies (done when memcpy returns) and freed on the failure path;
// no device work was queued on it.
typedef struct PendingRecord {
  cudaStream_t stream;
  int* ids;
  int count;
} PendingRecord;

int RecordPending(HostAllocator* allocator, cudaStream_t stream, const int* ids, int count) {
  PendingRecord* record = NULL;
  if (!host_allocator_malloc(allocator, sizeof(*record) + count * sizeof(int), (void**)&record)) return 1;
  record->stream = stream;
  record->ids = (int*)(record + 1);
  memcpy(record->ids, ids, count * sizeof(int));
  record->count = count;
  int status = pending_list_push(record);
  if (status != 0) {
    iree_allocator_free(allocator, record);
  }
  return status;
}
