// Heap objects: delete, free, smart pointers.
struct A { int f; void g(); };

void deref_after_delete() {
  A* a = new A();
  delete a;
  a->f = 1;  // want "use-after-free"
}

void param_after_delete(A* a) {
  delete a;
  a->g();  // want "use-after-free"
}

void double_delete(A* a) {
  delete a;
  delete a;  // want "double-free"
}

void free_then_read(int n) {
  int* p = (int*)malloc(n);
  free(p);
  int x = *p;  // want "use-after-free"
}

// Correct: reassigned after the free.
void reassigned(A* a) {
  delete a;
  a = new A();
  a->f = 2;
}

// Correct: only one branch frees, and it returns.
void branch_returns(A* a, bool done) {
  if (done) {
    delete a;
    return;
  }
  a->f = 3;
}

// One branch frees and falls through.
void branch_falls_through(A* a, bool done) {
  if (done) {
    delete a;
  }
  a->f = 3;  // want "use-after-free"
}

// Correct: a freed pointer compared or logged is not read.
void only_compared(A* a, A* b) {
  delete a;
  if (a == b) {
    log_pointer(a);
  }
}

void destroy(A* a) { delete a; }

void through_helper(A* a) {
  destroy(a);
  a->g();  // want "use-after-free"
}

void maybe_destroy(A* a, bool c) {
  if (c) delete a;
}

// Correct: the helper frees on one path only.
void through_maybe(A* a, bool c) {
  maybe_destroy(a, c);
  a->g();
}

void unique_get_after_reset() {
  std::unique_ptr<A> u = std::make_unique<A>();
  A* raw = u.get();
  u.reset();
  raw->f = 1;  // want "use-after-free"
}

void auto_unique_dies_in_block() {
  A* raw = nullptr;
  {
    auto u = std::make_unique<A>();
    raw = u.get();
  }
  raw->g();  // want "use-after-scope"
}

// Correct: release hands the object over.
A* released() {
  auto u = std::make_unique<A>();
  A* raw = u.release();
  raw->f = 1;
  return raw;
}

// Correct: moved into unknown code, which may keep it.
void moved_away(Registry& r) {
  auto u = std::make_unique<A>();
  A* raw = u.get();
  r.Add(std::move(u));
  raw->g();
}

void shared_last_copy() {
  A* raw;
  {
    std::shared_ptr<A> s = std::make_shared<A>();
    raw = s.get();
  }
  raw->g();  // want "use-after-scope"
}

// Correct: a copy outlives the block.
void shared_kept() {
  std::shared_ptr<A> keep;
  A* raw;
  {
    std::shared_ptr<A> s = std::make_shared<A>();
    keep = s;
    raw = s.get();
  }
  raw->g();
}

// Correct: a pointer known null on this path is not followed.
void null_checked(bool c) {
  A* a = nullptr;
  if (c) a = new A();
  if (a) {
    a->g();
    delete a;
  }
}

// Correct: after the swap the outer owner holds q.
int swapped(int* p, int* q) {
  int* a = new int(1);
  int* b = new int(2);
  {
    std::unique_ptr<int> x(a);
    {
      std::unique_ptr<int> y(b);
      x.swap(y);
    }
    return *b;
  }
}

// Correct: a static reference's temporary lives as long as the program.
static const A& static_ref() {
  static const A& s{1};
  return s;
}

// Correct: moved into a member container, the object outlives the call.
const A* attach(std::unique_ptr<A> a) {
  const A* raw = a.get();
  list_.push_back(std::move(a));
  return raw;
}

struct Buffer {
  ~Buffer();
  void Destroy();
  void Release();
  Allocator* allocator_;
  int size_;
};

void Buffer::Destroy() {
  this->~Buffer();
  allocator_->Deallocate(this, size_);  // want "use-after-free"
}

void Buffer::Release() {
  delete this;
  size_ = 0;  // want "use-after-free"
}

// Correct: what the destructor needs is read before it runs.
void Buffer_destroy_ok(Buffer* b) {
  Allocator* a = b->allocator_;
  b->~Buffer();
  a->Deallocate(b);
}

struct Plain { int n; void reset(); };

// Correct: Plain's destructor is implicit and does nothing here.
void Plain::reset() {
  this->~Plain();
  n = 0;
}

