// Objects that keep what their methods and constructors are given: a
// reference member bound to a parameter, a pointer member set to a
// parameter or its buffer, a container member the parameter is put in.
// What they keep must outlive their next use.
#include <string>
#include <vector>

struct Options {
  int level;
};

class Session {
 public:
  explicit Session(const Options& opts) : opts_(opts) {}
  void Attach(const float* weights) { weights_ = weights; }
  void AddInput(const std::vector<float>& v) { inputs_.push_back(v.data()); }
  void SetTag(std::string tag) { tag_ = tag; }
  int Run();

 private:
  const Options& opts_;
  const float* weights_;
  std::vector<const float*> inputs_;
  std::string tag_;
};

void Consume(Session* s);

int RunWithTemporaryOptions() {
  Session s(Options{3});
  return s.Run();  // want "use-of-temporary"
}

int RunWithDeadWeights(Session* s) {
  {
    std::vector<float> w(16);
    s->Attach(w.data());
  }
  return s->Run();  // want "use-after-scope"
}

void HandOnWithDeadInput(Session* s) {
  {
    std::vector<float> in(8);
    s->AddInput(in);
  }
  Consume(s);  // want "use-after-scope"
}

// Twins: kept memory that lives long enough; a member that copies; a
// pointer member set anew before the use.
int RunWithLiveWeights(Session* s) {
  std::vector<float> w(16);
  s->Attach(w.data());
  return s->Run();
}

int RunWithCopiedTag(Session* s) {
  {
    std::string tag = "a";
    s->SetTag(tag);
  }
  return s->Run();
}

int RunReattached(Session* s, const float* kept) {
  {
    std::vector<float> w(16);
    s->Attach(w.data());
  }
  s->Attach(kept);
  return s->Run();
}

int RunWithNamedOptions() {
  Options o{3};
  Session s(o);
  return s.Run();
}

// A constructor that hands its parameters to the base class's
// constructor keeps what that constructor keeps.
struct Context {
  int id;
};

class Frame {
 public:
  Frame(int n, const Context& ctx) : n_(n), ctx_(ctx) {}
  int Id() const { return ctx_.id; }

 private:
  int n_;
  const Context& ctx_;
};

class FrameBuilder : public Frame {
 public:
  FrameBuilder(int n, const Context& ctx) : Frame{n, ctx} {}
};

class Delegating : public Frame {
 public:
  Delegating(const Context& ctx, int n) : Frame(n, ctx) {}
};

void RunFrame(Frame*);

void base_keeps_temporary_bad(int id) {
  FrameBuilder frame{1, Context{id}};
  RunFrame(&frame);  // want "use-of-temporary"
}

void base_keeps_swapped_bad(int id) {
  Delegating frame(Context{id}, 1);
  RunFrame(&frame);  // want "use-of-temporary"
}

// Correct: the context is a local that outlives the frame.
void base_keeps_local_ok(int id) {
  Context c{id};
  FrameBuilder frame{1, c};
  RunFrame(&frame);
}

// A view member made from a string parameter keeps the string's buffer: a
// temporary argument leaves it dangling once the statement ends.
class Label {
 public:
  void Set(const std::string& s) { text_ = s; }
  void Print() const;

 private:
  std::string_view text_;
};

class OwnedLabel {
 public:
  void Set(const std::string& s) { text_ = s; }
  void Print() const;

 private:
  std::string text_;  // a copy
};

std::string title();

void view_of_temporary_bad(Label& l) {
  l.Set(title());
  l.Print();  // want "use-of-temporary"
}

// Correct: the string outlives the label's use.
void view_of_local_ok(Label& l) {
  std::string t = title();
  l.Set(t);
  l.Print();
}

// Correct: the member copies the string.
void copy_of_temporary_ok(OwnedLabel& l) {
  l.Set(title());
  l.Print();
}

// T obj(t) with t a T (a call that returns one by value) is the copy or
// move constructor: it keeps nothing of the temporary, whatever a
// one-argument constructor of another parameter type keeps.
struct Entry {
  std::vector<int> ids;
};

class Ticket {
 public:
  explicit Ticket(const Entry& e) : entry_(&e) {}
  int Count() const;

 private:
  const Entry* entry_;
};

class Desk {
 public:
  Ticket Issue(int id);
};

int IssueAndCount(Desk& desk) {
  Ticket t(desk.Issue(3));
  return t.Count();
}

int TicketForTemporary() {
  Ticket t(Entry{});
  return t.Count();  // want "use-of-temporary"
}

// A class of the tree and an alias of the same name in another namespace:
// the class comes first, so a Sized made from a temporary size keeps
// nothing, though the alias names a class that keeps a reference.
namespace other {
class Watcher {
 public:
  Watcher(int& v) : v_(v) {}
  int Read() const;

 private:
  int& v_;
};
typedef Watcher Sized;
}  // namespace other

struct Sized {
  char* ptr_;
  Sized(long n);
  char* data() const { return ptr_; }
};

char GrowBy(long n) {
  Sized result(n + 1);
  return result.data()[0];
}

// A constructor with a default argument is an overload of each arity it
// can be called with: Stopwatch w("label") may call the second, which
// keeps nothing of the label, so what the first keeps is not known of it.
struct Sink {
  int fd;
};
Sink& default_sink();

class Stopwatch {
 public:
  Stopwatch(Sink& out = default_sink()) : out_(out) {}
  Stopwatch(const std::string& label, Sink& out = default_sink()) : out_(out) { Start(label); }
  void Start(const std::string& label);
  double Stop();

 private:
  Sink& out_;
};

double TimeIt() {
  Stopwatch w("label");
  return w.Stop();
}

// A view member read out of a local object views what the object was
// given, not the object: the local may end first.
struct Parsed {
  bool ok;
  std::string_view rest;
};
Parsed ParseOne(std::string_view in);

int CountWords(std::string_view in) {
  int n = 0;
  std::string_view next = in;
  while (!next.empty()) {
    char c = next.front();
    Parsed p = ParseOne(next);
    if (!p.ok || c == ' ') return n;
    next = p.rest;
    n++;
  }
  return n;
}

// A partial specialisation is a class of its own: what its methods keep
// (Slot<T&> keeps the object it is handed) is not what the template's do
// (Slot<T> copies it).
template <typename T>
class Slot {
 public:
  void Put(const T& v) { value_ = v; }
  T& Get() { return value_; }

 private:
  T value_;
};

template <typename T>
class Slot<T&> {
 public:
  void Put(T& v) { data_ = &v; }
  T& Get() { return *data_; }

 private:
  T* data_ = nullptr;
};

struct Token {
  int id;
};

int PutCopy() {
  Slot<Token> s;
  s.Put(Token{1});
  return s.Get().id;
}
