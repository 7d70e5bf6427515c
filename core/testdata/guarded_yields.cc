// A method that yields a pointer member's pointee borrows memory the
// object owns only when its destructor gives that member up on every
// object, not under a flag of its own.
template <typename T>
struct WeaklyShared {
  WeaklyShared() = default;
  ~WeaklyShared() {
    if (owned) {
      delete ptr;
    }
  }
  explicit WeaklyShared(T* p) : ptr(p), owned(true) {}
  WeaklyShared(const WeaklyShared& rhs) : ptr(rhs.get()) {}
  T* get() const noexcept { return ptr; }
  T* ptr = nullptr;
  bool owned = false;
};
template <typename T>
struct Owning {
  ~Owning() { delete ptr; }
  T* get() const { return ptr; }
  T* ptr = nullptr;
};
struct Infos { int n; };
struct Graph {
  WeaklyShared<Infos> storage;
  Owning<Infos> owned;
  WeaklyShared<Infos> getShared() { return storage; }
  Owning<Infos> getOwned();
};
// Correct: the copy's destructor frees only under its owned flag, which
// the copy constructor leaves false: not known to own the pointee.
int weak_ok(Graph& g) {
  auto c = g.getShared().get();
  return c->n;
}
// The by-value copy owns what it points to and frees it at the end of the
// statement.
int owned_bad(Graph& g) {
  auto c = g.getOwned().get();
  return c->n;  // want "use-of-temporary"
}
