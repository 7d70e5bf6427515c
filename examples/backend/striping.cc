// Striped peer-to-peer sends: large tensors go out in up to four stripes.
#include <vector>

#include "backend/window.h"

namespace backend {

std::vector<c10::intrusive_ptr<Work>> Window::PutStriped(const at::Tensor& tensor, int peer) {
  const int64_t stripes = std::clamp<int64_t>(tensor.nbytes() / kStripeBytes, 1, 4);
  auto pieces = tensor.contiguous().view(-1).chunk(stripes, 0);
  std::vector<c10::intrusive_ptr<Work>> works;
  for (int64_t i = 0; i < stripes; ++i) {
    // Meant as a buffer of its own for the send; it is the same view.
    std::vector<at::Tensor> stripe = {pieces[i].contiguous()};
    works.push_back(transport_->send(stripe, peer, /*tag=*/i));
  }
  return works;
}

// Host-to-device uploads into a batch of destinations that may be views.
absl::Status Window::UploadAll(absl::Span<const HostSlice> srcs, std::vector<at::Tensor>& dsts) {
  std::vector<xla::Future<>> futures;
  for (size_t i = 0; i < dsts.size(); ++i) {
    at::Tensor& dst = dsts[i];
    ASSIGN_OR_RETURN(DeviceBufferRef dst_ref, GetPjrtBuffer(dst));
    ASSIGN_OR_RETURN(xla::Future<> done, TpuAsyncDmaCopyHtoD(dst_ref, srcs[i]));
    futures.push_back(std::move(done));
  }
  return JoinFutures(futures).Await();
}

}  // namespace backend
