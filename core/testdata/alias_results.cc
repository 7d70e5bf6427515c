// A result type named through an alias is what the alias names: a
// reference alias is a reference, and an alias template naming a
// template parameter or a member type that depends on one
// (typename X<T>::type) may be a reference once instantiated
// ([temp.dep.type]). Only a result known to be a value is a temporary.
struct Big {
  int v[8];
};

template <typename T>
struct acquire {
  using type = T;
};
template <typename T>
using acquire_t = typename acquire<T>::type;
template <typename T>
acquire_t<T> acquired(T&& t);

template <typename T>
using same_t = T;
template <typename T>
same_t<T> same(T&& t);

using big_ref = const Big&;
big_ref shared_big();
typedef const Big& big_cref;
big_cref other_big();
Big copy_big();

const Big& through_member_type_ok(const Big& b) { return acquired(b); }

const Big& through_parameter_ok(const Big& b) { return same(b); }

const Big& through_using_ok() { return shared_big(); }

const Big& through_typedef_ok() { return other_big(); }

const Big& by_value_bad() {
  return copy_big();  // want "returns-local"
}
