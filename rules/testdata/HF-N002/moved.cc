// Smart pointers used after std::move emptied them.
#include <map>
#include <memory>
#include <vector>

struct Snapshot {
  void Write();
};

Snapshot* keep_snapshot(std::map<int, std::unique_ptr<Snapshot>>& by_id, int id) {
  auto ret = std::make_unique<Snapshot>();
  by_id[id] = std::move(ret);
  return ret.get();  // want "returns 'ret.get\(\)', a null pointer: std::move emptied" confirmed
}

void hand_off(std::vector<std::shared_ptr<Snapshot>>& all) {
  std::shared_ptr<Snapshot> s = std::make_shared<Snapshot>();
  all.push_back(std::move(s));
  s->Write();  // want "uses 's' after std::move" confirmed
}

// Correct: the pointer is read before the move.
Snapshot* keep_raw(std::map<int, std::unique_ptr<Snapshot>>& by_id, int id) {
  auto ret = std::make_unique<Snapshot>();
  Snapshot* raw = ret.get();
  by_id[id] = std::move(ret);
  return raw;
}

// Correct: a new object is given to it after the move.
void refill(std::vector<std::unique_ptr<Snapshot>>& all) {
  auto s = std::make_unique<Snapshot>();
  all.push_back(std::move(s));
  s = std::make_unique<Snapshot>();
  s->Write();
}

// Correct: copied, not moved.
void share(std::vector<std::shared_ptr<Snapshot>>& all) {
  auto s = std::make_shared<Snapshot>();
  all.push_back(s);
  s->Write();
}

struct Job {
  int priority;
};

// A field read through a shared_ptr that std::move emptied reads null.
void Enqueue(std::shared_ptr<Job> job, std::vector<std::shared_ptr<Job>>& queue) {
  queue.push_back(std::move(job));
  if (job->priority > 3) {  // want "'job->priority' uses 'job' after std::move emptied it" confirmed
    queue.back()->priority = 3;
  }
}

// Correct: the field is read before the move.
void EnqueueRead(std::shared_ptr<Job> job, std::vector<std::shared_ptr<Job>>& queue) {
  int p = job->priority;
  queue.push_back(std::move(job));
  (void)p;
}
