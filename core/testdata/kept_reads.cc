// An object keeps a pointer it was given; a later method call uses that
// pointer only when the method's code reads the member it is kept in.
#include <cstdlib>

struct Shape {
  int size;
  int* data;
};
Shape* make_shape();
void free_shape(Shape* s) { free(s); }

class Stage {
 public:
  void set_shape(Shape* s) { shape_ = s; }
  int check() { return shape_->size; }
  int run() { return runs_++; }
  int run_and_check() { return run() + check(); }

 private:
  Shape* shape_ = nullptr;
  int runs_ = 0;
};

int reads_kept_bad() {
  Stage stage;
  Shape* s = make_shape();
  stage.set_shape(s);
  free_shape(s);
  return stage.check();  // want "use-after-free"
}

int reads_through_method_bad() {
  Stage stage;
  Shape* s = make_shape();
  stage.set_shape(s);
  free_shape(s);
  return stage.run_and_check();  // want "use-after-free"
}

// Correct: run() never reads the shape it keeps.
int keeps_unread_ok() {
  Stage stage;
  Shape* s = make_shape();
  stage.set_shape(s);
  free_shape(s);
  return stage.run();
}
