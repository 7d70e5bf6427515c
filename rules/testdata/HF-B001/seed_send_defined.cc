// The seed shape of seed_send.cc, renamed, with the owning handle's class
// in the tree: its accessor lends the buffer its unique_ptr owns, so the
// buffer dies with the handle at the end of each iteration.
#include <memory>
#include <vector>

class BufferRef {
 public:
  explicit BufferRef(std::unique_ptr<DeviceBuffer> buffer) : buffer_(std::move(buffer)) {}
  BufferRef(BufferRef&&) = default;

  absl::StatusOr<DeviceBuffer*> Await() const {
    RETURN_IF_ERROR(buffer_->Ready());
    return buffer_.get();
  }

 private:
  std::unique_ptr<DeviceBuffer> buffer_;
};

absl::StatusOr<BufferRef> Materialize(const Tensor& tensor);

absl::Status Group::Send(std::vector<Tensor>& tensors, int peer) {
  std::vector<DeviceBuffer*> buffers;
  for (size_t i = 0; i < tensors.size(); ++i) {
    ASSIGN_OR_RETURN(BufferRef ref, Materialize(tensors[i]));
    ASSIGN_OR_RETURN(DeviceBuffer * buffer, ref.Await());
    buffers.push_back(buffer);
  }
  RETURN_IF_ERROR(store_->WaitForPeer(peer));
  return SendBuffers(buffers, peer);  // want "'buffers' is handed on holding a pointer into the memory of 'ref', which ended at line 29" confirmed
}

// Correct: the handles move into a vector that outlives the send.
absl::Status Group::SendKept(std::vector<Tensor>& tensors, int peer) {
  std::vector<DeviceBuffer*> buffers;
  std::vector<BufferRef> refs;
  for (size_t i = 0; i < tensors.size(); ++i) {
    ASSIGN_OR_RETURN(BufferRef ref, Materialize(tensors[i]));
    ASSIGN_OR_RETURN(DeviceBuffer * buffer, ref.Await());
    buffers.push_back(buffer);
    refs.push_back(std::move(ref));
  }
  RETURN_IF_ERROR(store_->WaitForPeer(peer));
  return SendBuffers(buffers, peer);
}

// Correct: the send happens while the handle lives.
absl::Status Group::SendEach(std::vector<Tensor>& tensors, int peer) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    ASSIGN_OR_RETURN(BufferRef ref, Materialize(tensors[i]));
    ASSIGN_OR_RETURN(DeviceBuffer * buffer, ref.Await());
    std::vector<DeviceBuffer*> one = {buffer};
    RETURN_IF_ERROR(SendBuffers(one, peer));
  }
  return absl::OkStatus();
}
