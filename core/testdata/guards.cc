// A guard whose constructor hands the pointer it is given to a function
// (a lock, a retain) and whose destructor hands it to another (unlock,
// release) leaves the object as it found it: nothing is freed when the
// guard ends, so a second guard of the same object in a caller uses live
// memory. A handle whose destructor hands its member to a function the
// constructor never called (a pool's put) gives the memory up.
struct lock_t {
  int depth;
};
void lock_set(lock_t* l);
void lock_unset(lock_t* l);
void pool_put(lock_t* l);

class Guard {
 public:
  explicit Guard(lock_t* lock) : lock_(lock) { lock_set(lock_); }
  ~Guard() { lock_unset(lock_); }

 private:
  lock_t* lock_;
};

class Lease {
 public:
  explicit Lease(lock_t* item) : item_(item) {}
  ~Lease() { pool_put(item_); }

 private:
  lock_t* item_;
};

void inner(int* sum, lock_t* lock) {
  Guard guard(lock);
  *sum += 1;
}

void outer(int* sum, lock_t* lock) {
  Guard guard(lock);
  inner(sum, lock);
}

int leased(lock_t* item) {
  {
    Lease lease(item);
  }
  return item->depth;  // want "use-after-free"
}
