// A block-scope declaration with extern names a variable of static
// storage defined elsewhere ([basic.link], [basic.stc.static]): the
// function's frame does not hold it, so returning it dangles nothing.

// Correct: the array is the program's, declared where it is used.
int* Counters() {
  extern int g_counters[];
  return g_counters;
}

const char* Banner() {
  extern const char kBanner[];
  return kBanner;
}

// The same shape without extern: a local array of the frame.
int* LocalCounters() {
  int counters[4] = {0, 0, 0, 0};
  return counters;  // want "returns 'counters', which points into 'counters', a local that dies when the function returns" confirmed
}
