// Other names: a HostFuture from ReadToHost is a future by its type.
Status Reader::Warm(Storage& storage, void* dst) {
  HostFuture<void> warm = storage.ReadToHost(dst);  // want "future 'warm' of ReadToHost is never waited on" not-modelled
  return Status::OK();
}

// torch_tpu: the future of the refactor's CopyHtoD.
absl::Status Upload(PreparedRawDmaBuffer& prepared, const void* src, int64_t n) {
  prepared.CopyHtoD(src, 0, n);  // want "the future of CopyHtoD is discarded" not-modelled
  return absl::OkStatus();
}

// Correct: handed to a tracker.
Status Reader::WarmTracked(Storage& storage, void* dst) {
  HostFuture<void> warm = storage.ReadToHost(dst);
  tracker_.Add(std::move(warm));
  return Status::OK();
}

// Correct: a CUDA copy's status is not a future; the stream orders it.
void Copy(void* dst, const void* src, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
}

// The buffer is a local: with its future dropped, nothing keeps it alive
// until the read is done.
Status Reader::Prime(const Tensor& t, void* dst) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> warm = h.ReadToHost(dst);  // want "future 'warm' of ReadToHost is never waited on" latent
  return Status::OK();
}

// The future is dropped (its error is lost), but the host synchronises
// the device while 'h' lives: the replay of these events shows no fault.
Status Reader::PrimeSynced(const Tensor& t, void* dst) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> warm = h.ReadToHost(dst);  // want "future 'warm' of ReadToHost is never waited on" not-reproduced
  executor_->SynchronizeAllActivity();
  return Status::OK();
}

// The same with a read an API model names: the buffer's only owner dies
// while the dropped read may still run.
Status Reader::PrimeLiteral(const Tensor& t, xla::Literal* literal) {
  DeviceBufferRef h = store_->Materialize(t);
  xla::Future<> warm = h.ToLiteral(literal);  // want "future 'warm' of ToLiteral is never waited on" confirmed
  return Status::OK();
}
