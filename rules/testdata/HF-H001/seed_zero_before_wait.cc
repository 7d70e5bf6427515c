// torch_tpu: an in-place op swaps the tensor's DeviceBufferRef
// (OverwriteDataPtr) while an async copy from it is still running.
absl::Status CopyThenZero(at::Tensor& t, xla::MutableBorrowingLiteral* literal) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef src_ref, GetBuffer(t));
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * src, src_ref.AwaitBuffer());
  xla::Future<> done = src->ToLiteral(literal);
  t.zero_();  // want "ToLiteral \(line 6\) may still be using 't' \(through 'src'\) when zero_ mutates it in place" confirmed
  return done.Await();
}

// The destination of an H2D copy, overwritten before the wait.
absl::Status UploadThenOverwrite(at::Tensor& dst, const HostSlice& host) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef dst_ref, GetPjrtBuffer(dst));
  TT_ASSIGN_OR_RETURN(xla::Future<> done, TpuAsyncDmaCopyHtoD(dst_ref, host));
  OverwriteDataPtr(dst, NewZeroBuffer(dst));  // want "TpuAsyncDmaCopyHtoD \(line 14\) may still be using 'dst' \(through 'dst_ref'\) when OverwriteDataPtr mutates it in place" confirmed
  return done.Await();
}

// Correct: the wait comes first.
absl::Status CopyWaitZero(at::Tensor& t, xla::MutableBorrowingLiteral* literal) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef src_ref, GetBuffer(t));
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * src, src_ref.AwaitBuffer());
  xla::Future<> done = src->ToLiteral(literal);
  TF_RETURN_IF_ERROR(done.Await());
  t.zero_();
  return absl::OkStatus();
}

// Only one path waits: the mutation after the branch is not covered.
absl::Status CopyMaybeWait(at::Tensor& t, xla::MutableBorrowingLiteral* literal, bool sync) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef src_ref, GetBuffer(t));
  xla::Future<> done = src_ref->ToLiteral(literal);
  if (sync) {
    TF_RETURN_IF_ERROR(done.Await());
  }
  t.fill_(1);  // want "ToLiteral \(line 32\) may still be using 't' \(through 'src_ref'\) when fill_ mutates it in place" confirmed
  return done.Await();
}

// Correct: a different tensor is mutated.
absl::Status CopyOther(at::Tensor& t, at::Tensor& scratch, xla::MutableBorrowingLiteral* literal) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef src_ref, GetBuffer(t));
  xla::Future<> done = src_ref->ToLiteral(literal);
  scratch.zero_();
  return done.Await();
}
