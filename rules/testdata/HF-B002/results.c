// A helper that frees one argument and returns another, its result
// assigned to the freed pointer: the later use is of the returned one.
// Assigned to another variable, the freed pointer is still used.

struct range { struct range* next; int refs; };
static void range_remove(struct range* r) { free(r); }
static struct range* range_merge(struct range* r, struct range* prev) {
  prev->refs += r->refs;
  range_remove(r);
  return prev;
}

struct range* coalesce(struct range* r, struct range* prev) {
  if (prev && prev->refs == r->refs)
    r = range_merge(r, prev);
  prev = r->next;
  return prev;
}

struct range* coalesce_bad(struct range* r, struct range* prev) {
  struct range* kept = range_merge(r, prev);
  prev = r->next;  // want "'r' is used at line 22 after range_merge, which frees what it points to" confirmed
  return kept;
}
