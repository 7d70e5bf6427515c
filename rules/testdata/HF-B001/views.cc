// Views (spans, string views, array refs) made over a local container or
// string are borrows of it, as a raw pointer into it would be.

#include <string>
#include <string_view>
#include <vector>

std::vector<float> LoadRow(int i);
std::string Describe(int i);
void Consume(absl::Span<const float> row);
void Log(std::string_view s);

// The view outlives the vector it was made over.
void LastRow(int n) {
  absl::Span<const float> row;
  for (int i = 0; i < n; ++i) {
    std::vector<float> values = LoadRow(i);
    row = values;
  }
  Consume(row);  // want "'row' is used after 'values', which owned its memory, ended at line 19" confirmed
}

// A string view of a block's string, used after the block.
void LogName(int i) {
  std::string_view name;
  {
    std::string s = Describe(i);
    name = s;
  }
  Log(name);  // want "'name' is used after 's', which owned its memory, ended at line 29" confirmed
}

// Constructed over the container rather than assigned.
void Sizes(bool wide) {
  if (wide) {
    std::vector<int64_t> v = {1, 2, 3};
    c10::ArrayRef<int64_t> sizes(v);
    Use(sizes);
  }
}

// Correct: the view is used while the vector lives.
void FirstRow() {
  std::vector<float> values = LoadRow(0);
  absl::Span<const float> row = values;
  Consume(row);
}

// Correct: the view is made over a parameter, which the caller keeps.
void Forward(const std::vector<float>& values) {
  absl::Span<const float> row;
  {
    row = values;
  }
  Consume(row);
}

// Correct: the view is used only inside the block.
void PerRow(int n) {
  for (int i = 0; i < n; ++i) {
    std::vector<float> values = LoadRow(i);
    absl::Span<const float> row = values;
    Consume(row);
  }
}

// Correct: the view is re-pointed at the block's vector only on the path
// that clears 'masked', and read after the block only when 'masked' holds.
void Tile(absl::Span<const int64_t> sizes, int n) {
  bool masked = true;
  if (sizes.empty()) {
    std::vector<int64_t> bounds = Bounds();
    sizes = bounds;
    masked = false;
  }
  for (int i = 0; i < n; ++i) {
    if (!masked) {
      continue;
    }
    Use(sizes[i]);
  }
}

// The flag is set again after the block: it no longer tells the paths
// apart.
void TileReset(absl::Span<const int64_t> sizes, int n) {
  bool masked = true;
  if (sizes.empty()) {
    std::vector<int64_t> bounds = Bounds();
    sizes = bounds;
    masked = false;
  }
  masked = n > 0;
  if (masked) {
    Use(sizes[0]);  // want "'sizes\[0\]' is used after 'bounds', which owned its memory, ended at line 92" confirmed
  }
}
