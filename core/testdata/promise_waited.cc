// A closure kept to run later that fulfils a promise of the frame, whose
// future the function then waits on: the wait returns only once the
// closure has set the value, so the promise is alive while it runs.
#include <functional>
#include <future>
#include <vector>

class Executor {
 public:
  void post(std::function<void()> task) { tasks_.push_back(std::move(task)); }

 private:
  std::vector<std::function<void()>> tasks_;
};

class Service {
 public:
  int RunAndWait(int x) {
    std::promise<int> promise;
    auto future = promise.get_future();
    exec_.post([&promise, x] { promise.set_value(x * 2); });
    return future.get();
  }
  int RunNoWait(int x) {
    std::promise<int> promise;
    auto future = promise.get_future();
    exec_.post([&promise, x] { promise.set_value(x * 2); });  // want "callback-outlives"
    return x;
  }

 private:
  Executor exec_;
};
