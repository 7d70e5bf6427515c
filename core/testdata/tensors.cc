// Tensors as the ATen pack describes them: a copy or factory result owns
// fresh storage; a pointer borrowed from it while it is a temporary
// dangles once the statement ends.
#include <ATen/ATen.h>

void launch(float* p);

void borrow_of_copy(const at::Tensor& input) {
  float* p = input.contiguous().data_ptr<float>();
  launch(p);  // want "use-of-temporary"
}

void borrow_of_factory(int64_t n) {
  void* buf = at::empty({n}, at::kByte).data_ptr();
  fill(buf, n);  // want "use-of-temporary"
}

void borrow_of_clone(const at::Tensor& input) {
  float* p = input.clone().data_ptr<float>();
  launch(p);  // want "use-of-temporary"
}

// Correct: the copy is named and lives to the end of the function.
void named_copy(const at::Tensor& input) {
  at::Tensor packed = input.contiguous();
  float* p = packed.data_ptr<float>();
  launch(p);
}

// Correct: auto names the copy too.
void auto_copy(const at::Tensor& input) {
  auto packed = input.contiguous();
  float* p = packed.data_ptr<float>();
  launch(p);
}

// Correct: used within the statement.
float first(const at::Tensor& input) {
  return *input.contiguous().data_ptr<float>();
}

// Correct: the pointer is into the caller's tensor.
void borrow_of_param(const at::Tensor& input) {
  float* p = input.data_ptr<float>();
  launch(p);
}

// Correct: a container's empty() is not a factory.
void container_empty(std::vector<float>& v) {
  float* p = v.data();
  if (v.empty()) {
    return;
  }
  launch(p);
}

// An alias of a type under its own name (here in a test fixture) is the
// same type: optional<Tensor> stays an optional of a tensor.
template <typename T>
struct OptionalFixture {
  using optional = c10::optional<T>;
};

// Through an optional tensor.
void borrow_of_optional(const c10::optional<at::Tensor>& bias) {
  const float* p = bias->contiguous().data_ptr<float>();
  launch(p);  // want "use-of-temporary"
}

// Correct: checked contiguous, so contiguous() returns the tensor itself
// (ATen: "If self tensor is already in the specified memory format, this
// function returns the self tensor").
void checked_contiguous(const at::Tensor& input) {
  TORCH_CHECK(input.is_contiguous(), "input must be contiguous");
  float* p = input.contiguous().data_ptr<float>();
  launch(p);
}

// Correct: the path that goes on knows the tensor is contiguous.
void tested_contiguous(const at::Tensor& input) {
  if (!input.is_contiguous()) {
    return;
  }
  float* p = input.contiguous().data_ptr<float>();
  launch(p);
}

// A factory's result is fresh whatever was checked.
void checked_factory(const at::Tensor& input, int64_t n) {
  TORCH_CHECK(input.is_contiguous());
  float* p = input.clone().data_ptr<float>();
  launch(p);  // want "use-of-temporary"
}

// Correct: a factory's tensor is contiguous, so contiguous() returns it.
void factory_contiguous(int64_t n) {
  at::Tensor t = at::zeros({n});
  float* p = t.contiguous().data_ptr<float>();
  launch(p);
}

// A transposed tensor may not be: contiguous() copies.
void transposed(int64_t n) {
  at::Tensor t = at::zeros({n, n}).t();
  float* p = t.contiguous().data_ptr<float>();
  launch(p);  // want "use-of-temporary"
}
