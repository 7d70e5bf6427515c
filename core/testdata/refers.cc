// What a call's result refers to, as the callee's code says: a function
// that returns a reference or pointer to (or into) the object one of its
// parameters refers to hands the caller that object. A temporary bound to
// the parameter ends with the caller's full expression ([class.temporary]),
// a local with its scope, a heap object with its delete.
#include <string>

struct Box {
  std::string name;
  int v;
  Box* next;
};

Box make();
void use(int);
void uses(const std::string&);

const std::string& name_of(const Box& b) { return b.name; }
const int* address_of(const int& x) { return &x; }
Box* pass(Box* p) { return p; }
const int* value_in(const Box* p) { return &p->v; }

int temporary_bound_bad() {
  const std::string& n = name_of(make());
  uses(n);  // want "use-of-temporary"
  return 0;
}

int literal_bound_bad() {
  const int* p = address_of(42);
  return *p;  // want "use-of-temporary"
}

int local_out_of_scope_bad() {
  const int* p;
  {
    int x = 1;
    p = address_of(x);
  }
  return *p;  // want "use-after-scope"
}

int passed_through_then_deleted_bad() {
  Box* b = new Box();
  Box* q = pass(b);
  delete b;
  return q->v;  // want "use-after-free"
}

int member_address_then_deleted_bad() {
  Box* b = new Box();
  const int* v = value_in(b);
  delete b;
  return *v;  // want "use-after-free"
}

// The object outlives every use of the result.
int local_bound_ok() {
  Box b = make();
  const std::string& n = name_of(b);
  uses(n);
  return 0;
}

// Used within the full expression, or copied out before it ends.
int used_in_statement_ok() {
  uses(name_of(make()));
  std::string copy = name_of(make());
  uses(copy);
  return *address_of(42);
}

int deleted_after_use_ok() {
  Box* b = new Box();
  Box* q = pass(b);
  int v = q->v;
  delete b;
  return v;
}

// What a pointer field holds is another object: the result is not a
// pointer into the parameter's.
Box* next_of(Box* p) { return p->next; }

int field_value_ok(Box* head) {
  Box* n = next_of(head);
  delete head;
  return n->v;
}

// Different paths return different parameters: which one the result
// refers to is not known, so nothing is said.
const Box& either(const Box& a, const Box& b) {
  if (a.v < b.v) {
    return a;
  }
  return b;
}

int either_ok(const Box& a) {
  const Box& e = either(a, make());
  return e.v;
}

// Calls are matched by name and arity: an argument of another type than
// the parameter the result refers to is not that parameter's (the call
// runs another function of the same name).
const Box& second_of(int k, const Box& b) { return b; }
namespace other {
const Box& second_of(const Box& b, int k);
}

const Box& other_function_ok(const Box& b, int k) {
  return other::second_of(b, k);
}

// A pointer parameter: the result is what the argument points to, not the
// local the argument is read from.
Box* forward(Box* p) { return p; }
Box* unknown_box();

Box* pointer_local_ok() {
  auto b = unknown_box();
  return forward(b);
}
