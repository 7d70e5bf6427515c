// A pointer into a block's local, taken in a switch case whose block
// returns before its end: no path from the borrow reaches the use after
// the switch. The twin breaks out of the case instead, and the use after
// the switch reads the dead vector.

#include <cstddef>
#include <vector>

int consume(const void* p, size_t n);
void fill(std::vector<int>& v);

int InfoReturns(int what) {
  const void* src = nullptr;
  size_t size = 0;
  int one = 1;
  switch (what) {
    case 1:
      src = &one;
      size = sizeof(one);
      break;
    case 2: {
      std::vector<int> all;
      fill(all);
      src = all.data();
      size = all.size();
      return consume(src, size);
    }
    default:
      break;
  }
  return consume(src, size);
}

int InfoBreaks(int what) {
  const void* src = nullptr;
  size_t size = 0;
  switch (what) {
    case 2: {
      std::vector<int> all;
      fill(all);
      src = all.data();
      size = all.size();
      break;
    }
    default:
      break;
  }
  return consume(src, size);  // want "'src'"
}
