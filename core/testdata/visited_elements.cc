// A range-for visits every element: one pointer into ended memory among
// live ones is read on the iteration that reaches it.
#include <vector>

struct Blob {
  explicit Blob(int n);
  int* data;
};

// Each pointer is taken to the last element; the next emplace_back moves
// the elements to new storage, so the first pointer dangles when the
// second loop reads it.
int pointers_to_grown_elements(int n) {
  std::vector<const Blob*> seen;
  std::vector<Blob> blobs;
  for (int i = 0; i < n; ++i) {
    blobs.emplace_back(Blob(i));
    seen.push_back(&blobs.back());
  }
  int sum = 0;
  for (const Blob* b : seen) {
    sum += *b->data;  // want "use-after-invalidate"
  }
  return sum;
}

// The same with auto.
int pointers_to_grown_elements_auto(int n) {
  std::vector<const Blob*> seen;
  std::vector<Blob> blobs;
  for (int i = 0; i < n; ++i) {
    blobs.emplace_back(Blob(i));
    seen.push_back(&blobs.back());
  }
  int sum = 0;
  for (auto* b : seen) {
    sum += *b->data;  // want "use-after-invalidate"
  }
  return sum;
}

// Correct: room for every element is reserved first, so no emplace_back
// moves them.
int pointers_into_reserved(int n) {
  std::vector<const Blob*> seen;
  std::vector<Blob> blobs;
  blobs.reserve(n);
  for (int i = 0; i < n; ++i) {
    blobs.emplace_back(Blob(i));
    seen.push_back(&blobs.back());
  }
  int sum = 0;
  for (const Blob* b : seen) {
    sum += *b->data;
  }
  return sum;
}

// Correct: the pointers are taken after the last element is in place.
int pointers_after_growth(int n) {
  std::vector<const Blob*> seen;
  std::vector<Blob> blobs;
  for (int i = 0; i < n; ++i) {
    blobs.emplace_back(Blob(i));
  }
  for (const Blob& b : blobs) {
    seen.push_back(&b);
  }
  int sum = 0;
  for (const Blob* b : seen) {
    sum += *b->data;
  }
  return sum;
}

// Correct: each pointer is freed inside the loop that reads it; one
// iteration's delete is not a later iteration's read.
void delete_each(std::vector<Blob*>& owned) {
  for (Blob* b : owned) {
    (void)*b->data;
    delete b;
  }
}
