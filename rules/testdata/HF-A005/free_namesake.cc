// A stream's Memcpy queues its copy; a free function that happens to be
// called Memcpy is another function. Here it is a blocking copy declared
// by the project (its definition is elsewhere): nothing is queued.

#include <memory>
#include <vector>

enum class MemcpyFlag { kCPU2GPU, kGPU2CPU };
void Memcpy(void* dst, const void* src, size_t n, MemcpyFlag flag);
namespace core {
void Memcpy(void* dst, const void* src, size_t n, MemcpyFlag flag);
}

// Correct: a free function's call, unqualified.
float ReadBack(const float* dev, size_t n) {
  std::unique_ptr<float[]> host(new float[n]);
  Memcpy(host.get(), dev, n * sizeof(float), MemcpyFlag::kGPU2CPU);
  return host[0];
}

// Correct: qualified by a namespace.
void Upload(float* dev, size_t n) {
  std::vector<float> host(n, 1.0f);
  core::Memcpy(dev, host.data(), n * sizeof(float), MemcpyFlag::kCPU2GPU);
}

// The stream's method of the same name queues the copy.
void Push(se::Stream* stream, se::DeviceMemoryBase dst, size_t n) {
  std::vector<float> host(n, 1.0f);
  stream->Memcpy(&dst, host.data(), n * sizeof(float));  // want "Memcpy queues work that reads 'host', which dies at line 31" confirmed
}
