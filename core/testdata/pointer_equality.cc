// Two pointers to one object compare equal, and a pointer to memory the
// path made compares unequal to a pointer to any other object: a guard
// if (tmp != in) free(tmp) frees only the copy the path allocated.
#include <cstdlib>
#include <cstring>

void work(float* p, int n);
void use(float);

void ConvertMaybe(float* in, int n, bool convert) {
  float* tmp = in;
  if (convert) {
    tmp = (float*)malloc(n * sizeof(float));
    memcpy(tmp, in, n * sizeof(float));
  }
  work(tmp, n);
  if (tmp != in) {
    free(tmp);
  }
  use(in[0]);
}

void ConvertEqualGuard(float* in, int n, bool convert) {
  float* tmp = convert ? (float*)malloc(n * sizeof(float)) : in;
  work(tmp, n);
  if (tmp == in) {
    return;
  }
  free(tmp);
  use(in[0]);
}

// The guard tests the wrong pointer: on the path that did not convert,
// tmp is in, and it is freed before the use.
void ConvertWrongGuard(float* in, float* other, int n, bool convert) {
  float* tmp = in;
  if (convert) {
    tmp = (float*)malloc(n * sizeof(float));
  }
  work(tmp, n);
  if (tmp != other) {
    free(tmp);
  }
  use(in[0]);  // want "use-after-free"
}
