// A pointer into the frame left where the caller reaches it.
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

struct Params {
  const float* data;
  int n;
  std::string name;
  const char* name_ptr;
};

void submit(Params* p);

void out_param(const char** out) {
  std::string s = "x";
  *out = s.c_str();  // want "returns-local"
}

void param_field(Params* p) {
  float local[4] = {0};
  p->data = local;  // want "returns-local"
}

void reference_field(Params& p) {
  std::vector<float> v(4);
  p.data = v.data();  // want "returns-local"
}

class Holder {
 public:
  void Set() {
    int x = 3;
    ptr_ = &x;  // want "returns-local"
  }
  void Scoped() {
    int x = 3;
    ptr_ = &x;
    Work();
    ptr_ = nullptr;
  }
  void Cleared() {
    int x = 3;
    ptr_ = &x;
    ptr_ = nullptr;
  }
  void Work();
  int* ptr_;
};

// Correct: copied into a string, a static, the caller's own memory,
// handed to a call that uses it before the return.
void copied(std::string* out) {
  std::string s = "x";
  *out = s.c_str();
}

void copied_field(Params* p) {
  char buf[8] = "x";
  p->name = buf;
}

void static_buffer(const char** out) {
  static char buf[8] = "x";
  *out = buf;
}

void callers_memory(Params* p, std::vector<float>& v) {
  p->data = v.data();
}

void submitted(Params* p) {
  float local[4] = {0};
  p->data = local;
  submit(p);
}

// Correct: a parameter of a template type may be a reference (T = U&).
template <typename T>
struct RefStorage {
  void Construct(T v) { value_ = &v; }
  typename std::remove_reference<T>::type* value_;
};

// Kept by the object: a pointer put into a member container, a lambda
// capturing a local by reference put into one or stored in a member.
class Registry {
 public:
  void Add() {
    int local = 3;
    regs_.push_back(&local);  // want "returns-local"
  }
  void AddThis() {
    std::string name = "x";
    this->views_.push_back(name.c_str());  // want "returns-local"
  }
  void Defer() {
    int counter = 0;
    work_.push_back([&] { counter++; });  // want "returns-local"
  }
  void DeferNamed() {
    int counter = 0;
    work_.emplace_back([&counter] { counter++; });  // want "returns-local"
  }
  void Hook() {
    bool done = false;
    hook_ = [&] { done = true; };  // want "returns-local"
  }

  // Correct: taken back before the return, used by a call, copied, not
  // the frame's, or kept in a local container.
  void AddCleared() {
    int local = 3;
    regs_.push_back(&local);
    regs_.clear();
  }
  void AddPopped() {
    int local = 3;
    regs_.push_back(&local);
    regs_.pop_back();
  }
  void AddFlushed() {
    int local = 3;
    regs_.push_back(&local);
    Flush();
  }
  void DeferByValue() {
    int counter = 0;
    work_.push_back([=]() mutable { counter++; });
  }
  void DeferMembers() {
    work_.push_back([&] { count_++; });
  }
  void AddHeap() {
    int* p = new int(3);
    regs_.push_back(p);
  }
  void AddParam(int* p) { regs_.push_back(p); }
  void AddLocalContainer() {
    int local = 3;
    std::vector<int*> mine;
    mine.push_back(&local);
  }
  void AddCopied() {
    std::string name = "x";
    names_.push_back(name.c_str());
  }
  void HookWaited() {
    bool done = false;
    hook_ = [&] { done = true; };
    while (!done) Poll();
  }
  void HookReplaced() {
    bool done = false;
    hook_ = [&] { done = true; };
    hook_ = nullptr;
  }
  void Flush();
  void Poll();

 private:
  std::vector<int*> regs_;
  std::vector<const char*> views_;
  std::vector<std::string> names_;
  std::vector<std::function<void()>> work_;
  std::function<void()> hook_;
  int count_ = 0;
};

// Kept by a static or a variable of the file: it outlives every call.
static std::vector<const int*> g_watch;
std::vector<std::function<void()>> g_tasks;
const char* g_name = nullptr;
std::vector<std::string> g_names;
void Run();

void watch_bad() {
  int level = 0;
  g_watch.push_back(&level);  // want "returns-local"
}

void later_bad() {
  int hits = 0;
  g_tasks.push_back([&] { hits++; });  // want "returns-local"
}

