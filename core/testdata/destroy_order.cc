// Locals end in the reverse order of their declarations (C++ [stmt.dcl]
// and [basic.life]): the destructor of an object declared first runs
// after the objects declared later have ended. A destructor that reads a
// pointer the object keeps to one of those reads ended memory.
#include <memory>

struct Delegate {
  int id;
  void release();
};

class Interpreter {
 public:
  Interpreter() {}
  void use_delegate(Delegate* d) { delegate_ = d; }
  void detach() { delegate_ = nullptr; }
  ~Interpreter() { delegate_->release(); }

 private:
  Delegate* delegate_ = nullptr;
};

void declared_first_bad() {
  Interpreter interp;
  Delegate delegate;
  interp.use_delegate(&delegate);
}  // want "use-after-scope"

void owned_declared_first_bad() {
  std::unique_ptr<Interpreter> interp = std::make_unique<Interpreter>();
  Delegate delegate;
  interp->use_delegate(&delegate);
}  // want "use-after-scope"

void inner_scope_bad() {
  Interpreter interp;
  {
    Delegate delegate;
    interp.use_delegate(&delegate);
  }
}  // want "use-after-scope"

// Correct: the delegate is declared first, so it outlives the interpreter.
void declared_after_ok() {
  Delegate delegate;
  Interpreter interp;
  interp.use_delegate(&delegate);
}

// Correct: the interpreter is destroyed explicitly before the delegate.
void reset_first_ok() {
  std::unique_ptr<Interpreter> interp = std::make_unique<Interpreter>();
  Delegate delegate;
  interp->use_delegate(&delegate);
  interp.reset();
}

// Correct: the interpreter lets go of the delegate before it ends.
void handed_back_ok() {
  Interpreter interp;
  Delegate delegate;
  interp.use_delegate(&delegate);
  interp.use_delegate(nullptr);
}

// Correct: a method that sets the member anew lets go of the delegate.
void detached_ok() {
  Interpreter interp;
  Delegate delegate;
  interp.use_delegate(&delegate);
  interp.detach();
}

// Correct: deleted before the delegate ends.
void deleted_first_ok() {
  Interpreter* interp = new Interpreter();
  Delegate delegate;
  interp->use_delegate(&delegate);
  delete interp;
}

void deleted_after_bad() {
  Interpreter* interp = new Interpreter();
  {
    Delegate delegate;
    interp->use_delegate(&delegate);
  }
  delete interp;  // want "use-after-scope"
}

class Counter {
 public:
  void watch(Delegate* d) { watched_ = d; }
  ~Counter() { count_ = 0; }

 private:
  Delegate* watched_ = nullptr;
  int count_ = 0;
};

// Correct: the destructor never reads what the object keeps.
void unread_ok() {
  Counter counter;
  Delegate delegate;
  counter.watch(&delegate);
}

// Members end in the reverse order of their declarations too ([class.dtor]:
// after the destructor's body, the members are destroyed in the reverse
// order of their construction, which is their declaration order
// [class.base.init]). A member that keeps a pointer into a member declared
// after it reads ended memory when its own destructor runs.
class Runner {
 public:
  Runner() : interp_(new Interpreter), delegate_(new Delegate) {  // want "use-after-scope"
    interp_->use_delegate(delegate_.get());
  }

 private:
  std::unique_ptr<Interpreter> interp_;
  std::unique_ptr<Delegate> delegate_;
};

class PlainRunner {
 public:
  PlainRunner() { interp_.use_delegate(&delegate_); }  // want "use-after-scope"

 private:
  Interpreter interp_;
  Delegate delegate_;
};

// The keeping may be set up by any method, written outside the class.
class LateRunner {
 public:
  void Start();

 private:
  Interpreter interp_;
  Delegate delegate_;
};

void LateRunner::Start() { interp_.use_delegate(&delegate_); }  // want "use-after-scope"

// Correct: the delegate is declared first, so it ends after the
// interpreter.
class OrderedRunner {
 public:
  OrderedRunner() : delegate_(new Delegate), interp_(new Interpreter) {
    interp_->use_delegate(delegate_.get());
  }

 private:
  std::unique_ptr<Delegate> delegate_;
  std::unique_ptr<Interpreter> interp_;
};

// Correct: the destructor ends the interpreter first.
class ResetRunner {
 public:
  ResetRunner() : interp_(new Interpreter), delegate_(new Delegate) {
    interp_->use_delegate(delegate_.get());
  }
  ~ResetRunner() { interp_.reset(); }

 private:
  std::unique_ptr<Interpreter> interp_;
  std::unique_ptr<Delegate> delegate_;
};

// Correct: the delegate is the caller's, not a member.
class BorrowingRunner {
 public:
  explicit BorrowingRunner(Delegate* d) { interp_.use_delegate(d); }

 private:
  Interpreter interp_;
  Delegate other_;
};

// Correct: the method lets go of the delegate before it returns.
class DetachingRunner {
 public:
  void Once() {
    interp_.use_delegate(&delegate_);
    interp_.detach();
  }

 private:
  Interpreter interp_;
  Delegate delegate_;
};

// A destructor that reaches the kept pointer only when a flag of the
// object says so (built_): whether it does depends on state the path does
// not follow, so the end of scope is not reported.
class Solver {
 public:
  void set_preconditioner(Delegate* d) { pre_ = d; }
  void build() { built_ = true; }
  void clear() {
    if (built_) {
      pre_->release();
      built_ = false;
    }
  }
  ~Solver() { clear(); }

 private:
  Delegate* pre_ = nullptr;
  bool built_ = false;
};

