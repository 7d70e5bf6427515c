// Container storage replaced under a pointer, reference or iterator.
#include <functional>
#include <vector>
#include <string>

void ref_then_push(std::vector<int>& v) {
  int& first = v[0];
  v.push_back(1);
  first = 2;  // want "use-after-invalidate"
}

void back_then_emplace() {
  std::vector<std::string> names = load();
  const std::string& last = names.back();
  names.emplace_back("x");
  print(last);  // want "use-after-invalidate"
}

void iterator_then_clear(std::vector<int> v) {
  auto it = v.begin();
  v.clear();
  int x = *it;  // want "use-after-invalidate"
}

void c_str_then_assign(std::string s) {
  const char* p = s.c_str();
  s = "other";
  puts(p);  // want "use-after-invalidate"
}

// Correct: the reference is taken after the growth.
void ref_after_push(std::vector<int>& v) {
  v.push_back(1);
  int& last = v.back();
  last = 2;
}

// Correct: a copy of the element, not a reference.
void copy_then_push(std::vector<int>& v) {
  int first = v[0];
  v.push_back(1);
  consume(first);
}

// Correct: a reference to the container itself follows it.
void alias_push(std::vector<int>& v) {
  std::vector<int>& w = v;
  w.push_back(1);
  int* p = v.data();
  consume(p);
}

void range_for_push(std::vector<int>& v) {
  for (int& x : v) {
    if (x == 0) v.push_back(1);
    x = 1;  // want "use-after-invalidate"
  }
}

// std::list::erase ends the element its iterator names.
#include <list>
struct Node { bool dead; };
void list_erase_in_loop(std::list<Node*>& l) {
  for (auto it = l.begin(); it != l.end(); ++it) {  // want "use-after-invalidate"
    if ((*it)->dead) l.erase(it);
  }
}

// Correct: the iterator erase returns, or one taken before the erase.
void list_erase_returned(std::list<Node*>& l) {
  for (auto it = l.begin(); it != l.end();) {
    if ((*it)->dead) it = l.erase(it); else ++it;
  }
}

void list_erase_post_increment(std::list<Node*>& l) {
  for (auto it = l.begin(); it != l.end();) {
    if ((*it)->dead) l.erase(it++); else ++it;
  }
}

void list_erase_then_break(std::list<Node*>& l) {
  for (auto it = l.begin(); it != l.end(); ++it) {
    if ((*it)->dead) { l.erase(it); break; }
  }
}

// A pointer parameter to a container: what it points to is a container of
// the caller's, and its own methods replace its buffer.
void pointer_param_bad(std::vector<int>* vec) {
  int* elt = &vec->at(1);
  vec->push_back(42);
  *elt = 3;  // want "use-after-invalidate"
}

void pointer_param_deref_bad(std::vector<float>* vec) {
  float* d = &(*vec)[0];
  vec->resize(100);
  d[0] = 1;  // want "use-after-invalidate"
}

// Correct: the pointer taken after the growth; the pointer parameter
// pointed elsewhere before the growth.
void pointer_param_after_ok(std::vector<int>* vec) {
  vec->push_back(42);
  int* elt = &vec->at(1);
  *elt = 3;
}

void pointer_param_repointed_ok(std::vector<int>* vec, std::vector<int>* other) {
  int* elt = &vec->at(1);
  vec = other;
  vec->push_back(42);
  *elt = 3;
}

// A callee that grows the container a pointer argument points to.
static void Fill(std::vector<int>* out) { out->push_back(1); }

int callee_grows_bad() {
  std::vector<int> v(4);
  int* p = &v[0];
  Fill(&v);
  return *p;  // want "use-after-invalidate"
}

int callee_grows_first_ok() {
  std::vector<int> v(4);
  Fill(&v);
  int* p = &v[0];
  return *p;
}

// A range-based for loop keeps an iterator from its start: growing the
// container in the body leaves it in the old buffer.
void range_for_grows_bad(std::vector<int>& v) {
  for (int x : v) {  // want "use-after-invalidate"
    if (x > 0) v.push_back(x);
  }
}

// Correct: grown after the loop, or the loop left right after.
void range_for_grows_after_ok(std::vector<int>& v) {
  for (int& x : v) x++;
  v.push_back(1);
}

void range_for_grows_then_breaks_ok(std::vector<int>& v) {
  for (int x : v) {
    if (x > 0) {
      v.push_back(x);
      break;
    }
  }
}

// A reserve of a known count in an empty vector leaves room for that many
// insertions ([vector.capacity]); one more reallocates and moves the
// elements that references point to.
struct Item {
  int v;
};
void Encode(const Item& a, const Item& b);
void Encode(const Item& a, const Item& b, const Item& c);

void ReserveOutgrown(bool third) {
  std::vector<Item> items;
  items.reserve(2);
  items.push_back(Item{1});
  const Item& a = items.back();
  items.push_back(Item{2});
  const Item& b = items.back();
  if (third) {
    items.push_back(Item{3});
    Encode(a, b, items.back());  // want "use-after-invalidate"
  } else {
    Encode(a, b);
  }
}

void ReserveEnough() {
  std::vector<Item> items;
  items.reserve(3);
  items.push_back(Item{1});
  const Item& a = items.back();
  items.push_back(Item{2});
  items.push_back(Item{3});
  Encode(a, items.back());
}

// Not empty when reserved: the count, and so the room, is not known.
void ReserveAfterFill(std::vector<Item> items) {
  items.reserve(2);
  items.push_back(Item{1});
  const Item& a = items.back();
  items.push_back(Item{2});
  items.push_back(Item{3});
  Encode(a, items.back());
}

