// The shape of torch_tpu's raw DMA path: the copy returns the future and,
// next to it, the hold that keeps the buffer alive; WorkTpu takes the hold
// as a parameter that defaults to nullptr.
struct AsyncDmaResult {
  xla::Future<> future;
  std::shared_ptr<void> buffer_hold;
};

class WorkTpu : public Work {
 public:
  explicit WorkTpu(xla::Future<> future, std::shared_ptr<void> hold = nullptr)
      : future_(std::move(future)), hold_(std::move(hold)) {}

 private:
  xla::Future<> future_;
  std::shared_ptr<void> hold_;
};

AsyncDmaResult TpuAsyncDmaCopyDtoH(const at::Tensor& src, at::Tensor& dst);

// Keeps the future, drops the hold.
c10::intrusive_ptr<Work> WindowTpu::Get(at::Tensor& dst) {
  AsyncDmaResult result = TpuAsyncDmaCopyDtoH(src_, dst);
  return c10::make_intrusive<WorkTpu>(std::move(result.future));  // want "'result.future' is kept but 'result.buffer_hold' is dropped: it dies at line 25" confirmed
}

// The same through auto: the declared return type says it is a pair.
c10::intrusive_ptr<Work> WindowTpu::GetAuto(at::Tensor& dst) {
  auto result = TpuAsyncDmaCopyDtoH(src_, dst);
  return c10::make_intrusive<WorkTpu>(std::move(result.future));  // want "'result.future' is kept but 'result.buffer_hold' is dropped" confirmed
}

// A future from elsewhere handed to WorkTpu without a hold.
c10::intrusive_ptr<Work> WindowTpu::Put(const at::Tensor& src) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef ref, GetBuffer(src));
  xla::Future<> done = ref->CopyRawHostToDevice(host_, 0, size_);
  return c10::make_intrusive<WorkTpu>(std::move(done));  // want "WorkTpu is built with a future but without its 'hold' parameter" confirmed
}

// Correct: both travel together.
c10::intrusive_ptr<Work> WindowTpu::GetKept(at::Tensor& dst) {
  AsyncDmaResult result = TpuAsyncDmaCopyDtoH(src_, dst);
  return c10::make_intrusive<WorkTpu>(std::move(result.future), std::move(result.buffer_hold));
}

// Correct: the pair is handed on whole.
AsyncDmaResult WindowTpu::Forward(at::Tensor& dst) {
  AsyncDmaResult result = TpuAsyncDmaCopyDtoH(src_, dst);
  return result;
}

// Correct: waited on while the hold is alive.
absl::Status WindowTpu::GetBlocking(at::Tensor& dst) {
  AsyncDmaResult result = TpuAsyncDmaCopyDtoH(src_, dst);
  return result.future.Await();
}

// The hold is left at its default, but the host waits for the copy while
// 'ref' still lives: the rule reports the missing hold, and the replay of
// these events shows no fault.
c10::intrusive_ptr<Work> WindowTpu::PutBlocking(const at::Tensor& src) {
  TT_ASSIGN_OR_RETURN(DeviceBufferRef ref, GetBuffer(src));
  xla::Future<> done = ref->CopyRawHostToDevice(host_, 0, size_);
  TF_RETURN_IF_ERROR(done.Await());
  return c10::make_intrusive<WorkTpu>(std::move(done));  // want "WorkTpu is built with a future but without its 'hold' parameter" not-reproduced
}
