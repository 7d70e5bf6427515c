// Pointers into a function's own locals handed back to the caller.

#include <deque>
#include <vector>

std::vector<float> Widen(const int* p, int n);
std::vector<uint8_t> Decode(const uint8_t* p, int n);

// The converted copy is a local: its data goes back to the caller dangling.
const float* AsFloats(const Blob& blob) {
  const float* data = nullptr;
  std::vector<float> converted;
  if (blob.is_float()) {
    data = blob.floats();
  } else {
    converted = Widen(blob.ints(), blob.size());
    data = converted.data();
  }
  return data;  // want "returns 'data', which points into 'converted', a local that dies when the function returns" confirmed
}

// Pointers into a local vector, collected and returned.
std::vector<const float*> Rows(int n) {
  std::vector<float> storage(n * 4);
  std::vector<const float*> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back(&storage[i * 4]);
  }
  return rows;  // want "returns 'rows', which points into 'storage', a local that dies when the function returns" confirmed
}

// Correct: the pointer goes into a call whose result is returned; the
// result owns its own memory.
std::vector<uint8_t> Pixels(const std::vector<uint8_t>& file, int offset) {
  std::vector<uint8_t> bytes = file;
  const uint8_t* start = &bytes[offset];
  return Decode(start, bytes.size() - offset);
}

// Correct: an element copied out of a queue of pointers was never the
// queue's memory.
Node* FirstReady(Node* root) {
  std::deque<Node*> queue = {root};
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    if (n->ready()) {
      return n;
    }
  }
  return nullptr;
}

// Correct: auto copies the element.
int LastId(const std::vector<int>& ids) {
  std::vector<int> stack = ids;
  auto last = stack.back();
  return last;
}

// Correct: a string appended from a char pointer copies the characters.
std::string Wrap(const std::string& text) {
  std::string final_string;
  {
    std::string main_part = text + "\n";
    const char* c_string = main_part.c_str();
    final_string += c_string;
    final_string.append(c_string, 2);
  }
  return final_string;
}

// A reference into a local's memory handed back to the caller.
class Pinned {
 public:
  ~Pinned() { Unpin(memory_); }
  DeviceMemory& Ref() { return *memory_; }

 private:
  DeviceMemory* memory_;
};

DeviceMemory& PinnedMemory(const Tensor& t) {
  Pinned h = Pin(t);
  DeviceMemory& m = h.Ref();
  return m;  // want "returns 'm', which points into 'h', a local that dies when the function returns" confirmed
}
