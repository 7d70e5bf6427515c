// A structured binding by value names the parts of a copy that is a local
// of the function; by reference, the parts of the object it binds.

#include <map>
#include <string>
#include <utility>

const std::string* FirstName(const std::map<int, std::string>& names) {
  auto [id, name] = *names.begin();
  return &name;  // want "returns '&name', which points into '\[id, name\]', a local that dies when the function returns" confirmed
}

// Correct: the binding refers to the map's element, which the caller owns.
const std::string* FirstNameRef(const std::map<int, std::string>& names) {
  const auto& [id, name] = *names.begin();
  return &name;
}

// Correct: the parts are copied out by value.
int Total(const std::pair<int, int>& p) {
  auto [a, b] = p;
  return a + b;
}
