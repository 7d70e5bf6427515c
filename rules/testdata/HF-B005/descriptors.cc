// Descriptors consumed at once on one path and queued on the other.

#include <deque>
#include <tuple>

struct sge_t {
  uint64_t addr;
  uint32_t length;
};
struct work_req_t {
  sge_t* sg_list;
  int num_sge;
};
int post_work(void* queue, work_req_t* wr, work_req_t** bad);

class Engine {
 public:
  // The request may be built on the caller's stack, pointing at a
  // scatter-gather entry there: queued, it dangles.
  void Submit(work_req_t& wr) {
    if (slots_ > 0) {
      work_req_t* bad = nullptr;
      post_work(queue_, &wr, &bad);
      slots_--;
    } else {
      waiting_.push_back(wr);  // want "'wr', the caller's object passed by reference, is queued by push_back to be used after this function returns" latent
    }
  }

  // Correct: what is queued is an owned description, by value.
  void SubmitOwned(const sge_t& entry) {
    if (slots_ > 0) {
      sge_t copy = entry;
      work_req_t wr{&copy, 1};
      work_req_t* bad = nullptr;
      post_work(queue_, &wr, &bad);
    } else {
      pending_.push_back(entry);
    }
  }

  // Correct: consumed at once on every path; nothing is queued.
  void SubmitNow(work_req_t& wr) {
    work_req_t* bad = nullptr;
    post_work(queue_, &wr, &bad);
  }

  // Correct: queued into a local batch that is posted before returning.
  void SubmitBatch(work_req_t& wr, bool now) {
    std::deque<work_req_t> batch;
    if (now) {
      work_req_t* bad = nullptr;
      post_work(queue_, &wr, &bad);
    } else {
      batch.push_back(wr);
    }
    Flush(batch);
  }

 private:
  void Flush(std::deque<work_req_t>& batch);
  void* queue_;
  int slots_ = 0;
  std::deque<work_req_t> waiting_;
  std::deque<sge_t> pending_;
};
