package rules

import (
	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
)

func hostReadsPending() *Rule {
	return &Rule{
		Meta: &diag.Rule{
			ID:        "HF-H002",
			Name:      "host-reads-pending-copy",
			Class:     "H",
			Severity:  diag.Error,
			Precision: "high",
			Summary:   "the host reads memory that queued device work is still writing",
			Help: `What it does: executes every path of the function with the device's
queues and reports a host read of memory that queued work writes (the
destination of an asynchronous device-to-host copy into page-locked
memory, a non-blocking OpenCL read, a SYCL queue copy) before anything
waited for that work: a stream or queue synchronisation, an event wait, a
blocking call on the same queue, or a call holdfast cannot see that is
handed the stream, the queue or the memory.

Why it is bad: the copy runs behind the host. The read sees whatever the
memory held before the copy landed, or part of it, and the result changes
from run to run.

Known problems: which calls queue work and which wait comes from the
API packs (CUDA and HIP runtime and driver, OpenCL, SYCL); a wrapper the
tree defines around them is not followed into yet. CUDA copies with
pageable host memory complete (or are staged) before they return, so only
page-locked memory the function allocates is followed.`,
			Example: diag.Example{
				Bad: `float First(const float* dev, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, 64 * sizeof(float));
  cudaMemcpyAsync(host, dev, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  return host[0];               // the copy may not have landed yet
}`,
				Good: `float First(const float* dev, cudaStream_t stream) {
  float* host = nullptr;
  cudaMallocHost(&host, 64 * sizeof(float));
  cudaMemcpyAsync(host, dev, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  return host[0];
}`,
			},
			Fix:  "wait for the copy (synchronise its stream or queue, or wait on its event) before reading the destination",
			Hint: "wait for the copy before reading the destination",
			Tags: []string{"concurrency", "data-race", "device"},
			CWE:  []int{362},
		},
		Check: func(p *Pass, fn *lifetime.Func) { p.reportCore(fn, core.HostReadsPending) },
	}
}
