// Device work queued on a stream or queue, and what the host does before
// it waits for it.
#include <CL/cl.h>
#include <cuda_runtime.h>
#include <sycl/sycl.hpp>
#include <cstring>
#include <vector>

std::vector<float> load_weights(int n);
void helper_sync(cudaStream_t s);

// A non-blocking OpenCL write keeps reading the host buffer after it
// returns; the buffer dies first.
void upload_nonblocking(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = load_weights(n);
  clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, n * sizeof(float), host.data(), 0, nullptr, nullptr);  // want "device-use-after-free"
}

// Correct: clFinish waits for the write before the buffer dies.
void upload_finish(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = load_weights(n);
  clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, n * sizeof(float), host.data(), 0, nullptr, nullptr);
  clFinish(q);
}

// Correct: a null buffer fails the call (CL_INVALID_MEM_OBJECT): nothing
// is queued.
int upload_null_buffer(cl_command_queue q) {
  int data = 1;
  return clEnqueueWriteBuffer(q, nullptr, CL_FALSE, 0, sizeof(data), &data, 0, nullptr, nullptr);
}

// Correct: a blocking write is done when it returns.
void upload_blocking(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = load_weights(n);
  clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, n * sizeof(float), host.data(), 0, nullptr, nullptr);
}

// A non-blocking read into a stack array, read by the host before the
// queue is finished.
float read_nonblocking(cl_command_queue q, cl_mem buf) {
  float out[4];
  clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof(out), out, 0, nullptr, nullptr);
  return out[0];  // want "host-reads-pending"
}

// Correct: finished first.
float read_finished(cl_command_queue q, cl_mem buf) {
  float out[4];
  clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof(out), out, 0, nullptr, nullptr);
  clFinish(q);
  return out[0];
}

// A device-to-host copy into page-locked memory runs after the call
// returns; the host reads the destination before the stream is done.
float read_pinned(const float* dev, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, 64 * sizeof(float));
  cudaMemcpyAsync(host, dev, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  float first = host[0];  // want "host-reads-pending"
  cudaFreeHost(host);
  return first;
}

