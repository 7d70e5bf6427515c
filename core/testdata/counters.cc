// A counting loop's i++ moves what the path knows of i by one: a test of
// the counter that one iteration passes fails on the next.

#include <cstdlib>

void FreeOnFirst(int n) {
  char* p = (char*)malloc(8);
  for (int i = 0; i < n; i++) {
    if (i == 0) free(p);
  }
}

void FreeOnLast(int n) {
  char* p = (char*)malloc(8);
  for (int i = n; i > 0; --i) {
    if (i == 1) free(p);
  }
}

// Every iteration passes the test: the second frees again.
void FreeEach(int n) {
  char* p = (char*)malloc(8);
  for (int i = 0; i < n; i++) {
    if (i >= 0) free(p);  // want "double-free"
  }
}
