// Classes whose objects own memory: the destructor hands a member away,
// or a member is of an owning type; methods that return a pointer into
// that memory lend it for as long as the object lives.
#include <memory>
#include <vector>

void* ArenaAlloc(unsigned long n);
void ArenaFree(void* p);
void Launch(void* scratch);

class ScopedAlloc {
 public:
  explicit ScopedAlloc(unsigned long n) : p_(ArenaAlloc(n)) {}
  ~ScopedAlloc() { ArenaFree(p_); }
  void* get() const { return p_; }
  unsigned long size() const { return n_; }

 private:
  void* p_;
  unsigned long n_;
};

class Buffer {
 public:
  float* data() { return storage_.data(); }
  float* first() { return &storage_[0]; }

 private:
  std::vector<float> storage_;
};

class Typed {
 public:
  ~Typed() { delete[] raw_; }
  float* floats() { return reinterpret_cast<float*>(raw_); }
  int* ints() { return (int*)raw_; }

 private:
  char* raw_;
};

float TypedDies() {
  float* f = nullptr;
  {
    Typed t;
    f = t.floats();
  }
  return f[0];  // want "use-after-scope"
}

class View {
 public:
  float* data() { return p_; }

 private:
  float* p_;  // not owned: nothing hands it away
};

void ScopedDies(unsigned long n, bool big) {
  void* scratch = nullptr;
  if (big) {
    ScopedAlloc tmp(n);
    scratch = tmp.get();
  }
  Launch(scratch);  // want "use-after-scope"
}

void ScopedLives(unsigned long n) {
  ScopedAlloc tmp(n);
  void* scratch = tmp.get();
  Launch(scratch);
}

float* BufferOfLocal() {
  Buffer b;
  return b.data();  // want "returns-local"
}

void HeapBufferFreed() {
  auto b = std::make_unique<Buffer>();
  float* p = b->first();
  b.reset();
  p[0] = 1.0f;  // want "use-after-free"
}

float* ViewOfLocal() {
  View v;
  return v.data();
}

float* NextBuffer();
void Submit(const std::vector<float*>& parts);

void GatherDies(int n) {
  std::vector<float*> parts;
  for (int i = 0; i < n; ++i) {
    auto h = std::make_unique<Buffer>();
    parts.push_back(h->data());
  }
  Submit(parts);  // want "use-after-scope"
}

void GatherLives(int n) {
  std::vector<std::unique_ptr<Buffer>> held;
  std::vector<float*> parts;
  for (int i = 0; i < n; ++i) {
    held.push_back(std::make_unique<Buffer>());
    parts.push_back(held.back()->data());
  }
  Submit(parts);
}

void GatherCleared(int n) {
  std::vector<float*> parts;
  for (int i = 0; i < n; ++i) {
    Buffer b;
    parts.push_back(b.data());
    Submit(parts);
    parts.clear();
  }
  Submit(parts);
}

class Matrix {
 public:
  ~Matrix() { Release(); }
  void Release() { free(data_); }
  void Resize(int n) {
    free(data_);
    data_ = (float*)malloc(n * sizeof(float));
  }
  void Fill(float v) { memset(data_, 0, sizeof(float)); }
  float* data() { return data_; }

 private:
  float* data_;
};

float ResizeLeavesStale(Matrix& m, int n) {
  float* p = m.data();
  m.Resize(n);
  return p[0];  // want "use-after-free"
}

float FillKeeps(Matrix& m) {
  float* p = m.data();
  m.Fill(0.0f);
  return p[0];
}

float ResizeThenAsk(Matrix& m, int n) {
  m.Resize(n);
  float* p = m.data();
  return p[0];
}

void* DestructorCallsRelease(bool c) {
  float* p = nullptr;
  {
    Matrix m;
    p = m.data();
  }
  return p;  // want "use-after-scope"
}

class Grid {
 public:
  void Grow(int n) {
    float* old = cells();
    Reallocate(n);
    old[0] = 0.0f;  // want "use-after-free"
  }
  void GrowSafely(int n) {
    Reallocate(n);
    float* fresh = cells();
    fresh[0] = 0.0f;
  }
  void Reallocate(int n) {
    delete[] cells_;
    cells_ = new float[n];
  }
  float* cells() { return cells_; }
  ~Grid() { delete[] cells_; }

 private:
  float* cells_;
};

#include <unordered_set>

class Subgraph {
 public:
  const std::unordered_set<int>& nodes() const { return nodes_; }
  void addEdge(int e) { edges_.insert(e); }
  const float* weights() const { return weights_.data(); }
  void addWeight(float w) { weights_.push_back(w); }
  std::vector<float> weightsCopy() const { return weights_; }

 private:
  std::unordered_set<int> nodes_;
  std::unordered_set<int> edges_;
  std::vector<float> weights_;
};

int OtherMemberGrows(Subgraph& g) {
  const auto& ns = g.nodes();
  int n = 0;
  for (int v : ns) {
    g.addEdge(v);
    n += static_cast<int>(ns.size());
  }
  return n;
}

float BufferReplaced(Subgraph& g) {
  const float* w = g.weights();
  g.addWeight(1.0f);
  return w[0];  // want "use-after-free"
}

float CopyUnaffected(Subgraph& g) {
  std::vector<float> w = g.weightsCopy();
  g.addWeight(1.0f);
  return w[0];
}

void Consume(const std::vector<long>& shape);

void RangeInsertCopies(int n) {
  std::vector<long> shape;
  {
    std::unique_ptr<long[]> copy = std::make_unique<long[]>(n);
    shape.insert(shape.end(), copy.get(), copy.get() + n);
  }
  Consume(shape);
}
