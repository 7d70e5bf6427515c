// A host function queued on a stream (cudaLaunchHostFunc,
// cudaStreamAddCallback and their driver and HIP forms) runs when the
// stream reaches it and is handed userData then: what userData points to
// must outlive the wait for the stream.
#include <cuda_runtime.h>
#include <future>

struct Tally {
  int n;
};

void CUDART_CB count(void* p) { static_cast<Tally*>(p)->n++; }
void CUDART_CB count_status(cudaStream_t, cudaError_t, void* p) { static_cast<Tally*>(p)->n++; }
void CUDART_CB signal(void* p) { static_cast<std::promise<void>*>(p)->set_value(); }

void local_tally_bad(cudaStream_t s) {
  Tally t{0};
  cudaLaunchHostFunc(s, count, &t);  // want "device-use-after-free"
}

void callback_tally_bad(cudaStream_t s) {
  Tally t{0};
  cudaStreamAddCallback(s, count_status, &t, 0);  // want "device-use-after-free"
}

void deleted_tally_bad(cudaStream_t s) {
  Tally* t = new Tally{0};
  cudaLaunchHostFunc(s, count, t);  // want "device-use-after-free"
  delete t;
}

// Correct: the stream is waited for before the tally dies.
void synced_ok(cudaStream_t s) {
  Tally t{0};
  cudaLaunchHostFunc(s, count, &t);
  cudaStreamSynchronize(s);
}

// Correct: the function waits for the host function itself.
void promised_ok(cudaStream_t s) {
  std::promise<void> done;
  auto fired = done.get_future();
  cudaLaunchHostFunc(s, signal, &done);
  fired.wait();
}

// Correct: the host function gets memory that outlives the call.
void heap_ok(cudaStream_t s) {
  cudaLaunchHostFunc(s, count, new Tally{0});
}
