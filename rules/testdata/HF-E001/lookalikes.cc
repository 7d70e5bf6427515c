// Correct look-alike: the free runs from absl::Cleanup at scope exit, after
// the host waited for the stream.
void ScratchRoundTrip(se::Stream* stream, se::DeviceMemoryAllocator* allocator, se::DeviceMemoryBase scratch) {
  auto cleanup = absl::MakeCleanup([&] { allocator->Deallocate(stream->parent()->device_ordinal(), scratch).IgnoreError(); });
  stream->MemZero(&scratch, scratch.size()).IgnoreError();
  TF_CHECK_OK(stream->BlockHostUntilDone());
}
