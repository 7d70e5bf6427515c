// A private reference member no method reads once the object is made
// ([class.access]: only the class's own members and friends name it):
// the constructor copied what it needed while the temporary it was
// bound to lived, so the object dangles unseen. A member some method
// reads, or that a method yields, is a use when that method runs.
#include <string>
#include <vector>

struct Settings {
  int level;
  std::string tag;
};

Settings Load();
void Consume(const class Worker& w);
void Emit(int);

class Worker {
 public:
  explicit Worker(const Settings& s) : s_(s), level_(s.level), tag_(s.tag) {}
  void Step() { Emit(level_); }
  int level() const { return level_; }

 private:
  const Settings& s_;
  int level_;
  std::string tag_;
};

void CopiedAtConstruction() {
  Worker w(Load());
  w.Step();
  Consume(w);
  Emit(w.level());
}

void CopiedIntoElement() {
  std::vector<Worker> ws;
  ws.emplace_back(Load());
  ws[0].Step();
}

class Reader {
 public:
  explicit Reader(const Settings& s) : s_(s) {}
  int Level() const { return s_.level; }

 private:
  const Settings& s_;
};

void ReadLater() {
  Reader r(Load());
  Emit(r.Level());  // want "use-of-temporary"
}

class Exposed {
 public:
  explicit Exposed(const Settings& s) : s_(s) {}
  const Settings& settings() const { return s_; }

 private:
  const Settings& s_;
};

void YieldedLater() {
  Exposed e(Load());
  Emit(e.settings().level);  // want "use-of-temporary"
}

struct Open {
  explicit Open(const Settings& s) : s(s) {}
  const Settings& s;
};

void PublicMember() {
  Open o(Load());
  Consume(o);  // want "use-of-temporary"
}
