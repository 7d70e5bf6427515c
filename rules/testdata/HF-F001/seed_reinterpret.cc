// The shape of ExecuTorch's Metal shims before the fix: a view that is not
// densely packed is replaced by a packed copy, and the generated kernel,
// which writes through its arguments, writes the copy.
AOTITorchError aoti_torch_mps_set_arg_tensor(AOTIMetalKernelFunctionHandle func, unsigned idx, Tensor* tensor) {
  auto* function = reinterpret_cast<ETMetalKernelFunction*>(func);
  Tensor packed = materialize_packed(*tensor);  // want "'packed' may be a new copy of '\*tensor': the write at line 7 is lost when '\*tensor' is a view" confirmed
  function->setArg(idx, packed);
  return Error::Ok;
}

// Fixed: a strided view is bound where it is.
AOTITorchError aoti_torch_mps_set_arg_tensor_fixed(AOTIMetalKernelFunctionHandle func, unsigned idx, Tensor* tensor) {
  auto* function = reinterpret_cast<ETMetalKernelFunction*>(func);
  function->setArg(idx, *tensor);
  return Error::Ok;
}

// Correct: a hand-written kernel's input gets a packed copy; the input is
// only read, so nothing is lost.
AOTITorchError mps_mm_input(AOTIMetalKernelFunctionHandle func, const Tensor& input) {
  auto* function = reinterpret_cast<ETMetalKernelFunction*>(func);
  Tensor packed = materialize_packed(input);
  function->setArg(0, packed);
  return Error::Ok;
}
