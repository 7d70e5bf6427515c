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
