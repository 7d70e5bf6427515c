// A struct returned by value is copied to the caller with its pointers:
// one set to a local's buffer dangles there.

#include <vector>

struct Slice {
  const float* data;
  int size;
};

Slice Ones(int n) {
  std::vector<float> ones(n, 1.0f);
  Slice s;
  s.data = ones.data();
  s.size = n;
  return s;  // want "returns 's.data', which points into 'ones', a local that dies when the function returns" confirmed
}

// Correct: the slice views the caller's vector.
Slice View(const std::vector<float>& v) {
  Slice s;
  s.data = v.data();
  s.size = static_cast<int>(v.size());
  return s;
}
