// The shape of torch_tpu's BatchTransferH2D: GetPjrtBuffer calls
// MaterializeAndReturn(dst), so a view destination gets a new buffer; the
// DMA writes the host bytes there, and nothing copies them back into
// dst's storage.
absl::Status BatchTransferH2D(TransferAccumulator& acc, absl::Span<const HostSlice> srcs,
                              std::vector<at::Tensor>& dsts) {
  std::vector<xla::Future<>> batch_futures;
  for (size_t layer_idx = 0; layer_idx < dsts.size(); ++layer_idx) {
    at::Tensor& dst = dsts[layer_idx];
    TT_ASSIGN_OR_RETURN(DeviceBufferRef dst_buffer_ref, GetPjrtBuffer(dst));  // want "'dst_buffer_ref' may be a new copy of 'dst': the write at line 11 is lost when 'dst' is a view" confirmed
    TT_ASSIGN_OR_RETURN(xla::Future<> done, TpuAsyncDmaCopyHtoD(dst_buffer_ref, srcs[layer_idx]));
    batch_futures.push_back(std::move(done));
  }
  acc.AndThen(std::move(batch_futures));
  return absl::OkStatus();
}

// Through the raw buffer of the materialised ref.
absl::Status UploadOne(const HostSlice& src, at::Tensor& dst) {
  DeviceBufferRef ref = MaterializeAndReturn(dst, MaterializationReason::kTransfer);  // want "'ref' may be a new copy of 'dst': the write at line 22 is lost when 'dst' is a view" confirmed
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * raw, ref.AwaitBuffer());
  xla::Future<> done = raw->CopyRawHostToDevice(src.data, 0, src.size);
  return done.Await();
}

// Fixed: views are rejected before the DMA.
absl::Status BatchTransferH2DFixed(TransferAccumulator& acc, absl::Span<const HostSlice> srcs,
                                   std::vector<at::Tensor>& dsts) {
  std::vector<xla::Future<>> batch_futures;
  for (size_t layer_idx = 0; layer_idx < dsts.size(); ++layer_idx) {
    at::Tensor& dst = dsts[layer_idx];
    TF_RETURN_IF_ERROR(ValidateContiguousBase(dst));
    TT_ASSIGN_OR_RETURN(DeviceBufferRef dst_buffer_ref, GetPjrtBuffer(dst));
    TT_ASSIGN_OR_RETURN(xla::Future<> done, TpuAsyncDmaCopyHtoD(dst_buffer_ref, srcs[layer_idx]));
    batch_futures.push_back(std::move(done));
  }
  acc.AndThen(std::move(batch_futures));
  return absl::OkStatus();
}

// Correct: a materialised source is only read.
absl::Status DownloadOne(const at::Tensor& src, void* dst, size_t n) {
  DeviceBufferRef ref = MaterializeAndReturn(src, MaterializationReason::kTransfer);
  TT_ASSIGN_OR_RETURN(xla::PjRtBuffer * raw, ref.AwaitBuffer());
  return raw->CopyRawToHost(dst, 0, n).Await();
}
