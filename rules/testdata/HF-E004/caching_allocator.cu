// PyTorch's caching allocator: a tensor allocated on the current stream
// and used on a side stream must be record_stream'ed (or waited for)
// before it is released.

__global__ void fill_kernel(float* out, int n);

void FillOnSide(const at::Tensor& input, int n) {
  at::Tensor scratch = at::empty_like(input);
  auto side = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);  // want "'scratch' is used on 'side' here and released at line 14 with no record_stream and no wait" confirmed
  }
}

// A kernel launch with an explicit side stream, no guard.
void LaunchOnSide(const at::Tensor& input, int n) {
  at::Tensor tmp = at::empty({n}, input.options());
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool(true);
  fill_kernel<<<1, 256, 0, side.stream()>>>(tmp.data_ptr<float>(), n);  // want "'tmp' is used on 'side' here and released at line 21" confirmed
}

// setCurrentCUDAStream to a pool stream, then an ATen op on the tensor.
void AddOnSide(const at::Tensor& a) {
  at::Tensor b = a.clone();
  auto original = at::cuda::getCurrentCUDAStream();
  auto side = at::cuda::getStreamFromPool();
  at::cuda::setCurrentCUDAStream(side);
  b.add_(1);  // want "'b' is used on 'side' here and released" confirmed
  at::cuda::setCurrentCUDAStream(original);
}

// Correct: record_stream tells the allocator about the side stream.
void FillOnSideRecorded(const at::Tensor& input, int n) {
  at::Tensor scratch = at::empty_like(input);
  auto side = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);
  }
  scratch.record_stream(side);
}

// Correct: recordStream on the storage's data pointer.
void FillOnSideRecordedStorage(const at::Tensor& input, int n) {
  at::Tensor scratch = at::empty_like(input);
  auto side = at::cuda::getStreamFromPool();
  fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);
  c10::cuda::CUDACachingAllocator::recordStream(scratch.storage().data_ptr(), side);
}

// Correct: the side stream is waited for before the release.
void FillOnSideSynced(const at::Tensor& input, int n) {
  at::Tensor scratch = at::empty_like(input);
  auto side = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);
  }
  C10_CUDA_CHECK(cudaStreamSynchronize(side));
}

// Correct: allocated on the side stream, used only there.
void AllocateOnSide(int n) {
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(side);
  at::Tensor scratch = at::empty({n}, at::kCUDA);
  fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);
}

// Correct: the current stream, named explicitly, is the allocating one.
void OnCurrent(const at::Tensor& input, int n) {
  at::Tensor scratch = at::empty_like(input);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  fill_kernel<<<1, 256, 0, stream>>>(scratch.data_ptr<float>(), n);
}

// Correct: the tensor is handed back to the caller, who owns its release.
at::Tensor FillAndReturn(const at::Tensor& input, int n) {
  at::Tensor scratch = at::empty_like(input);
  auto side = at::cuda::getStreamFromPool();
  fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);
  return scratch;
}

// The side stream is waited for in a branch: on the path that skips it the
// block goes back to the pool while the side stream may still use it; the
// witness takes that path, where the replay faults.
void FillOnSideMaybeSynced(const at::Tensor& input, int n, bool sync) {
  at::Tensor scratch = at::empty_like(input);
  auto side = at::cuda::getStreamFromPool();
  fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);  // want "'scratch' is used on 'side' here and released at line 96 with no record_stream, and waited for only on some paths" confirmed
  if (sync) {
    C10_CUDA_CHECK(cudaStreamSynchronize(side));
  }
}

// The side stream is waited for once per chunk, in a loop body that runs
// zero times when there are no chunks: the rule reports; the witness goes
// through the loop body, where the replay is clean.
void FillOnSidePerChunk(const at::Tensor& input, int n, const std::vector<int64_t>& chunks) {
  at::Tensor scratch = at::empty_like(input);
  auto side = at::cuda::getStreamFromPool();
  fill_kernel<<<1, 256, 0, side>>>(scratch.data_ptr<float>(), n);  // want "'scratch' is used on 'side' here and released at line 108 with no record_stream, and waited for only on some paths" not-reproduced
  for (int64_t chunk : chunks) {
    C10_CUDA_CHECK(cudaStreamSynchronize(side));
  }
}