// Shrinking by resize(size() - k) erases the last elements and keeps the
// buffer; a resize to any other size may grow it.
void trim_digits(std::string word) {
  for (char* p = &word[0] + word.length() - 1; p >= word.data() && *p == '0'; --p) {
    word.resize(word.length() - 1);
  }
}

void drop_last(std::vector<int> v, int k) {
  int* first = v.data();
  v.resize(v.size() - k);
  *first = 1;
}

void resize_other(std::vector<int> v, std::vector<int> w) {
  int* first = v.data();
  v.resize(w.size() - 1);
  *first = 1;  // want "use-after-invalidate"
}

// An iterator declared by its member type (std::vector<T>::iterator) is an
// iterator, not a vector: growth invalidates it, and what it points to is
// the container's element, not a local of the function.
struct Slot {
  int refs;
};
bool idle(Slot* s);

void iterator_typed_then_push(std::vector<int> v) {
  std::vector<int>::iterator it = v.begin();
  v.push_back(1);
  int x = *it;  // want "use-after-invalidate"
}

class Slots {
 public:
  Slot* FirstIdle() {
    std::vector<Slot>::iterator slot = slots_.begin();
    for (; slot != slots_.end(); slot++) {
      if (idle(&slot[0])) {
        return &slot[0];
      }
    }
    return 0;
  }

 private:
  std::vector<Slot> slots_;
};

// vector::erase invalidates what lies at or after the point of the erase
// ([vector.modifiers]): the iterator erased (unless given the result),
// the base of a reverse iterator erased through, the back, everything
// when the point is the first element. What lies before stays.
void erase_discarded(std::vector<int> v) {
  for (std::vector<int>::iterator it = v.begin(); it != v.end(); ++it) {  // want "use-after-invalidate"
    if (*it < 0) {
      v.erase(it);
    }
  }
}

void erase_taken(std::vector<int> v) {
  for (std::vector<int>::iterator it = v.begin(); it != v.end();) {
    if (*it < 0) {
      it = v.erase(it);
    } else {
      ++it;
    }
  }
}

void erase_reverse(std::vector<int> v) {
  for (auto r = v.rbegin(); r != v.rend(); ++r) {  // want "use-after-invalidate"
    if (*r < 0) {
      v.erase(std::next(r).base());
    }
  }
}

void erase_front(std::vector<int> v) {
  std::vector<int>::iterator it = v.begin() + 1;
  v.erase(v.begin());
  int x = *it;  // want "use-after-invalidate"
}

void erase_then_back(std::vector<int> v) {
  int& last = v.back();
  v.erase(v.begin() + 1);
  last = 1;  // want "use-after-invalidate"
}

void erase_after(std::vector<int> v) {
  std::vector<int>::iterator a = v.begin();
  std::vector<int>::iterator b = a + 1;
  b = v.erase(b);
  *a *= 2;
}

void erase_later_index(std::vector<int> v) {
  for (unsigned i = 0; i < v.size(); ++i) {
    int& keep = v[i];
    for (unsigned j = i + 1; j < v.size(); ++j) {
      if (keep == v[j]) {
        v.erase(v.begin() + j);
        --j;
      }
    }
  }
}

// A reference bound through an element that is a reference_wrapper (a
// view) refers to what the element views, not to the element: popping
// the element leaves it. A wrapper taken as itself is the element.
struct Tree {
  std::vector<Tree*> kids;
};
void Visit(const Tree& t);

void WalkViews(const Tree& root) {
  std::vector<std::reference_wrapper<const Tree>> pending;
  pending.emplace_back(root);
  while (!pending.empty()) {
    const Tree& cur = pending.back();
    pending.pop_back();
    Visit(cur);
    for (const Tree* k : cur.kids) pending.emplace_back(*k);
  }
}

void WalkWrappers(const Tree& root) {
  std::vector<std::reference_wrapper<const Tree>> pending;
  pending.emplace_back(root);
  const std::reference_wrapper<const Tree>& cur = pending.back();
  pending.pop_back();
  Visit(cur.get());  // want "use-after-invalidate"
}

// it = drop ? c.erase(it) : ++it; runs one arm or the other: the
// increment is never of the erased iterator. A reference to the back is
// still left dangling on the arm that erases.
struct Entry {
  int key;
};

void KeepMatching(std::vector<Entry>& entries, int key) {
  for (auto it = entries.begin(); it != entries.end();) {
    bool drop = it->key != key;
    it = drop ? entries.erase(it) : ++it;
  }
}

int KeepLast(std::vector<Entry>& entries, bool drop) {
  auto it = entries.begin() + 1;
  Entry& last = entries.back();
  it = drop ? entries.erase(it) : ++it;
  return last.key;  // want "use-after-invalidate"
}

// A closure is run at each call on every path the calls before it left:
// the fourth call's push_back outgrows the reserved three and leaves the
// references the first calls returned dangling, however many runs the
// calls on the other arm took.
struct Tile {
  int w;
  bool dense() const;
  Tile packed() const;
};
void consume(const Tile& a, const Tile& b);

void Stage(const std::vector<Tile>& in, bool small) {
  std::vector<Tile> kept;
  kept.reserve(3);
  auto pack_unless = [&kept](const Tile& t) -> const Tile& {
    if (!t.dense()) {
      kept.push_back(t.packed());
      return kept.back();
    } else {
      return t;
    }
  };
  if (small) {
    const Tile& a = pack_unless(in[0]);
    const Tile& b = pack_unless(in[1]);
    const Tile& c = pack_unless(in[2]);
    consume(a, b);
    consume(b, c);
  } else {
    const Tile& a = pack_unless(in[0]);
    const Tile& b = pack_unless(in[1]);
    const Tile& c = pack_unless(in[2]);
    pack_unless(in[3]);
    consume(a, c);  // want "use-after-invalidate"
  }
}
