// A destructor that hands a member to a function called by name gives
// the member up only when that function may: one whose definition frees
// or keeps its argument does, one that only reads through it (an unlock)
// does not.
#include <cstdlib>
#include <mutex>

struct Section { int kind; std::mutex mtx; };
typedef void* SECTION;

void Enter(SECTION* s) { Section* c = (Section*)*s; c->mtx.lock(); }
void Leave(SECTION* s) { Section* c = (Section*)*s; c->mtx.unlock(); }
void Quiet(SECTION* s) { (void)s; }

class Guard {
 public:
  Guard(SECTION& s) { s_ = &s; Enter(s_); }
  ~Guard() { Leave(s_); }
 private:
  SECTION* s_;
};

class QuietGuard {
 public:
  QuietGuard(SECTION& s) { s_ = &s; }
  ~QuietGuard() { Quiet(s_); }
 private:
  SECTION* s_;
};

struct Context { SECTION cs; int flags; int live; };

int Register(Context* ctx) {
  {
    Guard g(ctx->cs);
    ctx->live++;
  }
  if (ctx->flags & 1) return 1;  // the guard only unlocked: ctx is live
  {
    QuietGuard q(ctx->cs);
  }
  return ctx->flags;
}

// A destructor that hands its member to a function that frees it: the
// object owns what the member points to.
struct Blob { char* bytes; int n; };
void Drop(Blob* b) { free(b->bytes); free(b); }

class BlobHolder {
 public:
  BlobHolder(Blob* b) { b_ = b; }
  ~BlobHolder() { Drop(b_); }
 private:
  Blob* b_;
};

int Consume(Blob* b) {
  {
    BlobHolder h(b);
  }
  return b->n;  // want "use-after-free"
}

// One that puts it on a free list keeps it: given up to a pool.
Blob* pool[8];
int npool;
void Recycle(Blob* b) { pool[npool++] = b; }

class Lease {
 public:
  Lease(Blob* b) { b_ = b; }
  ~Lease() { Recycle(b_); }
 private:
  Blob* b_;
};

int Borrow(Blob* b) {
  {
    Lease l(b);
  }
  return b->n;  // want "use-after-free"
}
