// Paths the code rules out are not paths: a field tested against two
// different enumerators (values from the enum's definition) takes at
// most one of the two arms, whether it is read as m or this->m; a
// longjmp, called or expanded from a macro, never returns; destroying
// one member subobject (p->a.~T()) does not end the object holding it.
// A copy of a value carries what the path knows of it, and a
// declaration in an if statement's condition runs before the test.
#include <csetjmp>
#include <cstdlib>

enum Kind { KIND_NONE, KIND_SMALL = 4, KIND_LARGE };

struct Engine {
  virtual ~Engine() {}
};

struct Driver {
  Kind kind;
  int mode;
  Engine* engine;
  ~Driver();
  void Reset();
};

Driver::~Driver() {
  if (kind == KIND_SMALL) {
    delete engine;
  }
  if (kind == KIND_LARGE) {
    delete engine;
  }
}

void Driver::Reset() {
  if (this->mode == 0) {
    delete engine;
  }
  if (this->mode == 1) {
    delete engine;
  }
}

// The same enumerator twice: both arms run.
void Twice(Driver* d) {
  if (d->kind == KIND_SMALL) {
    delete d->engine;
  }
  if (d->kind == KIND_SMALL) {
    delete d->engine;  // want "double-free"
  }
}

// KIND_NONE and 0 are one value.
void NoneIsZero(Driver* d) {
  if (d->kind == KIND_NONE) {
    delete d->engine;
  }
  if (d->kind == 0) {
    delete d->engine;  // want "double-free"
  }
}

static std::jmp_buf* handler;
#define RAISE_AGAIN() std::longjmp(*handler, 1)

void Raised(char* text, int failed) {
  if (failed) {
    free(text);
    RAISE_AGAIN();
  }
  free(text);
}

void raise_again() { longjmp(*handler, 1); }

void RaisedByHelper(char* text, int failed) {
  if (failed) {
    free(text);
    raise_again();
  }
  free(text);
}

struct Chunk {
  int* buf;
  ~Chunk() { delete[] buf; }
};
struct Pair {
  Chunk first;
  Chunk second;
};

void Teardown(Pair* p) {
  p->first.~Chunk();
  p->second.~Chunk();
  free(p);
}

void CopiedMode(Driver* d, int mode) {
  if (mode == 3) {
    delete d->engine;
  }
  int m = mode;
  if (m != 3) {
    delete d->engine;
  }
}

void DeclaredInCondition(Driver* d, int mode) {
  if (mode == 3) {
    delete d->engine;
  }
  if (int m = mode; m != 3) {
    delete d->engine;
  }
}

void CopiedOther(Driver* d, int mode, int other) {
  if (mode == 3) {
    delete d->engine;
  }
  int m = other;
  if (m != 3) {
    delete d->engine;  // want "double-free"
  }
}

// A status set to a constant holdfast has no value for (ST_OK of a
// header outside the tree) is that constant on the rest of the path.
int submit(int* p);

int ResetStatus(int n) {
  int* host = new int[n];
  int status = submit(host);
  if (status != ST_OK) {
    delete[] host;
    status = ST_OK;
  }
  if (status != ST_OK) {
    delete[] host;
  }
  return status;
}

int RetryStatus(int n) {
  int* host = new int[n];
  int status = submit(host);
  if (status != ST_OK) {
    delete[] host;
    status = ST_RETRY;
  }
  if (status != ST_OK) {
    delete[] host;  // want "double-free"
  }
  return status;
}
