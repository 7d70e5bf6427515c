// A pointer stepped through an array of pointers (p++ over argv) reaches
// another element on each iteration: free(*p) in the loop frees each
// element once. The pointer stored in one element, freed twice, is still
// a double free.
#include <cstdlib>

void FreeAll(char** argv) {
  for (char** p = argv; *p; p++) {
    free(*p);
  }
  free(argv);
}

void FreeWhile(char** names) {
  char** c = names;
  while (*c) {
    free(*c);
    c++;
  }
}

void FreeTwice(char** slot) {
  free(*slot);
  free(*slot);  // want "double-free"
}

// A pointer initialised from a call whose result is not followed steps
// all the same: each record's slot is another pointer.
char* record_at(int i);

void FreeRecords(int records, int slots, size_t stride) {
  for (int i = 0; i < records; i++) {
    char* values = record_at(i);
    for (int a = 0; a < slots; ++a) {
      free(*(char**)values);
      values += stride;
    }
  }
}

void FreeRecordTwice(int records, int slots) {
  for (int i = 0; i < records; i++) {
    char* values = record_at(i);
    for (int a = 0; a < slots; ++a) {
      free(*(char**)values);  // want "double-free"
    }
  }
}
