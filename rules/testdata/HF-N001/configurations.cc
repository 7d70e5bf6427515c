// The executor reads the first branch of every conditional group. A
// fault between two groups of different conditions happens only in a
// build that compiles both, which the tree may rule out: it is latent.
// Within groups of one condition it happens whenever that one is built.
#include <cstdlib>

void ReleaseEither(char* p) {
#ifdef WITH_POOL
  free(p);
#endif
#ifdef WITH_HEAP
  free(p);  // want "frees memory already freed by free" latent
#endif
}

void ReleaseThenTouch(char* p) {
#ifdef WITH_POOL
  free(p);
#endif
#ifdef WITH_POOL
  p[0] = 1;  // want "is used after the memory it points to was freed by free" confirmed
#endif
}
