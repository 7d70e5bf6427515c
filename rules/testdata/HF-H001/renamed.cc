// Other names: HostFuture and BufferHandle, CUDA on a side stream.
Status Reader::ReadThenReset(Tensor& t, void* dst) {
  HostFuture<void> done = t.storage()->ReadToHost(dst);
  t.add_(1);  // want "ReadToHost \(line 3\) may still be using 't' when add_ mutates it in place" latent
  return done.get();
}

// CUDA: a copy on a side stream, the source mutated on the current one.
void CopyOnSide(at::Tensor& src, void* host, size_t n) {
  auto side = c10::cuda::getStreamFromPool();
  cudaMemcpyAsync(host, src.data_ptr(), n, cudaMemcpyDeviceToHost, side);
  src.copy_(other_);  // want "cudaMemcpyAsync \(line 11\) may still be using 'src' when copy_ mutates it in place" confirmed
  cudaStreamSynchronize(side);
}

// Correct: the stream is synchronised first.
void CopyOnSideSynced(at::Tensor& src, void* host, size_t n) {
  auto side = c10::cuda::getStreamFromPool();
  cudaMemcpyAsync(host, src.data_ptr(), n, cudaMemcpyDeviceToHost, side);
  cudaStreamSynchronize(side);
  src.zero_();
}

// Correct: the copy runs on the current stream, which orders the
// in-place op after it.
void CopyOnCurrent(at::Tensor& src, void* host, size_t n) {
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  cudaMemcpyAsync(host, src.data_ptr(), n, cudaMemcpyDeviceToHost, stream);
  src.zero_();
  cudaStreamSynchronize(stream);
}

// Correct: the future is waited through get() first.
Status Reader::ReadWaitReset(Tensor& t, void* dst) {
  HostFuture<void> done = t.storage()->ReadToHost(dst);
  done.get();
  t.add_(1);
  return Status::OK();
}

// Correct: a call whose result is a tensor, not a future, is not a
// tracked async copy (a test helper that copies to a device).
void CopyThenAdd(torch::Tensor& a, const torch::Device& device) {
  torch::Tensor lazy_a = CopyToDevice(a, device);
  a.add_(1);
  Check(lazy_a);
}

// The copy is waited for in a loop over the pending reads, which holdfast
// cannot prove runs: the rule reports, and the replay of the path through
// the loop body, where the copy is waited for before 't' changes, is clean.
Status Reader::ReadAllThenReset(Tensor& t, void* dst) {
  std::vector<HostFuture<void>> pending;
  HostFuture<void> done = t.storage()->ReadToHost(dst);
  pending.push_back(std::move(done));
  for (auto& f : pending) {
    f.wait();
  }
  t.zero_();  // want "ReadToHost \(line 54\) may still be using 't' when zero_ mutates it in place" not-reproduced
  return Status::OK();
}
