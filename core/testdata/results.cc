// What a call returns, as the declarations of the file say: a value whose
// reference must not be returned, or a reference that may be.
#include <memory>
#include <string>

struct Message;

template <typename T>
T FieldOf(const Message& m, const std::string& name);

template <typename K, typename V>
V Lookup(const K& key);

std::string TypeName(const Message& m);

const std::string& value_template_bad(const Message& m) {
  return FieldOf<std::string>(m, "name");  // want "returns-local"
}

const std::string& second_parameter_bad(const std::string& k) {
  return Lookup<std::string, std::string>(k);  // want "returns-local"
}

const std::string& declared_value_bad(const Message& m) {
  return TypeName(m);  // want "returns-local"
}

const Message& reference_template_ok(const Message& m) {
  return FieldOf<const Message&>(m, "sub");
}

const std::string& second_reference_ok(const std::string& k) {
  return Lookup<std::string, const std::string&>(k);
}

std::string copy_ok(const Message& m) {
  return FieldOf<std::string>(m, "name");
}

// A temporary's type says what it takes with it at the end of the full
// expression: a unique_ptr deletes its object; an object of a class whose
// destructor frees what a method lends takes that memory.
struct Item {
  int size;
};

std::unique_ptr<Item> MakeItem();

template <typename X>
class Owned {
 public:
  explicit Owned(X* x) : x_(x) {}
  ~Owned() { delete x_; }
  X* get() const { return x_; }

 private:
  X* x_;
};

Owned<Item> MakeOwned();

int unique_temporary_bad() {
  Item* it = MakeItem().get();
  return it->size;  // want "use-of-temporary"
}

int owned_temporary_bad() {
  Item* it = MakeOwned().get();
  return it->size;  // want "use-of-temporary"
}

int reference_into_temporary_bad() {
  Item& it = *MakeItem();
  return it.size;  // want "use-of-temporary"
}

// Correct: kept by a reference or a local, released, used within the
// statement.
int reference_keeps_ok() {
  const std::unique_ptr<Item>& p = MakeItem();
  return p->size;
}

int local_keeps_ok() {
  auto p = MakeItem();
  Item* it = p.get();
  return it->size;
}

int owned_reference_ok() {
  const Owned<Item>& o = MakeOwned();
  Item* it = o.get();
  return it->size;
}

int released_ok() {
  Item* it = MakeItem().release();
  return it->size;
}

int same_statement_ok() { return MakeItem()->size + MakeOwned().get()->size; }

int reference_ends_with_block_bad() {
  Item* it;
  {
    const Owned<Item>& o = MakeOwned();
    it = o.get();
  }
  return it->size;  // want "use-after-scope"
}

// A method's declared result type says the same of its temporary.
class Factory {
 public:
  std::unique_ptr<Item> Make();
};

int method_unique_temporary_bad(Factory& f) {
  Item* it = f.Make().get();
  return it->size;  // want "use-of-temporary"
}

int method_unique_kept_ok(Factory& f) {
  auto p = f.Make();
  return p->size;
}

// Correct: a reference_wrapper returned by value converts to the reference
// it wraps (operator T&): the reference returned is to the stream, not to
// the temporary wrapper.
using StreamRef = std::reference_wrapper<std::ostream>;

class Sink {
 public:
  StreamRef Get() { return used_; }

 private:
  StreamRef used_;
};

class Display {
 public:
  std::ostream& Out() { return sink_.Get(); }

 private:
  Sink sink_;
};

// An alias declared in a class's body names a type of that class: a use
// outside it of the same name is the namespace's alias, not the class's.
// In the class's own methods the class's alias is meant.
namespace wrap {
template <typename T>
using ref = std::reference_wrapper<T>;

struct Cursor {
  using value_type = int;
  using ref = value_type&;
  int Peek();
  int held;
};

struct Node {
  int id;
};

class Arena {
 public:
  Node& Make();
  Node& Pick() {
    ref<Node> cur = Make();
    return cur;
  }
};

int Cursor::Peek() {
  int local = held;
  ref r = local;
  return r;
}

Cursor::value_type& Leak() {
  Cursor::value_type v = 0;
  return v;  // want "returns-local"
}
}  // namespace wrap

// A method whose result type is a member type of a type that depends on a
// template parameter (typename Traits<T>::result_type) returns what the
// instantiation decides: a specialisation may make it a reference. One
// whose result type is written as a value returns a temporary.
template <typename T>
struct cell_traits;

template <typename R>
class Cell;

template <typename R>
struct cell_traits<Cell<R>> {
  using result_type = const R&;
};

template <typename R>
class Cell {
 public:
  typename cell_traits<Cell>::result_type get() const { return *state_; }
  R copy() const { return *state_; }

 private:
  std::shared_ptr<R> state_;
};

template <typename T>
const T& Peek(const Cell<T>& c) {
  return c.get();
}

template <typename T>
const T& PeekCopy(const Cell<T>& c) {
  return c.copy();  // want "returns-local"
}

// consume(FWD(decltype(r), r)); in a body reads as a declaration of a
// function FWD returning a consume: it says nothing of what the macro
// FWD gives, which a return of FWD(T, t) hands back by reference.
#define FWD(T, ...) static_cast<T&&>(__VA_ARGS__)

struct Pass {
  template <typename T>
  T&& operator()(T&& t) const {
    return FWD(T, t);
  }
};

template <typename V>
void consume(V&&) {}

template <typename R>
void PassOn(R&& r) {
  consume(FWD(decltype(r), r));
}

// An operator the file declares to return a reference makes no
// temporary: this + offset names what the offset points at. One that
// returns a value makes one.
template <typename T>
struct OffsetTo {
  unsigned off;
  template <typename Base>
  friend const T& operator+(const Base& base, const OffsetTo& o) {
    return *reinterpret_cast<const T*>(reinterpret_cast<const char*>(&base) + o.off);
  }
};

struct Cents {
  long v;
};
Cents operator-(const Cents& a, const Cents& b);

struct Blob {
  OffsetTo<int> first;
  Cents a, b;
  const int& First() const { return this + first; }
  const Cents& Diff() const { return a - b; }  // want "returns-local"
};
