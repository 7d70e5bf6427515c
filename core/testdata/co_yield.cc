// A co_yield of folly::coro::co_error completes the coroutine: it is
// never resumed past it. Any other co_yield suspends the coroutine and
// goes on when it is resumed.
#include <stdexcept>

namespace folly::coro {
template <typename T>
struct Task {};
template <typename T>
struct AsyncGenerator {};
struct co_error {
  explicit co_error(std::runtime_error e);
};
}  // namespace folly::coro

struct Source {
  int value;
};

folly::coro::Task<int> read_good(Source* src, bool cancelled) {
  if (cancelled) {
    delete src;
    co_yield folly::coro::co_error(std::runtime_error("cancelled"));
  }
  co_return src->value;
}

folly::coro::AsyncGenerator<int> values_bad(Source* src, bool last) {
  if (last) {
    delete src;
    co_yield 0;
  }
  co_yield src->value;  // want "use-after-free"
}
