// Host memory a queued transfer still uses is freed or replaced.
#include <CL/cl.h>
#include <cstdlib>
#include <vector>

void fill_rows(float* rows, int n);

void upload_then_free(cl_command_queue q, cl_mem rows, int n) {
  float* host = static_cast<float*>(malloc(n * sizeof(float)));
  fill_rows(host, n);
  clEnqueueWriteBuffer(q, rows, CL_FALSE, 0, n * sizeof(float), host, 0, nullptr, nullptr);  // want "uses 'malloc\(n \* sizeof\(float\)\)', which ends at line 12 \(free\)" confirmed
  free(host);
}

void upload_then_grow(cl_command_queue q, cl_mem rows, std::vector<float>& more, int n) {
  std::vector<float> host(n);
  clEnqueueWriteBuffer(q, rows, CL_FALSE, 0, n * sizeof(float), host.data(), 0, nullptr, nullptr);  // want "ends at line 18 \(insert\)" confirmed
  host.insert(host.end(), more.begin(), more.end());
  clFinish(q);
}

// Correct: finished before the free.
void upload_finish_free(cl_command_queue q, cl_mem rows, int n) {
  float* host = static_cast<float*>(malloc(n * sizeof(float)));
  fill_rows(host, n);
  clEnqueueWriteBuffer(q, rows, CL_FALSE, 0, n * sizeof(float), host, 0, nullptr, nullptr);
  clFinish(q);
  free(host);
}
