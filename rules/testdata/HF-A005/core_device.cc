// Host memory a queued transfer still uses goes out of scope.
#include <CL/cl.h>
#include <sycl/sycl.hpp>
#include <vector>

std::vector<float> pack_rows(int n);

void upload_rows(cl_command_queue q, cl_mem rows, int n) {
  std::vector<float> host = pack_rows(n);
  clEnqueueWriteBuffer(q, rows, CL_FALSE, 0, n * sizeof(float), host.data(), 0, nullptr, nullptr);  // want "queues device work that uses 'host', which goes out of scope at line 11" confirmed
}

void upload_rows_sycl(sycl::queue& q, float* dev, int n) {
  std::vector<float> host = pack_rows(n);
  q.memcpy(dev, host.data(), n * sizeof(float));  // want "goes out of scope" confirmed
}

// Correct: the queue is finished before the vector dies.
void upload_rows_finished(cl_command_queue q, cl_mem rows, int n) {
  std::vector<float> host = pack_rows(n);
  clEnqueueWriteBuffer(q, rows, CL_FALSE, 0, n * sizeof(float), host.data(), 0, nullptr, nullptr);
  clFinish(q);
}

// Correct: the copy's event is waited for.
void upload_rows_sycl_wait(sycl::queue& q, float* dev, int n) {
  std::vector<float> host = pack_rows(n);
  q.memcpy(dev, host.data(), n * sizeof(float)).wait();
}
