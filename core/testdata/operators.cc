// An operator function called by its name (operator=(v), operator+(v))
// is a call, though the grammar reads it as an assignment to, or a sum
// with, a name "operator": it returns what its declaration says, not its
// argument, and its argument is still evaluated.
struct Obj { int v; };
struct Ref { Obj* data_; };

class Ret {
 public:
  Ret& operator=(Obj* p) {
    last_ = p;
    return *this;
  }
  Ret& operator+(int k) {
    n_ += k;
    return *this;
  }

  // The by-value parameter dies here, but the reference is to *this.
  Ret& operator=(Ref other) {
    return operator=(other.data_);
  }
  Ret& add(Ref other) {
    return operator+(other.data_->v);
  }

  Ret& add_freed_bad(Obj* p) {
    delete p;
    return operator+(p->v);  // want "use-after-free"
  }

 private:
  Obj* last_ = nullptr;
  int n_ = 0;
};
