// A conditional expression returned by reference: the arm that names a
// local hands the caller a reference to memory that dies with the frame.

#include <string>

const std::string& NameOr(bool has, const std::string& name) {
  std::string fallback = "unnamed";
  return has ? name : fallback;  // want "returns 'fallback', which points into 'fallback', a local that dies when the function returns" confirmed
}

// Correct: both arms are the caller's.
const std::string& Either(bool first, const std::string& a, const std::string& b) {
  return first ? a : b;
}

// Correct: a static outlives every call.
const std::string& NameOrDefault(bool has, const std::string& name) {
  static const std::string fallback = "unnamed";
  return has ? name : fallback;
}
