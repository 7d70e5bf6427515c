// A qualified call reaches the method's object only through the class
// itself or a base: X::f of another class is a static member or a
// namespace's function, which cannot reset the object's members, so a
// reservation made before it still covers the insertions after it.
#include <tuple>
#include <vector>

struct Units {
  static int scale(int k) { return k * 2; }
};

namespace units {
int offset(int k);
}

void publish(const std::vector<double*>& cells);

class Ledger {
 public:
  void build_ok(int n) {
    if (!rows_.empty()) return;
    rows_.reserve(n);
    std::vector<double*> cells;
    int unit = Units::scale(3) + units::offset(1);
    for (int i = 0; i < n; ++i) {
      rows_.emplace_back(i * unit);
      cells.push_back(&rows_.back());
    }
    publish(cells);
  }

  // Its own method, qualified: it does drop the reservation.
  void refill() { rows_ = std::vector<double>(); }

  void build_bad(int n) {
    if (!rows_.empty()) return;
    rows_.reserve(n);
    std::vector<double*> cells;
    Ledger::refill();
    for (int i = 0; i < n; ++i) {
      rows_.emplace_back(i);
      cells.push_back(&rows_.back());
    }
    publish(cells);  // want "use-after-invalidate"
  }

 private:
  std::vector<double> rows_;
};

// A static member function that shares its name with a class: the call
// runs the function, which returns a reference into static storage.
namespace pool {
class entry {
 public:
  int id = 0;
};
class store {
 public:
  static pool::entry& entry(long i) {
    static pool::entry slots[4];
    return slots[i];
  }
};
inline pool::entry& entry_at(long i) { return pool::store::entry(i); }
inline const pool::entry& made_here() { return pool::entry(); }  // want "returns-local"
}  // namespace pool

// p->operator[](i) is misread as a call of p (an error between the name
// and the arguments): when a class of the tree shares the member's name,
// the call is still not that class's constructor, and what it returns is
// not known to be a temporary.
namespace shelf {
class rack {
 public:
  static rack* make(int n);
};
}  // namespace shelf
class grid {
 public:
  double& operator[](unsigned i) { return cells_[i]; }
  class cursor {
   public:
    double& operator*() const { return rack->operator[](at); }
    grid* rack;
    unsigned at;
  };

 private:
  std::vector<double> cells_;
};

// this->item<0>(i) is misread as (this->item < 0) > (i): still a call of
// the member template, which returns a reference into the object.
struct Tray {
  double* slots;
  template <int L>
  const double& item(int i) const { return slots[i]; }
  const double& first(int i) const { return this->item<0>(i); }
};

// Lattice l(count); with count a value declares an object ([stmt.ambig]),
// and l(1) calls its operator(), which returns a reference into the
// object: not a temporary of a function named l.
class Lattice {
 public:
  explicit Lattice(int n) : cells_(n) {}
  float& operator()(int i) { return cells_[i]; }

 private:
  std::vector<float> cells_;
};

float peek_cell(int count) {
  Lattice l(count);
  float* p = &l(1);
  return *p;
}

// A call qualified by a namespace is not a function of that name another
// namespace declares: std::get on a tuple member returns a reference to
// it, whatever logs::get returns.
namespace logs {
int get(const char* name);
}

struct Fields {
  std::tuple<int, int> t;
  const int& First() const { return std::get<0>(t); }
  const int& Logged() const { return logs::get("first"); }  // want "returns-local"
};

// ns::get<0>(t) names the namespace's function, not a member get of the
// class the call is written in: that one returns by value, the tuple's
// accessor a reference into its argument. C::get names the member.
#include <memory>
#include <tuple>

namespace tup {
using std::get;
}

class Registry {
 public:
  using Entry = std::tuple<int, long>;
  std::shared_ptr<int> get(int key);
  static const int& First(const Entry& e) { return tup::get<0>(e); }
  const std::shared_ptr<int>& Own(int key) { return Registry::get(key); }  // want "returns-local"
};
