// The shape of torch_tpu's BatchTransferH2D: batch_holds is declared,
// moved into AndThen, and never filled.
absl::Status BatchTransferH2D(TransferAccumulator& acc, absl::Span<const at::Tensor> srcs,
                              absl::Span<at::Tensor> dsts, size_t n) {
  std::vector<xla::Future<>> batch_futures;
  std::vector<std::shared_ptr<RawBufferHolder>> batch_c_api_holds;
  std::vector<std::shared_ptr<void>> batch_holds;
  for (size_t layer_idx = 0; layer_idx < n; ++layer_idx) {
    at::Tensor dst = dsts[layer_idx];
    TT_ASSIGN_OR_RETURN(DeviceBufferRef dst_buffer_ref, GetPjrtBuffer(dst, dst_buffer));
    auto holder = std::make_shared<RawBufferHolder>(PrepareRawBuffer(dst_buffer_ref));
    batch_futures.push_back(TpuAsyncDmaCopyHtoD(dst_buffer_ref, srcs[layer_idx]));
    batch_c_api_holds.push_back(holder);
  }
  acc.AndThen(std::move(batch_futures), std::move(batch_c_api_holds),
              std::move(batch_holds));  // want "hold container 'batch_holds' is handed to AndThen but nothing is ever put into it" confirmed
  return absl::OkStatus();
}

// The D2H sibling keeps its hold: quiet.
absl::Status BatchTransferD2H(TransferAccumulator& acc, absl::Span<const at::Tensor> srcs, size_t n) {
  std::vector<xla::Future<>> batch_futures;
  std::vector<std::shared_ptr<void>> batch_holds;
  for (size_t i = 0; i < n; ++i) {
    TT_ASSIGN_OR_RETURN(DeviceBufferRef src_buffer_ref, GetPjrtBuffer(srcs[i]));
    batch_futures.push_back(TpuAsyncDmaCopyDtoH(src_buffer_ref));
    // Keep the DeviceBufferRef alive until the transfer completes.
    batch_holds.push_back(std::make_shared<DeviceBufferRef>(std::move(src_buffer_ref)));
  }
  acc.AndThen(std::move(batch_futures), {}, std::move(batch_holds));
  return absl::OkStatus();
}
