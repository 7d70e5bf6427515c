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