void flag_guarded_destructor() {
  Solver solver;
  Delegate pre;
  solver.set_preconditioner(&pre);
  solver.build();
  solver.clear();
}

// Handed to code holdfast does not follow, which may call its clear()
// (a method that sets the kept member anew): what it kept is no longer
// taken to be kept at its destructor.
class Preconditioner {
 public:
  void set(Delegate* d) { inner_ = d; }
  void clear() { inner_ = nullptr; }
  ~Preconditioner() { if (inner_) inner_->release(); }

 private:
  Delegate* inner_ = nullptr;
};

void attach(Preconditioner& p);

void handed_to_unknown_code() {
  Preconditioner p;
  Delegate inner;
  p.set(&inner);
  attach(p);
}

// Not handed anywhere: its destructor reads the ended delegate.
void kept_to_the_end() {
  Preconditioner p;
  Delegate inner;
  p.set(&inner);
}  // want "use-after-scope"

// A destructor that only tests the kept pointer for null reads none of
// the memory it points to; one that tests it and then reads through it
// does.
class Borrowing {
 public:
  void borrow(int* p) { data_ = p; }
  ~Borrowing() {
    if (data_) data_ = nullptr;
    if (data_ != nullptr || !data_) count_ = 0;
  }

 private:
  int* data_ = nullptr;
  int count_ = 0;
};

class Draining {
 public:
  void borrow(int* p) { data_ = p; }
  ~Draining() {
    if (data_) *data_ = 0;
  }

 private:
  int* data_ = nullptr;
};

void tested_only_ok() {
  Borrowing b;
  int scratch[4];
  b.borrow(scratch);
}

void tested_then_read_bad() {
  Draining d;
  int scratch[4];
  d.borrow(scratch);
}  // want "use-after-scope"

// Mutually linked objects: a listener that, as it ends, calls a method of
// its source that clears the source's pointer to it leaves nothing for
// the source's destructor to read, whichever member ends first. One whose
// destructor calls a method that leaves the pointer set does not.
class Source;

class Listener {
 public:
  ~Listener();
  void Bind(Source* s) { source_ = s; }

 private:
  Source* source_ = nullptr;
};

class Source {
 public:
  ~Source() {
    if (listener_) {
      Listener* l = listener_;
      listener_ = nullptr;
      l->Bind(nullptr);
    }
  }
  void SetListener(Listener* l) {
    listener_ = l;
    if (listener_) listener_->Bind(this);
  }
  void Ping() {}

 private:
  Listener* listener_ = nullptr;
};

Listener::~Listener() {
  if (source_) {
    Source* s = source_;
    source_ = nullptr;
    s->SetListener(nullptr);
  }
}

class Station {
 public:
  void Init() {
    source_ = std::make_unique<Source>();
    listener_ = std::make_unique<Listener>();
    source_->SetListener(listener_.get());
  }

 private:
  std::unique_ptr<Source> source_;
  std::unique_ptr<Listener> listener_;
};

class Sink;

class Echo {
 public:
  ~Echo() {
    if (sink_) sink_->Ping();
  }
  void Bind(Sink* s) { sink_ = s; }
  void Flush() {}

 private:
  Sink* sink_ = nullptr;
};

class Sink {
 public:
  ~Sink() {
    if (echo_) echo_->Flush();
  }
  void SetEcho(Echo* e) { echo_ = e; }
  void Ping() {}

 private:
  Echo* echo_ = nullptr;
};

class Hall {
 public:
  void Init() {  // want "use-after-scope"
    sink_ = std::make_unique<Sink>();
    echo_ = std::make_unique<Echo>();
    sink_->SetEcho(echo_.get());
  }

 private:
  std::unique_ptr<Sink> sink_;
  std::unique_ptr<Echo> echo_;
};

// A class template whose destructor destroys its elements by the
// template's type parameter (data_[i].~T()) and frees only memory it
// owns reads nothing of a buffer it borrowed; one whose destructor reads
// an element does.
template <typename T>
class Span2 {
 public:
  ~Span2() {
    for (int i = 0; i < n_; i++) data_[i].~T();
    if (owns_) ::operator delete(data_);
  }
  void borrow(void* p, int n) {
    data_ = static_cast<T*>(p);
    n_ = n;
    owns_ = false;
  }

 private:
  T* data_ = nullptr;
  int n_ = 0;
  bool owns_ = true;
};

template <typename T>
class Peeker {
 public:
  ~Peeker() { last_ = data_[0]; }
  void borrow(void* p) { data_ = static_cast<T*>(p); }

 private:
  T* data_ = nullptr;
  T last_{};
};

void span_borrowed_ok() {
  Span2<const int*> s;
  char scratch[64];
  s.borrow(scratch, 4);
}

void peeker_borrowed_bad() {
  Peeker<int> p;
  char scratch[64];
  p.borrow(scratch);
}  // want "use-after-scope"

// The owner's destructor body runs before its members end: one that
// detaches a member from another (player_.setSource(nullptr)) leaves the
// member's destructor nothing ended to read; one that calls a method
// that sets nothing does not.
struct Track {
  void stop();
};

class Player {
 public:
  ~Player() {
    if (source_) source_->stop();
  }
  void setSource(Track* t) { source_ = t; }
  void ping() {}

 private:
  Track* source_ = nullptr;
};

class Deck {
 public:
  ~Deck() { player_.setSource(nullptr); }
  void Load() { player_.setSource(&track_); }

 private:
  Player player_;
  Track track_;
};

class LooseDeck {
 public:
  ~LooseDeck() { player_.ping(); }
  void Load() { player_.setSource(&track_); }  // want "use-after-scope"

 private:
  Player player_;
  Track track_;
};
