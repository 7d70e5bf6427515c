// What the caller reaches after the call — a container it handed in by
// reference or by pointer, a field of an object it handed in — must not
// be left holding pointers into memory the frame owns: a local's, or
// what a local unique_ptr owns.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct Desc {
  float* data;
  int* count;
};

void submit(Desc* d);

void pointer_into_caller_vector_bad(std::vector<float*>& out) {
  float x = 1;
  out.push_back(&x);  // want "returns-local"
}

void c_str_into_pointed_vector_bad(std::vector<const char*>* out) {
  std::string s = "name";
  out->push_back(s.c_str());  // want "returns-local"
}

void string_into_caller_views_bad(std::vector<std::string_view>& out) {
  std::string s = "name";
  out.emplace_back(s);  // want "returns-local"
}

// Correct: a container the function was handed by value is its own.
void by_value_ok(std::vector<float*> out) {
  float x = 1;
  out.push_back(&x);
}

// Correct: taken out again before the return.
void taken_back_ok(std::vector<float*>& out) {
  float x = 1;
  out.push_back(&x);
  out.pop_back();
}

// Correct: a call the function makes afterwards is what the pointer was
// stored for.
void consume(std::vector<float*>& out);

void used_by_call_ok(std::vector<float*>& out) {
  float x = 1;
  out.push_back(&x);
  consume(out);
  out.clear();
}

void unique_into_caller_field_bad(Desc* d, int n) {
  auto buf = std::make_unique<float[]>(n);
  d->data = buf.get();  // want "returns-local"
}

void adopted_into_caller_field_bad(Desc* d) {
  std::unique_ptr<int> c(new int(0));
  d->count = c.get();  // want "returns-local"
}

// Correct: released, the memory is the caller's to free.
void released_ok(Desc* d, int n) {
  auto buf = std::make_unique<float[]>(n);
  d->data = buf.get();
  buf.release();
}

// Correct: a shared_ptr's object may have other owners; memory from new
// that no local owns is the caller's.
void shared_ok(Desc* d) {
  std::shared_ptr<int> c(new int(0));
  d->count = c.get();
}

void raw_ok(Desc* d, int n) {
  d->data = new float[n];
}

// Correct: the call the descriptor was filled for runs before the owner
// dies.
void submitted_ok(Desc* d, int n) {
  auto buf = std::make_unique<float[]>(n);
  d->data = buf.get();
  submit(d);
}

struct Staging {
  std::unique_ptr<float[]> storage_;
  float* view_;
  void Reset(int n);
};

// Correct: the owner moves into a member, which outlives the call.
void Staging::Reset(int n) {
  auto buf = std::make_unique<float[]>(n);
  view_ = buf.get();
  storage_ = std::move(buf);
}
