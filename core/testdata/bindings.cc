// Structured bindings ([dcl.struct.bind]): the names are parts of a hidden
// variable, a copy of the initializer (auto [a, b]) that is a local of the
// scope, or a reference bound to it (auto& [a, b]).
#include <map>
#include <utility>

const int* FirstValueCopy(const std::map<int, int>& m) {
  auto [k, v] = *m.begin();
  return &v;  // want "returns-local"
}

const int* FirstValueRef(const std::map<int, int>& m) {
  const auto& [k, v] = *m.begin();
  return &v;
}

int Sum(const std::pair<int, int>& p) {
  auto [a, b] = p;
  return a + b;
}

const int* Escapes() {
  std::pair<int, int> p{1, 2};
  auto& [a, b] = p;
  return &a;  // want "returns-local"
}
