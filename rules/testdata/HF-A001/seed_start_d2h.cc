// The shape of torch_tpu's StartD2H: the OnReady continuation keeps the
// destination literal alive but not the source buffer, which GetBuffer
// made for a view and only a local owns.
absl::StatusOr<xla::Future<>> StartD2H(const at::Tensor& src, void* dst_ptr, const xla::Shape& shape) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef buffer_ref, GetBuffer(src));
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * buffer, buffer_ref.AwaitBuffer());
  auto literal = std::make_unique<xla::MutableBorrowingLiteral>(static_cast<char*>(dst_ptr), shape);
  auto [promise, future_out] = xla::MakePromise<void>();
  xla::Future<> future = buffer->ToLiteral(literal.get());  // want "ToLiteral may still use 'buffer_ref' \(through 'buffer'\) when its only owner dies at line 15" confirmed
  future.OnReady([literal = std::move(literal), promise = std::move(promise),
                  dst_ptr](absl::Status s) mutable {
    promise.Set(std::move(s));
  });
  return future_out;
}

// Fixed: the continuation captures the buffer list and resets it when the
// copy is done.
absl::StatusOr<xla::Future<>> StartD2HFixed(const at::Tensor& src, void* dst_ptr, const xla::Shape& shape) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef buffer_ref, GetBuffer(src));
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * buffer, buffer_ref.AwaitBuffer());
  auto literal = std::make_unique<xla::MutableBorrowingLiteral>(static_cast<char*>(dst_ptr), shape);
  auto [promise, future_out] = xla::MakePromise<void>();
  xla::Future<> future = buffer->ToLiteral(literal.get());
  future.OnReady([literal = std::move(literal), promise = std::move(promise),
                  device_buffer_list = buffer_ref.device_buffer_list()](absl::Status s) mutable {
    device_buffer_list.reset();
    promise.Set(std::move(s));
  });
  return future_out;
}

// The caller of the non-blocking copy: the converted buffer is a local,
// the future goes to RecordAsyncDeviceToHost, the function returns.
absl::Status CopyTpuToCpuWithTpuConversion(const at::Tensor& src, at::Tensor& dst, bool non_blocking) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef converted_src_buf, GetBuffer(src));
  xla::Future<> future = converted_src_buf->ToLiteral(MakeLiteral(dst));  // want "ToLiteral may still use 'converted_src_buf' when its only owner dies at line 43" confirmed
  if (!non_blocking) {
    return future.Await();
  }
  RecordAsyncDeviceToHost(dst, std::move(future));
  return absl::OkStatus();
}

// Blocking copies wait before returning: safe.
absl::Status CopyTpuToCpuBlocking(const at::Tensor& src, at::Tensor& dst) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef converted_src_buf, GetBuffer(src));
  xla::Future<> future = converted_src_buf->ToLiteral(MakeLiteral(dst));
  TF_RETURN_IF_ERROR(future.Await());
  return absl::OkStatus();
}

// A temporary future returned as it is.
xla::Future<> ReadBack(const at::Tensor& src, xla::MutableBorrowingLiteral* literal) {
  DeviceBufferRef ref = MaterializeAndReturn(src, MaterializationReason::kTransfer);
  return ref->ToLiteral(literal);  // want "ToLiteral may still use 'ref' when its only owner dies at line 57" confirmed
}

// The hold travels inside the future (the refactor's PreparedRawDmaBuffer):
// the pack says CopyDtoH keeps its buffer alive.
absl::StatusOr<xla::Future<>> CopyOut(DeviceBufferRef ref, void* dst, size_t n) {
  TT_ASSIGN_OR_RETURN(PreparedRawDmaBuffer prepared, PreparedRawDmaBuffer::Prepare(std::move(ref)));
  return prepared.CopyDtoH(dst, 0, n);
}

// The buffer is a parameter: the caller owns it.
xla::Future<> ReadParam(xla::PjRtBuffer* buffer, xla::MutableBorrowingLiteral* literal) {
  return buffer->ToLiteral(literal);
}

// Correct: GetReadyFuture starts no work on the buffer; its future only
// says when the buffer is defined.
xla::Future<> ReadyOf(const at::Tensor& t) {
  DeviceBufferRef ref = GetBuffer(t);
  xla::Future<> ready = ref->GetReadyFuture();
  return ready;
}
