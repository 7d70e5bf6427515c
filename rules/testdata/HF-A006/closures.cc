// Closures that run later holding a pointer or view into a local owner
// they do not keep.

#include <memory>
#include <vector>

class Reactor {
 public:
  void Post(std::function<void()> task) { tasks_.push_back(std::move(task)); }

 private:
  std::deque<std::function<void()>> tasks_;
};

std::vector<float> Pack();
void Write(const float* p);
void WriteRow(absl::Span<const float> row);

// The continuation reads through a pointer into a vector that is freed
// when the function returns.
void OnDone(HostFuture<void> done) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  done.OnReady([data](Status s) { Write(data); });  // want "the lambda registered with OnReady on 'done' captures 'data' but not its owner 'host', which dies at line 25" confirmed
}

// A view of a block's vector, handed to a task queue that keeps the task.
void Queue(Reactor& reactor, bool wide) {
  if (wide) {
    std::vector<float> row_data = Pack();
    absl::Span<const float> row = row_data;
    reactor.Post([row]() { WriteRow(row); });  // want "the lambda handed to Post captures 'row' but not its owner 'row_data'" confirmed
  }
}

// Only the callee's name says it runs the task later.
void Schedule(WorkerPool* pool) {
  std::vector<float> host = Pack();
  float* first = &host[0];
  pool->ScheduleTask([first]() { Write(first); });  // want "the lambda handed to ScheduleTask captures 'first'" latent
}

// Correct: the closure keeps the owner (a reference-counted copy).
void OnDoneShared(HostFuture<void> done) {
  auto host = std::make_shared<std::vector<float>>(Pack());
  const float* data = host->data();
  done.OnReady([data, host](Status s) { Write(data); });
}

// Correct: the owner moves into the closure with the pointer.
void OnDoneMoved(HostFuture<void> done) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  done.OnReady([data, host = std::move(host)](Status s) { Write(data); });
}

// Correct: the future is awaited before the owner dies.
void OnDoneAwaited(HostFuture<void> done) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  done.OnReady([data](Status s) { Write(data); });
  done.Await();
}

// Correct: the pointer is into a parameter's memory, which the caller
// keeps.
void OnDoneParam(HostFuture<void> done, const std::vector<float>& host) {
  const float* data = host.data();
  done.OnReady([data](Status s) { Write(data); });
}

// The only wait is in a loop body, which may run zero times: on that
// path the owner dies first.
void OnDoneRetried(HostFuture<void> done, int tries) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  done.OnReady([data](Status s) { Write(data); });  // want "the lambda registered with OnReady on 'done' captures 'data' but not its owner 'host', which dies at line 81" confirmed
  for (int i = 0; i < tries; ++i) {
    done.Await();
  }
}

// The same on a value of no declared type: only the rule's reading of the
// name OnReady takes it for a future. Its replay, on the path through the
// loop, finds it awaited first.
void OnReadRetried(Reader* reader, int tries) {
  std::vector<float> host = Pack();
  const float* data = host.data();
  auto done = reader->ReadAsync();
  done.OnReady([data](Status s) { Write(data); });  // want "the lambda registered with OnReady captures 'data' but not its owner 'host', which dies at line 94" not-reproduced
  for (int i = 0; i < tries; ++i) {
    done.Await();
  }
}
