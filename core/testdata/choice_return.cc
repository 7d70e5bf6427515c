// A conditional expression returned by reference or pointer: each arm is
// what the caller gets on the path that chose it.
#include <string>

const std::string& Pick(bool c, const std::string& a) {
  std::string b = "x";
  return c ? a : b;  // want "returns-local"
}

const std::string& PickParams(bool c, const std::string& a, const std::string& b) {
  return c ? a : b;
}

const int* PickPointer(bool c, const int* p) {
  int local = 3;
  return (c ? p : &local);  // want "returns-local"
}

// Correct: returned by value, the arm is copied.
std::string PickCopy(bool c, const std::string& a) {
  std::string b = "x";
  return c ? a : b;
}