// Correct: the stream is synchronised first.
float read_pinned_synced(const float* dev, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost((void**)&host, 64 * sizeof(float));
  cudaMemcpyAsync(host, dev, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  float first = host[0];
  cudaFreeHost(host);
  return first;
}

// Correct: a helper handed the stream may wait for it.
float read_pinned_helper(const float* dev, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, 64 * sizeof(float));
  cudaMemcpyAsync(host, dev, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  helper_sync(stream);
  return host[0];
}

// Correct: pageable host memory is staged before cudaMemcpyAsync returns.
void upload_pageable(float* dev, cudaStream_t stream, int n) {
  std::vector<float> host = load_weights(n);
  cudaMemcpyAsync(dev, host.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

// A pinned staging buffer refilled while the previous copy from it may
// still be reading it.
void stream_chunks(float* dev, const float* src, int chunks, cudaStream_t stream) {
  float* staging = nullptr;
  cudaHostAlloc(&staging, 256 * sizeof(float), cudaHostAllocDefault);
  for (int i = 0; i < chunks; i++) {
    memcpy(staging, src + i * 256, 256 * sizeof(float));  // want "host-writes-pending"
    cudaMemcpyAsync(dev + i * 256, staging, 256 * sizeof(float), cudaMemcpyHostToDevice, stream);
  }
  cudaStreamSynchronize(stream);
  cudaFreeHost(staging);
}

// Correct: each chunk waits for the copy before the buffer is refilled.
void stream_chunks_synced(float* dev, const float* src, int chunks, cudaStream_t stream) {
  float* staging = nullptr;
  cudaHostAlloc(&staging, 256 * sizeof(float), cudaHostAllocDefault);
  for (int i = 0; i < chunks; i++) {
    memcpy(staging, src + i * 256, 256 * sizeof(float));
    cudaMemcpyAsync(dev + i * 256, staging, 256 * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
  }
  cudaFreeHost(staging);
}

// A SYCL queue copy from a local vector, not waited for.
void sycl_upload(sycl::queue& q, float* dev, int n) {
  std::vector<float> host = load_weights(n);
  q.memcpy(dev, host.data(), n * sizeof(float));  // want "device-use-after-free"
}

// Correct: the copy's event is waited for.
// Correct: a container taken by reference is the caller's; its buffer
// outlives the call, and the caller decides when it may end.
void sycl_upload_param(sycl::queue& q, const std::vector<float>& host, float* dev) {
  q.memcpy(dev, host.data(), host.size() * sizeof(float));
}

void sycl_upload_wait(sycl::queue& q, float* dev, int n) {
  std::vector<float> host = load_weights(n);
  q.memcpy(dev, host.data(), n * sizeof(float)).wait();
}

// Correct: the queue is waited for.
void sycl_upload_queue_wait(sycl::queue& q, float* dev, int n) {
  std::vector<float> host = load_weights(n);
  q.memcpy(dev, host.data(), n * sizeof(float));
  q.wait();
}

struct Stager {
  void memcpy(float* dst, const float* src, int n);
};

// Correct: a memcpy method of a class that is no queue is not device work.
void stager_copy(Stager& st, float* dev, int n) {
  std::vector<float> host = load_weights(n);
  st.memcpy(dev, host.data(), n);
}

// A helper of the file that queues a non-blocking write of what it is
// handed and returns without waiting.
static void write_async(cl_command_queue q, cl_mem dst, const float* src, int n) {
  clEnqueueWriteBuffer(q, dst, CL_FALSE, 0, n * sizeof(float), src, 0, nullptr, nullptr);
}

// A helper that waits for its own write.
static void write_sync(cl_command_queue q, cl_mem dst, const float* src, int n) {
  clEnqueueWriteBuffer(q, dst, CL_FALSE, 0, n * sizeof(float), src, 0, nullptr, nullptr);
  clFinish(q);
}

void upload_through_helper(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = load_weights(n);
  write_async(q, buf, host.data(), n);  // want "device-use-after-free"
}

// Correct: the caller finishes the queue the helper wrote on.
void upload_through_helper_finished(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = load_weights(n);
  write_async(q, buf, host.data(), n);
  clFinish(q);
}

// Correct: the helper waits.
void upload_through_waiting_helper(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = load_weights(n);
  write_sync(q, buf, host.data(), n);
}

// StreamExecutor, with CUDA's rule for host memory: a copy into memory of
// unknown origin is pending, but the host reading it is not a fault (if
// the memory is pageable, the copy completed before returning).
namespace se {
class DeviceMemoryBase {};
class Stream {
 public:
  void Memcpy(void* host_dst, const DeviceMemoryBase& src, unsigned long size);
  void Memcpy(DeviceMemoryBase* dst, const void* host_src, unsigned long size);
  void BlockHostUntilDone();
};
}  // namespace se
se::DeviceMemoryBase AllocateOn(int n);
std::unique_ptr<se::Stream> NewStream();

float se_read_back(se::Stream* stream, const se::DeviceMemoryBase& src, float* host, unsigned long n) {
  stream->Memcpy(host, src, n);
  return host[0];
}

float se_read_back_waits(se::Stream* stream, const se::DeviceMemoryBase& src, float* host, unsigned long n) {
  stream->Memcpy(host, src, n);
  stream->BlockHostUntilDone();
  return host[0];
}

// Correct: the device side is a handle; it may die while the copy runs.
void se_upload_handle(se::Stream* stream, const float* host, int n) {
  se::DeviceMemoryBase dst = AllocateOn(n);
  stream->Memcpy(&dst, host, n * sizeof(float));
}

float se_owned_stream_waits(const se::DeviceMemoryBase& src, float* host, unsigned long n) {
  std::unique_ptr<se::Stream> stream = NewStream();
  stream->Memcpy(host, src, n);
  stream->BlockHostUntilDone();
  return host[0];
}

// A free that reports a failure freed nothing: the fallback that frees
// the memory another way runs only then.
void release_pinned(void* data) {
  cudaError_t err = cudaFreeHost(data);
  if (err == cudaErrorInvalidValue) {
    free(data);
  }
}

void release_pinned_checked(void* data) {
  if (cudaFreeHost(data) != cudaSuccess) {
    free(data);
  }
}

// The free succeeded on this arm: freeing again is a double free.
void release_twice(void* data) {
  cudaError_t err = cudaFreeHost(data);
  if (err == cudaSuccess) {
    free(data);  // want "double-free"
  }
}

// Correct: a write that reported a failure queued nothing, so its host
// buffer may be freed at once on that arm.
int fill_checked(cl_command_queue q, cl_mem buf, int n) {
  float* host = new float[n];
  cl_int err = clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, n * sizeof(float), host, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    delete[] host;
    return err;
  }
  clFinish(q);
  delete[] host;
  return 0;
}

// The write succeeded on this arm: it may still read the buffer.
int fill_freed_on_success(cl_command_queue q, cl_mem buf, int n) {
  float* host = new float[n];
  cl_int err = clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, n * sizeof(float), host, 0, nullptr, nullptr);  // want "device-use-after-free"
  if (err == CL_SUCCESS) {
    delete[] host;
    return 0;
  }
  clFinish(q);
  delete[] host;
  return err;
}

// Correct, the status tested where it is returned.
void copy_checked(float* dev, int n, cudaStream_t s) {
  float* pinned = nullptr;
  cudaMallocHost(&pinned, n * sizeof(float));
  if (cudaMemcpyAsync(dev, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s) != cudaSuccess) {
    cudaFreeHost(pinned);
    return;
  }
  cudaStreamSynchronize(s);
  cudaFreeHost(pinned);
}

// A host function queued with a pointer to a local; nothing waits.
void host_func(void* data);
int launch_host_func(cudaStream_t s) {
  int order = 0;
  cudaLaunchHostFunc(s, host_func, &order);  // want "device-use-after-free"
  return order;
}

// Correct: cudaFree synchronises the device before it frees, so the host
// function has run before the local dies.
int launch_host_func_freed(cudaStream_t s, int* scratch) {
  int order = 0;
  if (cudaLaunchHostFunc(s, host_func, &order) != cudaSuccess) {
    return 1;
  }
  cudaFree(scratch);
  return order;
}
