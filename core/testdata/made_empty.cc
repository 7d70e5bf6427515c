// A smart pointer, exception_ptr or function declared with no
// initializer is empty: a path that never set it does not enter if (e).
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

struct Transfer { int id; };
bool dead();
std::exception_ptr reason();
void fail(int id, std::exception_ptr e);

std::vector<std::unique_ptr<Transfer>> inbox;
std::mutex mu;

void Submit(std::unique_ptr<Transfer> t) {
  std::exception_ptr why;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (dead()) {
      why = reason();
    } else {
      inbox.push_back(std::move(t));
    }
  }
  if (why) {
    fail(t->id, why);  // only the arm that kept t
    return;
  }
}

// The test of another name says nothing of t.
void SubmitUnchecked(std::unique_ptr<Transfer> t, bool again) {
  std::exception_ptr why;
  if (dead()) {
    why = reason();
  } else {
    inbox.push_back(std::move(t));
  }
  if (again) {
    fail(t->id, why);  // want "use-after-move"
  }
}
