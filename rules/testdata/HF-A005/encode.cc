// Work encoded on a stream's command buffer reads its inputs when the
// command buffer runs, after the host has moved on.

// A scalar the fill reads dies when the function returns.
void FillZero(array& out, const Stream& s) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);  // want "copy_gpu queues work that reads 'zero', which dies at line 8 before the work can run" confirmed
}

// The same in a block: the scalar dies at the block's end.
void PadThenCopy(const array& in, array& out, const Stream& s, bool pad) {
  if (pad) {
    array zero(0, in.dtype());
    pad_gpu(in, zero, out, s);  // want "pad_gpu queues work that reads 'zero', which dies at line 15" confirmed
  }
}

// Correct: the scalar is added to the command buffer's temporaries.
void FillZeroKept(array& out, const Stream& s, metal::Device& d) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);
  d.add_temporary(zero, s.index);
}

// Correct: the scalar goes into the copies the caller keeps.
void FillZeroCopies(array& out, const Stream& s, std::vector<array>& copies) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);
  copies.push_back(zero);
}

// Correct: the host waits for the stream before the scalar dies.
void FillZeroSync(array& out, const Stream& s) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);
  synchronize(s);
}

// Correct: the scalar is handed to a helper holdfast cannot see, which
// may keep it.
void FillZeroHanded(array& out, const Stream& s, Encoder& enc) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);
  enc.retain_input(zero);
}

// Correct: the input is a parameter; its owner is the caller's.
void CopyIn(const array& in, array& out, const Stream& s) {
  copy_gpu(in, out, CopyType::General, s);
}

// A wait in a loop body that may run zero times: the rule reports, and the
// replay of the path through the wait is clean.
void FillZeroDrain(array& out, const Stream& s, const std::vector<Fence>& fences) {
  array zero(0, out.dtype());
  copy_gpu(zero, out, CopyType::Scalar, s);  // want "copy_gpu queues work that reads 'zero'" not-reproduced
  for (const Fence& f : fences) {
    synchronize(s);
  }
}

// Correct: the scalar is added to the temporaries before the fill.
void FillZeroKeptFirst(array& out, const Stream& s, Encoder& encoder) {
  array zero(0, out.dtype());
  encoder.add_temporary(zero);
  fill_gpu(zero, out, s);
}

// Correct: a slice that shares the output's buffer owns nothing of its own.
void CopyIntoSlice(const array& in, array& out, const Stream& s) {
  array out_slice(in.shape(), out.dtype(), nullptr, {});
  out_slice.copy_shared_buffer(out, out.strides(), out.flags(), out.size());
  copy_gpu_inplace(in, out_slice, CopyType::General, s);
}

// Correct: an enum is not a buffer.
void AsType(const array& in, array& out, const Stream& s) {
  CopyType ctype = in.flags().contiguous ? CopyType::Vector : CopyType::General;
  copy_gpu(in, out, ctype, s);
}

// A scalar built in the argument list dies at the end of the statement.
void PadWithZero(const array& in, array& padded, const Stream& s) {
  copy_gpu(array(0, in.dtype()), padded, CopyType::Scalar, s);  // want "copy_gpu queues work that reads the temporary 'array\(0, in.dtype\(\)\)', which dies at the end of the statement" confirmed
}

// Correct: the scalar is named and kept with the command buffer.
void PadWithKeptZero(const array& in, array& padded, const Stream& s, metal::Device& d) {
  array zero(0, in.dtype());
  copy_gpu(zero, padded, CopyType::Scalar, s);
  d.add_temporary(zero, s.index);
}

// Correct: a value of a type that owns no memory built in place.
void CopyKind(const array& in, array& out, const Stream& s) {
  copy_gpu(in, out, CopyType(1), s);
}

// A helper of this file that encodes work on its arguments: its callers'
// locals are read when the command buffer runs.
void scale_gpu(const array& in, array& out, const Stream& s) {
  copy_gpu(in, out, CopyType::General, s);
}

