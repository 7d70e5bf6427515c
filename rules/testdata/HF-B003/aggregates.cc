// A struct with no constructor is an aggregate: its braced list
// initialises the members in order, so a span member given a braced
// list or a temporary vector points into a temporary of the statement.

#include <span>
#include <string>
#include <vector>

struct Request {
  int id;
  std::span<const float> weights;
};

void Submit(const Request& r);
float Scale();

void BracedWeights() {
  Request r{1, {Scale(), Scale()}};
  Submit(r);  // want "'r' is used here but keeps a reference to the temporary '{Scale\(\), Scale\(\)}'" confirmed
}

void TemporaryWeights() {
  Request r{2, std::vector<float>{1.0f, 2.0f}};
  Submit(r);  // want "keeps a reference to the temporary 'std::vector<float>{1.0f, 2.0f}'" confirmed
}

// Correct: the vector is named and outlives the request.
void NamedWeights() {
  std::vector<float> w{1.0f, 2.0f};
  Request r{3, w};
  Submit(r);
}

// Correct: the temporary lives until the end of the full expression that
// uses it.
void InOneStatement() {
  Submit(Request{4, std::vector<float>{1.0f, 2.0f}});
}

// Correct: a braced list for an array member, a nested aggregate or a
// pointer initialises that member in place; no temporary is made.
struct Rect {
  int left;
  int width;
};
struct PixMap {
  void* planes[3];
  int bits;
  Rect rect;
};
void InitPixMap(const int* pic, PixMap* map);
void Scroll(PixMap* map);

void InPlaceMembers(const int* pic) {
  PixMap map = {{0}};
  PixMap framed = {{nullptr, nullptr, nullptr}, 8, {0, 4}};
  InitPixMap(pic, &map);
  Scroll(&map);
  Scroll(&framed);
}
