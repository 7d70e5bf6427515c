// The shape of torch_tpu's experimental_send: the owning DeviceBufferRef
// dies at the loop's closing brace, the raw PjRtBuffer* lives on in
// pjrt_buffers and is used after a blocking rendezvous. DeviceBufferRef is
// not defined here: that it owns the buffer AwaitBuffer lends is the
// rule's reading of the names, so the finding is latent. With the class
// in the tree (seed_send_defined.cc) it is confirmed.
c10::intrusive_ptr<Work> ProcessGroupTpu::experimental_send(std::vector<at::Tensor>& tensors, int dst) {
  std::vector<xla::PjRtBuffer*> pjrt_buffers;
  std::vector<std::string> transfer_keys;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const at::Tensor& tensor = tensors[i];
    TT_ASSIGN_OR_THROW(
        const DeviceBufferRef device_buffer,
        MaterializeAndReturn(tensor, MaterializationReason::kDistributedOp));
    TT_ASSIGN_OR_THROW(xla::PjRtBuffer * pjrt_buffer,
                       device_buffer.AwaitBuffer());  // want "pointer 'pjrt_buffer' kept in 'pjrt_buffers' is used at line 20 after its owner 'device_buffer' dies at line 18" latent
    pjrt_buffers.push_back(pjrt_buffer);  // raw pointer
  }
  TT_ASSIGN_OR_THROW(auto send_future,
                     CrossHostSendBuffers(pjrt_buffers, transfer_keys));
  return c10::make_intrusive<TpuWork>(std::move(send_future));
}

// Fixed: the owners travel with the pointers.
c10::intrusive_ptr<Work> ProcessGroupTpu::experimental_send_fixed(std::vector<at::Tensor>& tensors, int dst) {
  std::vector<xla::PjRtBuffer*> pjrt_buffers;
  std::vector<DeviceBufferRef> owners;
  for (size_t i = 0; i < tensors.size(); ++i) {
    TT_ASSIGN_OR_THROW(
        DeviceBufferRef device_buffer,
        MaterializeAndReturn(tensors[i], MaterializationReason::kDistributedOp));
    TT_ASSIGN_OR_THROW(xla::PjRtBuffer * pjrt_buffer, device_buffer.AwaitBuffer());
    pjrt_buffers.push_back(pjrt_buffer);
    owners.push_back(std::move(device_buffer));
  }
  TT_ASSIGN_OR_THROW(auto send_future, CrossHostSendBuffers(pjrt_buffers, owners));
  return c10::make_intrusive<TpuWork>(std::move(send_future));
}

// Fixed the other way: the send happens inside the owner's scope.
void SendEach(std::vector<at::Tensor>& tensors) {
  for (auto& tensor : tensors) {
    DeviceBufferRef device_buffer = MaterializeAndReturn(tensor);
    xla::PjRtBuffer* pjrt_buffer = device_buffer.AwaitBuffer().value();
    std::vector<xla::PjRtBuffer*> one = {pjrt_buffer};
    SendNow(one);
  }
}