// The intermediate goes into a keep-alive vector taken by value: the copy
// dies on return, so nothing keeps the intermediate.
void two_step(const array& in, array& out, std::vector<array> copies, const Stream& s) {
  array temp(in.shape(), in.dtype(), nullptr, {});
  scale_gpu(in, temp, s);  // want "scale_gpu queues work that reads 'temp', which dies at line 112" confirmed
  scale_gpu(temp, out, s);
  copies.push_back(temp);
}

// Correct: the keep-alive vector is the caller's.
void two_step_kept(const array& in, array& out, std::vector<array>& copies, const Stream& s) {
  array temp(in.shape(), in.dtype(), nullptr, {});
  scale_gpu(in, temp, s);
  scale_gpu(temp, out, s);
  copies.push_back(temp);
}

// Two overloads of one helper, told apart by their number of arguments;
// the longer one binds its output to the kernel the encoder dispatches.
void run_kernel(const array& in, array& out, int axis, bool inverse, const Stream& s) {
  auto& enc = metal::device(s.device).get_command_encoder(s.index);
  enc.set_input_array(in, 0);
  enc.set_output_array(out, 1);
  enc.dispatch_threads(grid, group);
}
void run_kernel(const array& in, array& out, const Stream& s) {
  run_kernel(in, out, 0, false, s);
}

// The intermediate is pushed into a by-value keep-alive vector in one arm;
// the other arm hands the vector on, which does not keep the first arm's
// intermediate.
void staged(const array& in, array& out, bool direct, std::vector<array> copies, const Stream& s) {
  if (direct) {
    array temp(in.shape(), in.dtype(), nullptr, {});
    run_kernel(in, temp, 0, false, s);  // want "run_kernel queues work that reads 'temp', which dies at line 143" confirmed
    run_kernel(temp, out, 0, false, s);
    copies.push_back(temp);
  } else {
    finish(in, out, copies, s);
  }
}

// Correct: the vector is the caller's.
void staged_kept(const array& in, array& out, bool direct, std::vector<array>& copies, const Stream& s) {
  if (direct) {
    array temp(in.shape(), in.dtype(), nullptr, {});
    run_kernel(in, temp, s);
    run_kernel(temp, out, s);
    copies.push_back(temp);
  } else {
    finish(in, out, copies, s);
  }
}

// A handle returned by a call may share its buffer with an array that
// outlives the function (the input itself, or an output that took the
// copy's buffer): that it dies with the last reference is an assumption.
void bind_prepared(const array& in, array& out, const Stream& s) {
  array x = prepare_input(in, s);
  auto& enc = metal::device(s.device).get_command_encoder(s.index);
  enc.set_input_array(x, 0);  // want "set_input_array queues work that reads 'x', which dies at line 169" latent
  enc.set_output_array(out, 1);
  enc.dispatch_threads(grid, group);
}

// Correct: the helper returns its input or a copy it added to the
// temporaries, so whatever the local holds is kept with the work.
array row_contiguous(const array& x, const Stream& s) {
  if (!x.flags().row_contiguous) {
    array x_copy = contiguous_copy_gpu(x, s);
    metal::get_command_encoder(s).add_temporary(x_copy);
    return x_copy;
  }
  return x;
}
void bind_row_contiguous(const array& in, array& out, const Stream& s) {
  array x = row_contiguous(in, s);
  auto& enc = metal::device(s.device).get_command_encoder(s.index);
  enc.set_input_array(x, 0);
  enc.set_output_array(out, 1);
  enc.dispatch_threads(grid, group);
}

// Correct: the copy goes back to the caller inside the returned tuple.
std::tuple<bool, array> maybe_copy(const array& x, bool copy, const Stream& s) {
  if (copy) {
    array x_copy(x.shape(), x.dtype(), nullptr, {});
    copy_gpu(x, x_copy, CopyType::Vector, s);
    return std::make_tuple(true, x_copy);
  }
  return std::make_tuple(false, x);
}
