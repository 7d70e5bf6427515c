// Aggregates ([dcl.init.aggr]): a braced list initialises the data
// members in declaration order, so a view, pointer or reference member
// keeps what its element names. A braced element of a view member is an
// initializer_list whose array ends with the full expression.
#include <initializer_list>
#include <string>
#include <vector>

namespace llvm {
template <typename T>
class ArrayRef {
 public:
  ArrayRef(std::initializer_list<T> il) : data_(il.begin()), size_(il.size()) {}
  ArrayRef(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}
  const T* data_;
  unsigned size_;
};
}  // namespace llvm

struct Invocation {
  int context;
  llvm::ArrayRef<int> arguments;
};

void Run(Invocation& inv);
int Make();

void BracedElementDies() {
  Invocation inv{1, {Make(), Make()}};
  Run(inv);  // want "use-of-temporary"
}

void TemporaryVectorDies() {
  Invocation inv{1, std::vector<int>{1, 2}};
  Run(inv);  // want "use-of-temporary"
}

void NamedVectorLives() {
  std::vector<int> v{1, 2};
  Invocation inv{1, v};
  Run(inv);
}

void VectorGoesOutOfScope() {
  Invocation inv{1, {}};
  {
    std::vector<int> v{1, 2};
    inv = Invocation{1, v};
  }
  Run(inv);  // want "use-after-scope"
}

// A class with a constructor is not an aggregate: what its constructor
// keeps is read from the constructor.
struct Copied {
  Copied(int c, llvm::ArrayRef<int> a) : context(c), values(a.data_, a.data_ + a.size_) {}
  int context;
  std::vector<int> values;
};

void Consume(Copied& c);

void ConstructorCopies() {
  Copied c{1, {Make(), Make()}};
  Consume(c);
}

struct Named {
  const std::string& name;
  int id;
};

void Print(const Named& n);

// Correct: the temporary bound to the reference member by the braced
// list lives as long as n (cppreference, Lifetime of a temporary: "S a {
// 1, {2, 3} }; // temporary pair {2, 3} bound to the reference member
// a.mp and its lifetime is extended to match the lifetime of object a").
void ReferenceToTemporary() {
  Named n{std::string("x"), 1};
  Print(n);
}

void ReferenceToLocal() {
  std::string s = "x";
  Named n{s, 1};
  Print(n);
}

// x = {elements} gives every member a new value.
struct StringList {
  unsigned count;
  const std::string* values;
};

void Process(StringList list);
std::vector<std::string> Tokens();

void Reassigned() {
  std::vector<std::string> views = Tokens();
  StringList list = {static_cast<unsigned>(views.size()), views.data()};
  Process(list);
  views = Tokens();
  list = {static_cast<unsigned>(views.size()), views.data()};
  Process(list);
}

void NotReassigned() {
  std::vector<std::string> views = Tokens();
  StringList list = {static_cast<unsigned>(views.size()), views.data()};
  Process(list);
  views = Tokens();
  Process(list);  // want "use-after-invalidate"
}

// A temporary bound to a reference member by an aggregate's braced list
// lives as long as the aggregate; by a parenthesised list, it does not.
struct NameRef {
  const std::string& name;
  int x;
};
std::string MakeLabel();
void UseName(const NameRef& r);

void braced_extends() {
  NameRef r{MakeLabel(), 1};
  UseName(r);
}

void braced_literal_extends() {
  NameRef r{"", 1};
  UseName(r);
}

void parenthesised_dangles() {
  NameRef r(MakeLabel(), 2);
  UseName(r);  // want "use-of-temporary"
}

// A nested braced list bound to a reference member makes a temporary of
// the member's type: the outer braces extend it as well.
struct IdsRef {
  const std::vector<unsigned>& ids;
  std::vector<double> scale;
};
double Consume(const IdsRef& r);

double nested_braces_extend() {
  IdsRef r = {{0u, 1u, 2u}, {1., 2., 1.}};
  return Consume(r);
}

double nested_parentheses_dangle() {
  IdsRef r(std::vector<unsigned>{0u, 1u}, std::vector<double>{});
  return Consume(r);  // want "use-of-temporary"
}

// A class whose only constructors are deleted on their first declaration
// is still an aggregate up to C++17 ([dcl.init.aggr]: none is
// user-provided). Its view member is of a library type holdfast sees no
// code of; the pack says a braced list makes it view a temporary array.
struct Pinned {
  int context;
  llvm::ArrayRef<long> arguments;
  absl::Span<const long> results;
  std::string_view label;
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
};

void RunPinned(Pinned& p);
long MakeLong();

void PinnedBracedDies() {
  Pinned p{1, {MakeLong(), MakeLong()}, {}, {}};
  RunPinned(p);  // want "use-of-temporary"
}

void PinnedSpanDies() {
  Pinned p{1, {}, {MakeLong(), MakeLong()}, {}};
  RunPinned(p);  // want "use-of-temporary"
}

// Correct: a string_view made from a pointer and a length views that
// pointer's memory, not the list.
void PinnedLabel(const char* text, unsigned n) {
  Pinned p{1, {}, {}, {text, n}};
  RunPinned(p);
}
