// The same shapes with other names and APIs.

class Transfer : public std::enable_shared_from_this<Transfer> {
 public:
  // Implicit capture of this through [=].
  void Start(HostFuture<void> f) {
    f.Then([=](Status s) { done_ = true; Notify(); });  // want "the callback registered with Then on 'f' captures this but holds no reference to the object" latent
  }

  // A host function on a stream, capturing this explicitly.
  void Finish(se::Stream* stream) {
    stream->ThenExecuteCallback(stream, [this]() { pending_--; }).IgnoreError();  // want "the callback registered with ThenExecuteCallback on 'stream' captures this" latent
  }

  // Correct: a strong reference travels with the callback.
  void StartShared(HostFuture<void> f) {
    f.Then([self = shared_from_this()](Status s) { self->done_ = true; });
  }

  // Correct: a weak reference, locked before use.
  void StartWeak(HostFuture<void> f) {
    f.Then([weak = weak_from_this()](Status s) {
      if (auto self = weak.lock()) {
        self->done_ = true;
      }
    });
  }

  // Correct: this and a strong reference together.
  void StartBoth(HostFuture<void> f) {
    f.Then([this, self = shared_from_this()](Status s) { done_ = true; });
  }

  // Correct: the future is awaited before the function returns.
  void StartAndWait(HostFuture<void> f) {
    f.Then([this](Status s) { done_ = true; });
    f.Await();
  }

  // Correct: the callback captures this but never uses it.
  void StartQuiet(HostFuture<void> f) {
    f.Then([this](Status s) { LOG(INFO) << s; });
  }

 private:
  bool done_ = false;
  int pending_ = 0;
  void Notify();
};

// A local captured by reference into a callback on a future that is not
// awaited before the local dies.
Status CountChunks(Reader* reader) {
  int received = 0;
  HostFuture<void> f = reader->ReadAsync();
  f.OnReady([&received](Status s) { received++; });  // want "the callback registered with OnReady on 'f' captures local 'received' by reference, which dies at line 58" confirmed
  return OkStatus();
}

// Correct: the same, awaited first.
Status CountChunksAwaited(Reader* reader) {
  int received = 0;
  HostFuture<void> f = reader->ReadAsync();
  f.OnReady([&received](Status s) { received++; });
  f.Await();
  return OkStatus();
}

// A default by-reference capture of a local, on the result of a call
// whose type is not known here: only the rule's reading of the name
// OnReady says it is a future.
void Collect(Reader* reader, std::vector<int>* out) {
  std::vector<int> local;
  reader->ReadAsync().OnReady([&](Status s) { local.push_back(1); });  // want "captures local 'local' by reference" latent
  out->swap(local);
}

// A class declared in another file: in a lambda that names this in its
// captures, a name that is no local is taken for a member.
void Agent::SendWithRetry(Message msg) {
  auto fut = Send(std::move(msg));
  fut->addCallback([this](JitFuture& f) { retryLater(f); });  // want "the callback registered with addCallback on 'fut' captures this but holds no reference to the object" latent
}

// Correct: the future is completed here, and completing a future runs its
// callbacks before returning; a callback added afterwards runs at once.
void CountCompletions() {
  auto f = c10::make_intrusive<ivalue::Future>(IntType::get());
  int calls = 0;
  f->addCallback([&calls](ivalue::Future& done) { calls++; });
  f->markCompleted(IValue(1));
  f->addCallback([&calls](ivalue::Future& done) { calls++; });
}

// Correct: completing the first future of a chain runs the continuations
// of the rest.
void CountChained() {
  auto f1 = c10::make_intrusive<ivalue::Future>(IntType::get());
  auto f2 = f1->then([](ivalue::Future& f) { return f.value(); }, IntType::get());
  bool done = false;
  f2->addCallback([&done](ivalue::Future& f) { done = true; });
  f1->markCompleted(IValue(42));
}

// Correct: a singleton lives until the program exits.
Registry& Registry::Get() {
  static Registry* instance = new Registry();
  return *instance;
}

void Registry::Track(HostFuture<void> f) {
  ++pending_;
  f.Then([this](Status s) { --pending_; });
}

// Correct: waiting for the future the continuation returns waits for the
// continuation.
void CountThen(Reader* reader) {
  int seen = 0;
  HostFuture<void> f = reader->ReadAsync();
  auto g = f.Then([&seen](Status s) { seen++; });
  g.Await();
}

// Correct: the destructor waits for pending callbacks through a method
// that joins the worker (or through an agent's shutdown()).
class Agent2 {
 public:
  ~Agent2() { stop(); }
  void stop() {
    if (worker_.joinable()) {
      worker_.join();
    }
  }
  void Send(Message msg) {
    auto fut = transport_->send(msg);
    fut->addCallback([this](Future& f) { pending_--; });
  }
 private:
  std::thread worker_;
  Transport* transport_;
  int pending_;
};

struct Agent3 {
  ~Agent3() { shutdown(); }
  void Send(Message msg) {
    auto fut = transport_->send(msg);
    fut->addCallback([this](Future& f) { pending_--; });
  }
  Transport* transport_;
  int pending_;
};

// Still reported: the destructor only logs.
class Agent4 {
 public:
  ~Agent4() { log("bye"); }
  void Send(Message msg) {
    auto fut = transport_->send(msg);
    fut->addCallback([this](Future& f) { pending_--; });  // want "captures this" latent
  }
 private:
  Transport* transport_;
  int pending_;
};

// The future a work object yields (getFuture): its continuation runs when
// the work completes, after the local it captures died.
void ChainOnWork(c10::intrusive_ptr<Work> work) {
  int count = 0;
  work->getFuture()->then([&count](ivalue::Future& f) { ++count; }, IntType::get());  // want "captures local 'count' by reference"
}
