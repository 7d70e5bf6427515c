// A reference to a container a call returns (an accessor of a static or
// of another object's member) names a container the frame does not own:
// it does not end with the reference, but its own growth still moves its
// elements, so a pointer taken into it before dangles after.
#include <string>
#include <vector>

std::vector<int>& registry();
const std::string& config_name();
struct Holder {
  std::vector<int>& items();
  const std::string& name() const;
};
std::vector<int>* kept;

void Grown() {
  std::vector<int>& v = registry();
  int* p = &v[0];
  v.push_back(1);
  *p = 2;  // want "use-after-invalidate"
}

void GrownMember(Holder& h) {
  std::vector<int>& v = h.items();
  int& first = v.front();
  v.emplace_back(3);
  first++;  // want "use-after-invalidate"
}

// Correct: the container outlives the function, so a pointer into it
// may be returned or kept.
int* First() {
  std::vector<int>& v = registry();
  return &v[0];
}

const char* Name(const Holder& h) {
  const std::string& s = h.name();
  return s.c_str();
}

void Keep() {
  std::vector<int>& v = registry();
  kept = &v;
}

// Correct: the pointer is taken after the growth.
void TakenAfter(Holder& h) {
  std::vector<int>& v = h.items();
  v.push_back(1);
  int* p = &v[0];
  *p = 3;
}

// Correct: the reference ends with its block, the container does not.
const char* InnerBlock(const Holder& h, bool named) {
  const char* p = nullptr;
  if (named) {
    const std::string& s = h.name();
    p = s.data();
  }
  return p;
}
