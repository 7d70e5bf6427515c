// Lambdas: what they capture by reference dies with its local; calling
// them runs their body then.
#include <future>
#include <thread>
#include <functional>
#include <vector>

struct Cell {
  int v;
};

int call_after_scope() {
  std::function<int()> read;
  {
    Cell c{1};
    read = [&c] { return c.v; };  // want "use-after-scope"
  }
  return read();
}

int implicit_capture_after_scope() {
  std::function<int()> read;
  {
    auto c = Cell{2};
    read = [&] { return c.v; };  // want "use-after-scope"
  }
  return read();
}

int copied_closure_after_scope() {
  std::function<int()> read;
  {
    Cell c{3};
    auto tmp = [&] { return c.v; };  // want "use-after-scope"
    read = tmp;
  }
  return read();
}

// Correct: captured by value.
int value_capture_after_scope() {
  std::function<int()> read;
  {
    Cell c{4};
    read = [c] { return c.v; };
  }
  return read();
}

// Correct: called while the local lives.
int call_in_scope() {
  Cell c{5};
  auto read = [&c] { return c.v; };
  return read();
}

void call_with_freed(bool log) {
  auto show = [](Cell* p) { int x = p->v; };  // want "use-after-free"
  Cell* cell = new Cell{6};
  delete cell;
  show(cell);
}

// Correct: called before the delete.
void call_before_free() {
  auto show = [](Cell* p) { int x = p->v; };
  Cell* cell = new Cell{7};
  show(cell);
  delete cell;
}

Cell& returns_through_lambda() {
  Cell local{8};
  auto get = [&local]() -> Cell& { return local; };
  return get();  // want "returns-local"
}

// A closure whose body branches: the call continues on each of its paths,
// with what that path did to the caller's locals.
void drop_on_one_path(Cell* c, bool d) {
  auto drop = [&](bool now) {
    if (now) {
      delete c;
    }
  };
  drop(d);
  int x = c->v;  // want "use-after-free"
}

void grow_through_closure(std::vector<Cell>& out) {
  std::vector<Cell> cells;
  auto add = [&cells](int v) -> Cell& {
    cells.push_back(Cell{v});
    return cells.back();
  };
  Cell& first = add(1);
  add(2);
  out.push_back(first);  // want "use-after-invalidate"
}

// Correct: the closure's paths leave the pointer alive, and the element is
// copied before the container grows.
void keep_on_every_path(Cell* c, bool d) {
  auto touch = [&](bool now) {
    if (now) {
      c->v = 1;
    }
  };
  touch(d);
  int x = c->v;
}

void copy_before_growth(std::vector<Cell>& out) {
  std::vector<Cell> cells;
  auto add = [&cells](int v) -> Cell& {
    cells.push_back(Cell{v});
    return cells.back();
  };
  Cell first = add(1);
  add(2);
  out.push_back(first);
}

// Correct: a closure called inside another container's push_back: the
// container that grows is the one the call is made on, nothing else.
void push_through_closure(const std::vector<Cell>& in) {
  std::vector<Cell> copies;
  auto check = [&copies](const Cell& c) -> const Cell {
    if (c.v) {
      return c;
    }
    copies.push_back(c);
    return copies.back();
  };
  std::vector<Cell> checked;
  for (const Cell& c : in) {
    checked.push_back(check(c));
  }
  const Cell& first = checked[0];
  int x = first.v;
}

// Correct: a temporary argument of a closure call lives to the end of the
// caller's full expression, whatever the body's statements are.
using Ints = std::vector<int>;
Ints Make(int n);
bool Equal(const Ints& a, const Ints& b);
void Check(bool ok);
void compare_temporaries() {
  auto eq = [](const Ints& x, const Ints& y) {
    return Equal(x, y);
  };
  Check(eq(Make(1), {2}));
  Check(eq(Make(3), {4}));
  Check(eq(Make(5), {6}));
}

// Correct: a lambda returning a class by value whose template argument is
// a reference type.
template <typename T> struct Maybe { explicit Maybe(T v); };
struct Desc { int n; };
const Desc& desc_of(int i);
int maybe_by_value(int i) {
  auto get = [&](int j) -> Maybe<const Desc&> { return Maybe<const Desc&>(desc_of(j)); };
  get(i);
  return i;
}

// A closure returned, or made into an object that keeps it, takes its
// captures by reference out of the frame.
std::function<int()> returned_closure_bad() {
  int x = 3;
  return [&] { return x; };  // want "returns-local"
}

std::function<int()> returned_local_closure_bad(int copy) {
  auto f = [&copy] { return copy; };
  return f;  // want "returns-local"
}

struct Worker {
  std::thread worker_;
  void Start() {
    int n = 0;
    worker_ = std::thread([&] { n++; });  // want "returns-local"
  }
  void StartJoined() {
    int n = 0;
    worker_ = std::thread([&] { n++; });
    worker_.join();
  }
};

// Correct: captured by value, or the caller's object by reference.
std::function<int()> returned_by_value_ok() {
  int x = 3;
  return [=] { return x; };
}

std::function<int()> returned_callers_ok(int& x) {
  return [&] { return x; };
}

// A future of std::async kept by the object: the call may still run when
// the method has returned.
struct Loader {
  std::future<int> pending_;
  void Start() {
    int n = 0;
    pending_ = std::async(std::launch::async, [&] { return n; });  // want "returns-local"
  }
  int StartAndWait() {
    int n = 0;
    auto f = std::async(std::launch::async, [&] { return n; });
    return f.get();
  }
};

// A reference captured by reference is the object it is bound to: here
// the caller's, which outlives the closure.
std::function<int()> returned_reference_capture_ok(std::vector<int>& v) {
  int& first = v[0];
  return [&first] { return first; };
}

std::function<int()> returned_reference_to_local_bad() {
  int x = 3;
  int& r = x;
  return [&r] { return r; };  // want "returns-local"
}

// Correct: the thread's lambda declares its own 'buffer', which hides the
// enclosing one; what it captures by reference is nothing of the frame.
void Shadowed() {
  std::vector<int> buffer(4);
  std::thread t([&] {
    std::vector<int> buffer(8);
    buffer[0] = 1;
  });
  t.detach();
}

// A default capture takes the locals the body names: lib::scale and
// lib::shift<T> name functions of a namespace, not the locals so named.
namespace lib {
void scale(const float* in, float* out, int n);
}
struct Spec {
  int count;
};

std::function<void(const float*, float*)> MakeKernel(const Spec* spec) {
  const Spec* scale = spec;
  int n = scale->count;
  return [&, n](const float* in, float* out) { lib::scale(in, out, n); };
}

namespace lib {
template <typename T>
void shift(const T* in, T* out, int n);
}

template <typename T>
std::function<void(const T*, T*)> MakeShift(const Spec* spec) {
  const Spec* shift = spec;
  int n = shift->count;
  return [&, n](const T* in, T* out) { lib::shift<T>(in, out, n); };
}

std::function<int()> MakeCounter(const Spec* spec) {
  const Spec* scale = spec;
  return [&]() { return scale->count; };  // want "returns-local"
}

// An init-capture is a member of the closure: in the body, its name is
// that member, which the move filled, not the local it was moved from.
// The moved-from local reached through a default capture is still empty.
struct Note {
  int v;
};

int TakeNote(std::unique_ptr<Note> n) {
  auto read = [n = std::move(n)]() { return n->v; };
  return read();
}

int TakeNoteBack(std::unique_ptr<Note> n) {
  auto read = [&, m = std::move(n)]() { return n->v + m->v; };  // want "use-after-move"
  return read();
}
