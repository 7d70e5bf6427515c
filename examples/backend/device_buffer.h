// The backend's owning reference to a device buffer.
#pragma once

#include <memory>

namespace backend {

// Owns a PJRT buffer: when the reference dies, so does the buffer.
class DeviceBufferRef {
 public:
  explicit DeviceBufferRef(std::unique_ptr<xla::PjRtBuffer> buffer) : buffer_(std::move(buffer)) {}
  DeviceBufferRef(DeviceBufferRef&&) = default;

  // Waits until the buffer's definition event is ready. The pointer is
  // valid while this reference lives.
  absl::StatusOr<xla::PjRtBuffer*> AwaitBuffer() const {
    RETURN_IF_ERROR(buffer_->GetReadyFuture().Await());
    return buffer_.get();
  }

 private:
  std::unique_ptr<xla::PjRtBuffer> buffer_;
};

absl::StatusOr<DeviceBufferRef> MaterializeAndReturn(const at::Tensor& tensor);

}  // namespace backend
