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

// n -= k of a count the path set moves it by k: a tail copied into a
// buffer of the loop's body, with the count set to one chunk, ends the
// loop after that pass, and the pointer into the buffer is not read on
// another. A count the path does not know may go round again.
#include <cstring>

int Consume(const unsigned char* p);

int DrainPadded(const unsigned char* src, unsigned long n) {
  int acc = 0;
  while (n) {
    unsigned char pad[16];
    if (n < 16) {
      std::memset(pad, 0, 16);
      std::memcpy(pad, src, n);
      src = pad;
      n = 16;
    }
    acc += Consume(src);
    src += 16;
    n -= 16;
  }
  return acc;
}

int DrainLoose(const unsigned char* src, unsigned long n, unsigned long step) {
  int acc = 0;
  while (n) {
    unsigned char pad[16];
    if (n < 16) {
      std::memcpy(pad, src, n);  // want "use-after-scope"
      src = pad;
      n = 16;
    }
    acc += Consume(src);  // want "use-after-scope"
    n -= step;
  }
  return acc;
}
