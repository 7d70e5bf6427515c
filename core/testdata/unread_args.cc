// A function of the file whose execution never follows a pointer
// parameter (it converts it to an integer and compares it) is handed a
// dangling pointer without reading freed memory; one that dereferences
// its parameter reads it.
#include <cstddef>
#include <cstdint>
#include <vector>

static bool in_range(void* ptr, size_t size, uintptr_t lo, uintptr_t hi) {
  uintptr_t p = (uintptr_t)ptr;
  return p >= lo && p + size <= hi;
}

static char first(void* ptr) { return *(char*)ptr; }

// Correct: only the address is compared.
bool address_checked_ok(uintptr_t lo, uintptr_t hi) {
  void* ptr;
  {
    std::vector<char> vec(64, 0);
    ptr = &vec[0];
  }
  return in_range(ptr, 64, lo, hi);
}

char read_through_bad() {
  void* ptr;
  {
    std::vector<char> vec(64, 0);
    ptr = &vec[0];
  }
  return first(ptr);  // want "use-after-scope"
}
