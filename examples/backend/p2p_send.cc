// A cross-host send path of an accelerator backend: each tensor becomes a
// device buffer, the raw PJRT pointers are collected, and the send starts
// once the receiver has published its descriptors.
#include <string>
#include <vector>

#include "backend/device_buffer.h"
#include "backend/process_group.h"

namespace backend {

absl::StatusOr<xla::Future<>> ProcessGroup::SendTensors(
    absl::Span<const at::Tensor> tensors, int peer) {
  std::vector<xla::PjRtBuffer*> pjrt_buffers;
  std::vector<std::string> keys;
  for (size_t i = 0; i < tensors.size(); ++i) {
    ASSIGN_OR_RETURN(DeviceBufferRef buffer, MaterializeAndReturn(tensors[i]));
    ASSIGN_OR_RETURN(xla::PjRtBuffer * raw, buffer.AwaitBuffer());
    pjrt_buffers.push_back(raw);
    keys.push_back(TransferKey(peer, i));
  }
  // Blocks until the receiver's descriptors are in the store.
  std::vector<std::string> descriptors = store_->multiGet(keys);
  return CrossHostSend(pjrt_buffers, descriptors);
}

// The same loop done right: the owning refs live as long as the pointers.
absl::StatusOr<xla::Future<>> ProcessGroup::SendTensorsKept(
    absl::Span<const at::Tensor> tensors, int peer) {
  std::vector<xla::PjRtBuffer*> pjrt_buffers;
  std::vector<DeviceBufferRef> owners;
  std::vector<std::string> keys;
  for (size_t i = 0; i < tensors.size(); ++i) {
    ASSIGN_OR_RETURN(DeviceBufferRef buffer, MaterializeAndReturn(tensors[i]));
    ASSIGN_OR_RETURN(xla::PjRtBuffer * raw, buffer.AwaitBuffer());
    pjrt_buffers.push_back(raw);
    owners.push_back(std::move(buffer));
    keys.push_back(TransferKey(peer, i));
  }
  std::vector<std::string> descriptors = store_->multiGet(keys);
  return CrossHostSend(pjrt_buffers, descriptors, std::move(owners));
}

}  // namespace backend
