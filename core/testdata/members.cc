// A method's data members: containers and owners of the object, seen
// for the whole call.
#include <deque>
#include <memory>
#include <vector>

struct Send {
  int seq;
};

void log_line(const char* what);

class Channel {
 public:
  int Pop();
  int PopLogged();
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

struct Node {
  Node* prev;
  int size;
};

class Lru {
 public:
  int Trim(int n);
  const int& Lookup(int k);

 private:
  void unlink(Node* n);
  Node* tail_;
  int cache_;
};

// Correct: unlink, a method of the object, frees the node and re-points
// tail_; the loop reads the new tail.
int Lru::Trim(int n) {
  int freed = 0;
  while (tail_ && freed < n) {
    freed += tail_->size;
    unlink(tail_);
  }
  return freed;
}

void Lru::unlink(Node* n) {
  tail_ = n->prev;
  delete n;
}

int compute(int k);

// Correct: the value of an assignment is its left side, a member.
const int& Lru::Lookup(int k) {
  return cache_ = compute(k);
}

// Correct: a reference to a pointer names the pointer it is bound to.
int* first_of(int** slots) {
  int*& slot = slots[0];
  return slot;
}

int** slot_of(int key);

// Correct: the address of what a reference to a pointer refers to is not
// the address of a local.
int* const& slot_ref(int key) {
  auto*& p = *slot_of(key);
  return *reinterpret_cast<int* const*>(&p);
}

// A free function called from a method is no method of the object: the
// members stay as they were.
int Channel::PopLogged() {
  Send& op = pending_.front();
  log_line("pop");
  pending_.pop_front();
  return op.seq;  // want "use-after-invalidate"
}
