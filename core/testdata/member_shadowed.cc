// A parameter or local of a method hides a data member of the same name
// only in name: what the method does with it (deletes it, returns it) is
// not done to a member of the object.
#include <cstdint>
#include <vector>

// A cache whose allocate returns a local named slice and whose deallocate
// deletes a parameter named slice: the cache holds no member of that name,
// so the pointer it lent is not its memory, and handing it back is no use
// of freed memory.
struct Engine {
  struct Slice { void* source_addr; void (*cleanup_callback)(Slice*); bool from_cache; };
  struct SliceCache {
    SliceCache() : head_(0), tail_(0) { spare_.resize(kCap); }
    ~SliceCache() {
      for (uint64_t i = tail_; i != head_; i++) {
        auto slice = spare_[i % kCap];
        delete slice;
      }
    }
    Slice *allocate() {
      Slice *slice;
      if (head_ - tail_ == 0) {
        slice = new Slice();
        slice->from_cache = false;
      } else {
        slice = spare_[tail_ % kCap];
        tail_++;
        slice->from_cache = true;
      }
      return slice;
    }
    void deallocate(Slice *slice) {
      auto cleanup = slice->cleanup_callback;
      slice->cleanup_callback = nullptr;
      if (cleanup) cleanup(slice);
      if (head_ - tail_ == kCap) {
        delete slice;
        return;
      }
      spare_[head_ % kCap] = slice;
      head_++;
    }
    const static size_t kCap = 4096;
    std::vector<Slice *> spare_;
    uint64_t head_, tail_;
  };
};
int Reuse() {
  Engine::SliceCache cache;
  int cleanup_count = 0;
  Engine::Slice* slice = cache.allocate();
  slice->source_addr = &cleanup_count;
  cache.deallocate(slice);
  Engine::Slice* reused = cache.allocate();
  cache.deallocate(reused);
  return cleanup_count;
}

// A member the methods do name: what get lent is gone once drop deletes it.
struct Slice { int n; };

class Single {
 public:
  Single() : slice(new Slice()) {}
  Slice* get() { return slice; }
  void drop() { delete slice; slice = nullptr; }
  ~Single() { delete slice; }

 private:
  Slice* slice;
};

int UseDropped() {
  Single one;
  Slice* s = one.get();
  one.drop();
  return s->n;  // want "use-after-free"
}
