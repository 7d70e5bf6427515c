// Work queued on a stream the object owns (a data member) may be waited
// for by any other method of the object that runs: a Sync() that
// synchronises the member stream. A call that cannot reach the object
// waits for nothing of it.
#include <cuda_runtime.h>

void log_line(const char* s);

class Reader {
 public:
  void Sync();
  float ReadSynced(const float* dev);
  float ReadLogged(const float* dev);

 private:
  cudaStream_t stream_;
};

// Correct: Sync() may wait for stream_.
float Reader::ReadSynced(const float* dev) {
  float* host;
  cudaMallocHost(&host, 16 * sizeof(float));
  cudaMemcpyAsync(host, dev, 16 * sizeof(float), cudaMemcpyDeviceToHost, stream_);
  Sync();
  float v = host[0];
  cudaFreeHost(host);
  return v;
}

float Reader::ReadLogged(const float* dev) {
  float* host;
  cudaMallocHost(&host, 16 * sizeof(float));
  cudaMemcpyAsync(host, dev, 16 * sizeof(float), cudaMemcpyDeviceToHost, stream_);
  log_line("copied");
  float v = host[0];  // want "host-reads-pending"
  cudaFreeHost(host);
  return v;
}
