// A reference bound to a shift: on numbers the shift makes a new value
// (a temporary the reference keeps alive while it lives); on a stream it
// is the overloaded operator's result, a reference to the stream.
#include <ostream>
#include <string>

std::ostream& print_name(std::ostream& os, const std::string& name) {
  std::ostream& out = os << "name=" << name;
  return out;
}

std::ostream& print_count(std::ostream& os, int count) {
  std::ostream& out = (os << count);
  return out;
}

const int& scaled_bad(int k) {
  const int& r = k << 2;
  return r;  // want "returns-local"
}

const unsigned& masked_bad() {
  const unsigned& r = 1u << 4;
  return r;  // want "returns-local"
}
