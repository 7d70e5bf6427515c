// The shape of torch_tpu's TpuWork: the constructor registers a callback
// capturing this on the future of the operation. If the caller drops the
// work handle before the future completes, the callback writes through a
// dangling this.
class TpuWork : public c10d::Work {
 public:
  explicit TpuWork(xla::Future<> future) : future_(std::move(future)) {
    future_.OnReady([this](absl::Status status) {  // want "the callback registered with OnReady on 'future_' captures this but holds no reference to the object" confirmed
      status_ = status;
      completed_ = true;
    });
  }

  bool wait(std::chrono::milliseconds timeout) override;

 private:
  xla::Future<> future_;
  absl::Status status_;
  bool completed_ = false;
};

// Fixed: the callback keeps the work alive through an owning reference.
class SharedTpuWork : public c10d::Work {
 public:
  void Start() {
    future_.OnReady([self = c10::intrusive_ptr<SharedTpuWork>::reclaim_copy(this)](absl::Status status) {
      self->status_ = status;
    });
  }

 private:
  xla::Future<> future_;
  absl::Status status_;
};

// Fixed the other way: the destructor waits for the future, so the object
// cannot be gone while the callback is pending.
class AwaitingTpuWork : public c10d::Work {
 public:
  explicit AwaitingTpuWork(xla::Future<> future) : future_(std::move(future)) {
    future_.OnReady([this](absl::Status status) { status_ = status; });
  }
  ~AwaitingTpuWork() override { future_.Await().IgnoreError(); }

 private:
  xla::Future<> future_;
  absl::Status status_;
};
