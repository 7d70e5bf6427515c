// A call handed the address of a pointer may store a new one in it, also
// through a cast ((void**)&p, reinterpret_cast<void**>(&p)): what the
// path knew of the pointer, freed memory included, is forgotten. The
// address of another pointer forgets nothing of this one.
#include <stdlib.h>

int c_cast_ok(size_t n) {
  char* p = (char*)malloc(n);
  free(p);
  if (posix_memalign((void**)&p, 64, n) != 0) return -1;
  p[0] = 1;
  free(p);
  return 0;
}

int named_cast_ok(size_t n) {
  char* p = (char*)malloc(n);
  free(p);
  if (posix_memalign(reinterpret_cast<void**>(&p), 64, n) != 0) return -1;
  p[0] = 1;
  free(p);
  return 0;
}

int other_pointer_bad(size_t n) {
  char* p = (char*)malloc(n);
  char* q = 0;
  free(p);
  if (posix_memalign((void**)&q, 64, n) != 0) return -1;
  p[0] = 1;  // want "use-after-free"
  free(q);
  return 0;
}

// A parameter declared as a reference to a pointer (T*&) may be given a
// new pointer by the call; one declared as a pointer (T*) or as a const
// reference to a pointer (T* const&) cannot change the caller's.
struct Block {
  int v;
};
void Refill(Block*& b);
void Inspect(Block* b);
void Look(Block* const& b);

int refilled_ok() {
  Block* b = new Block;
  delete b;
  Refill(b);
  return b->v;
}

int inspected_bad() {
  Block* b = new Block;
  delete b;
  Inspect(nullptr);
  return b->v;  // want "use-after-free"
}

int looked_bad(Block* b) {
  delete b;
  Look(b);
  return b->v;  // want "use-after-free"
}
