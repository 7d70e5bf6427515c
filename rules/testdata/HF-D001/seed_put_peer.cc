// The shape of torch_tpu's WindowTpu::PutPeerP2P: large sends are striped,
// and each stripe's .contiguous() is the stripe itself, a view.
std::vector<c10::intrusive_ptr<Work>> WindowTpu::PutPeerP2P(const at::Tensor& tensor, int dst_rank, int tag) {
  const int64_t num_stripes = std::clamp<int64_t>(tensor.nbytes() / kStripeBytes, 1, 4);
  auto chunks = tensor.contiguous().view(-1).chunk(num_stripes, 0);
  std::vector<c10::intrusive_ptr<Work>> works;
  for (int64_t i = 0; i < num_stripes; ++i) {
    std::vector<at::Tensor> stripe = {chunks[i].contiguous()};  // want "contiguous\(\) returns 'chunks\[i\]' itself, not a copy" not-modelled
    works.push_back(backend_->send(stripe, dst_rank, tag));
  }
  return works;
}

// The same in WindowTpu::signal: a contiguous() of a fresh tensor.
c10::intrusive_ptr<Work> WindowTpu::signal(int dst_rank) {
  at::Tensor flag = at::ones({1}, at::kInt);
  std::vector<at::Tensor> one = {flag.contiguous()};  // want "contiguous\(\) returns 'flag' itself, not a copy" not-modelled
  return backend_->send(one, dst_rank, 0);
}

// Fixed: a real copy where a buffer of its own was meant.
std::vector<c10::intrusive_ptr<Work>> WindowTpu::PutPeerP2PCopy(const at::Tensor& tensor, int dst_rank, int tag) {
  auto chunks = tensor.contiguous().view(-1).chunk(4, 0);
  std::vector<c10::intrusive_ptr<Work>> works;
  for (int64_t i = 0; i < 4; ++i) {
    std::vector<at::Tensor> stripe = {chunks[i].clone(at::MemoryFormat::Contiguous)};
    works.push_back(backend_->send(stripe, dst_rank, tag));
  }
  return works;
}

// Fixed the other way: the view is sent as it is.
std::vector<c10::intrusive_ptr<Work>> WindowTpu::PutPeerP2PView(const at::Tensor& tensor, int dst_rank, int tag) {
  auto chunks = tensor.contiguous().view(-1).chunk(4, 0);
  std::vector<c10::intrusive_ptr<Work>> works;
  for (int64_t i = 0; i < 4; ++i) {
    std::vector<at::Tensor> stripe = {chunks[i]};
    works.push_back(backend_->send(stripe, dst_rank, tag));
  }
  return works;
}

// Quiet: the parameter's layout is unknown, so .contiguous() may copy.
at::Tensor Flatten(const at::Tensor& tensor) {
  return tensor.contiguous().view(-1);
}
