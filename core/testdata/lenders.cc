// What an owner's accessor lends: every return of the accessor returns
// the same member's memory, bare or in a result (StatusOr<T*>), or the
// object a pointer member points to (*M).
#include <memory>
#include <vector>

class Ref {
 public:
  Ref(Ref&&) = default;
  absl::StatusOr<Buffer*> Await() const {
    if (!buffer_->ready()) {
      return absl::UnavailableError("not ready");
    }
    return buffer_.get();
  }
  Buffer& Get() { return *buffer_; }

 private:
  std::unique_ptr<Buffer> buffer_;
};

Ref Make(int i);
void Send(const std::vector<Buffer*>& bs);
void Send(Buffer* const* bs, size_t n);

void lent_in_result(int n) {
  std::vector<Buffer*> bs;
  for (int i = 0; i < n; ++i) {
    Ref r = Make(i);
    Buffer* b = r.Await().value();
    bs.push_back(b);
  }
  Send(bs);  // want "use-after-scope"
}

Buffer& lent_pointee() {
  Ref r = Make(0);
  Buffer& b = r.Get();
  return b;  // want "returns-local"
}

void buffer_handed(int n) {
  std::vector<Buffer*> bs;
  for (int i = 0; i < n; ++i) {
    Ref r = Make(i);
    bs.push_back(&r.Get());
  }
  Send(bs.data(), bs.size());  // want "use-after-scope"
}

// Correct: the owners move into a vector that outlives the pointers.
void moved_owners(int n) {
  std::vector<Buffer*> bs;
  std::vector<Ref> keep;
  for (int i = 0; i < n; ++i) {
    Ref r = Make(i);
    bs.push_back(r.Await().value());
    keep.push_back(std::move(r));
  }
  Send(bs);
}

// Correct: used while the owner lives.
void within(int n) {
  for (int i = 0; i < n; ++i) {
    Ref r = Make(i);
    std::vector<Buffer*> bs = {r.Await().value()};
    Send(bs.data(), bs.size());
  }
}

// A method whose returns lend different members lends nothing known.
class Two {
 public:
  ~Two();
  Buffer* Pick(bool a) {
    if (a) {
      return a_.get();
    }
    return b_.get();
  }

 private:
  std::unique_ptr<Buffer> a_;
  std::unique_ptr<Buffer> b_;
};

Two MakeTwo();

Buffer* picked(bool a) {
  Buffer* p = nullptr;
  {
    Two t = MakeTwo();
    p = t.Pick(a);
  }
  return p;
}
