// A staging path of a device backend: page-locked host buffers and
// non-blocking transfers run behind the host until something waits.
#include <CL/cl.h>
#include <cuda_runtime.h>
#include <cstring>
#include <vector>

std::vector<float> PackRows(int n);

// Reads back a reduction result through a page-locked buffer.
float ReadScalar(const float* device_sum, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, sizeof(float));
  cudaMemcpyAsync(host, device_sum, sizeof(float), cudaMemcpyDeviceToHost, stream);
  float value = *host;  // the copy may not have landed: no sync before the read
  cudaFreeHost(host);
  return value;
}

// Uploads packed rows with a non-blocking OpenCL write.
void UploadRows(cl_command_queue queue, cl_mem rows, int n) {
  std::vector<float> packed = PackRows(n);
  clEnqueueWriteBuffer(queue, rows, CL_FALSE, 0, n * sizeof(float), packed.data(), 0, nullptr, nullptr);
}  // 'packed' dies here while the write may still read it

// Correct: both wait before the host touches or drops the memory.
float ReadScalarSynced(const float* device_sum, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, sizeof(float));
  cudaMemcpyAsync(host, device_sum, sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  float value = *host;
  cudaFreeHost(host);
  return value;
}

void UploadRowsFinished(cl_command_queue queue, cl_mem rows, int n) {
  std::vector<float> packed = PackRows(n);
  clEnqueueWriteBuffer(queue, rows, CL_FALSE, 0, n * sizeof(float), packed.data(), 0, nullptr, nullptr);
  clFinish(queue);
}
