// A constructor that neither initialises a container member nor finds
// it initialised by default has it empty: a loop over it at the start of
// the body runs no time. Once the body names it, calls one of the
// class's methods or hands this on, it may hold elements.
#include <memory>
#include <vector>

struct Layer {
  int width;
};

class Model {
 public:
  Model(const Model& other);
  Model(const Model& other, int);
  Model(const Model& other, long);
  Model(int n);
  Model(long n);
  Model& operator=(const Model& other);
  void fill();

 private:
  std::vector<std::shared_ptr<Layer>> layers_;
  std::vector<std::shared_ptr<Layer>> seeded_ = {std::make_shared<Layer>()};
};

void record(Model* m);

Model::Model(const Model& other) {
  for (const auto& layer : layers_) {
    layers_.push_back(std::make_shared<Layer>(*layer));
  }
}

Model::Model(const Model& other, int) {
  for (const auto& layer : seeded_) {  // want "use-after-invalidate"
    seeded_.push_back(std::make_shared<Layer>(*layer));
  }
}

Model::Model(const Model& other, long) {
  fill();
  for (const auto& layer : layers_) {  // want "use-after-invalidate"
    layers_.push_back(std::make_shared<Layer>(*layer));
  }
}

Model::Model(int n) : layers_(n) {
  for (const auto& layer : layers_) {  // want "use-after-invalidate"
    layers_.push_back(layer);
  }
}

Model& Model::operator=(const Model& other) {
  for (const auto& layer : layers_) {  // want "use-after-invalidate"
    layers_.push_back(std::make_shared<Layer>(*layer));
  }
  return *this;
}

Model::Model(long n) {
  record(this);
  for (const auto& layer : layers_) {  // want "use-after-invalidate"
    layers_.push_back(layer);
  }
}
