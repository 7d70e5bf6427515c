// What a check macro or a tested method call decides holds on the path
// that goes on.
#include <cstdlib>
#include <vector>

void freed_then_checked(int n) {
  int* p = static_cast<int*>(malloc(4));
  bool done = false;
  if (n > 0) {
    free(p);
    done = true;
  }
  CHECK(!done);
  *p = 1;
}

void freed_unchecked(int n) {
  int* p = static_cast<int*>(malloc(4));
  bool done = false;
  if (n > 0) {
    free(p);
    done = true;
  }
  *p = 1;  // want "use-after-free"
}

void freed_when_empty(const std::vector<int>& v) {
  int* p = static_cast<int*>(malloc(4));
  if (v.empty()) {
    free(p);
  }
  if (!v.empty()) {
    *p = 1;
  }
}

void freed_when_empty_used(const std::vector<int>& v) {
  int* p = static_cast<int*>(malloc(4));
  if (v.empty()) {
    free(p);
  }
  *p = 1;  // want "use-after-free"
}

void freed_when_empty_asserted(const std::vector<int>& v) {
  int* p = static_cast<int*>(malloc(4));
  if (v.empty()) {
    free(p);
  }
  ASSERT_FALSE(v.empty());
  *p = 1;
}

// Through a pointer, and with template arguments, a test is not learned:
// p->is<A>() and p->is<B>() are different tests.
void typed_branches(Blob* b) {
  float* data = nullptr;
  std::vector<float> temp;
  if (b->is<float>()) {
    data = b->get<float>();
  } else if (b->is<int>()) {
    temp.resize(4);
    data = temp.data();
  }
  Consume(data);
}

float* typed_returned(Blob* b) {
  float* data = nullptr;
  std::vector<float> temp;
  if (b->is<float>()) {
    data = b->get<float>();
  } else if (b->is<int>()) {
    temp.resize(4);
    data = temp.data();
  }
  return data;  // want "returns-local"
}

// A test that fails or skips (Catch2's FAIL and SKIP, GoogleTest's FAIL
// and GTEST_SKIP) ends there: what would follow is not a path.
void FailedTest(bool bad) {
  float* p = static_cast<float*>(malloc(16));
  if (bad) {
    free(p);
    FAIL("bad value");
  }
  p[1] = 2;
  free(p);
}

void SkippedTest(bool unsupported) {
  float* p = static_cast<float*>(malloc(16));
  if (unsupported) {
    free(p);
    GTEST_SKIP();
  }
  p[1] = 2;
  free(p);
}

// Catch2's REQUIRE: the path that goes on knows its condition holds.
void Required(float* q) {
  float* p = q;
  REQUIRE(p != nullptr);
  p[0] = 1;
}

// Not a test macro: a helper that goes on after freeing.
void Helper(float* q, bool bad) {
  if (bad) {
    free(q);
  }
  q[0] = 1;  // want "use-after-free"
}
