// Values reach memory through paths the declared types do not spell: a
// container made on the heap owns a buffer, which ends when the
// container is deleted, reset or grown; an array member is inside its
// object, and an element's address dies with the object. A pointer read
// from a field is not followed as the field's pointer: a call that
// reaches the object through another name may change the field.
#include <cstdlib>
#include <memory>
#include <vector>

void use(float);

void HeapVectorReset() {
  auto v = std::make_unique<std::vector<float>>(10);
  float* p = v->data();
  v.reset();
  use(p[0]);  // want "use-after-free"
}

void HeapVectorExplicit() {
  std::unique_ptr<std::vector<float>> v(new std::vector<float>(10));
  float* p = (*v).data();
  v = nullptr;
  use(p[0]);  // want "use-after-free"
}

void HeapVectorDelete() {
  std::vector<float>* v = new std::vector<float>(10);
  float* p = v->data();
  delete v;
  use(*p);  // want "use-after-free"
}

void HeapVectorGrows(float x) {
  auto v = std::make_unique<std::vector<float>>(10);
  float* p = v->data();
  v->push_back(x);
  use(*p);  // want "use-after-invalidate"
}

// Twins: read while the container lives and has not grown; taken again
// after growth; reserved room.
void HeapVectorOk(float x) {
  auto v = std::make_unique<std::vector<float>>(10);
  float* p = v->data();
  use(p[0]);
  v->push_back(x);
  p = v->data();
  use(p[0]);
  v.reset();
}

void HeapVectorReserved(float x) {
  auto v = std::make_unique<std::vector<float>>();
  v->reserve(4);
  float* p = v->data();
  v->push_back(x);
  use(*p);
}

void HeapVectorMoved() {
  auto v = std::make_unique<std::vector<float>>(10);
  float* p = v->data();
  std::unique_ptr<std::vector<float>> w = std::move(v);
  use(p[0]);
}

struct Blob {
  float* ptr;
  float arr[8];
  int n;
};

void ArrayMemberDeleted(int i) {
  Blob* b = new Blob();
  float* p = &b->arr[i];
  delete b;
  use(*p);  // want "use-after-free"
}

void ArrayMemberOk(int i) {
  Blob* b = new Blob();
  float* p = &b->arr[i];
  use(*p);
  delete b;
}

// A method of the object may store anything in its fields: the pointer
// read from one before it is not the one read after (no finding).
struct Link {
  Link* next;
  float* data;
};
struct Ring {
  Link* first;
  void unlink(Link* l);
};

void DrainRing(Ring r) {
  while (r.first) {
    Link* l = r.first;
    r.unlink(l);
    delete l;
  }
}

class Owner {
 public:
  ~Owner();
  void drop(Link* l);

 private:
  Ring links_;
};

Owner::~Owner() {
  while (links_.first) {
    Link* l = links_.first;
    drop(l);
    l->data = nullptr;
    delete l;
  }
}
