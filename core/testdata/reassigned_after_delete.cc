// A member deleted and given a new object (this->p = new T) before its use
// is the new object; delete[] *pp frees what the caller's pointer holds,
// and clearing that pointer afterwards writes the caller's variable, not
// the freed memory.
struct Impl { int init(int x); int n; };

class Conv {
 public:
  int Create(int x);
  int Reuse(int x);

 private:
  Impl* impl_;
};

int Conv::Create(int x) {
  if (this->impl_) {
    delete this->impl_;
  }
  this->impl_ = new Impl;
  return this->impl_->init(x);
}

int Conv::Reuse(int x) {
  delete this->impl_;
  return this->impl_->init(x);  // want "use-after-free"
}

void FreeHost(float** ptr) {
  if (*ptr != nullptr) {
    delete[] *ptr;
    *ptr = nullptr;
  }
}

void FreeTwice(float** ptr) {
  delete[] *ptr;
  delete[] *ptr;  // want "double-free"
}
