// A method that stores what it is given in a member and, on every path
// to its end, sets that member anew (or clears it) keeps nothing past
// the call: the caller's object no longer reaches the argument once the
// method returns. A store that some path leaves in place is kept.
#include <vector>

struct Result {
  int code;
};

class Pool {
 public:
  void Run(int n, Result& out) {
    if (n == 0) {
      return;
    }
    {
      current_ = &out;
      pending_ = n;
    }
    Drain();
    {
      current_ = nullptr;
      pending_ = 0;
    }
  }

  void RunKeepingOnError(int n, Result& out) {
    current_ = &out;
    if (n < 0) {
      return;
    }
    Drain();
    current_ = nullptr;
  }

  void RunInLoop(int n, Result& out) {
    for (int i = 0; i < n; i++) {
      current_ = &out;
      Drain();
    }
    current_ = nullptr;
  }

  void Collect(const int* p) {
    seen_.push_back(p);
    Drain();
    seen_.clear();
  }

  void Remember(const int* p) {
    seen_.push_back(p);
    if (p == nullptr) {
      seen_.clear();
    }
  }

 private:
  void Drain();
  Result* current_ = nullptr;
  std::vector<const int*> seen_;
  int pending_ = 0;
};

void RunAll(Pool& pool) {
  Result r{0};
  pool.Run(4, r);
}

void RunAllInLoop(Pool& pool) {
  Result r{0};
  pool.RunInLoop(4, r);
}

void CollectAll(Pool& pool) {
  int x = 1;
  pool.Collect(&x);
}

void RunLeavingStore(Pool& pool) {
  Result r{0};
  pool.RunKeepingOnError(4, r);  // want "returns-local"
}

void RememberAll(Pool& pool) {
  int x = 1;
  pool.Remember(&x);  // want "returns-local"
}
