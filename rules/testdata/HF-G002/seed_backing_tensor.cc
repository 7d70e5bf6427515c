// The reverted torch_tpu change: the H2D transfer's completion callback
// kept the source tensor alive by capturing it, so the tensor was released
// on the PJRT thread, which then needed the GIL.
absl::Status TpuMallocAndMemcpyHtoD(const at::Tensor& src, DeviceBufferRef dst) {
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * buffer, dst.AwaitBuffer());
  xla::Future<> done = buffer->CopyRawHostToDevice(src.data_ptr(), 0, src.nbytes());
  done.OnReady([backing_tensor = src](absl::Status s) {  // want "'backing_tensor' \(at::Tensor\) is captured by value and released by the OnReady callback on the runtime thread" confirmed
    VLOG(3) << "h2d done: " << s;
  });
  return absl::OkStatus();
}

// The fix: the callback keeps only the device buffer; the tensor stays
// with the caller until it waits.
absl::Status TpuMallocAndMemcpyHtoDFixed(const at::Tensor& src, DeviceBufferRef dst, TransferFuture* pending) {
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * buffer, dst.AwaitBuffer());
  xla::Future<> done = buffer->CopyRawHostToDevice(src.data_ptr(), 0, src.nbytes());
  done.OnReady([list = dst.device_buffer_list()](absl::Status s) mutable { list.reset(); });
  pending->Keep(src);
  return absl::OkStatus();
}
