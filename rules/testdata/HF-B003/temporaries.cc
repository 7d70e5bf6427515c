// Pointers and views taken from an owner that lives for one statement.

void Launch(const at::Tensor& input, Stream s) {
  float* p = input.contiguous().data_ptr<float>();
  launch(p, s);  // want "'p' points into the temporary 'input.contiguous\(\)', which died at the end of its statement at line 4" confirmed
}

void Scratch(int64_t n, Stream s) {
  void* buf = at::empty({n}, at::kByte).data_ptr();
  fill(buf, n, s);  // want "'buf' points into the temporary 'at::empty\(\{n\}, at::kByte\)'" confirmed
}

// A handle a library holdfast cannot see makes from the temporary: that it
// borrows the memory is an assumption, so latent.
void Convolve(const at::Tensor& input, Queue q) {
  dev::Tensor x = to_device(input.contiguous());  // want "'x' is taken from the temporary 'input.contiguous\(\)'" latent
  Conv conv(q);
  conv.enqueue(x, q);
}

// Correct: the copy is named and lives to the end of the function.
void LaunchNamed(const at::Tensor& input, Stream s) {
  at::Tensor packed = input.contiguous();
  float* p = packed.data_ptr<float>();
  launch(p, s);
}

// Correct: the pointer is used within the statement.
float First(const at::Tensor& input) {
  return *input.contiguous().data_ptr<float>();
}

// Correct: the pointer is not used after the statement.
void Touch(const at::Tensor& input) {
  float* p = input.contiguous().data_ptr<float>();
  (void)0;
}

// Correct: a pointer into the argument itself, not into a temporary.
void LaunchInput(const at::Tensor& input, Stream s) {
  float* p = input.data_ptr<float>();
  launch(p, s);
}
