// Detached threads running closures that use the frame's memory.
#include <atomic>
#include <latch>
#include <thread>
#include <vector>

void Work(int* p);

void detached_ref() {
  int counter = 0;
  std::thread t([&counter] { counter++; });
  t.detach();  // want "thread-outlives"
}

void detached_pointer() {
  std::vector<float> buf(16);
  float* p = buf.data();
  std::thread t([p] { p[0] = 1.0f; });
  t.detach();  // want "thread-outlives"
}

// Correct twins.
void joined() {
  int counter = 0;
  std::thread t([&counter] { counter++; });
  t.join();
}

void detached_by_value() {
  int counter = 0;
  std::thread t([counter]() mutable { counter++; });
  t.detach();
}

void detached_waited() {
  std::latch done(1);
  int result = 0;
  std::thread t([&] {
    result = 1;
    done.count_down();
  });
  t.detach();
  done.wait();
}

static int global_count;
void detached_global() {
  std::thread t([] { global_count++; });
  t.detach();
}

void detached_temporary() {
  std::vector<int> hits(4);
  std::thread([&hits] { hits[0]++; }).detach();  // want "thread-outlives"
}

// Correct twin: the temporary thread captures by value.
void detached_temporary_copy() {
  std::vector<int> hits(4);
  std::thread([hits]() mutable { hits[0]++; }).detach();
}

// An object captured by value is a member-by-member copy: its pointer
// member still points into the frame.
struct Job {
  float* out;
  int n;
};

void detached_object_copy() {
  std::vector<float> buf(16);
  Job job{buf.data(), 16};
  std::thread t([job] { job.out[0] = 1.0f; });
  t.detach();  // want "thread-outlives"
}

// Correct: the copy points at memory the frame does not own.
void detached_object_copy_of_heap(float* shared) {
  Job job{shared, 16};
  std::thread t([job] { job.out[0] = 1.0f; });
  t.detach();
}
