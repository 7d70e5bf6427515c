// A lambda that returns by value hands back a copy of what a returned
// reference names: std::max's reference to a temporary argument is
// copied before the temporary dies. A lambda declared to return a
// reference hands back the reference itself.
#include <algorithm>

template <class T, class U> T convert(U u) { return static_cast<T>(u); }

float Loss(const float* in, const float* t, int n, float margin) {
  auto loss = [&](float x, float y) -> float {
    if (y == 1.0f) return x;
    return std::max(0.0f, margin - x);
  };
  auto deduced = [&](float x) { return std::max(0.0f, margin - x); };
  float sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += convert<float>(loss(in[i], t[i]));
    sum += convert<float>(deduced(in[i]));
  }
  return sum;
}

float Dangles(float margin, float x) {
  auto pick = [&](float v) -> const float& { return std::max(0.0f, margin - v); };
  const float& r = pick(x);
  return r;  // want "use-of-temporary"
}
