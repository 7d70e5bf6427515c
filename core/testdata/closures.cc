// Lambdas: what they capture by reference dies with its local; calling
// them runs their body then.
#include <functional>

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
