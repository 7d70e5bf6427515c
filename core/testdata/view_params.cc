// A view taken by value (string_view, span) reads the caller's memory as
// a pointer does: handing a dangling pointer to a function of the file
// that reads its view parameter is a use; to one that never reads it, not.

#include <string>
#include <string_view>
#include <vector>

void Log(const char* s);

int Open(std::string_view path) {
  Log(path.data());
  return 0;
}

int Ignore(std::string_view path) { return 1; }

int Load(bool found) {
  const char* path = "default.so";
  if (found) {
    std::vector<std::string> results(1);
    path = results[0].c_str();
  }
  return Open(path);  // want "use-after-scope"
}

// Correct: the callee never reads the view.
int LoadIgnored(bool found) {
  const char* path = "default.so";
  if (found) {
    std::vector<std::string> results(1);
    path = results[0].c_str();
  }
  return Ignore(path);
}
