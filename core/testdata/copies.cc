// Implicit copies of a class whose destructor frees a pointer member.
#include <cstdlib>
#include <utility>
#include <vector>

struct Buf {
  explicit Buf(int n) : p(new int[n]) {}
  ~Buf() { delete[] p; }
  int* p;
};

struct Deep {
  explicit Deep(int n) : p(new int[n]) {}
  Deep(const Deep& o);
  Deep& operator=(const Deep& o);
  ~Deep() { delete[] p; }
  int* p;
};

struct Handle {
  ~Handle() { std::free(raw); }
  void* raw;
  int reset();
};

int copy_assigned_in_scope() {
  Buf a(1);
  {
    Buf b(2);
    a = b;
  }
  return a.p[0];  // want "use-after-free"
}

void copy_then_both_die() {
  Buf a(1);
  Buf b = a;
}  // want "double-free"

void auto_copy() {
  Buf a(1);
  auto b = a;
}  // want "double-free"

void moved_with_implicit_move() {
  Buf a(1);
  Buf b = std::move(a);
}  // want "double-free"

void assigned_temporary() {
  Buf a(1);
  a = Buf(2);
}  // want "double-free"

void explicit_destructor() {
  Buf a(1);
  a.~Buf();
}  // want "double-free"

void copy_into_vector(std::vector<Buf>& v) {
  v.push_back(Buf(3));  // want "double-free"
}

// Correct: a class with its own copy, a reference, a member reset, a
// method that may reset, the copy returned.
int deep_copy() {
  Deep a(1);
  {
    Deep b(2);
    a = b;
  }
  return a.p[0];
}

int reference_is_no_copy() {
  Buf a(1);
  Buf& r = a;
  return r.p[0];
}

void member_reset() {
  Buf a(1);
  Buf b = a;
  b.p = nullptr;
}

void method_may_reset() {
  Handle a{};
  Handle b = a;
  b.reset();
}

Buf returned_copy() {
  Buf a(1);
  Buf b = a;
  a.p = new int[1];
  return b;
}

// A member type of a class template (typename C<T>::Kind, a nested enum)
// is not the class: a copy of it shares nothing its destructor frees.
#include <string>
namespace shapes {
template <class T>
class Edit {
 public:
  enum Kind { Assign, Increase };
  explicit Edit(int n) : path(new unsigned char[n]) {}
  virtual ~Edit() { delete[] path; }

 private:
  unsigned char* path;
};
}  // namespace shapes

template <class T>
void ParseKinds(const std::vector<std::string>& words) {
  std::vector<typename shapes::Edit<T>::Kind> kinds;
  for (const std::string& w : words) {
    typename shapes::Edit<T>::Kind k = shapes::Edit<T>::Assign;
    kinds.push_back(k);
  }
}

// A constructor that leaves the freed member null: until something sets
// it (a method of the object), a copy shares a null pointer and both
// destructors delete nullptr, which does nothing ([expr.delete]).
struct Lazy {
  Lazy() : info(nullptr) {}
  ~Lazy() { delete info; }
  int* Get() {
    if (!info) info = new int(0);
    return info;
  }
  int* info;
};

struct LazyDefault {
  ~LazyDefault() { delete info; }
  int* info = nullptr;
};

void KeepLazyTemporary(std::vector<Lazy>& v) {
  v.push_back(Lazy());
}

void KeepLazyDefault(std::vector<LazyDefault>& v) {
  v.push_back(LazyDefault());
}

void KeepLazyLocal() {
  std::vector<Lazy> v;
  Lazy l;
  v.push_back(l);
}

void KeepLazyUsed() {
  std::vector<Lazy> v;
  Lazy l;
  l.Get();
  v.push_back(l);
}  // want "double-free"

void CopyLazy() {
  Lazy a;
  Lazy b = a;
}

// A constructor body that sets the member to null as one of its own
// statements leaves it null; one that sets it only under a condition
// does not.
struct Edge {
  Edge();
  ~Edge() { delete hull; }
  int* hull;
  long name;
};

Edge::Edge() {
  hull = 0;
  name = -1;
}

bool Ready();

struct MaybeEdge {
  MaybeEdge();
  ~MaybeEdge() { delete hull; }
  int* hull;
};

MaybeEdge::MaybeEdge() {
  if (Ready()) {
    hull = nullptr;
  } else {
    hull = new int(1);
  }
}

void AddEdge(std::vector<Edge>& v) {
  v.push_back(Edge());
}

void AddMaybeEdge(std::vector<MaybeEdge>& v) {
  v.push_back(MaybeEdge());  // want "double-free"
}
