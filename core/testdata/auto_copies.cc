// auto deduces a type without its reference ([dcl.type.auto.deduct]): a
// local declared auto from a getter that returns a reference to a member
// is a copy of that member, which lives on when the object dies; auto&
// and const auto& refer to the member itself.
#include <memory>
#include <string>
#include <vector>

struct Config {
  std::string name;
  std::vector<int> ids;
  const std::string& get_name() const { return name; }
  std::vector<int>& get_ids() { return ids; }
  const char* raw() const { return name.c_str(); }
};
void use(const std::string&);
void use_v(const std::vector<int>&);
void put(const char*);

void copied_ok() {
  auto c = std::make_unique<Config>();
  auto n = c->get_name();
  auto v = c->get_ids();
  c.reset();
  use(n);
  use_v(v);
}

void copied_from_raw_ok() {
  Config* c = new Config();
  auto n = c->get_name();
  delete c;
  use(n);
}

void referenced_bad() {
  auto c = std::make_unique<Config>();
  const auto& n = c->get_name();
  auto& v = c->get_ids();
  c.reset();
  use(n);  // want "use-after-free"
  use_v(v);  // want "use-after-free"
}

// A pointer is copied, and still points into the object.
void pointer_bad() {
  auto c = std::make_unique<Config>();
  auto s = c->raw();
  c.reset();
  put(s);  // want "use-after-free"
}
