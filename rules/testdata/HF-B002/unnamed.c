// A callee's unnamed parameter still takes its argument's place: a helper
// that frees its second parameter frees the second argument, not the
// first.
#include <stdlib.h>

static void drop_second(void*, void* block) { free(block); }

int keep_first(int* ctx, void* old) {
  drop_second(ctx, old);
  return *ctx;
}

int use_second(int* ctx, int* old) {
  drop_second(ctx, old);
  return *old;  // want "'old' is used at line 15 after drop_second, which frees what it points to" confirmed
}
