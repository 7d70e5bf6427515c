// The same shape with HIP names and an async copy on a side stream.

void CopyOnSide(const at::Tensor& src) {
  at::Tensor staging = at::empty_like(src);
  c10::hip::HIPStream side = c10::hip::getStreamFromPoolMasqueradingAsCUDA();
  hipMemcpyAsync(staging.data_ptr(), src.data_ptr(), src.nbytes(), hipMemcpyDeviceToDevice, side);  // want "'staging' is used on 'side' here and released at line 7" confirmed
}

// Correct: the current stream waits for the side stream's event.
void CopyOnSideEvent(const at::Tensor& src) {
  at::Tensor staging = at::empty_like(src);
  c10::hip::HIPStream side = c10::hip::getStreamFromPoolMasqueradingAsCUDA();
  hipMemcpyAsync(staging.data_ptr(), src.data_ptr(), src.nbytes(), hipMemcpyDeviceToDevice, side);
  hipEventRecord(done_, side);
  hipStreamWaitEvent(current_, done_, 0);
}
