// An element made from a temporary of its own class is copied from it:
// it keeps what the temporary's members refer to, not the temporary.
#include <vector>

struct Tensor { float* data; int n; };
template <typename T>
struct ParamAndGrad {
  T& param;
  T& grad;
};
void process(std::vector<ParamAndGrad<Tensor>>& ps);

void Train() {
  Tensor params{nullptr, 0};
  Tensor grads{nullptr, 0};
  std::vector<ParamAndGrad<Tensor>> trainable;
  trainable.emplace_back(ParamAndGrad<Tensor>{params, grads});
  process(trainable);
}

void TrainTwice() {
  Tensor params{nullptr, 0};
  Tensor grads{nullptr, 0};
  ParamAndGrad<Tensor> pg{params, grads};
  std::vector<ParamAndGrad<Tensor>> trainable;
  trainable.emplace_back(pg);
  trainable.emplace_back(params, grads);
  process(trainable);
}

// Built in place from a local that dies first: the element refers to it.
void TrainScoped() {
  Tensor grads{nullptr, 0};
  std::vector<ParamAndGrad<Tensor>> trainable;
  {
    Tensor params{nullptr, 0};
    trainable.emplace_back(params, grads);
  }
  process(trainable);  // want "use-after-scope"
}
