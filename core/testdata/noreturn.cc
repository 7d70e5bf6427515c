// Calls that never return end the path (C++ [[noreturn]], C11
// _Noreturn, GCC's noreturn attribute): a use after one of them runs on
// no path. A function whose body ends in such a call or in a throw, with
// no return before, never returns either; so does a function-like macro
// whose expansion ends in one. A macro defined twice, once returning,
// may return.
#include <stdlib.h>
#include <string>

struct Node {
  int v;
};

[[noreturn]] void Fail(const char* why);
void Note(const char* what);

static void Die(int code) {
  Note("dying");
  exit(code);
}

void ThrowIt(const std::string& what) {
  Note("throwing");
  throw what;
}

static void NotAlways(int code) {
  if (code) {
    return;
  }
  abort();
}

#define FAIL_WITH(msg) Fail(msg)
#define STOP_NOW(c) do { Note("stop"); Die(c); } while (0)
// A macro that ends in a call of the function one of its parameters
// names ends as that function does.
#define REPORT_WITH(msg, fn) { Note("report"); ns_report::fn(msg); }
#define HARD_FAIL(msg) REPORT_WITH(msg, Fail)
#define SOFT_FAIL(msg) REPORT_WITH(msg, Note)
// A macro that checks its parameter and never returns where it is false
// lets the path go on only where it holds, as CHECK does; one that only
// notes the failure goes on either way.
#define MUST(c) do { if (!(c)) Fail("must"); } while (0)
#define MUST_OR(c) (void)((c) || (Fail("must"), 0))
#define MUST_Q(c) ((c) ? (void)0 : Fail("must"))
#define NOTE_UNLESS(c) do { if (!(c)) Note("soft"); } while (0)
#ifdef SOFT
#define MAYBE_STOP(c) Note("soft")
#else
#define MAYBE_STOP(c) Die(c)
#endif

int declared(Node* n) {
  if (n->v < 0) {
    delete n;
    Fail("negative");
  }
  return n->v;
}

int ends_in_exit(Node* n) {
  if (n->v < 0) {
    delete n;
    Die(1);
  }
  return n->v;
}

int ends_in_throw(Node* n) {
  if (n->v < 0) {
    delete n;
    ThrowIt("negative");
  }
  return n->v;
}

int returns_early(Node* n) {
  if (n->v < 0) {
    delete n;
    NotAlways(1);
  }
  return n->v;  // want "use-after-free"
}

int macro_call(Node* n) {
  if (n->v < 0) {
    delete n;
    FAIL_WITH("negative");
  }
  return n->v;
}

int statement_macro(Node* n) {
  if (n->v < 0) {
    delete n;
    STOP_NOW(2);
  }
  return n->v;
}

int macro_defined_twice(Node* n) {
  if (n->v < 0) {
    delete n;
    MAYBE_STOP(3);
  }
  return n->v;  // want "use-after-free"
}

int plain_call(Node* n) {
  if (n->v < 0) {
    delete n;
    Note("negative");
  }
  return n->v;  // want "use-after-free"
}

int ends_in_argument(Node* n) {
  if (n->v < 0) {
    delete n;
    HARD_FAIL("negative");
  }
  return n->v;
}

int returns_from_argument(Node* n) {
  if (n->v < 0) {
    delete n;
    SOFT_FAIL("negative");
  }
  return n->v;  // want "use-after-free"
}

Node* Make();

int checked_by_macro(Node* n, bool fresh) {
  Node* m = n;
  if (fresh) m = Make();
  delete n;
  MUST(m != n);
  return m->v;
}

int checked_by_or(Node* n, bool fresh) {
  Node* m = n;
  if (fresh) m = Make();
  delete n;
  MUST_OR(m != n);
  return m->v;
}

int checked_by_conditional(Node* n, bool fresh) {
  Node* m = n;
  if (fresh) m = Make();
  delete n;
  MUST_Q(m != n);
  return m->v;
}

int noted_only(Node* n, bool fresh) {
  Node* m = n;
  if (fresh) m = Make();
  delete n;
  NOTE_UNLESS(m != n);
  return m->v;  // want "use-after-free"
}

