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
