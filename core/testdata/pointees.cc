// Pointers whose memory comes from elsewhere (a call's result, a field)
// still point to one object: freeing it through the pointer leaves the
// pointer and its copies dangling. A callee that reads what a pointer
// points to uses it.
#include <vector>
#include <cstdlib>

struct Node {
  Node* next;
  int* val;
  int f;
};
Node* find_node(int key);

int freed_result_bad() {
  Node* p = find_node(1);
  delete p;
  return p->f;  // want "use-after-free"
}

int freed_copy_bad(Node* head) {
  int* r = head->next->val;
  int* alias = r;
  free(r);
  return *alias;  // want "use-after-free"
}

// Correct: the pointer is given other memory before it is read again.
int reassigned_ok() {
  Node* p = find_node(1);
  delete p;
  p = find_node(2);
  return p->f;
}

void release_node(Node* n) { delete n; }
int read_node(Node* n) { return n->f; }
bool same_node(Node* a, Node* b) { return a == b; }
void close_node(Node* n) {
  n->f = 0;
  delete n;
}

int handed_to_reader_bad() {
  Node* p = find_node(1);
  release_node(p);
  return read_node(p);  // want "use-after-free"
}

// Correct: the callee compares the pointer and never reads through it.
bool handed_to_comparison_ok(Node* q) {
  Node* p = find_node(1);
  release_node(p);
  return same_node(p, q);
}

// Correct: the callee reads, then frees; nothing is read afterwards.
void reads_then_frees_ok() {
  Node* p = find_node(1);
  close_node(p);
}

// A function that frees the pointer stored where its argument points.
void clear_node(Node** slot) {
  delete *slot;
  *slot = nullptr;
}

int cleared_through_copy_bad(Node* a) {
  Node* b = a;
  clear_node(&a);
  return b->f;  // want "use-after-free"
}

// Correct: two different slots freed once each.
void clear_two_ok(Node** x, Node** y) {
  delete *x;
  delete *y;
}

// Correct: each iteration deletes another element's pointer.
struct Registry {
  std::vector<int*> items;
  ~Registry() {
    for (auto it = items.begin(); it != items.end(); ++it) {
      delete *it;
    }
  }
  void Clear() {
    for (std::vector<int*>::iterator it = items.begin(); it != items.end(); it++) delete *it;
    items.clear();
  }
};

// A pointer stored through a pointer to it (*slot = malloc(...)) is what
// later reads of *slot give: freeing it frees the new block, not the old.
void refill_ok(int** slot, bool fail) {
  free(*slot);
  *slot = (int*)malloc(sizeof(int));
  if (fail) {
    free(*slot);
    *slot = nullptr;
  }
}

void refill_twice_bad(int** slot) {
  free(*slot);
  free(*slot);  // want "double-free"
}
