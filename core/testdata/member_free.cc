// free(p) in a method of a class that declares a free of its own calls
// that method (unqualified lookup searches the class before the
// namespace): the block goes back to the pool, it is not freed.
#include <cstdlib>
#include <vector>

struct Block { bool allocated; Block* next; int size; };

class Pool {
 public:
  void free(Block* b) {
    b->allocated = false;
    blocks_.push_back(b);
  }
  int Drain(Block* b) {
    free(b);
    return b->allocated ? 1 : 0;  // still a live block of the pool
  }
  int Release(Block* b);
  int Destroy(Block* b) {
    ::free(b);
    return b->size;  // want "use-after-free"
  }

 private:
  std::vector<Block*> blocks_;
};

int Pool::Release(Block* b) {
  for (Block* cur = b; cur; cur = cur->next) {
    if (cur->allocated) {
      free(cur);
      if (cur->allocated) return -1;
    }
  }
  return 0;
}

// Outside any class, free is the C library's.
int Discard(Block* b) {
  free(b);
  return b->size;  // want "use-after-free"
}
