// What a callee in the tree does to its arguments reaches the caller's
// values: a function that frees a field frees what the field held when
// it was called; a pointer a call stored through &p is one object, which
// a later free ends; a method returning a reference to an element of a
// member vector lends its buffer, which the vector's growth replaces.
#include <cstdlib>
#include <vector>

void use(float);

struct Pool {
  float* base;
};

void pool_open(Pool* p, int n) { p->base = (float*)malloc(n * sizeof(float)); }
void pool_close(Pool* p) { free(p->base); }

// The field the caller freed is what the callee frees again.
void FreedThenClosed() {
  Pool pool;
  pool_open(&pool, 8);
  free(pool.base);
  pool_close(&pool);  // want "double-free"
}

void make_buffer(float** out, int n) { *out = (float*)malloc(n * sizeof(float)); }

void MadeThenFreed() {
  float* buf;
  make_buffer(&buf, 4);
  free(buf);
  use(buf[1]);  // want "use-after-free"
}

void MadeFreedRemade() {
  float* buf;
  make_buffer(&buf, 4);
  free(buf);
  make_buffer(&buf, 4);
  use(buf[1]);
  free(buf);
}

struct Sample {
  float v;
};

class Table {
 public:
  const Sample& Row(int i) const { return rows_[i]; }
  Sample& Last() { return rows_.back(); }
  void Append(Sample s) { rows_.push_back(s); }
  float Sum() const { return rows_.empty() ? 0.f : rows_[0].v; }

 private:
  std::vector<Sample> rows_;
};

void RowThenAppend(Table& t) {
  const Sample& r = t.Row(0);
  t.Append(Sample{1.f});
  use(r.v);  // want "use-after-free"
}

void LastThenAppend(Table* t) {
  Sample& r = t->Last();
  t->Append(Sample{2.f});
  use(r.v);  // want "use-after-free"
}

// Twins: a copy of the row, and a row read after the growth.
void RowCopied(Table& t) {
  Sample r = t.Row(0);
  t.Append(Sample{1.f});
  use(r.v);
}

void RowAfterAppend(Table& t) {
  t.Append(Sample{1.f});
  const Sample& r = t.Row(0);
  use(r.v + t.Sum());
}

// What an element of a vector of pointers points to is no part of the
// vector's buffer: its growth leaves it where it is.
class Shelf {
 public:
  Sample& At(int i) { return *items_[i]; }
  void Add(Sample* s) { items_.push_back(s); }

 private:
  std::vector<Sample*> items_;
};

void PointeeThenAdd(Shelf& sh) {
  Sample& r = sh.At(0);
  sh.Add(new Sample{3.f});
  use(r.v);
}

// A member's address (&a->x) names a subobject the core does not tell
// apart from a: each call frees the field of its own member.
struct Slot {
  float* ptr;
};
struct Slots {
  Slot x;
  Slot y;
};

static void release_slot(Slot* const s) { free(s->ptr); }

void ReleaseAll(Slots* const a) {
  release_slot(&a->x);
  release_slot(&a->y);
}
