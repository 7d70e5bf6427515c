// Batched host-to-device uploads: one raw DMA per layer, all completions
// handed to an accumulator together with what must stay alive until then.
#include <memory>
#include <vector>

#include "backend/dma.h"

namespace backend {

absl::Status BatchUpload(TransferAccumulator& acc,
                         absl::Span<const HostSlice> srcs,
                         absl::Span<at::Tensor> dsts) {
  std::vector<xla::Future<>> futures;
  std::vector<std::shared_ptr<void>> keep_alive;
  for (size_t layer = 0; layer < dsts.size(); ++layer) {
    ASSIGN_OR_RETURN(DeviceBufferRef dst, GetPjrtBuffer(dsts[layer]));
    ASSIGN_OR_RETURN(xla::Future<> done, CopyRawHostToDevice(dst, srcs[layer]));
    futures.push_back(std::move(done));
  }
  acc.AndThen(std::move(futures), std::move(keep_alive));
  return absl::OkStatus();
}

absl::Status BatchDownload(TransferAccumulator& acc,
                           absl::Span<const at::Tensor> srcs,
                           absl::Span<HostSlice> dsts) {
  std::vector<xla::Future<>> futures;
  std::vector<std::shared_ptr<void>> keep_alive;
  for (size_t layer = 0; layer < srcs.size(); ++layer) {
    ASSIGN_OR_RETURN(DeviceBufferRef src, GetPjrtBuffer(srcs[layer]));
    ASSIGN_OR_RETURN(xla::Future<> done, CopyRawDeviceToHost(src, dsts[layer]));
    futures.push_back(std::move(done));
    // Keep the device buffer alive until the transfer completes.
    keep_alive.push_back(std::make_shared<DeviceBufferRef>(std::move(src)));
  }
  acc.AndThen(std::move(futures), std::move(keep_alive));
  return absl::OkStatus();
}

}  // namespace backend