void name_bad() {
  std::string s = "x";
  g_name = s.c_str();  // want "returns-local"
}

void static_local_bad() {
  static std::vector<int*> seen;
  int v = 0;
  seen.push_back(&v);  // want "returns-local"
}

void static_pointer_bad() {
  static int* last;
  int v = 0;
  last = &v;  // want "returns-local"
}

// Correct: taken back, copied, hidden by a local, used by a call first.
void watch_cleared() {
  int level = 0;
  g_watch.push_back(&level);
  g_watch.clear();
}

void name_copied() {
  std::string s = "x";
  g_names.push_back(s.c_str());
}

void name_reset() {
  std::string s = "x";
  g_name = s.c_str();
  g_name = nullptr;
}

void shadowed() {
  std::vector<const int*> g_watch;
  int level = 0;
  g_watch.push_back(&level);
}

void watch_run() {
  int level = 0;
  g_watch.push_back(&level);
  Run();
  g_watch.pop_back();
}

// A pointer into a temporary stored where it outlives the statement.
std::string MakeName();

void temp_into_param_field_bad(Params* p) {
  p->name_ptr = MakeName().c_str();  // want "returns-local"
}

struct Named {
  const char* name_;
  void Set() { name_ = MakeName().c_str(); }  // want "returns-local"
  void SetThenCall() {
    name_ = MakeName().c_str();  // want "returns-local"
    Flush();
  }
  // Correct: from a string that lives on; replaced before the return.
  void SetStatic() {
    static std::string n = MakeName();
    name_ = n.c_str();
  }
  void SetReplaced() {
    name_ = MakeName().c_str();
    name_ = nullptr;
  }
  void Flush();
};

// A new string by value: a view of it dies with the statement.
void use_view(const char*);
void substr_view_bad(const std::string& s) {
  std::string_view v = s.substr(1);
  use_view(v.data());  // want "use-of-temporary"
}

void substr_kept_ok(const std::string& s) {
  std::string t = s.substr(1);
  std::string_view v = t;
  use_view(v.data());
}

// A closure capturing a local by reference, stored in an object of the
// caller's (a reference parameter, what a pointer parameter points to, or
// a field of either), is left holding the dead local.
struct Registry {
  std::function<void()> fn;
};

void OutCallback(std::function<int()>& cb) {
  int x = 3;
  cb = [&x] { return x; };  // want "returns-local"
}

void FieldCallback(Registry* r) {
  int x = 3;
  r->fn = [&x] { (void)x; };  // want "returns-local"
}

void ValueCallback(std::function<int()>& cb) {
  int x = 3;
  cb = [x] { return x; };
}

void ClearedCallback(std::function<int()>& cb) {
  int x = 3;
  cb = [&x] { return x; };
  cb = nullptr;
}

// An object returned by value is the caller's copy: a field or member that
// points into the frame dangles there.
struct Window {
  const float* data;
  int n;
};

Window FieldToLocal() {
  std::vector<float> buf(8);
  Window w;
  w.data = buf.data();
  w.n = 8;
  return w;  // want "returns-local"
}

Window BracedToLocal() {
  float arr[4] = {0, 0, 0, 0};
  Window w{arr, 4};
  return w;  // want "returns-local"
}

Window FieldToCaller(const std::vector<float>& in) {
  Window w;
  w.data = in.data();
  w.n = 8;
  return w;
}

// A class that copies what it points to when copied decides itself.
struct Owning {
  Owning(const float* d) : data(d) {}
  Owning(const Owning& o);
  const float* data;
};

Owning CopiesItself() {
  float arr[4] = {0, 0, 0, 0};
  Owning o(arr);
  return o;
}

// A method of the caller's object that keeps its argument (its code
// stores it in a member) keeps a pointer into the frame.
class Names {
 public:
  void Add(const char* n) { names_.push_back(n); }
  int Count() const;

 private:
  std::vector<const char*> names_;
};

void AddLocal(Names& names) {
  std::string n = "x";
  names.Add(n.c_str());  // want "returns-local"
}

void AddAndCount(Names& names) {
  std::string n = "x";
  names.Add(n.c_str());
  names.Count();
}

void AddLiteral(Names* names) {
  names->Add("x");
}

// Two constructors of one arity, defined outside the class: which one a
// call reaches depends on types holdfast does not read, so neither's
// keeping is taken of the call.
struct Tensor;
class Shape {
 public:
  Shape(int rank, std::vector<int>&& values);
  explicit Shape(Tensor& t, int depth = 0);

