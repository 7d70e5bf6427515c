// A helper that gives its parameter a new value before reading it reads
// nothing of what the caller passed: handing it the freed pointer uses
// none of the freed memory. One that reads the parameter first, or gives
// it a new value only on some paths, does.
#include <stdlib.h>

struct conn { int fd; };
struct conn* conn_open(const char* host);
static void conn_close(struct conn* c) { free(c); }

static struct conn* conn_reopen(struct conn* c, const char* host) {
  c = conn_open(host);
  c->fd = 0;
  return c;
}

static struct conn* conn_redial(struct conn* c, const char* host) {
  c->fd = -1;
  c = conn_open(host);
  return c;
}

static struct conn* conn_maybe(struct conn* c, const char* host, int fresh) {
  if (fresh) {
    c = conn_open(host);
  }
  c->fd = 1;
  return c;
}

void cycle(const char* host) {
  struct conn* c = conn_open(host);
  conn_close(c);
  c = conn_reopen(c, host);
  conn_close(c);
}

void cycle_read_first(const char* host) {
  struct conn* c = conn_open(host);
  conn_close(c);
  c = conn_redial(c, host);  // want "'c' is used at line 41 after conn_close, which frees what it points to" confirmed
  conn_close(c);
}

void cycle_maybe(const char* host, int fresh) {
  struct conn* c = conn_open(host);
  conn_close(c);
  c = conn_maybe(c, host, fresh);  // want "'c' is used at line 48 after conn_close, which frees what it points to" confirmed
  conn_close(c);
}
