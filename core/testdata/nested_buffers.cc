// When an outer vector grows, it moves its elements: an inner vector's
// buffer moves with it, so a pointer into it stays valid. An inner
// string's characters may be inside the string object (small-string
// storage), so a pointer into it dangles once the outer vector grows.
#include <string>
#include <vector>

std::vector<char> bytes_of(int i);
std::string name_of(int i);
void launch(void** args, int n);
void print_all(const char** names, int n);

void Launch(int n) {
  std::vector<std::vector<char>> data;
  std::vector<void*> pointers;
  for (int i = 0; i < n; i++) {
    data.emplace_back(bytes_of(i));
    pointers.emplace_back(data.back().data());
  }
  launch(pointers.data(), n);
  char* first = data.front().data();
  data.emplace_back(bytes_of(n));
  first[0] = 1;  // the inner buffer moved with its vector
}

void Names(int n) {
  std::vector<std::string> names;
  std::vector<const char*> ptrs;
  for (int i = 0; i < n; i++) {
    names.push_back(name_of(i));
    ptrs.push_back(names.back().c_str());
  }
  print_all(ptrs.data(), n);  // want "use-after-invalidate"
}

// Clearing the outer vector destroys the inner ones with their buffers.
void Cleared(int n) {
  std::vector<std::vector<char>> data;
  data.emplace_back(bytes_of(n));
  char* p = data.back().data();
  data.clear();
  p[0] = 1;  // want "use-after-free"
}

// The same for data members: the class's declaration says what the
// elements are.
class Packer {
 public:
  void Pack(int n) {
    chunks_.emplace_back(bytes_of(n));
    char* first = chunks_.front().data();
    chunks_.emplace_back(bytes_of(n + 1));
    first[0] = 1;  // the inner buffer moved with its vector
  }
  char Label(int n) {
    labels_.push_back(name_of(n));
    const char* first = labels_.front().c_str();
    labels_.push_back(name_of(n + 1));
    return first[0];  // want "use-after-invalidate"
  }

 private:
  std::vector<std::vector<char>> chunks_;
  std::vector<std::string> labels_;
};
