// An unqualified call in a method looks in the class's scope first
// ([basic.lookup.unqual]): vector() there calls the class's method
// vector(), which returns a reference to a member, not a temporary
// std::vector; outside the class the same call makes the temporary.
#include <vector>

using namespace std;

struct Request {
  vector<int> ids;
};

class BatchOp {
 public:
  explicit BatchOp(Request& req) : req_(req) {}
  auto& vector() { return req_.ids; }
  int Sum() {
    int sum = 0;
    auto it = vector().begin();
    while (it != vector().end()) {
      sum += *it;
      ++it;
    }
    return sum;
  }

 private:
  Request& req_;
};

int FirstOfNew() {
  auto it = vector<int>(4).begin();
  return *it;  // want "use-of-temporary"
}

// m(args) of a data member m calls the member's operator(): not a
// function of that name elsewhere in the tree (an object T m(n); the
// grammar reads as a function declaration), nor a class of that name.
struct Cell {
  float v[4];
};

template <typename Store>
class Table {
 public:
  const Cell& operator()(int i) { return cells(i); }
  const Cell& At(int i) { return rows(i); }

 private:
  Store cells;
  Store rows;
};

struct Seed {
  explicit Seed(int s) : value(s) {}
  int value;
};

int Probe() {
  int n = 3;
  Seed cells(n);
  return cells.value;
}

class Other {
  struct rows {
    long a, b;
  };
  rows* p;
};

const Cell& MadeHere() { return Cell(); }  // want "returns-local"


// A function of the tree named as a standard one returns what its own
// declaration says: to_string(Kind) returning a reference into a static
// table makes no temporary; std::to_string does.
#include <string>

enum class Kind { kFirst, kSecond };

inline const std::string& to_string(Kind k) {
  static const std::string names[2] = {"first", "second"};
  return names[static_cast<int>(k)];
}

void Consume(const char* s);

void NameOfKind() {
  const char* name = to_string(Kind::kFirst).c_str();
  Consume(name);
}

void NameOfNumber() {
  const char* name = std::to_string(7).c_str();
  Consume(name);  // want "use-of-temporary"
}
