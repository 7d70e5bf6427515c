// An output parameter rebound to its own packed copy: the caller's tensor
// object now refers to the copy, but the storage the caller (and every
// other handle to it) sees is never written when it was a view.

// A known in-place write of the copy: the lost write happens whatever
// other code does.
at::Tensor& scale_out(const at::Tensor& self, at::Tensor& out) {
  out = out.contiguous();  // want "'out' is rebound to its own contiguous\(\) and written at line 9, so a caller's view is never written" confirmed
  out.mul_(2);
  return out;
}

// The write goes through a handle of a library holdfast cannot see: that
// the library writes it is an assumption, so the finding is latent.
at::Tensor& tanh_out(const at::Tensor& self, at::Tensor& out) {
  out = out.contiguous();  // want "'out' is rebound to its own contiguous\(\) and written at line 18, so a caller's view is never written" latent
  backend::Buffer y = to_backend(out);
  backend::activation(to_backend(self), y);
  return out;
}

// Correct: a packed copy written, then copied back into the caller's tensor.
at::Tensor& tanh_out_fixed(const at::Tensor& self, at::Tensor& out) {
  at::Tensor out_c = out.is_contiguous() ? out : out.contiguous();
  backend::Buffer y = to_backend(out_c);
  backend::activation(to_backend(self), y);
  if (!out.is_contiguous()) {
    out.copy_(out_c);
  }
  return out;
}

// Correct: an input rebound to a packed copy is only read.
at::Tensor sum_all(at::Tensor self) {
  self = self.contiguous();
  return reduce(self);
}
