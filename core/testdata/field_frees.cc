// A callee that frees a pointer field of the object it is handed, on every
// path, and leaves the field pointing at the freed memory: the caller's
// reads through that field after the call read freed memory.
#include <stdlib.h>

struct conn {
  char* buf;
  int len;
};

static void conn_drop_buf(struct conn* c) { free(c->buf); }

static void conn_reset_buf(struct conn* c) {
  free(c->buf);
  c->buf = NULL;
}

static void conn_maybe_drop(struct conn* c) {
  if (c->len > 64) {
    free(c->buf);
  }
}

int read_after_drop_bad(struct conn* c) {
  conn_drop_buf(c);
  return c->buf[0];  // want "use-after-free"
}

void double_drop_bad(struct conn* c) {
  conn_drop_buf(c);
  free(c->buf);  // want "double-free"
}

// Correct: the callee clears the field after freeing it.
int read_after_reset_ok(struct conn* c) {
  conn_reset_buf(c);
  return c->buf == NULL ? 0 : c->buf[0];
}

// Correct: freed on some paths only.
int read_after_maybe_ok(struct conn* c) {
  conn_maybe_drop(c);
  return c->buf[0];
}

// Correct: the caller gives the field new memory first.
int refilled_ok(struct conn* c) {
  conn_drop_buf(c);
  c->buf = (char*)malloc(16);
  return c->buf[0];
}

// An element of an array member indexed by what the path does not know
// (a loop's counter) is not one element: each iteration frees another
// element's field. A constant index names one element.
struct Group {
  unsigned* items;
};

struct Groups {
  unsigned long count;
  Group groups[8];
};

void FreeEachGroup(Groups* m) {
  for (unsigned long i = 0; i < m->count; ++i) {
    Group* g = &m->groups[i];
    free(g->items);
  }
}

void FreeFirstGroupTwice(Groups* m) {
  Group* g = &m->groups[0];
  free(g->items);
  free(g->items);  // want "double-free"
}
