// A copy of a local object carries its pointer fields: put in a
// container, assigned to a member or to what a parameter points to, the
// copy points where the local's fields point. A field set to the address
// of a local leaves the copy dangling when that local ends.
#include <vector>

struct Extent {
  int offset;
  int size;
};

struct Request {
  int id;
  const Extent* extent;
};

struct Labelled {
  int id;
  const Extent* extent;
  Labelled() = default;
  Labelled(const Labelled& o) : id(o.id), extent(nullptr) {}
};

void submit(int n, const Request* requests);

void describe_in_loop_bad(int count) {
  std::vector<Request> requests;
  for (int i = 0; i < count; i++) {
    Extent e{i, 16};
    Request r{};
    r.id = i;
    r.extent = &e;
    requests.push_back(r);
  }
  submit(requests.size(), requests.data());  // want "use-after-scope"
}

void describe_in_loop_good(int count) {
  std::vector<Request> requests;
  std::vector<Extent> extents(count);
  for (int i = 0; i < count; i++) {
    extents[i] = Extent{i, 16};
    Request r{};
    r.id = i;
    r.extent = &extents[i];
    requests.push_back(r);
  }
  submit(requests.size(), requests.data());
}

void describe_each_now_good(int count) {
  for (int i = 0; i < count; i++) {
    Extent e{i, 16};
    Request r{};
    r.extent = &e;
    submit(1, &r);
  }
}

void braced_in_loop_bad(int count) {
  std::vector<Request> requests;
  for (int i = 0; i < count; i++) {
    Extent e{i, 16};
    Request r{i, &e};
    requests.push_back(r);
  }
  submit(requests.size(), requests.data());  // want "use-after-scope"
}

void own_copy_good(int count) {
  std::vector<Labelled> all;
  for (int i = 0; i < count; i++) {
    Extent e{i, 16};
    Labelled l;
    l.extent = &e;
    all.push_back(l);
  }
}

class Queue {
 public:
  void defer();
  void deferred_value();
  void remember();

 private:
  std::vector<Request> pending_;
  std::vector<int> sizes_;
  Request last_;
};

void Queue::defer() {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  pending_.push_back(r);  // want "returns-local"
}

void Queue::deferred_value() {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  sizes_.push_back(r.extent->size);
}

void Queue::remember() {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  last_ = r;  // want "returns-local"
}

void fill(std::vector<Request>& out) {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  out.push_back(r);  // want "returns-local"
}

void assign_out(Request* out) {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  *out = r;  // want "returns-local"
}

void assign_ref(Request& out) {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  out = r;  // want "returns-local"
}

void assign_out_cleared_good(Request* out) {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  r.extent = nullptr;
  *out = r;
}

// A method that keeps a copy of the object a reference parameter names:
// the caller's object keeps what that object's pointer fields point to.
class Poster {
 public:
  void post(const Request& r) { queued_.push_back(r); }
  void post_size(const Request& r) { sizes_.push_back(r.id); }
  void set(const Request& r) { current_ = r; }
  int size() const { return current_.extent->size; }

 private:
  std::vector<Request> queued_;
  std::vector<int> sizes_;
  Request current_;
};

void post_through_bad(Poster& p) {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  p.post(r);  // want "returns-local"
}

void set_through_bad(Poster& p) {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  p.set(r);  // want "returns-local"
}

void post_size_good(Poster& p) {
  Extent e{0, 16};
  Request r{};
  r.extent = &e;
  p.post_size(r);
}

void post_heap_extent_good(Poster& p, const Extent* shared) {
  Request r{};
  r.extent = shared;
  p.post(r);
}

// A class whose definition is not seen: a field set to the address of a
// local object can only be a pointer; one set from a character array may
// be a string that copies it.
struct ExternalWrite;
struct ExternalInfo;
void update_all(const std::vector<ExternalWrite>& writes);

void external_struct_bad(std::vector<ExternalWrite>& out) {
  Extent e{0, 16};
  ExternalWrite w;
  w.extent = &e;
  out.push_back(w);  // want "returns-local"
}

void external_array_good(std::vector<ExternalInfo>& out) {
  char name[64] = "x";
  ExternalInfo info;
  info.name = name;
  out.push_back(info);
}

// What a constructor made a member keep travels with a copy only when
// the member is a pointer, a view or a reference: a string member owns a
// buffer of its own, which the copy copies.
#include <string>
#include <utility>

struct Term {
  Term(std::string s, const char* n) : str(std::move(s)), name(n) {}
  std::string str;
  const char* name;
};

struct CharSet {
  int bits;
};

struct Subscript {
  Subscript(std::string str, CharSet set) : str(std::move(str)), set(std::move(set)) {}
  std::string str;
  CharSet set;
};

int cost(const std::vector<Subscript>& inputs);

int subscripts_good(std::vector<Subscript> inputs, int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    total += cost(inputs);
    std::string out(inputs[0].str.begin(), inputs[0].str.end());
    Subscript next(std::move(out), CharSet{1});
    inputs.push_back(std::move(next));
  }
  return total;
}

void terms_bad(std::vector<Term>& out) {
  std::string label = "ab";
  Term t(std::string("x"), label.c_str());
  out.push_back(std::move(t));  // want "returns-local"
}
