// Borrows from container elements, element owners, and moved-from owners.
#include <deque>
#include <memory>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

std::vector<std::string> find_paths(const char* dir);
void open_library(const char* path);

// A pointer into an element's own buffer dies with the container.
void element_c_str_after_block(bool search) {
  const char* path = nullptr;
  if (search) {
    std::vector<std::string> found = find_paths("/opt");
    path = found[0].c_str();
  }
  open_library(path);  // want "use-after-scope"
}

// Correct: the element is copied out before the container dies.
void element_copied_before_block(bool search) {
  std::string path;
  if (search) {
    std::vector<std::string> found = find_paths("/opt");
    path = found[0];
  }
  open_library(path.c_str());
}

struct Op {
  int seq;
};

// A reference to the front element dies when it is popped.
int front_then_pop(std::deque<Op>& pending) {
  Op& op = pending.front();
  pending.pop_front();
  return op.seq;  // want "use-after-invalidate"
}

// Correct: the field is read before the pop.
int front_read_then_pop(std::deque<Op>& pending) {
  Op& op = pending.front();
  int seq = op.seq;
  pending.pop_front();
  return seq;
}

// Correct: popping the back leaves the front element alone.
int front_then_pop_back(std::deque<Op>& pending) {
  Op& op = pending.front();
  pending.pop_back();
  return op.seq;
}

struct State {
  void advance();
};

// The object an element owns dies when the element is popped.
void top_get_then_pop(std::priority_queue<std::unique_ptr<State>>& q) {
  State* s = q.top().get();
  q.pop();
  s->advance();  // want "use-after-free"
}

// Correct: ownership leaves the element before it is popped.
void top_release_then_pop(std::vector<std::unique_ptr<State>>& v) {
  std::unique_ptr<State> s = std::move(v.back());
  v.pop_back();
  s->advance();
}

// Correct: growth moves the owners; the objects they own stay.
void element_object_survives_growth(std::vector<std::unique_ptr<State>>& v) {
  State* s = v[0].get();
  v.push_back(std::make_unique<State>());
  s->advance();
}

// A moved-from unique_ptr is null.
State* moved_then_get(std::vector<std::unique_ptr<State>>& store) {
  auto made = std::make_unique<State>();
  store.push_back(std::move(made));
  return made.get();  // want "use-after-move"
}

void moved_then_deref(std::vector<std::unique_ptr<State>>& store) {
  std::unique_ptr<State> made(new State());
  store.push_back(std::move(made));
  made->advance();  // want "use-after-move"
}

// Correct: the pointer is taken before the move.
State* get_then_moved(std::vector<std::unique_ptr<State>>& store) {
  auto made = std::make_unique<State>();
  State* raw = made.get();
  store.push_back(std::move(made));
  return raw;
}

// Correct: reassigned after the move.
void moved_then_reassigned(std::vector<std::unique_ptr<State>>& store) {
  auto made = std::make_unique<State>();
  store.push_back(std::move(made));
  made = std::make_unique<State>();
  made->advance();
}

std::string attr_name(int k);
const std::string& cached_name();

// A reference returned to a temporary that a call returned by value.
const std::string& name_of(int k) {
  return attr_name(k);  // want "returns-local"
}

// Correct: the callee returns a reference.
const std::string& name_cached() {
  return cached_name();
}

// Correct: the function returns by value.
std::string name_copy(int k) {
  return attr_name(k);
}

// A helper that returns a reference into the vector it is handed.
std::string& add_copy(std::vector<std::string>& copies, const std::string& s) {
  copies.push_back(s);
  return copies.back();
}

void two_copies(const std::string& a, const std::string& b) {
  std::vector<std::string> copies;
  std::string& ca = add_copy(copies, a);
  std::string& cb = add_copy(copies, b);
  open_library(ca.c_str());  // want "use-after-invalidate"
  open_library(cb.c_str());
}

// Correct: enough room is reserved for both.
void two_copies_reserved(const std::string& a, const std::string& b) {
  std::vector<std::string> copies;
  copies.reserve(2);
  std::string& ca = add_copy(copies, a);
  std::string& cb = add_copy(copies, b);
  open_library(ca.c_str());
  open_library(cb.c_str());
}

const char kDefaultLib[] = "libdefault.so";

// An auto local first given a constant, then a pointer into a container
// of the block.
void auto_then_element_c_str(bool search) {
  auto path = kDefaultLib;
  if (search) {
    std::vector<std::string> found = find_paths("/opt");
    if (!found.empty()) {
      path = found[0].c_str();
    }
  }
  open_library(path);  // want "use-after-scope"
}

template <typename T>
using StatePtrQueue = std::priority_queue<std::unique_ptr<T>>;
typedef std::deque<Op> OpQueue;

// Containers behind aliases are containers.
void alias_top_then_pop(StatePtrQueue<State>& q) {
  std::shared_ptr<State> s(q.top().get());
  q.pop();
  s->advance();  // want "use-after-free"
}

int alias_front_then_pop(OpQueue& pending) {
  Op& op = pending.front();
  pending.pop_front();
  return op.seq;  // want "use-after-invalidate"
}

bool refill(std::unique_ptr<State>& out);

// Correct: handed on as itself after the move, it may be given a new
// object there.
void moved_then_refilled(std::vector<std::unique_ptr<State>>& store) {
  auto made = std::make_unique<State>();
  store.push_back(std::move(made));
  if (!refill(made)) {
    return;
  }
  made->advance();
}

struct Text {
  Text operator=(const Text& other);
  Text& assign(const Text& other) {
    return operator=(other);
  }
};

// A container of views holds what the views it is given look at: a
// string's or container's buffer.
void take_views(const std::vector<std::string_view>&);

void views_of_a_dead_string_bad() {
  std::vector<std::string_view> names;
  {
    std::string name = "abc";
    names.push_back(name);
  }
  take_views(names);  // want "use-after-scope"
}

// Correct: the string outlives the container's use.
void views_of_a_live_string_ok() {
  std::vector<std::string_view> names;
  std::string name = "abc";
  names.push_back(name);
  take_views(names);
}

struct Counter {
  int n;
};

void FieldAfterMove(std::vector<std::shared_ptr<Counter>>& all) {
  auto c = std::make_shared<Counter>();
  all.push_back(std::move(c));
  c->n = 1;  // want "use-after-move"
}
