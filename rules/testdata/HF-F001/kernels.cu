// CUDA: a kernel launch hands its arguments to the kernel, which may write
// them.

at::Tensor& scale_out_cuda(const at::Tensor& self, at::Tensor& out, cudaStream_t stream) {
  at::Tensor out_c = out.contiguous();  // want "'out_c' may be a new copy of 'out': the write at line 6 is lost when 'out' is a view" confirmed
  scale_kernel<<<grid, block, 0, stream>>>(self.data_ptr<float>(), out_c.data_ptr<float>(), self.numel());
  return out;
}

// Correct: a contiguous copy of an input, read by a kernel.
at::Tensor& add_cuda_out(const at::Tensor& self, at::Tensor& out, cudaStream_t stream) {
  at::Tensor self_c = self.contiguous();
  add_kernel<<<grid, block, 0, stream>>>(self_c.data_ptr<float>(), out.data_ptr<float>(), self.numel());
  return out;
}

