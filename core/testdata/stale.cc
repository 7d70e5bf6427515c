// Pointer members the class sets from memory another member owns, left
// pointing at the old memory when a method gives that member new memory.
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>
#include <cstdint>

struct Mem { void* data(); };

template <typename T>
class Matrix {
 public:
  Matrix(uint32_t m, uint32_t n) : m_rows{m} {
    m_alloc = std::make_shared<Mem>();
    m_data = (T*)m_alloc->data();
  }
  explicit Matrix(T* data) : m_data{data} {}
  void set_size(uint32_t r) { m_rows = r; }
  void resize(uint32_t r) {
    if (m_alloc) {
      m_alloc.reset();
      m_alloc = std::make_shared<Mem>();  // want "left-stale"
    } else {
      throw std::runtime_error{"not owned"};
    }
    set_size(r);
  }
  // Correct: the pointer is set again.
  void resize_ok(uint32_t r) {
    m_alloc = std::make_shared<Mem>();
    m_data = (T*)m_alloc->data();
    set_size(r);
  }
  // Correct: a method whose code is not known runs after, and may set it.
  void resize_unknown(uint32_t r) {
    m_alloc = std::make_shared<Mem>();
    refresh();
  }
  // Correct: emptied, not given new memory (the object owns nothing).
  void release() { m_alloc.reset(); }
  // Correct: the pointer is handed to a call that may set it.
  void swap_with(Matrix& other) {
    std::swap(m_alloc, other.m_alloc);
    std::swap(m_data, other.m_data);
  }
  // Correct: the path that gives new memory throws.
  void fail() {
    m_alloc = std::make_shared<Mem>();
    throw std::runtime_error{"no"};
  }
  void refresh();

 private:
  T* m_data = nullptr;
  uint32_t m_rows = 0;
  std::shared_ptr<Mem> m_alloc;
};

class Buf {
  std::vector<float> store_;
  float* ptr_;
  std::unique_ptr<char[]> raw_;
  char* cur_ = nullptr;

 public:
  Buf() : ptr_(store_.data()) {}
  void grow(int n) { store_.resize(n); }  // want "left-stale"
  void grow_ok(int n) {
    store_.resize(n);
    ptr_ = store_.data();
  }
  // Correct: clearing keeps the buffer.
  void clear() { store_.clear(); }
  void take(int n) {
    raw_.reset(new char[n]);  // want "left-stale"
  }
  void rebind() { cur_ = raw_.get() + 8; }
  // Correct: a method of the object that sets the pointer runs after.
  void take_ok(int n) {
    raw_.reset(new char[n]);
    rebind();
  }
  float first() const { return ptr_[0]; }
};

void Register(class Pool* p);
class Pool {
  std::vector<int> slots_;
  int* head_ = nullptr;

 public:
  void Init() { head_ = slots_.data(); }
  void Publish() { Register(this); }
  // Correct: a method that hands the object to a call may set anything.
  void Refill(int n) {
    slots_.resize(n);
    Publish();
  }
};

std::vector<char> ReadAll(const char* path);
class Reader {
  std::vector<char> data_;
  char* cur_ = nullptr;

 public:
  // Correct: the path that leaves cur_ behind reports failure.
  bool Open(const char* path) {
    data_ = ReadAll(path);
    if (data_.empty()) {
      return false;
    }
    cur_ = &data_[0];
    return true;
  }
  bool Reload(const char* path) {
    data_ = ReadAll(path);  // want "left-stale"
    return true;
  }
};

// A method that only observes the owner (root.get(), root->items) does
// not give it new memory: walking the tree from it leaves the cursor set.
struct TreeNode {
  std::vector<std::unique_ptr<TreeNode>> items;
};
void show(const TreeNode* n);

class Tree {
 public:
  Tree() {
    root = std::make_unique<TreeNode>();
    cursor = root.get();
  }
  void walk(TreeNode* node, int depth);
  void walk() {
    show(nullptr);
    walk(root.get(), 0);
    prune();
  }
  void report() { walk(); }
  void prune() { root->items.clear(); }
  // A method that does give the owner new memory leaves the cursor stale.
  void regrow() { renew(); }  // want "left-stale"
  void renew() { root.reset(new TreeNode()); }  // want "left-stale"

 private:
  std::unique_ptr<TreeNode> root;
  TreeNode* cursor;
};

void Tree::walk(TreeNode* node, int depth) {
  show(node);
  for (auto& it : node->items) {
    walk(it.get(), depth + 1);
  }
}
