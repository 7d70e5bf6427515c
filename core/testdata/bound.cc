// Parameters marked lifetimebound ([[clang::lifetimebound]], or a macro a
// pack names that expands to it): the result may refer to what the
// argument refers to, so a temporary handed to one ends with the
// statement while the result lives on. The function's body need not be
// seen: the declaration says it.
#include <string>
#include <string_view>

struct Box {
  int v;
};

Box make();
std::string make_name();

const Box& larger(const Box& a [[clang::lifetimebound]], const Box& b [[clang::lifetimebound]]);
std::string_view trimmed(const std::string& s ABSL_ATTRIBUTE_LIFETIME_BOUND);
const int* first_of(const Box& b [[clang::lifetimebound]]);

int temporary_in_either_bad(const Box& a) {
  const Box& l = larger(a, make());
  return l.v;  // want "use-of-temporary"
}

int temporary_string_bad() {
  std::string_view t = trimmed(make_name());
  return t[0];  // want "use-of-temporary"
}

int local_out_of_scope_bad() {
  const int* p;
  {
    Box b = make();
    p = first_of(b);
  }
  return *p;  // want "use-after-scope"
}

// Named arguments that outlive every use of the result.
int locals_ok(const Box& a) {
  Box b = make();
  const Box& l = larger(a, b);
  std::string name = make_name();
  std::string_view t = trimmed(name);
  return l.v + t.size();
}

// Used within the statement, or copied out of it.
int same_statement_ok(const Box& a) {
  Box copy = larger(a, make());
  std::string s(trimmed(make_name()));
  return larger(a, make()).v + copy.v + s.size();
}

// A view handed to a view parameter refers to what it views: the string
// lives on.
std::string_view first_word(std::string_view s [[clang::lifetimebound]]);

int view_argument_ok() {
  std::string name = make_name();
  std::string_view w = first_word(std::string_view(name));
  return w.size();
}

// std::min, std::max and std::clamp return a reference to an argument.
#include <algorithm>

int max_of_temporary_bad(int a) {
  const int& m = std::max(a, 0);
  return m;  // want "use-of-temporary"
}

int max_copied_ok(int a, int b) {
  int m = std::max(a, 0);
  const int& n = std::max(a, b);
  return m + n + std::min(a, 1);
}

// A view of a named string refers to its buffer: growing the string
// replaces it.
int grown_after_view_bad() {
  std::string name = make_name();
  std::string_view t = trimmed(name);
  name += "!";
  return t[0];  // want "use-after-invalidate"
}
