// A handle whose own copy gives the copy the source's pointer (m(o.m),
// m = o.m) while its destructor releases what the pointer points to
// counts its copies: a copy put in a container or a member keeps the
// memory alive past the local. A handle whose copy makes its own copy
// of the memory does not, nor does a handle never copied.
#include <vector>

struct Counted {
  int refs = 0;
  void retain() { refs++; }
  void release() {
    if (--refs == 0) delete this;
  }
};
inline void retain(Counted* c) { if (c) c->retain(); }
inline void release(Counted* c) { if (c) c->release(); }

template <typename T>
struct Ref {
  Ref() : ptr(nullptr) {}
  Ref(T* p) : ptr(p) { retain(p); }
  Ref(const Ref<T>& o) : ptr(o.ptr) { retain(ptr); }
  void operator=(const Ref<T>& o) {
    T* old = ptr;
    retain(o.ptr);
    ptr = o.ptr;
    release(old);
  }
  ~Ref() {
    if (ptr && --ptr->refs == 0) delete ptr;
  }
  T* get() const { return ptr; }

 private:
  T* ptr;
};

struct Node : Counted {
  int size = 0;
};

template <typename K, typename V>
struct Table {
  V& operator[](const K& k);
  bool tryGetValue(const K& k, V& out);
};

struct Cache {
  Table<int, Ref<Node>> nodes;
  std::vector<Ref<Node>> all;

  Node* KeptInTable(int size) {
    Ref<Node> node = new Node();
    nodes[size] = node;
    return node.get();
  }

  Node* KeptInVector() {
    Ref<Node> node = new Node();
    all.push_back(node);
    return node.get();
  }

  Node* Found(int size) {
    Ref<Node> node;
    if (nodes.tryGetValue(size, node)) return node.get();
    return nullptr;
  }

  Node* NeverCopied() {
    Ref<Node> node = new Node();
    return node.get();  // want "returns-local"
  }
};

struct Box {
  Box(Node* n) : node(n) {}
  Box(const Box& o) : node(new Node(*o.node)) {}
  ~Box() { delete node; }
  Node* get() const { return node; }

 private:
  Node* node;
};

struct Boxes {
  std::vector<Box> all;
  Node* DeepCopied() {
    Box box(new Node());
    all.push_back(box);
    return box.get();  // want "returns-local"
  }
};
