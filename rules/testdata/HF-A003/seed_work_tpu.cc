// torch_tpu's WorkTpu: the hold that keeps a raw DMA's buffer alive is a
// parameter that defaults to nullptr, so a caller that forgets it compiles.
class WorkTpu : public Work {
 public:
  explicit WorkTpu(xla::Future<> future, std::shared_ptr<void> hold = nullptr)  // want "hold parameter 'hold' of WorkTpu defaults to nullptr: a caller can leave it out" not-modelled
      : future_(std::move(future)), hold_(std::move(hold)) {}

 private:
  xla::Future<> future_;
  std::shared_ptr<void> hold_;
};

// Declared only; defined elsewhere.
class TransferWork {
 public:
  TransferWork(PjRtFuture<> done, std::shared_ptr<const void> keepalive = {});  // want "hold parameter 'keepalive' of TransferWork defaults to \{\}" not-modelled
};

// Other names: a free function taking a HostFuture and a pinned buffer.
void Submit(HostFuture<void> done, std::unique_ptr<PinnedBuffer> pinned = nullptr);  // want "hold parameter 'pinned' of Submit defaults to nullptr" not-modelled

// Correct: the hold is required.
class Required {
 public:
  Required(xla::Future<> future, std::shared_ptr<void> hold);
};

// Correct: the future carries what it needs; the default is an unrelated
// option.
class Plain {
 public:
  explicit Plain(xla::Future<> future, int priority = 0);
};

// Correct: a defaulted shared_ptr<void> with no future beside it.
void Stash(std::shared_ptr<void> cookie = nullptr);
