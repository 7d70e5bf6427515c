// Work objects of a process group backend: each stands for an operation
// that completes later, and wait() must block until it has.
#include "backend/process_group.h"

namespace backend {

class RecvWork : public c10d::Work {
 public:
  explicit RecvWork(xla::Future<> future) : future_(std::move(future)) {
    // Bad: the callback captures this; if the caller drops the work before
    // the receive completes, it writes through a dangling pointer.
    future_.OnReady([this](absl::Status s) { status_ = s; });
  }
  RecvWork() = default;

 private:
  xla::Future<> future_;
  absl::Status status_;
};

c10::intrusive_ptr<c10d::Work> ProcessGroupBackend::recv(std::vector<at::Tensor>& tensors, int src) {
  xla::Future<> done = transport_->ReceiveAsync(tensors, src);
  // Bad: the tensors are captured by value into a completion callback and
  // released on the transport's thread, which may need the GIL.
  done.OnReady([tensors](absl::Status s) { LOG(INFO) << "received " << tensors.size(); });
  // Bad: the work does not hold the future, so wait() returns at once.
  return c10::make_intrusive<RecvWork>();
}

c10::intrusive_ptr<c10d::Work> ProcessGroupBackend::recv_fixed(std::vector<at::Tensor>& tensors, int src) {
  xla::Future<> done = transport_->ReceiveAsync(tensors, src);
  // Good: the work holds the future of the receive.
  return c10::make_intrusive<RecvWork>(std::move(done));
}

}  // namespace backend
