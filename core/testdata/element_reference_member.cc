// A reference member of a container's element refers to an object of
// its own: removing the element ends the element, not what its
// reference member is bound to.
#include <vector>

struct Matcher {
  int n;
};

struct Entry {
  Matcher& matcher;
  int depth;
};

struct Lists {
  std::vector<Entry> stack;

  int close_good() {
    auto& m = stack.back().matcher;
    stack.pop_back();
    return m.n;
  }

  int close_through_iterator_good() {
    auto it = stack.begin();
    Matcher& m = it->matcher;
    stack.erase(it);
    return m.n;
  }

  int close_bad() {
    auto& e = stack.back();
    stack.pop_back();
    return e.depth;  // want "use-after-invalidate"
  }
};
