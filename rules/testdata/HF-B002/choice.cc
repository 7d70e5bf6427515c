// A helper that deletes what it is handed, called in one arm of a
// conditional expression: the other arm's use of the same pointer runs
// on the other path only.

char* reallocate(char* old, int n) {
  char* p = new char[n];
  for (int i = 0; i < n; i++) p[i] = old[i];
  delete[] old;
  return p;
}

struct Alloc { char* reallocate(char* old, int n); };

// Correct: either the allocator's method or the default one gets old,
// never both.
char* grow(Alloc* a, char* old, int n) {
  return a ? a->reallocate(old, n) : reallocate(old, n);
}

int use_after(char* old, int n) {
  char* p = reallocate(old, n);
  return p[0] + old[0];  // want "'old' is used at line 22 after reallocate, which frees what it points to" confirmed
}
