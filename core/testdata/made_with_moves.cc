// std::make_unique<T>(args) hands its arguments to T's constructor: a
// unique_ptr moved into it is T's now, so the local left behind owns
// nothing and runs no destructor at its scope's end.
#include <memory>

struct Env {
  int n;
};

struct Id {
  Env* env;
  explicit Id(Env* e) : env(e) {}
  ~Id() { env->n--; }
};

struct Driver {
  std::unique_ptr<Id> id;
  explicit Driver(std::unique_ptr<Id> i) : id(std::move(i)) {}
};

void adopt(std::unique_ptr<Driver> d);

// Correct: the id moved into the driver is not destroyed with 'in'.
void moved_into_made_ok() {
  std::unique_ptr<Id> in;
  auto env = std::make_unique<Env>();
  in.reset(new Id(env.get()));
  auto driver = std::make_unique<Driver>(std::move(in));
  adopt(std::move(driver));
}

void kept_bad() {
  std::unique_ptr<Id> in;
  auto env = std::make_unique<Env>();
  in.reset(new Id(env.get()));
}  // want "use-after-scope"
