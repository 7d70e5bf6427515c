// An object made by placement new in malloc'd memory is destroyed by an
// explicit destructor call and its storage then released with free: the
// storage is released once. delete after the explicit destructor runs
// the destructor a second time.
#include <cstdlib>
#include <new>

struct Pool {
  int refs;
  ~Pool();
};

void Retire(Pool* p) {
  p->~Pool();
  free(p);
}

void RetireTwice(Pool* p) {
  p->~Pool();
  delete p;  // want "double-free"
}

// Storage made as bytes and released as bytes: delete[] of the pointer
// cast to a byte type destroys bytes, which does nothing, so the object's
// destructor runs once (the explicit call). Released as the object, it
// runs twice.
struct Block {
  Block* next;
  ~Block();
  static Block* Make(unsigned long n) {
    unsigned char* raw = new unsigned char[n + sizeof(Block)];
    return new (raw) Block();
  }
  static void Drop(Block* b) {
    b->~Block();
    delete[] (unsigned char*)b;
  }
  static void DropCast(Block* b) {
    b->~Block();
    delete[] reinterpret_cast<std::uint8_t*>(b);
  }
  static void DropAsBlock(Block* b) {
    b->~Block();
    delete b;  // want "double-free"
  }
};

Pool* Make() {
  void* mem = malloc(sizeof(Pool));
  return new (mem) Pool();
}

// An explicit destructor call ends the object's lifetime, not its
// storage: handing the pointer on (a deallocation) is no read of it, each
// element of an array destroyed in a loop is destroyed once, and a method
// called after this->~T() may set the object up again. Reading a member
// after the destructor still reads a dead object.
struct Widget {
  int id;
  ~Widget();
};
struct Arena {
  void Release(void* p);
};

void DestroyThenRelease(Arena* pool, Widget* w) {
  w->~Widget();
  pool->Release(w);
}

void DestroyEach(Arena* pool, Widget* ws, int n) {
  for (int i = 0; i < n; i++) {
    ws[i].~Widget();
  }
  pool->Release(ws);
}

int ReadAfterDestroy(Widget* w) {
  w->~Widget();
  return w->id;  // want "use-after-free"
}

struct Slot {
  ~Slot();
  Slot& Reset(int v) {
    this->~Slot();
    Assign(v);
    return *this;
  }
  void Assign(int v);
  int* data;
};

// The object destroys itself and is set up again in its storage: a
// placement new through std::launder, member writes before the new
// value is built in place, a static member read (no part of the object).
#include <new>
#include <utility>

class Slot {
 public:
  Slot() = default;
  Slot(Slot&& o) noexcept : cell_(o.cell_) { o.cell_ = nullptr; }
  Slot& operator=(Slot&& o) noexcept {
    this->~Slot();
    new (std::launder(this)) Slot{std::move(o)};
    return *this;
  }
  ~Slot() { delete cell_; }

 private:
  int* cell_ = nullptr;
};

class Variant {
  static constexpr unsigned kNone = 2;
  alignas(double) unsigned char raw_[sizeof(double)];
  unsigned which_ = kNone;

 public:
  ~Variant() { which_ = kNone; }
  void Set(unsigned k, double v) {
    this->~Variant();
    if (k >= kNone) {
      which_ = kNone;
      return;
    }
    which_ = k;
    new (raw_) double(v);
  }
  unsigned Which() {
    this->~Variant();
    return which_;  // want "use-after-free"
  }
};

// A member's address taken after the destructor (for a placement new
// into it) is a pointer into the storage, not a read; a method called on
// a destroyed local may set it up again.
struct Boxed {
  int* f;
  explicit Boxed(int n) : f(new int(n)) {}
  ~Boxed() { delete f; }
  void Reinit(const Boxed& o);
};

int* RebuildMember(Boxed* b) {
  b->~Boxed();
  new (&(b->f)) Boxed(1);
  return b->f;
}

int Reinitialised() {
  Boxed b(1);
  b.~Boxed();
  b.Reinit(Boxed(2));
  return *b.f;
}

int NotReinitialised() {
  Boxed b(1);
  b.~Boxed();
  return *b.f;  // want "use-after-free"
}

// A class whose own operator delete does nothing (objects placed in an
// arena's buffer): delete runs the destructor and leaves the storage to
// the buffer, so writing it again is no use of freed memory; reading the
// destroyed object still is.
struct Placed {
  void operator delete(void*) {}
};
struct Node2 : Placed {
  virtual ~Node2() {}
  int tag;
};

void retire_in_place(char* arena) {
  Node2* n = new (arena) Node2();
  delete n;
  n->tag = 0;
}

int read_retired(char* arena) {
  Node2* n = new (arena) Node2();
  delete n;
  return n->tag;  // want "use-after-free"
}

// Members written one by one after this->~T() set the object up again in
// its storage: returning *this then reads a live object. Reading before
// any write still reads a dead one.
class Shared {
  struct State {
    int refs;
  };
  State* state_;
  int size_;

 public:
  Shared& operator=(const Shared& rhs) {
    ++rhs.state_->refs;
    this->~Shared();
    size_ = rhs.size_;
    state_ = rhs.state_;
    return *this;
  }
  int Stale(const Shared& rhs) {
    this->~Shared();
    int n = size_;  // want "use-after-free"
    size_ = rhs.size_;
    return n;
  }
  ~Shared() {
    if (state_ && --state_->refs == 0) delete state_;
  }
};

// The bytes of another object copied over *this after this->~T() set it
// up again; a read of a member before the copy still reads a dead one.
#include <cstring>

class Block2 {
 public:
  ~Block2() { std::free(mem_); }
  Block2& operator=(Block2&& other) noexcept {
    this->~Block2();
    std::memcpy(static_cast<void*>(this), &other, sizeof(*this));
    other.mem_ = nullptr;
    return *this;
  }
  void* Swap(Block2& other) {
    this->~Block2();
    void* old = mem_;  // want "use-after-free"
    std::memcpy(static_cast<void*>(this), &other, sizeof(*this));
    return old;
  }

 private:
  void* mem_ = nullptr;
};