// assert ends the process where its expression is false.
int checked_by_assert(Node* n, bool fresh) {
  Node* m = n;
  if (fresh) m = Make();
  delete n;
  assert(m != n);
  return m->v;
}

// An inline assembly trap (PTX trap, AMD GCN s_trap, x86 ud2) ends the
// thread: a macro ending in one never returns, whichever variant the
// build compiles. Another instruction goes on.
#ifdef AMD_DEVICE
#define DEVICE_TRAP() asm("s_trap 0")
#else
#define DEVICE_TRAP() asm("trap;")
#endif
#define DEVICE_NOP() asm volatile("nop;")

int trapped(Node* n) {
  if (n->v < 0) {
    delete n;
    DEVICE_TRAP();
  }
  return n->v;
}

int not_trapped(Node* n) {
  if (n->v < 0) {
    delete n;
    DEVICE_NOP();
  }
  return n->v;  // want "use-after-free"
}

// A host environment's error function documented never to return (the
// API's exit role: MATLAB's mexErrMsgIdAndTxt hands control back to the
// MATLAB prompt) ends the path, called directly or through a function of
// the file that ends in it. Its warning counterpart returns.
void mexErrMsgIdAndTxt(const char* id, const char* msg, ...);
void mexWarnMsgIdAndTxt(const char* id, const char* msg, ...);

void HostFail(const char* why) { mexErrMsgIdAndTxt("tool:fail", "%s", why); }

int host_error(Node* n) {
  if (n->v < 0) {
    delete n;
    mexErrMsgIdAndTxt("tool:neg", "negative");
  }
  return n->v;
}

int host_error_wrapped(Node* n) {
  if (n->v < 0) {
    delete n;
    HostFail("negative");
  }
  return n->v;
}

int host_warning(Node* n) {
  if (n->v < 0) {
    delete n;
    mexWarnMsgIdAndTxt("tool:neg", "negative");
  }
  return n->v;  // want "use-after-free"
}

// Lua's error functions long-jump out of the C function (lua_error,
// luaL_error: "never returns"); lua_pushstring returns.
struct lua_State;
int luaL_error(lua_State* L, const char* fmt, ...);
void lua_pushstring(lua_State* L, const char* s);

int lua_register_node(lua_State* L, Node* n) {
  if (n->v < 0) {
    delete n;
    luaL_error(L, "negative");
  }
  return n->v;
}

int lua_register_pushed(lua_State* L, Node* n) {
  if (n->v < 0) {
    delete n;
    lua_pushstring(L, "negative");
  }
  return n->v;  // want "use-after-free"
}

// A method declared with the attribute never returns either, called by
// its class's name or, in the class's own methods, by its own.
class Errors {
 public:
  [[noreturn]] static void Raise(const char* why);
  static void Report(const char* why);
  void Check(Node* n, int bad) {
    if (bad) {
      delete n;
      Abort("bad");
    }
    n->v = 1;
  }

 private:
  [[noreturn]] void Abort(const char* why);
};

void RaisedMethod(Node* n, int bad) {
  if (bad) {
    delete n;
    Errors::Raise("bad");
  }
  n->v = 2;
}

void ReportedMethod(Node* n, int bad) {
  if (bad) {
    delete n;
    Errors::Report("bad");
  }
  n->v = 3;  // want "use-after-free"
}

// The C library's documented exits: the err(3) family, POSIX
// pthread_exit. warn(3), its counterpart, returns.
void err(int status, const char* fmt, ...);
void errx(int status, const char* fmt, ...);
void warnx(const char* fmt, ...);
void pthread_exit(void* value);

int exits_with_errx(Node* n) {
  if (n->v < 0) {
    delete n;
    errx(1, "negative");
  }
  return n->v;
}

int exits_with_err(Node* n) {
  if (n->v < 0) {
    delete n;
    err(1, "negative");
  }
  return n->v;
}

int exits_thread(Node* n) {
  if (n->v < 0) {
    delete n;
    pthread_exit(nullptr);
  }
  return n->v;
}

int warns_only(Node* n) {
  if (n->v < 0) {
    delete n;
    warnx("negative");
  }
  return n->v;  // want "use-after-free"
}
