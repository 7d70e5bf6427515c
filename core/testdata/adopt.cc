// A smart pointer made from a raw pointer adopts its object: its
// destructor deletes what new made or what the caller handed in
// (unique_ptr::~unique_ptr: "get_deleter()(get())"). Two smart pointers
// adopting one object delete it twice; a function that adopts its
// argument frees the caller's object.
#include <memory>

struct Job {
  int id;
  void run();
};

void adopted_twice_bad(Job* raw) {
  std::unique_ptr<Job> a(raw);
  std::unique_ptr<Job> b(raw);
}  // want "double-free"

void adopted_from_get_bad(Job* raw) {
  std::unique_ptr<Job> a(raw);
  std::unique_ptr<Job> b(a.get());
}  // want "double-free"

void adopt(Job* job) { std::unique_ptr<Job> owner(job); }

void used_after_adopted_bad() {
  Job* job = new Job;
  adopt(job);
  job->run();  // want "use-after-free"
}

// Correct: ownership handed over with release or a move.
void released_ok(Job* raw) {
  std::unique_ptr<Job> a(raw);
  std::unique_ptr<Job> b(a.release());
}

void moved_ok(Job* raw) {
  std::unique_ptr<Job> a(raw);
  std::unique_ptr<Job> b(std::move(a));
}

// Correct: handed back to the caller.
std::unique_ptr<Job> handed_back_ok(Job* raw) {
  std::unique_ptr<Job> a(raw);
  return a;
}

// Correct: the caller's object is used before the call adopts it.
void used_before_adopted_ok() {
  Job* job = new Job;
  job->run();
  adopt(job);
}

struct NoDelete {
  void operator()(Job*) const {}
};

// Correct: a deleter of its own says what happens to the object.
void own_deleter_ok(Job* raw) {
  std::unique_ptr<Job, NoDelete> a(raw);
  std::unique_ptr<Job, NoDelete> b(raw);
  raw->run();
}
