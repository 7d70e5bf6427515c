// The host reads the destination of queued device work before waiting.
#include <CL/cl.h>
#include <cuda_runtime.h>

float first_value(const float* dev, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, 64 * sizeof(float));
  cudaMemcpyAsync(host, dev, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  float v = host[0];  // want "the host reads 'host' while cudaMemcpyAsync \(line 8\) may still be writing it" confirmed
  cudaStreamSynchronize(stream);
  cudaFreeHost(host);
  return v;
}

int count_flags(cl_command_queue q, cl_mem flags) {
  int out[16];
  clEnqueueReadBuffer(q, flags, CL_FALSE, 0, sizeof(out), out, 0, nullptr, nullptr);
  int n = 0;
  for (int i = 0; i < 16; i++) {
    n += out[i];  // want "the host reads 'out' while clEnqueueReadBuffer" confirmed
  }
  return n;
}

// Correct: the stream is synchronised before the read.
float first_value_synced(const float* dev, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, 64 * sizeof(float));
  cudaMemcpyAsync(host, dev, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  float v = host[0];
  cudaFreeHost(host);
  return v;
}

// Correct: a blocking read.
int count_flags_blocking(cl_command_queue q, cl_mem flags) {
  int out[16];
  clEnqueueReadBuffer(q, flags, CL_TRUE, 0, sizeof(out), out, 0, nullptr, nullptr);
  return out[0] + out[15];
}
