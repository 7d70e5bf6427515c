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
