// A function template whose return type is one of its parameters,
// called with a reference type for it (fold<const T&>), returns a
// reference: no temporary. Called with a value type, it returns one.
#include <string>

template <class L, class R>
class Either {
 public:
  template <class Result, class LF, class RF>
  Result fold(LF&& lf, RF&& rf) const;
  L left_;
};

struct Schema {
  std::string name;
};

struct Op {
  Either<Schema, int> op_;
  const Schema& schema() const {
    return op_.fold<const Schema&>([](const Schema& s) -> const Schema& { return s; },
                                   [](int) -> const Schema& { static Schema e; return e; });
  }
  const Schema& copied() const {
    return op_.fold<Schema>([](const Schema& s) { return s; }, [](int) { return Schema{}; });  // want "returns-local"
  }
};
