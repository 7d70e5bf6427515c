// CUDA and HIP copies into the packed copy of an output.
at::Tensor& upload_out(const float* host, size_t pitch, size_t w, size_t h, at::Tensor& out, cudaStream_t stream) {
  at::Tensor out_c = out.contiguous();  // want "'out_c' may be a new copy of 'out': the write at line 4 is lost when 'out' is a view" confirmed
  cudaMemcpy2DAsync(out_c.data_ptr(), pitch, host, pitch, w, h, cudaMemcpyHostToDevice, stream);
  return out;
}

at::Tensor& clear_out(at::Tensor& out, hipStream_t stream) {
  at::Tensor out_c = out.contiguous();  // want "'out_c' may be a new copy of 'out': the write at line 10 is lost when 'out' is a view" confirmed
  hipMemsetAsync(out_c.data_ptr(), 0, out_c.nbytes(), stream);
  return out;
}

// Correct: copied back.
at::Tensor& clear_out_fixed(at::Tensor& out, hipStream_t stream) {
  at::Tensor out_c = out.contiguous();
  hipMemsetAsync(out_c.data_ptr(), 0, out_c.nbytes(), stream);
  out.copy_(out_c);
  return out;
}

// Correct: memcpy from the copy of an input into host memory.
void read_in(const at::Tensor& in, void* host) {
  at::Tensor in_c = in.contiguous();
  memcpy(host, in_c.data_ptr(), in_c.nbytes());
}
