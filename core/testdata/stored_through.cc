// What a path stores through an out-parameter (*out = nullptr) decides a
// later test of it on that path: the arm that freed the object and
// cleared *out does not reach the code guarded by if (*out).
#include <cstdlib>

struct Comm { int id; };
int state_of(int h);
void report(int id);
void refill(Comm** out);

int Connect(int h, Comm** out) {
  Comm* c = (Comm*)calloc(1, sizeof(Comm));
  if (state_of(h) == 0) {
    *out = nullptr;
    free(c);
  } else {
    c->id = h;
    *out = c;
  }
  if (*out) {
    report(c->id);  // only the arm that kept c
  }
  return 0;
}

// A call handed out may store anything there: the test is open again.
int ConnectRefilled(int h, Comm** out) {
  Comm* c = (Comm*)calloc(1, sizeof(Comm));
  *out = nullptr;
  free(c);
  refill(out);
  if (*out) {
    report(c->id);  // want "use-after-free"
  }
  return 0;
}
