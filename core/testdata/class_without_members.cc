// A class of the tree defined with no data members of its own (one
// derived from a container, with methods only) is that class, not an
// alias of the same name another namespace declares: Dims, which copies
// a braced list into its own vector storage, is not the view alias
// other::Dims. A view alias of another name still views the list.
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace absl {
template <typename T>
class Span;
}

namespace mine {
class Dims : public std::vector<std::size_t> {
 public:
  Dims(const std::initializer_list<std::size_t>& lengths);
};
std::size_t Total(const Dims& d);
}  // namespace mine

namespace other {
using Dims = absl::Span<const long>;
using Lens = absl::Span<const long>;
long Sum(Lens l);
}  // namespace other

std::size_t Sized() {
  mine::Dims d{2, 3};
  return mine::Total(d);
}

long Viewed() {
  other::Lens l = {2, 3};
  return other::Sum(l);  // want "use-of-temporary"
}
