// An unqualified call in a method names a method of its class or of a
// base, or a function of a namespace ([basic.lookup.unqual]); never a
// method of an unrelated class of the same name. Here palette() is a
// method of Widget, whose definition is not read: its result is not
// known to be a temporary.
struct Palette {
  int c;
};

class Scene {
 public:
  Palette palette() const;
  Palette current() const;
};

Palette current();

class Model {
 public:
  explicit Model(const Palette& p) : p_(p) {}
  int color() const { return p_.c; }
  const Palette& p_;
};

class View : public Widget {
 public:
  int inherited_ok();
  int namespace_bad();
};

int View::inherited_ok() {
  Model* m = new Model(palette());
  return m->color();
}

int View::namespace_bad() {
  Model* m = new Model(current());
  return m->color();  // want "use-of-temporary"
}
