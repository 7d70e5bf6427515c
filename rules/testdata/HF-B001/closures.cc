// A closure that captured a local by reference, called after the local
// went out of scope.
#include <functional>

struct Shape {
  int rank;
};

int rank_later(bool big) {
  std::function<int()> rank;
  {
    Shape s{big ? 4 : 2};
    rank = [&s] { return s.rank; };  // want "'s' is used after 's', which owned its memory, ended at line 14, in the closure called at line 15" confirmed
  }
  return rank();
}

// Correct: the closure copies the local.
int rank_copied(bool big) {
  std::function<int()> rank;
  {
    Shape s{big ? 4 : 2};
    rank = [s] { return s.rank; };
  }
  return rank();
}
