// A block a macro makes the body of a declared object, NAME { ... }; (a
// scope guard): it runs when the object dies, not where it is written.
// A plain block, and a statement macro's block, run in place.
#include <cstdlib>

void Use(int* p);
int Work();

int GuardFrees() {
  int* p = static_cast<int*>(malloc(sizeof(int)));
  ON_LEAVE {
    free(p);
  };
  Use(p);
  return *p;
}

int PlainBlockFrees() {
  int* p = static_cast<int*>(malloc(sizeof(int)));
  {
    free(p);
  }
  return *p;  // want "use-after-free"
}

int FreedBeforeGuard() {
  int* p = static_cast<int*>(malloc(sizeof(int)));
  free(p);
  ON_LEAVE {
    Work();
  };
  return *p;  // want "use-after-free"
}
