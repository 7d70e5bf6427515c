// Objects that own what their constructor or a method stores: the class's
// destructor gives the member up, so the memory ends with the object.
#include <memory>
#include <utility>

template <typename T>
struct Holder {
  T* ptr_;
  explicit Holder(T* p) { ptr_ = p; }
  Holder(Holder<T>&& other) {
    ptr_ = other.ptr_;
    other.ptr_ = nullptr;
  }
  ~Holder() { delete ptr_; }
  T* get() const { return ptr_; }
};

struct Blob {
  int size;
};

int scope_ends_bad() {
  Blob* b = new Blob;
  { Holder<Blob> h(b); }
  return b->size;  // want "use-after-free"
}

int from_temporary_bad() {
  Blob* b = new Blob;
  {
    Holder<Blob> h = Holder<Blob>(b);
  }
  return b->size;  // want "use-after-free"
}

int bound_reference_bad() {
  Blob* b = new Blob;
  {
    const Holder<Blob>& h = Holder<Blob>(b);
  }
  return b->size;  // want "use-after-free"
}

int heap_holder_bad() {
  Blob* b = new Blob;
  Holder<Blob>* h = new Holder<Blob>(b);
  delete h;
  return b->size;  // want "use-after-free"
}

int heap_smart_pointer_bad() {
  Blob* b = new Blob;
  auto* u = new std::unique_ptr<Blob>(b);
  delete u;
  return b->size;  // want "use-after-free"
}

// Correct: used while the holder lives.
int in_scope_ok() {
  Blob* b = new Blob;
  Holder<Blob> h(b);
  return b->size;
}

// Correct: the holder is moved out before its scope ends; the new owner
// frees the memory, not this one.
Holder<Blob> sink(Holder<Blob> h);
int moved_out_ok() {
  Blob* b = new Blob;
  {
    Holder<Blob> h(b);
    sink(std::move(h));
  }
  return 0;
}

// Correct: returned to the caller.
Holder<Blob> make_ok() {
  Blob* b = new Blob;
  Holder<Blob> h(b);
  return h;
}

// A view that owns only when told to: its destructor frees under a flag.
struct Borrowed {
  Blob* p_;
  bool own_;
  explicit Borrowed(Blob* p) : p_(p), own_(false) {}
  ~Borrowed() {
    if (own_) delete p_;
  }
};

// Correct: the view does not own what it was given.
int flagged_owner_ok() {
  Blob* b = new Blob;
  { Borrowed v(b); }
  int n = b->size;
  delete b;
  return n;
}

// A destructor that frees a member through a method of the object, only
// under an ownership flag: an object made without the flag borrows.
struct Grid {
  int size;
};
struct Plan {
  int order;
};

class View {
  Grid* grid;
  Plan* owned;  // set only when the view owns grid
  void Release();

 public:
  explicit View(Grid* g) {
    grid = g;
    owned = nullptr;
  }
  ~View() { Release(); }
  void Adopt(Plan* p) { owned = p; }
};

void View::Release() {
  if (owned) {
    delete grid;
    delete owned;
  }
}

int ShowThenFree(bool show) {
  Grid* g = new Grid{8};
  if (show) {
    View v(g);
  }
  delete g;
  return 0;
}
