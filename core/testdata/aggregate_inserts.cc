// A method that puts a braced aggregate into a container member keeps
// what the aggregate's pointer, reference and view members take of its
// parameters (inputs_.push_back(Input{data.data(), n})): the object holds
// it, and a later method that reads the container uses it.
#include <cstdint>
#include <string>
#include <vector>

struct Input {
  const uint8_t* data;
  size_t size;
};

struct Named {
  std::string name;
  size_t size;
};

struct Shape {
  const std::vector<int>& dims;
};

class Graph {
 public:
  void AddConstInput(const std::vector<uint8_t>& data) { inputs_.push_back(Input{data.data(), data.size()}); }
  void AddBraced(const std::vector<uint8_t>& data) { inputs_.push_back({data.data(), data.size()}); }
  void AddRaw(const uint8_t* p, size_t n) { inputs_.emplace_back(Input{p, n}); }
  void AddName(const std::string& name) { names_.push_back(Named{name, name.size()}); }
  void AddShape(const std::vector<int>& dims) { shapes_.push_back(Shape{dims}); }
  int Build() const;

 private:
  std::vector<Input> inputs_;
  std::vector<Named> names_;
  std::vector<Shape> shapes_;
};

int temporary_input_bad() {
  Graph g;
  g.AddConstInput(std::vector<uint8_t>(16));
  return g.Build();  // want "use-of-temporary"
}

int braced_input_bad() {
  Graph g;
  {
    std::vector<uint8_t> weights(16);
    g.AddBraced(weights);
  }
  return g.Build();  // want "use-after-scope"
}

int raw_input_bad() {
  Graph g;
  {
    uint8_t bytes[4] = {1, 2, 3, 4};
    g.AddRaw(bytes, 4);
  }
  return g.Build();  // want "use-after-scope"
}

int shape_bad() {
  Graph g;
  {
    std::vector<int> dims = {1, 2};
    g.AddShape(dims);
  }
  return g.Build();  // want "use-after-scope"
}

// Correct: the aggregate copies the name into a string member.
int copied_name_ok() {
  Graph g;
  {
    std::string name = "x";
    g.AddName(name);
  }
  return g.Build();
}

// Correct: the weights outlive the graph's use.
int weights_live_ok() {
  std::vector<uint8_t> weights(16);
  Graph g;
  g.AddConstInput(weights);
  return g.Build();
}
