// CUDA and HIP copies and sets on a side stream, and the syncs that order
// them.
void PackOnSide(at::Tensor& staging, const float* src, size_t pitch, size_t w, size_t h) {
  auto side = c10::cuda::getStreamFromPool();
  cudaMemcpy2DAsync(staging.data_ptr(), pitch, src, pitch, w, h, cudaMemcpyHostToDevice, side);
  staging.mul_(2);  // want "cudaMemcpy2DAsync \(line 5\) may still be using 'staging' when mul_ mutates it in place" confirmed
  cudaStreamSynchronize(side);
}

void ClearOnSide(at::Tensor& t) {
  auto side = c10::cuda::getStreamFromPool();
  cudaMemsetAsync(t.data_ptr(), 0, t.nbytes(), side);
  t.fill_(1);  // want "cudaMemsetAsync \(line 12\) may still be using 't' when fill_ mutates it in place" confirmed
}

void HipCopyOnSide(at::Tensor& dst, const void* src, size_t n) {
  auto side = c10::hip::getStreamFromPoolMasqueradingAsCUDA();
  hipMemcpyAsync(dst.data_ptr(), src, n, hipMemcpyHostToDevice, side);
  dst.zero_();  // want "hipMemcpyAsync \(line 18\) may still be using 'dst' when zero_ mutates it in place" confirmed
  hipStreamSynchronize(side);
}

// Correct: an event recorded after the copy is waited for first.
void CopyThenEventWait(at::Tensor& t, void* host, size_t n) {
  auto side = c10::cuda::getStreamFromPool();
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaMemcpyAsync(host, t.data_ptr(), n, cudaMemcpyDeviceToHost, side);
  cudaEventRecord(done, side);
  cudaEventSynchronize(done);
  t.zero_();
}

// Correct: the device is synchronised first.
void CopyThenDeviceSync(at::Tensor& t, void* host, size_t n) {
  auto side = c10::cuda::getStreamFromPool();
  hipMemcpyAsync(host, t.data_ptr(), n, hipMemcpyDeviceToHost, side);
  hipDeviceSynchronize();
  t.zero_();
}
