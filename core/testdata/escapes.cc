// A pointer into the frame left where the caller reaches it.
#include <string>
#include <type_traits>
#include <vector>

struct Params {
  const float* data;
  int n;
  std::string name;
};

void submit(Params* p);

void out_param(const char** out) {
  std::string s = "x";
  *out = s.c_str();  // want "returns-local"
}

void param_field(Params* p) {
  float local[4] = {0};
  p->data = local;  // want "returns-local"
}

void reference_field(Params& p) {
  std::vector<float> v(4);
  p.data = v.data();  // want "returns-local"
}

class Holder {
 public:
  void Set() {
    int x = 3;
    ptr_ = &x;  // want "returns-local"
  }
  void Scoped() {
    int x = 3;
    ptr_ = &x;
    Work();
    ptr_ = nullptr;
  }
  void Cleared() {
    int x = 3;
    ptr_ = &x;
    ptr_ = nullptr;
  }
  void Work();
  int* ptr_;
};

// Correct: copied into a string, a static, the caller's own memory,
// handed to a call that uses it before the return.
void copied(std::string* out) {
  std::string s = "x";
  *out = s.c_str();
}

void copied_field(Params* p) {
  char buf[8] = "x";
  p->name = buf;
}

void static_buffer(const char** out) {
  static char buf[8] = "x";
  *out = buf;
}

void callers_memory(Params* p, std::vector<float>& v) {
  p->data = v.data();
}

void submitted(Params* p) {
  float local[4] = {0};
  p->data = local;
  submit(p);
}

// Correct: a parameter of a template type may be a reference (T = U&).
template <typename T>
struct RefStorage {
  void Construct(T v) { value_ = &v; }
  typename std::remove_reference<T>::type* value_;
};
