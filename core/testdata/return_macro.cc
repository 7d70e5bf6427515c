// A statement macro that ends in a return statement returns from the
// function it is used in: the path does not go on past it. One whose
// return is under a condition may go on.
#include <cstdio>

#define LOG_AND_RETURN(code, msg)        \
  do {                                   \
    fprintf(stderr, "%s: %d\n", msg, code); \
    return code;                         \
  } while (0)

#define RETURN_IF(cond, code) \
  do {                        \
    if (cond) return code;    \
  } while (0)

struct Request { int* slots; int n; };
int make_slots(Request* r);

int Prepare(Request*& out, int n) {
  Request* r = new Request();
  int status = make_slots(r);
  if (status != 0) {
    delete r;
    LOG_AND_RETURN(status, "cannot make slots");
  }
  r->n = n;  // the path that deleted r returned above
  out = r;
  return 0;
}

int PrepareMaybe(Request*& out, int n, bool strict) {
  Request* r = new Request();
  int status = make_slots(r);
  if (status != 0) {
    delete r;
    RETURN_IF(strict, status);
  }
  r->n = n;  // want "use-after-free"
  out = r;
  return 0;
}
