// ATen out= kernels: the output's contiguous() copy is written.

at::Tensor& fill_rows_out(const at::Tensor& self, at::Tensor& out) {
  auto out_c = out.contiguous();  // want "'out_c' may be a new copy of 'out': the write at line 8 is lost when 'out' is a view" confirmed
  const float* in = self.data_ptr<float>();
  float* out_data = out_c.data_ptr<float>();
  for (int64_t i = 0; i < out_c.numel(); ++i) {
    out_data[i] = in[i] * 2;
  }
  return out;
}

at::Tensor& copy_host_out(const void* src, size_t n, at::Tensor& out, cudaStream_t stream) {
  at::Tensor out_c = out.contiguous();  // want "'out_c' may be a new copy of 'out': the write at line 15 is lost when 'out' is a view" confirmed
  cudaMemcpyAsync(out_c.data_ptr(), src, n, cudaMemcpyHostToDevice, stream);
  return out;
}

at::Tensor& zero_out(at::Tensor& out) {
  auto out_c = out.contiguous();  // want "'out_c' may be a new copy of 'out': the write at line 21 is lost when 'out' is a view" confirmed
  out_c.zero_();
  return out;
}

// Correct: copied back when it was a copy.
at::Tensor& fill_rows_out_fixed(const at::Tensor& self, at::Tensor& out) {
  auto out_c = out.contiguous();
  float* out_data = out_c.data_ptr<float>();
  for (int64_t i = 0; i < out_c.numel(); ++i) {
    out_data[i] = 0;
  }
  if (!out.is_contiguous()) {
    out.copy_(out_c);
  }
  return out;
}

// Correct: views are refused first.
at::Tensor& zero_out_checked(at::Tensor& out) {
  TORCH_CHECK(out.is_contiguous(), "out must be contiguous");
  auto out_c = out.contiguous();
  out_c.zero_();
  return out;
}

// Correct: the copy is what the function returns.
at::Tensor doubled(const at::Tensor& self) {
  auto result = self.contiguous();
  result.mul_(2);
  return result;
}

// Correct: a copy of a fresh tensor is that tensor.
at::Tensor make_filled(int64_t n) {
  at::Tensor t = at::empty({n});
  at::Tensor t_c = t.contiguous();
  t_c.fill_(1);
  return t;
}

// A helper that holdfast does not see into takes the original and the
// copy after the write: the rule cannot prove it copies back, so it
// reports, and the replay of the path where the helper writes the copy
// back into 'out' is clean.
at::Tensor& scale_out(const at::Tensor& self, at::Tensor& out) {
  at::Tensor out_c = out.contiguous();  // want "'out_c' may be a new copy of 'out': the write at line 67 may be lost when 'out' is a view" not-reproduced
  out_c.mul_(2);
  copy_back_if_needed(out, out_c);
  return out;
}
