// A macro the file defines as a storage class: the local it declares
// has static or thread storage and outlives the call.

#if defined(HAS_THREADS)
#define LIB_THREAD_LOCAL thread_local
#else
#define LIB_THREAD_LOCAL static
#endif
#define LIB_EXPORT __attribute__((visibility("default")))

// Correct: thread_local or static on every branch.
int& ErrorFlags() {
  LIB_THREAD_LOCAL int flags = 0;
  return flags;
}

// A plain local.
int& LocalFlags() {
  int flags = 0;
  return flags;  // want "returns 'flags', which points into 'flags', a local that dies when the function returns" confirmed
}
