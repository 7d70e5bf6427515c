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

// The guard's body on one line, and a guard macro of the file whose
// expansion opens the lambda: the same.
#define DEFER auto guard_ = MakeGuard() + [&]()

int GuardOnOneLine() {
  char* p = static_cast<char*>(malloc(16));
  defer { free(p); };
  p[0] = 1;
  return p[1];
}

int DefinedGuard() {
  char* p = static_cast<char*>(malloc(16));
  DEFER { free(p); };
  p[0] = 1;
  return p[1];
}

// A block after a name the file defines as something else is left as
// it reads.
#define BLOCK_START
int NamedBlock() {
  char* p = static_cast<char*>(malloc(16));
  free(p);
  return p[0];  // want "use-after-free"
}
