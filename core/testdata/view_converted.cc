// A reference_wrapper returned from a function that returns a reference
// to what it wraps converts: the caller gets a reference to the wrapped
// object, not to the local wrapper.
#include <functional>
#include <map>

struct Value { int v; };
const Value& lookup(const std::map<int, Value>& known, int k);

const Value& Evaluate(const std::map<int, Value>& known, int k) {
  std::reference_wrapper<const Value> found = lookup(known, k);
  return found;
}

// Wrapping a local of its own: the reference it converts to dangles.
const Value& EvaluateLocal(int k) {
  Value made{k};
  std::reference_wrapper<const Value> found = made;
  return found;  // want "returns-local"
}
