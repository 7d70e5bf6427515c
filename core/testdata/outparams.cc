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