 private:
  int rank_;
  std::vector<int> values_;
  Tensor* tensor_ = nullptr;
};

Shape::Shape(int rank, std::vector<int>&& values) : rank_(rank), values_(std::move(values)) {}
Shape::Shape(Tensor& t, int depth) : rank_(depth), tensor_(&t) {}

Shape Ones(int rank) {
  Shape z(rank, std::vector<int>(1, 1));
  return z;
}

class View {
 public:
  explicit View(Tensor& t, int depth);

 private:
  Tensor* tensor_ = nullptr;
};

View::View(Tensor& t, int depth) : tensor_(&t) {}

Tensor& Make();

View Local(int depth) {
  Tensor& t = Make();
  View v(t, depth);
  return v;
}

struct Blob {
  int n;
};

class Handle {
 public:
  explicit Handle(Blob& b, int depth);

 private:
  Blob* blob_ = nullptr;
};

Handle::Handle(Blob& b, int depth) : blob_(&b) {}

Handle Wrap() {
  Blob b{1};
  Handle h(b, 0);
  return h;  // want "returns-local"
}

// A string field copies the characters it is given.
struct Trace {
  std::string function;
  const char* file;
};

Trace Resolve() {
  char name[256] = "f";
  Trace t;
  t.function = name;
  t.file = "";
  return t;
}

Trace ResolveKept() {
  char name[256] = "f";
  Trace t;
  t.function = "";
  t.file = name;
  return t;  // want "returns-local"
}

// C's typedef struct S {...} S; and typedef struct {...} T; name the class
// they define, so its fields are known.
typedef struct op_t op_t;
typedef struct op_list_t {
  op_t** values;
  int count;
} op_list_t;

static inline op_list_t ListFromOne(op_t* operation) {
  op_list_t list;
  list.values = &operation;
  list.count = 1;
  return list;  // want "returns-local"
}

typedef struct {
  const char* name;
  int id;
} entry_t;

entry_t MakeEntry(int id) {
  char buf[16] = "entry";
  entry_t e;
  e.name = buf;
  e.id = id;
  return e;  // want "returns-local"
}

entry_t NamedEntry(const char* name, int id) {
  entry_t e;
  e.name = name;
  e.id = id;
  return e;
}

// A container of pointers returned by value: the caller's copy holds
// pointers into the frame's vector.
std::vector<const float*> rows_of(int n) {
  std::vector<float> storage(n * 4);
  std::vector<const float*> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back(&storage[i * 4]);
  }
  return rows;  // want "returns-local"
}

// Correct: the pointers are into the caller's memory.
std::vector<const float*> rows_in(std::vector<float>& storage, int n) {
  std::vector<const float*> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back(&storage[i * 4]);
  }
  return rows;
}

// Correct: a container of values copies what it is given.
std::vector<float> firsts(int n) {
  std::vector<float> storage(n * 4);
  std::vector<float> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(storage[i * 4]);
  }
  return out;
}

// Correct: x *= k is x, which the caller refers to, whatever k is.
template <typename T>
T& scaled(T& x) {
  int k = 3;
  return x *= k;
}

// x += 1 on a local is the local.
int& bumped_local() {
  int y = 0;
  int& r = y;
  return r += 1;  // want "returns-local"
}

// A reference returned through std::enable_if_t ([meta.trans.other]: T).
template <typename T>
std::enable_if_t<std::is_class<T>::value, const T&> own_by_enable_if() {
  T r;
  return r;  // want "returns-local"
}

// Correct: the reference is to the caller's container's element.
template <typename T>
typename std::enable_if<std::is_class<T>::value, const T&>::type find_in(const std::map<int, std::unique_ptr<T>>& m, int k) {
  return *m.at(k);
}

// Correct: a member alias of a reference type is read as written, the
// same on both sides of a call: neither is taken for a temporary.
template <typename T>
struct Slots {
  using reference = T&;
  reference at(int i) { return items[i]; }
  reference first() { return at(0); }
  T items[4];
};

// Correct: a std::string returned by value copies the characters (an
// alias of the same name elsewhere names another type).
namespace legacy {
using String = const char*;
}
namespace text {
using String = std::string;
String name_of(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "%d", i);
  return buf;
}
}  // namespace text
