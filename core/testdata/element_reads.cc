// Reading one element of a container of pointers: when every element
// was put in where the path saw it and all of them point into memory
// that has ended, the element read is a dangling pointer whichever one
// it is.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct Arena {
  float* Take(int n);
  void Give(float* p);
};

struct Lease {
  Lease(Arena* a, int n) : arena(a), data(a->Take(n)) {}
  ~Lease() { arena->Give(data); }
  float* values() { return data; }
  Arena* arena;
  float* data;
};

float consume(float v);

float index_after_loop_bad(Arena* a, int n) {
  std::vector<float*> parts;
  for (int i = 0; i < n; ++i) {
    auto lease = std::make_unique<Lease>(a, 4);
    parts.push_back(lease->values());
  }
  return consume(parts[0][0]);  // want "use-after-scope"
}

float element_named_bad(Arena* a) {
  std::vector<float*> parts;
  {
    Lease lease(a, 4);
    parts.push_back(lease.values());
  }
  float* first = parts.front();
  return *first;  // want "use-after-scope"
}

float range_for_bad(Arena* a) {
  std::vector<float*> parts;
  {
    Lease lease(a, 4);
    parts.push_back(lease.values());
  }
  float sum = 0;
  for (float* p : parts) {
    sum += *p;  // want "use-after-scope"
  }
  return sum;
}

std::string_view first_name_bad() {
  std::vector<std::string_view> names;
  {
    std::string joined = std::string("a") + "b";
    names.push_back(joined);
  }
  return names.back();  // want "use-after-scope"
}

// Correct: the leases outlive the reads.
float held_ok(Arena* a, int n) {
  std::vector<std::unique_ptr<Lease>> held;
  std::vector<float*> parts;
  for (int i = 0; i < n; ++i) {
    held.push_back(std::make_unique<Lease>(a, 4));
    parts.push_back(held.back()->values());
  }
  return consume(parts[0][0]);
}

// Correct: a loop that frees each element in turn reads each element
// once.
struct Node {
  int v;
};

void delete_each_ok(int n) {
  std::vector<Node*> nodes;
  for (int i = 0; i < n; ++i) {
    nodes.push_back(new Node{i});
  }
  for (int i = 0; i < n; ++i) {
    delete nodes[i];
  }
}

// Correct: the caller's container may hold other elements already.
float caller_elements_ok(Arena* a, std::vector<float*>& parts) {
  {
    Lease lease(a, 4);
    parts.push_back(lease.values());
  }
  parts.pop_back();
  return parts[0][0];
}

// Correct: an element written anew points elsewhere.
float rewritten_ok(Arena* a, float* spare) {
  std::vector<float*> parts;
  {
    Lease lease(a, 4);
    parts.push_back(lease.values());
  }
  parts[0] = spare;
  return parts[0][0];
}

// Correct: an element put in that holdfast does not follow may be the
// one read.
float* other_source();

float mixed_ok(Arena* a) {
  std::vector<float*> parts;
  parts.push_back(other_source());
  {
    Lease lease(a, 4);
    parts.push_back(lease.values());
  }
  return parts[0][0];
}

// Correct: elements removed, or handed to a call that may change them.
void refill(std::vector<float*>& parts);

float removed_ok(Arena* a) {
  std::vector<float*> parts;
  {
    Lease lease(a, 4);
    parts.push_back(lease.values());
  }
  parts.clear();
  refill(parts);
  return parts[0][0];
}
