// A reference into a member container, used after the method removed
// the element it refers to.
#include <deque>

struct Request {
  int id;
};

class Pipe {
 public:
  int Complete();
  int CompleteCopy();

 private:
  std::deque<Request> inflight_;
};

int Pipe::Complete() {
  Request& r = inflight_.front();
  inflight_.pop_front();
  return r.id;  // want "'r' is used after pop_front removed the element it refers to from 'inflight_' at line 20" confirmed
}

// Correct: the id is read before the pop.
int Pipe::CompleteCopy() {
  int id = inflight_.front().id;
  inflight_.pop_front();
  return id;
}
