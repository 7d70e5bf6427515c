// A method's data members: containers and owners of the object, seen
// for the whole call.
#include <deque>
#include <memory>
#include <vector>

struct Send {
  int seq;
};

class Channel {
 public:
  int Pop();
  int PopCopy();
  void Grow(int n);
  void GrowThenTake(int n);
  void Drop();
  void Retire();
  float* Data();

 private:
  std::deque<Send> pending_;
  std::vector<float> buf_;
  std::unique_ptr<Send> last_;
  Send* cur_;
};

int Channel::Pop() {
  Send& op = pending_.front();
  pending_.pop_front();
  return op.seq;  // want "use-after-invalidate"
}

// Correct: the field is read before the pop.
int Channel::PopCopy() {
  Send& op = pending_.front();
  int seq = op.seq;
  pending_.pop_front();
  return seq;
}

void Channel::Grow(int n) {
  float* p = buf_.data();
  this->buf_.resize(n);
  p[0] = 1.0f;  // want "use-after-invalidate"
}

// Correct: the pointer is taken after the growth.
void Channel::GrowThenTake(int n) {
  buf_.resize(n);
  float* p = buf_.data();
  p[0] = 1.0f;
}

void Channel::Drop() {
  Send* raw = last_.get();
  last_.reset();
  raw->seq = 0;  // want "use-after-free"
}

void Channel::Retire() {
  delete cur_;
  cur_->seq = 0;  // want "use-after-free"
}

// Correct: a pointer into a member, returned: the member outlives the call.
float* Channel::Data() {
  return buf_.data();
}
