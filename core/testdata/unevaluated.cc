// The operands of sizeof, alignof and decltype are never evaluated:
// naming a freed pointer there reads nothing. Outside them it does.
#include <stdlib.h>

struct Rec { int a; double b; };

size_t sizes_ok(Rec* p) {
  free(p);
  size_t n = sizeof(*p) + sizeof p->a + alignof(decltype(p->b));
  decltype(*p) r = *(Rec*)malloc(sizeof(*p));
  return n + r.a;
}

size_t realloc_ok(Rec* p) {
  free(p);
  p = (Rec*)malloc(sizeof(*p));
  p->a = 1;
  free(p);
  return 0;
}

size_t read_bad(Rec* p) {
  free(p);
  return sizeof(*p) + p->a;  // want "use-after-free"
}
