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

// A braced list handed to a call makes an object (here a map's pair) that
// takes over what is moved into it: the member map owns the array after
// insert({p, std::move(arr)}), and p stays valid for the caller.
#include <map>

struct Array {
  int n;
};

struct Registry {
  std::map<Array*, std::unique_ptr<Array>> arrays_;

  Array* create_ok() {
    auto arr = std::make_unique<Array>();
    auto p = arr.get();
    arrays_.insert({p, std::move(arr)});
    return p;
  }

  Array* forgotten_bad() {
    auto arr = std::make_unique<Array>();
    auto p = arr.get();
    arrays_.insert({p, nullptr});
    return p;  // want "returns-local"
  }
};
