// The shape of torch_tpu's experimental_recv: the receive runs async, but
// the work object handed to the caller is built without its future, so
// work->wait() returns while the receive is still in flight.
c10::intrusive_ptr<c10d::Work> ProcessGroupTpu::experimental_recv(std::vector<at::Tensor>& tensors, int src) {
  std::vector<std::string> transfer_keys = KeysFor(src, tensors.size());
  TT_ASSIGN_OR_THROW(auto recv_future, CrossHostRecvBuffers(tensors, transfer_keys));
  recv_future.OnReady([keys = transfer_keys](absl::Status s) { ReleaseKeys(keys); });
  return c10::make_intrusive<TpuWork>();  // want "TpuWork is built without 'recv_future' \(started at line 6\): its wait\(\) returns before the work is done" confirmed
}

// Fixed: the work holds the future of the receive.
c10::intrusive_ptr<c10d::Work> ProcessGroupTpu::experimental_recv_fixed(std::vector<at::Tensor>& tensors, int src) {
  std::vector<std::string> transfer_keys = KeysFor(src, tensors.size());
  TT_ASSIGN_OR_THROW(auto recv_future, CrossHostRecvBuffers(tensors, transfer_keys));
  return c10::make_intrusive<TpuWork>(std::move(recv_future));
}

// Correct: nothing async was started, a completed work is fine.
c10::intrusive_ptr<c10d::Work> ProcessGroupTpu::barrier_now() {
  BlockingBarrier();
  return c10::make_intrusive<TpuWork>();
}
