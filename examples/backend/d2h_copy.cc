// Device-to-host copies of an accelerator backend: a view gets a buffer of
// its own, the copy is started, and the future goes back to the caller.
#include <memory>

#include "backend/device_buffer.h"
#include "backend/transfer.h"

namespace backend {

// A raw DMA returns its future and, beside it, what must stay alive until
// the future completes.
struct AsyncCopyResult {
  xla::Future<> future;
  std::shared_ptr<void> buffer_hold;
};

class CopyWork : public Work {
 public:
  explicit CopyWork(xla::Future<> future, std::shared_ptr<void> hold = nullptr)
      : future_(std::move(future)), hold_(std::move(hold)) {}

 private:
  xla::Future<> future_;
  std::shared_ptr<void> hold_;
};

AsyncCopyResult AsyncDmaToHost(const at::Tensor& src, void* dst, size_t n);

// The continuation keeps the destination literal alive, not the source
// buffer, which only this function owns.
absl::StatusOr<xla::Future<>> StartDeviceToHost(const at::Tensor& src, void* dst,
                                                const xla::Shape& shape) {
  ASSIGN_OR_RETURN(DeviceBufferRef buffer, GetBuffer(src));
  ASSIGN_OR_RETURN(xla::PjRtBuffer * raw, buffer.AwaitBuffer());
  auto literal = std::make_unique<xla::MutableBorrowingLiteral>(static_cast<char*>(dst), shape);
  auto [promise, result] = xla::MakePromise<void>();
  xla::Future<> copied = raw->ToLiteral(literal.get());
  copied.OnReady([literal = std::move(literal), promise = std::move(promise)](absl::Status s) mutable {
    promise.Set(std::move(s));
  });
  return result;
}

// The caller keeps the future of the raw DMA and drops its hold.
c10::intrusive_ptr<Work> CopyToHost(const at::Tensor& src, void* dst, size_t n) {
  AsyncCopyResult copy = AsyncDmaToHost(src, dst, n);
  return c10::make_intrusive<CopyWork>(std::move(copy.future));
}

// A prefetch whose future nobody keeps.
absl::Status Prefetch(xla::PjRtBuffer* buffer, void* dst, int64_t n) {
  buffer->CopyRawToHostFuture(dst, 0, n);
  return absl::OkStatus();
}

// An in-place op before the copy from the tensor is waited for: the op
// swaps the tensor's buffer under the copy.
absl::Status SnapshotThenReset(at::Tensor& t, xla::MutableBorrowingLiteral* literal) {
  ASSIGN_OR_RETURN(DeviceBufferRef ref, GetBuffer(t));
  xla::Future<> copied = ref->ToLiteral(literal);
  t.zero_();
  return copied.Await();
}

}  // namespace backend
