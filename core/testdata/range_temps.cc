// A range-based for loop binds its range to a reference (auto&& __range =
// range-init, [stmt.ranged]): that extends the life of the temporary the
// range is, and of no other (before C++23). Iterating a member of a
// temporary object iterates memory that died before the loop ran. A
// method returning a view of a member lends that member's buffer, like
// one returning a reference to it.
#include <string>
#include <string_view>
#include <vector>

void use(int);
void use(std::string_view);

class Box {
 public:
  const std::vector<int>& items() const { return items_; }
  std::string_view name() const { return name_; }
  std::string title() const { return name_; }

 private:
  std::vector<int> items_;
  std::string name_;
};

Box make_box();
std::vector<int> make_items();

void member_of_temporary_bad() {
  for (int x : make_box().items()) {  // want "use-of-temporary"
    use(x);
  }
}

void view_of_temporary_bad() {
  std::string_view n = make_box().name();
  use(n);  // want "use-of-temporary"
}

// Correct: the temporary is the range; its life is the loop's.
void temporary_range_ok() {
  for (int x : make_items()) {
    use(x);
  }
}

// Correct: the object is a local.
void named_object_ok() {
  Box b = make_box();
  for (int x : b.items()) {
    use(x);
  }
  std::string_view n = b.name();
  use(n);
}

// Correct: title returns a copy.
void copy_of_temporary_ok() {
  std::string t = make_box().title();
  use(t);
}
