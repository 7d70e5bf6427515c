// The host refills a page-locked staging buffer while the previous copy
// from it may still be reading it.
#include <cuda_runtime.h>
#include <cstring>

void upload_chunks(float* dev, const float* src, int chunks, cudaStream_t stream) {
  float* staging = nullptr;
  cudaHostAlloc(&staging, 1024 * sizeof(float), cudaHostAllocDefault);
  for (int i = 0; i < chunks; i++) {
    std::memcpy(staging, src + i * 1024, 1024 * sizeof(float));  // want "the host writes 'staging' while cudaMemcpyAsync \(line 11\) may still be using it" confirmed
    cudaMemcpyAsync(dev + i * 1024, staging, 1024 * sizeof(float), cudaMemcpyHostToDevice, stream);
  }
  cudaStreamSynchronize(stream);
  cudaFreeHost(staging);
}

// Correct: each copy is waited for before the buffer is refilled.
void upload_chunks_synced(float* dev, const float* src, int chunks, cudaStream_t stream) {
  float* staging = nullptr;
  cudaHostAlloc(&staging, 1024 * sizeof(float), cudaHostAllocDefault);
  for (int i = 0; i < chunks; i++) {
    std::memcpy(staging, src + i * 1024, 1024 * sizeof(float));
    cudaMemcpyAsync(dev + i * 1024, staging, 1024 * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
  }
  cudaFreeHost(staging);
}
