// A view or pointer copied out of a container of views or pointers
// views what the element views, not the container's storage; a view of
// an element that owns its characters views the container's storage.
#include <string>
#include <string_view>
#include <vector>

std::vector<std::string_view> SplitViews(std::string_view s);
std::vector<std::string> SplitCopies(std::string_view s);

std::string_view FirstView(std::string_view s) {
  std::vector<std::string_view> parts = SplitViews(s);
  std::string_view first = parts[0];
  return first;
}

std::string_view FirstCopy(std::string_view s) {
  std::vector<std::string> parts = SplitCopies(s);
  std::string_view first = parts[0];
  return first;  // want "returns-local"
}
