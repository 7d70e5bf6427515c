// Lambdas handed to a loop, a pool or a queue that runs them after the
// call returns.

#include <deque>
#include <functional>
#include <future>

class Reactor {
 public:
  // Keeps the task for the reactor thread: it runs after this returns.
  void Post(std::function<void()> task) { tasks_.push_back(std::move(task)); }
  // Keeps the task through Post.
  template <typename F>
  void PostWrapped(F&& fn) { Post(std::forward<F>(fn)); }
  // Runs the task before returning.
  void RunNow(std::function<void()> task) { task(); }

 private:
  std::deque<std::function<void()>> tasks_;
};

struct Stats {
  int sent = 0;
};

void Count(Stats& stats);
void Consume(int v);

// The reactor keeps the task; 'pending' dies at the end of Flush.
void Flush(Reactor& reactor) {
  int pending = 3;
  reactor.Post([&pending]() { Consume(pending); });  // want "the lambda handed to Post captures local 'pending' by reference, which dies at line 33" confirmed
}

// The same through a wrapper that forwards its callable to Post.
void FlushWrapped(Reactor& reactor) {
  Stats stats;
  reactor.PostWrapped([&]() { Count(stats); });  // want "the lambda handed to PostWrapped captures local 'stats' by reference, which dies at line 39" confirmed
}

// Correct: the lambda runs before RunNow returns.
void FlushNow(Reactor& reactor) {
  int pending = 3;
  reactor.RunNow([&pending]() { Consume(pending); });
}

// Correct: the lambda holds its own copy.
void FlushCopy(Reactor& reactor) {
  int pending = 3;
  reactor.Post([pending]() { Consume(pending); });
}

// Correct: the host waits for the promise the lambda sets before the
// locals die.
void FlushAndWait(Reactor& reactor) {
  Stats stats;
  std::promise<void> done;
  reactor.Post([&]() {
    Count(stats);
    done.set_value();
  });
  done.get_future().wait();
}

class WorkerPool;

// A pool holdfast cannot see, whose name says it runs the task later: the
// finding rests on that name.
void Submit(WorkerPool* pool) {
  Stats stats;
  pool->ScheduleTask([&stats]() { Count(stats); });  // want "the lambda handed to ScheduleTask captures local 'stats' by reference, which dies at line 72" latent
}

// The lambda refers to the caller's object through a reference parameter:
// nothing here keeps that object alive until the lambda runs.
void Report(WorkerPool* pool, Stats& stats) {
  pool->ScheduleTask([&stats]() { Count(stats); });  // want "the lambda handed to ScheduleTask captures the caller's 'stats' by reference and nothing keeps it alive" latent
}

// Correct: the call's own result is waited for at once.
void SubmitAndWait(WorkerPool* pool) {
  Stats stats;
  pool->ScheduleTask([&stats]() { Count(stats); })->Wait();
}

// Correct: a local pool, declared after what the lambda uses, is
// destroyed (and drained) first.
void LocalPool() {
  Stats stats;
  WorkerPool pool(4);
  pool.ScheduleTask([&stats]() { Count(stats); });
}

// Correct: a call whose name says nothing of running later.
void Visit(WorkerPool* pool) {
  Stats stats;
  pool->ForEachWorker([&stats](int id) { Count(stats); });
}

// Correct: a local reactor keeps the task and runs it only when asked;
// it goes with the function, after nothing asked it again.
void LocalReactor() {
  Reactor reactor;
  int pending = 3;
  reactor.Post([&pending]() { Consume(pending); });
}
