// A reference to const or an rvalue reference initialised from a call
// that returns by value binds a temporary whose life is extended to the
// reference's ([class.temporary]): a local of the function. A non-const
// lvalue reference binds only lvalues ([dcl.init.ref]): what a call
// initialises one with lives on, whatever its declaration seems to say
// (a macro before auto hides a trailing return type -> T&).
namespace dev {
template <typename T, int N, typename A>
DEV_FN auto declare_shared(A const& acc) -> T& {
  static T slot;
  return slot;
}
}  // namespace dev

struct Acc {};
int count(const Acc& a);

template <typename T>
struct Shared {
  template <typename A>
  static T& get(A const& acc) {
    auto& cell = ::dev::declare_shared<T, 3>(acc);
    return cell;
  }
};

// Bound to a reference to const, the call's own declaration decides: a
// type before auto (a constraint, or a macro) leaves the result to the
// trailing return type, a reference here.
template <typename T>
const T& shared_view(const Acc& acc) {
  const auto& cell = ::dev::declare_shared<T, 4>(acc);
  return cell;
}

const int& count_ref(const Acc& a) {
  const auto& n = count(a);
  return n;  // want "returns-local"
}

const int& count_moved(const Acc& a) {
  int&& n = count(a);
  return n;  // want "returns-local"
}

// A function returning a reference to non-const cannot return a
// temporary: the body does not compile, so it is a template's body that
// is never instantiated (a stub of an unsupported order), not a path.
template <typename T>
struct Cells {
  T& operator[](unsigned i) { return 0.0; }
  const T& at(unsigned i) const { return 0.0; }  // want "returns-local"
};

// A return type spelled as a template given a reference type
// (enable_if_t<C, const T&>, an alias template of the tree) may be that
// reference: its result is no temporary that holdfast knows of. One given
// only values is a value.
template <bool C, typename T>
struct OnlyIfT {};
template <typename T>
struct OnlyIfT<true, T> {
  typedef T Type;
};
template <bool C, typename T>
using OnlyIf = typename OnlyIfT<C, T>::Type;

template <typename T>
struct Box {
  T value;
};

class Slots {
  alignas(8) char store_[16];

  template <typename T>
  OnlyIf<(sizeof(T) <= 16), const T&> Read() const {
    return *reinterpret_cast<const T*>(store_);
  }
  template <typename T>
  Box<T> Copy() const {
    return Box<T>{*reinterpret_cast<const T*>(store_)};
  }

 public:
  template <typename T>
  const T& Fetch() const {
    return Read<T>();
  }
  template <typename T>
  const Box<T>& FetchCopy() const {
    return Copy<T>();  // want "returns-local"
  }
};
