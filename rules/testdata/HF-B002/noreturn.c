// A helper that frees its argument, then a call that never returns: a
// function declared noreturn through an attribute macro, reached through
// a function-like macro. The use after it runs on no path. A call that
// returns does not cut.

#define POOL_NORETURN __attribute__((noreturn))
void pool_fatal_format(const char *file, int line, const char *fmt, ...) POOL_NORETURN;
void pool_log_format(const char *file, int line, const char *fmt, ...);
#define pool_fatal(_fmt, ...) pool_fatal_format(__FILE__, __LINE__, _fmt, ## __VA_ARGS__)
#define pool_log(_fmt, ...) pool_log_format(__FILE__, __LINE__, _fmt, ## __VA_ARGS__)

static void chunk_release(chunk_t* chunk) { free(chunk); }

int grow_chunk(pool_t* pool, chunk_t* chunk) {
  int status = pool_add(pool, chunk);
  if (status != 0) {
    chunk_release(chunk);
    pool_fatal("cannot add chunk: %d", status);
  }
  chunk->flags = 1;
  return status;
}

int shrink_chunk(pool_t* pool, chunk_t* chunk) {
  int status = pool_add(pool, chunk);
  if (status != 0) {
    chunk_release(chunk);
    pool_log("cannot add chunk: %d", status);
  }
  chunk->flags = 1;  // want "'chunk' is used at line 30 after chunk_release, which frees what it points to" confirmed
  return status;
}
