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
