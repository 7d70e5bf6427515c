// Locals and what they own, used after their scope; returned.
#include <string>
#include <vector>

int escape_loop(int n) {
  int* last = nullptr;
  for (int i = 0; i < n; i++) {
    int x = i;
    last = &x;
  }
  return *last;  // want "use-after-scope"
}

int* returns_address() {
  int x = 0;
  return &x;  // want "returns-local"
}

const char* returns_c_str() {
  std::string s = "abc";
  return s.c_str();  // want "returns-local"
}

float* returns_data(std::vector<float> v) {
  return v.data();  // want "returns-local"
}

// Correct: the caller's vector outlives the call.
float* returns_param_data(std::vector<float>& v) {
  return v.data();
}

// Correct: returned by value, a copy.
std::string returns_copy() {
  std::string s = "abc";
  const std::string& r = s;
  return r;
}

struct Config { int n; };

// Correct: a reference into a container, returned by value (a copy).
Config best(std::vector<Config> configs) {
  const Config& b = configs.back();
  return b;
}

std::string_view view_of_local() {
  std::string s = make();
  std::string_view v = s;
  return v;  // want "returns-local"
}

void optional_span(bool c) {
  std::optional<absl::Span<const int>> s;
  if (c) {
    std::vector<int> v = load();
    s = absl::MakeSpan(v);
  }
  use(*s);  // want "use-after-scope"
}

// Correct: the span's container lives as long as the span.
void optional_span_kept(bool c) {
  std::vector<int> v = load();
  std::optional<absl::Span<const int>> s;
  if (c) {
    s = absl::MakeSpan(v);
  }
  use(*s);
}

void view_after_block(bool c) {
  std::string_view sv;
  {
    std::string s = load_name();
    sv = s;
  }
  print(sv);  // want "use-after-scope"
}

void data_after_block() {
  const float* p;
  {
    std::vector<float> v(10);
    p = v.data();
  }
  consume(p);  // want "use-after-scope"
}

// Correct: the owner is declared outside the block.
void data_owner_outside() {
  std::vector<float> v(10);
  const float* p;
  {
    p = v.data();
  }
  consume(p);
}

void temporary_c_str() {
  const char* p = std::to_string(42).c_str();
  puts(p);  // want "use-of-temporary"
}

// Correct: a reference extends the temporary's life.
void extended_temporary() {
  const std::string& s = std::to_string(42);
  puts(s.c_str());
}

// Correct: an element of a local vector of pointers, returned by value.
Node* nearest(const std::vector<Node*> nodes, int i) {
  return nodes.at(i);
}

// Correct: a static outlives the call.
const char* cached_name() {
  static std::string name;
  if (!name.empty()) return name.c_str();
  name = compute();
  return name.c_str();
}

// Correct: a reference element of a range the function does not own.
int* best_of(Table& t) {
  int* best = nullptr;
  for (auto& row : t.rows()) {
    best = &row.size;
  }
  return best;
}

// Correct: released, the object is the caller's.
Widget* make_widget() {
  std::unique_ptr<Widget, Deleter> w(allocate_widget(), Deleter());
  init(w.get());
  return w.release();
}

// Correct: what a cached smart pointer points to outlives the call.
const Props& props(int device) {
  static thread_local std::vector<std::unique_ptr<Props>> cache;
  if (device >= cache.size()) cache.resize(device + 1);
  auto& p = cache[device];
  if (!p) p = std::make_unique<Props>();
  return *p;
}

const int& ref_to_local() {
  int x = 1;
  return x;  // want "returns-local"
}

const int& ref_to_literal() {
  const int& x = 2;
  return x;  // want "returns-local"
}

std::string_view view_of_local_string() {
  std::string s = name();
  return s;  // want "returns-local"
}

// Correct: a member or a parameter returned by reference.
const std::string& name_of(const Item& item) {
  const std::string& n = item.name;
  return n;
}

int unique_in_block(int* p) {
  int* q = new int(5);
  { std::unique_ptr<int> owner(q); }
  return *q;  // want "use-after-scope"
}

// Correct: an auto local of a type not known here (it may be a view).
const Info& first_info(const Loader& loader) {
  auto infos = loader.Infos();
  return infos[0];
}

int* first_of_array() {
  int a[4] = {0};
  return &a[0];  // want "returns-local"
}

// Correct: a const static outlives the call.
const std::vector<int>& table() {
  const static std::vector<int> kTable{1, 2};
  return kTable;
}

// std::string's operator+ makes a temporary string.
const char* concat_c_str(const std::string& a) {
  const char* p = (a + "/lib").c_str();
  return p;  // want "use-of-temporary"
}

// Correct: the concatenation kept in a local, or bound to a reference.
std::string concat_kept(const std::string& a) {
  std::string path = a + "/lib";
  const std::string& alias = a + "/bin";
  const char* p = path.c_str();
  return std::string(p) + alias;
}

// A view initialised from a braced list of values points into the
// list's temporary array.
namespace llvm {
template <typename T> class ArrayRef;
}
int consume(llvm::ArrayRef<int> a);
int braced_values(int x, int y) {
  llvm::ArrayRef<int> a = {x, y};
  return consume(a);  // want "use-of-temporary"
}

int braced_literals() {
  llvm::ArrayRef<int> a = {1, 2, 3};
  return consume(a);  // want "use-of-temporary"
}

// Correct: a pointer and a size, one local element, a string literal.
int braced_pointer_size(const int* p, int n) {
  llvm::ArrayRef<int> a = {p, n};
  return consume(a);
}

// A local array in the list is its first element's address (an array
// decays to a pointer): a pointer and a size again.
int braced_array_size() {
  const int cells[] = {4, 5, 6};
  const llvm::ArrayRef<int> a = {cells, 3};
  return consume(a);
}

int braced_one_local(int x) {
  llvm::ArrayRef<int> a = {x};
  return consume(a);
}
