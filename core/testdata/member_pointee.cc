// What a pointer data member points to is the caller's, of the class its
// type names, as what a pointer parameter points to is: a method of that
// class that keeps its argument, called through the member, keeps it
// past the call, so a local handed to it dangles once the method
// returns.
#include <vector>

struct Segment {
  void* addr;
  unsigned len;
};

class Registry {
 public:
  void Add(Segment* s) { segments_.push_back(s); }
  int Count(Segment* s) { return s->len > 0 ? 1 : 0; }

 private:
  std::vector<Segment*> segments_;
};

class Channel {
 public:
  void Post(void* buf, unsigned n) {
    Segment seg;
    seg.addr = buf;
    seg.len = n;
    registry_->Add(&seg);  // want "returns-local"
  }
  int Probe(void* buf) {
    Segment seg;
    seg.addr = buf;
    seg.len = 1;
    return registry_->Count(&seg);
  }

 private:
  Registry* registry_;
};
