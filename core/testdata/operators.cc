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

// The result of an assignment is its left operand ([expr.ass]): a class
// whose operator= returns *this, assigned from a local, returns a
// reference to itself, not to the local.
struct Mat3 {
  float v[9];
};
struct Angles {
  float a[3];
  Angles& operator=(const Mat3& m) {
    a[0] = m.v[0];
    return *this;
  }
  Angles& assign_ok(float x) {
    Mat3 m = Mat3{};
    m.v[0] = x;
    return *this = m;
  }
};

Mat3& assign_local_bad(const Mat3& from) {
  Mat3 m = from;
  return m;  // want "returns-local"
}

// The value of an assignment to an object is that object ([expr.ass]),
// whether or not holdfast follows it: m[k] = std::move(local) refers to
// the map's element, not to the local moved from.
template <typename K, typename V>
struct FlatMap {
  V& operator[](const K& k);
};
struct Info {
  std::vector<int> ids;
};
struct InfoStore {
  FlatMap<int, Info> infos_;
  Info& Add(int id) {
    Info info;
    info.ids.push_back(id);
    return infos_[id] = std::move(info);
  }
};