// Correct: placement new makes a new object there.
int revive(Buffer* b) {
  b->~Buffer();
  new (b) Buffer();
  return b->size_;
}

struct Ctx { void Destroy(); int state_; };

// Correct: a name that is no member of the class, after delete this.
int Ctx::Destroy() {
  delete this;
  return kStatusOk;
}

struct Holder { void Set(); std::unique_ptr<A> a_; A* raw_; };

// Correct: moved into a member, the object outlives the function.
void Holder::Set() {
  auto a = std::make_unique<A>();
  raw_ = a.get();
  a_ = std::move(a);
  raw_->g();
}

// Correct: moved into a closure that may outlive the function.
A* start(Loop& loop) {
  auto a = std::make_unique<A>();
  A* raw = a.get();
  loop.Post([a = std::move(a)]() { a->g(); });
  return raw;
}

// Correct: returned by value, the object goes to the caller.
std::unique_ptr<A> make_a(A** out) {
  auto a = std::make_unique<A>();
  *out = a.get();
  return a;
}

// Correct: a shared_ptr from a registry shares its object with it.
void from_registry(Registry& r) {
  A* raw;
  {
    std::shared_ptr<A> s = r.Find("a");
    raw = s.get();
  }
  raw->g();
}

// Correct: a shared_ptr parameter still owns its object after a local copy
// is re-pointed.
int repoint(std::shared_ptr<A> x) {
  std::shared_ptr<A> y = x;
  y = transform(y);
  return x->f;
}

// Correct: the loop runs as many times as the vector has elements, so the
// path that skips it cannot see one element.
void reduce(const std::vector<int>& dims, int n) {
  int* first = new int[n];
  int* src = first;
  bool owned = false;
  for (int i = 0; i < dims.size(); ++i) {
    int* next = new int[n];
    if (owned) delete[] src;
    src = next;
    owned = true;
  }
  if (owned || dims.size() == 1) {
    delete[] src;
  }
  delete[] first;
}

// The class is defined in another file: a name used as an object after
// the object destroyed itself is a member.
Remote::~Remote() { pool_.Release(); }

void Remote::Destroy() {
  this->~Remote();
  pool_.allocator->Free(this);  // want "use-after-free"
}

// Correct: a bare constant after delete this is no member.
int Remote::Close() {
  delete this;
  return kOk;
}

// A comparison whose call frees its argument runs the call once.
struct Slot {
  int v;
};
int release_and_check(Slot* c) {
  delete c;
  return 0;
}
void checked_release(Slot* c) {
  if (release_and_check(c) > 1) {
    return;
  }
}

// Correct: a shared_ptr assigned what an unseen call returns may share
// the object with owners there; returning a reference to it is not a
// reference to the frame.
#include <memory>
struct Tracker { int n; };
std::shared_ptr<Tracker> find_tracker(int key);
Tracker& acquire(int key) {
  std::shared_ptr<Tracker> t;
  t = find_tracker(key);
  return *t;
}

// A shared pointer made from a unique one owns the object, and a copy of
// it stored in a map keeps the object alive after the local ends; with no
// copy kept, the object ends with the local.
struct Card {
  std::string name;
};

class Deck {
 public:
  void Add(std::unique_ptr<Card> card) {
    const std::string& name = card->name;
    {
      std::shared_ptr<Card> shared = std::move(card);
      by_name_[name] = shared;
    }
    by_name_.find(name);
  }

 private:
  std::map<std::string, std::shared_ptr<Card>> by_name_;
};

size_t Dropped(std::unique_ptr<Card> card) {
  const std::string* p;
  {
    std::shared_ptr<Card> shared = std::move(card);
    p = &shared->name;
  }
  return p->size();  // want "use-after-scope"
}

// A unique_ptr named as an argument is passed by reference: a function
// holdfast cannot see may release it and keep the object, so the raw
// pointer taken before is not known to dangle. One the file defines says
// what it does: reading through it takes nothing.
struct Surface {
  int w;
};
void Retire(std::unique_ptr<Surface>& s);
int Width(const std::unique_ptr<Surface>& s) { return s->w; }

Surface* MakeRetired() {
  auto s = std::make_unique<Surface>();
  Surface* out = s.get();
  Retire(s);
  return out;
}

Surface* MakeMeasured() {
  auto s = std::make_unique<Surface>();
  Surface* out = s.get();
  Width(s);
  return out;  // want "returns-local"
}
