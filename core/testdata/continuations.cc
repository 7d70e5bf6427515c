// Closures that run after the call that takes them returns: continuations
// on futures and streams (the packs' callback role), and callables a
// method of the tree keeps to run later.

#include <deque>
#include <functional>
#include <future>
#include <list>
#include <vector>

namespace xla {
template <typename T = void>
class Future {
 public:
  void OnReady(std::function<void(int)> f);
  Future<> Then(std::function<void(int)> f);
  void Await();
};
}  // namespace xla

namespace se {
class Stream {
 public:
  int DoHostCallback(std::function<void()> f);
  int BlockHostUntilDone();
};
}  // namespace se

void Use(int);
void Fill(const float*);
std::vector<float> Pack();

// A local captured by reference, the future not awaited.
void Count(xla::Future<> f) {
  int seen = 0;
  f.OnReady([&seen](int) { seen++; });  // want "callback-outlives"
}

// Correct: awaited before the local ends.
void CountAwaited(xla::Future<> f) {
  int seen = 0;
  f.OnReady([&seen](int) { seen++; });
  f.Await();
}

// Awaited on one path only.
void CountMaybe(xla::Future<> f, bool sync) {
  int seen = 0;
  f.OnReady([&seen](int) { seen++; });  // want "callback-outlives"
  if (sync) {
    f.Await();
  }
}

// A pointer captured by value into a local vector.
void Borrow(xla::Future<> f) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  f.OnReady([data](int) { Fill(data); });  // want "callback-outlives"
}

// An iterator captured by value into a local list.
void BorrowIterator(xla::Future<> f) {
  std::list<float> pending(4);
  auto it = pending.begin();
  f.OnReady([it](int) { Fill(&*it); });  // want "callback-outlives"
}

// Correct: the iterator into a list the callback's owner keeps.
void BorrowIteratorAwaited(xla::Future<> f) {
  std::list<float> pending(4);
  auto it = pending.begin();
  f.OnReady([it](int) { Fill(&*it); });
  f.Await();
}

// Correct: the vector moves into the closure with the pointer.
void BorrowMoved(xla::Future<> f) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  f.OnReady([data, host = std::move(host)](int) { Fill(data); });
}

// Correct: the host waits on a promise the callback sets.
int Handshake(xla::Future<> f) {
  std::promise<int> p;
  std::future<int> got = p.get_future();
  f.OnReady([&p](int v) { p.set_value(v); });
  return got.get();
}

// Correct: the future of the continuation is awaited.
void Chained(xla::Future<> f) {
  int seen = 0;
  auto g = f.Then([&seen](int) { seen++; });
  g.Await();
}

// Correct: registered on a future already awaited: it runs at once.
void AfterAwait(xla::Future<> f) {
  int seen = 0;
  f.Await();
  f.OnReady([&seen](int) { seen++; });
}

// A host callback on a stream nothing synchronises.
void OnStream(se::Stream* stream) {
  int n = 0;
  stream->DoHostCallback([&n] { n++; });  // want "callback-outlives"
}

// Correct: the stream is synchronised first.
void OnStreamSynced(se::Stream* stream) {
  int n = 0;
  stream->DoHostCallback([&n] { n++; });
  stream->BlockHostUntilDone();
}

// Correct: the host spins on a flag the callback sets.
void Spin(xla::Future<> f) {
  bool done = false;
  int seen = 0;
  f.OnReady([&](int) {
    seen++;
    done = true;
  });
  while (!done) {
  }
}

// Correct: a lambda that is not a continuation (not on a future).
struct Builder {
  void OnReady(std::function<void(int)> f);
};
void Build(Builder& b) {
  int seen = 0;
  b.OnReady([&seen](int) { seen++; });
}

class Reactor {
 public:
  // Keeps the task for the reactor's thread.
  void Post(std::function<void()> task) { tasks_.push_back(std::move(task)); }
  template <typename F>
  void PostWrapped(F&& fn) { Post(std::forward<F>(fn)); }
  // Stores the callable, then spins until the workers are done with it.
  void RunAll(std::function<void()> task) {
    job_ = std::move(task);
    while (!Idle()) {
    }
  }
  bool Idle();

 private:
  std::deque<std::function<void()>> tasks_;
  std::function<void()> job_;
};

void Flush(Reactor& r) {
  int pending = 3;
  r.Post([&pending] { Use(pending); });  // want "callback-outlives"
}

void FlushWrapped(Reactor& r) {
  int pending = 3;
  r.PostWrapped([&pending] { Use(pending); });  // want "callback-outlives"
}

// Correct: the reactor is asked to run its tasks before the local ends.
void FlushAndRun(Reactor& r) {
  int pending = 3;
  r.Post([&pending] { Use(pending); });
  r.RunAll([] {});
}

// Correct: RunAll waits for the task before returning.
void FlushAll(Reactor& r) {
  int pending = 3;
  r.RunAll([&pending] { Use(pending); });
}

// Correct: a local reactor runs its tasks only when asked.
void FlushLocal() {
  Reactor r;
  int pending = 3;
  r.Post([&pending] { Use(pending); });
}

// The object registers a callback that reaches it through this on a
// future it keeps, and its destructor does not wait for it.
class Work {
 public:
  explicit Work(xla::Future<> f) : future_(std::move(f)) {
    future_.OnReady([this](int s) { status_ = s; });  // want "callback-outlives"
  }

 private:
  xla::Future<> future_;
  int status_ = 0;
};

// Correct: the destructor waits for the future.
class AwaitedWork {
 public:
  explicit AwaitedWork(xla::Future<> f) : future_(std::move(f)) {
    future_.OnReady([this](int s) { status_ = s; });
  }
  ~AwaitedWork() { future_.Await(); }

 private:
  xla::Future<> future_;
  int status_ = 0;
};

// A hook kept in a member: calling the object runs it now, but it stays
// there until a method assigns that member again.
class Runner {
 public:
  void SetHook(std::function<void(int)> hook) { hook_ = std::move(hook); }
  void Step(int i) {
    if (hook_) hook_(i);
  }

 private:
  std::function<void(int)> hook_;
};

int Leaky(Runner& r) {
  int seen = 0;
  r.SetHook([&seen](int i) { seen += i; });  // want "returns-local"
  r.Step(1);
  return seen;
}

// Correct: the hook is replaced before the local ends.
int Cleared(Runner& r) {
  int seen = 0;
  r.SetHook([&seen](int i) { seen += i; });
  r.Step(1);
  r.SetHook(nullptr);
  return seen;
}

// The continuation's own future waited for in the same expression: the
// callback has run when the wait returns. Left unwaited, it has not.
void CountChained(xla::Future<> f) {
  int seen = 0;
  f.Then([&seen](int) { seen++; }).Await();
}

void CountChainedLoose(xla::Future<> f) {
  int seen = 0;
  f.Then([&seen](int) { seen++; });  // want "callback-outlives"
}
