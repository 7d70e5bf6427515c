// A container moved into a by-value constructor parameter, and from there
// into an owning member, is the new object's: its buffer moves with it, so
// returning the object returns no pointer into the local left behind.
// A member that is a reference keeps pointing at the local instead.
#include <utility>
#include <vector>

struct Part {
  Part(std::vector<unsigned> a_, unsigned b_, std::vector<unsigned> c_)
      : a(std::move(a_)), b(b_), c(std::move(c_)) {}
  std::vector<unsigned> a;
  unsigned b;
  std::vector<unsigned> c;
};

Part moved_ok(int n) {
  std::vector<unsigned> av;
  for (int i = 0; i < n; i++) av.push_back(i);
  std::vector<unsigned> cv;
  Part p(std::move(av), 3, std::move(cv));
  return p;
}

Part moved_with_list_ok(int n) {
  std::vector<unsigned> av;
  for (int i = 0; i < n; i++) av.push_back(i);
  Part p(std::move(av), 3, {1u, 2u});
  return p;
}

struct Ref {
  explicit Ref(const unsigned& x) : x_(x) {}
  const unsigned& x_;
};

struct Refs {
  explicit Refs(std::vector<Ref> r_) : r(std::move(r_)) {}
  std::vector<Ref> r;
};

// The elements keep pointing where they did: elements that refer to a
// local, moved with their vector into the member, still dangle once the
// local dies.
Refs elements_bad() {
  unsigned x = 0;
  std::vector<Ref> rs;
  rs.emplace_back(x);
  Refs out(std::move(rs));
  return out;  // want "returns-local"
}

Refs elements_ok(const unsigned& x) {
  std::vector<Ref> rs;
  rs.emplace_back(x);
  return Refs(std::move(rs));
}

// A member that is a reference refers to the local itself.
struct View {
  explicit View(const std::vector<unsigned>& a_) : a(a_) {}
  const std::vector<unsigned>& a;
};

View referenced_bad(int n) {
  std::vector<unsigned> av;
  for (int i = 0; i < n; i++) av.push_back(i);
  View v(av);
  return v;  // want "returns-local"
}

// Copied or moved from another View, the object is made by the copy or
// move constructor: it refers to what the other one does, not to it.
View copied_ok(const std::vector<unsigned>& d) {
  View a(d);
  View b(std::move(a));
  return b;
}
