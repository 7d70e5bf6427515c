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
