// std::clamp returns a reference to one of its arguments, temporaries
// here; a cast to an arithmetic type copies the number out before they
// end, and a lambda with no declared return type returns that copy.

#include <algorithm>
#include <cstdint>
#include <vector>

struct Half {
  float f;
  static Half min() { return Half{-1.0f}; }
  static Half max() { return Half{1.0f}; }
};

// Correct: the lambda returns an int32_t.
std::vector<int32_t> Clamped(const std::vector<long>& in) {
  auto clamp32 = [](long v) {
    return static_cast<int32_t>(std::clamp<long>(v, Half::min(), Half::max()));
  };
  std::vector<int32_t> out;
  for (long v : in) out.push_back(clamp32(v));
  return out;
}

// Correct: the same, named.
int Direct(long v) {
  int32_t r = static_cast<int32_t>(std::clamp<long>(v, Half::min(), Half::max()));
  return r;
}
