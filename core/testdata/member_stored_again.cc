// A member a constructor made point into a buffer, assigned anew through
// the object (obj.m = p), no longer points there: growth of the old
// buffer does not reach the object after the assignment.
#include <vector>

struct NeighbourList {
  int count;
  int* index;
  int* sizes;
  NeighbourList(int n, int* i, int* s) : count(n), index(i), sizes(s) {}
};

void convert(const NeighbourList& list);

void repointed_good(int n) {
  std::vector<int> index(4), sizes(4);
  NeighbourList list(4, &index[0], &sizes[0]);
  convert(list);
  index.resize(n);
  sizes.resize(n);
  list.count = n;
  list.index = &index[0];
  list.sizes = &sizes[0];
  convert(list);
}

void one_repointed_bad(int n) {
  std::vector<int> index(4), sizes(4);
  NeighbourList list(4, &index[0], &sizes[0]);
  convert(list);
  index.resize(n);
  sizes.resize(n);
  list.index = &index[0];
  convert(list);  // want "use-after-invalidate"
}
