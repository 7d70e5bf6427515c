// A method overloaded on const: a call on an object declared const calls
// the const overload, on one declared otherwise the non-const one
// ([over.match.funcs]). A result type that aliases a dependent member
// type (typename A<T>::reference) is not known to be a value until the
// template is instantiated.
template <typename T, int N>
struct Slots {
  typedef T& reference;
  T storage[N];
  reference operator[](int i) { return storage[i]; }
  T at(int i) const { return storage[i]; }
};

template <typename E>
class Quad {
 public:
  typedef typename Slots<E, 4>::reference Ref;
  E last() const { return s_.at(3); }
  Ref last() { return s_[3]; }
  const E& first() const { return s_.storage[0]; }

 private:
  Slots<E, 4> s_;
};

template <typename E>
E& Last(Quad<E>& q) {
  return q.last();
}

template <typename E>
const E& LastOfConst(const Quad<E>& q) {
  return q.last();  // want "returns-local"
}

template <typename E>
const E& LastOfConstTrailing(Quad<E> const& q) {
  return q.last();  // want "returns-local"
}

template <typename E>
const E& FirstOfConst(const Quad<E>& q) {
  return q.first();
}
