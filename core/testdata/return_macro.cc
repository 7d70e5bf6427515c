// A statement macro that ends in a return statement returns from the
// function it is used in: the path does not go on past it. One whose
// return is under a condition on its argument returns where the
// condition holds and goes on where it does not, and each side is known
// to the rest of the path: a status tested twice, against a constant
// whose value holdfast does not know (ST_SUCCESS of a header outside
// the tree), takes the same side both times.
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

#define STATUS_RETURN(call)                                          \
  if (const int status_macro = (call); status_macro != ST_SUCCESS) { \
    return status_macro;                                             \
  }

#define RETURN_IF_NOT_OK(expr) \
  do {                         \
    auto st_ = (expr);         \
    if (!st_.ok()) return st_; \
  } while (0)

int submit(int* p);

int FillOnce(int n) {
  int* host = new int[n];
  int err = submit(host);
  if (err != ST_SUCCESS) {
    delete[] host;
    STATUS_RETURN(err);
  }
  delete[] host;  // the path that deleted it returned above
  return 0;
}

int FillAgain(int n) {
  int* host = new int[n];
  int err = submit(host);
  if (err != ST_SUCCESS) {
    delete[] host;
  }
  STATUS_RETURN(submit(nullptr));
  delete[] host;  // want "double-free"
  return 0;
}

int FillChecked(int n) {
  int* host = new int[n];
  int err = submit(host);
  if (err != ST_SUCCESS) {
    delete[] host;
  }
  STATUS_RETURN(err);
  delete[] host;  // the path that deleted it returns in the macro
  return 0;
}

struct Status {
  bool ok() const;
};
Status Upload(int* p);

Status Stage(int n) {
  int* host = new int[n];
  Status st = Upload(host);
  if (!st.ok()) {
    delete[] host;
    RETURN_IF_NOT_OK(st);
  }
  delete[] host;
  return st;
}

Status StageOther(int n, Status prior) {
  int* host = new int[n];
  Status st = Upload(host);
  if (!st.ok()) {
    delete[] host;
    RETURN_IF_NOT_OK(prior);
  }
  delete[] host;  // want "double-free"
  return st;
}

// A statement macro whose last statement is a return after a block of its
// own returns too.
#define RELEASE_AND_RETURN() \
  {                          \
    if (req != 0) {          \
      req = Release(req);    \
    }                        \
    return 0;                \
  }

Request* Release(Request* r);

int LoadOnce(Request* req) {
  int* slots = new int[4];
  if (make_slots(req) != 0) {
    delete[] slots;
    RELEASE_AND_RETURN();
  }
  slots[0] = 1;
  delete[] slots;
  return 1;
}

// Object-like statement macros end as their bodies do: a rethrow, a
// return, an alias of a returning macro, and a forwarding macro whose
// expansion calls one. An alias of a macro that goes on does not.
#define RETHROW_NOW throw
#define GIVE_UP return -1
#define GIVE_UP_TOO GIVE_UP
#define FAIL_IMPL(code, ...) \
  do {                       \
    report(code);            \
    return code;             \
  } while (0)
#define FAIL_FWD(...) FAIL_IMPL(__VA_ARGS__, 0)
#define LOG_ONLY report(0)
#define LOG_TOO LOG_ONLY

void report(int code);

int Rethrows(int* buf, bool bad) {
  if (bad) {
    delete[] buf;
    RETHROW_NOW;
  }
  return buf[0];
}

int GivesUp(int* buf, bool bad) {
  if (bad) {
    delete[] buf;
    GIVE_UP_TOO;
  }
  return buf[0];
}

int Forwards(int* buf, bool bad) {
  if (bad) {
    delete[] buf;
    FAIL_FWD(7, "bad");
  }
  return buf[0];
}

int Logs(int* buf, bool bad) {
  if (bad) {
    delete[] buf;
    LOG_TOO;
  }
  return buf[0];  // want "use-after-free"
}

// A macro that names its cleanup argument only on the branch where it
// returns: the path past the macro did not run the cleanup. A macro that
// runs its cleanup and goes on did.
#define WARN_OR_FAIL(strict, cmd, cleanup) \
  {                                        \
    int err = cmd;                         \
    if (err) {                             \
      if (strict) {                        \
        cleanup;                           \
        return err;                        \
      } else {                             \
        note(err);                         \
      }                                    \
    }                                      \
  }
#define WARN_THEN(cmd, cleanup) \
  {                             \
    int err = cmd;              \
    if (err) {                  \
      cleanup;                  \
      note(err);                \
    }                           \
  }
void note(int err);
int check(int* p);
void release(int* p) { delete p; }

int cleanup_on_return(int strict) {
  int* p = new int(1);
  WARN_OR_FAIL(strict, check(p), release(p));
  int v = *p;
  delete p;
  return v;
}

int cleanup_goes_on() {
  int* p = new int(1);
  WARN_THEN(check(p), release(p));
  int v = *p;  // want "use-after-free"
  delete p;
  return v;
}

// A macro that puts its argument in a lambda it makes (a scope guard)
// runs it later, not where it is written; one that calls it at once
// runs it there.
template <typename F>
struct ScopeExit {
  F f;
  ~ScopeExit() { f(); }
};
template <typename F>
ScopeExit<F> make_scope_exit(F f) {
  return ScopeExit<F>{f};
}
#define DEFER_CONCAT2(a, b) a##b
#define DEFER_CONCAT(a, b) DEFER_CONCAT2(a, b)
#define DEFER(code) auto DEFER_CONCAT(defer_, __LINE__) = make_scope_exit([&]() { code; })
#define NOW(code) \
  do {            \
    code;         \
  } while (0)

int deferred_release() {
  int* p = new int(1);
  DEFER(release(p));
  return *p;
}

int released_now() {
  int* p = new int(1);
  NOW(release(p));
  return *p;  // want "use-after-free"
}
