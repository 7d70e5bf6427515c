// A class definition after a macro the grammar does not know (here one
// defined empty, as a namespace-opening macro often is) reads as a
// function named struct: it is no function, and its members are no
// locals. A function returning a handle to its own local still is.
struct Res {
  int id;
};

struct Handle {
  const Res* res = nullptr;
};

#define SCOPE_BEGIN
SCOPE_BEGIN
// a comment between the macro and the class
struct Holder {
  Res res;

  operator Handle() const {
    Handle v;
    v.res = &res;
    return v;
  }
};

SCOPE_BEGIN
// an attribute between the class key and the name
struct [[deprecated]] OldHolder {
  Res res;

  operator Handle() const {
    Handle v;
    v.res = &res;
    return v;
  }
};

Handle MakeHandle() {
  Res local;
  Handle v;
  v.res = &local;
  return v;  // want "returns 'v.res', which points into 'local'" confirmed
}
