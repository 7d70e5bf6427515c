#include <latch>
#include <thread>
#include <vector>

void Fill(std::vector<float>& out);

void StartDetached() {
  std::vector<float> staging(64);
  std::thread worker([&staging] { Fill(staging); });
  worker.detach();  // want "the detached thread 'worker' uses 'staging', which goes out of scope at line 11 while the thread may still run" confirmed
}

// Correct twins: the thread is joined, or the function waits for it.
void StartJoined() {
  std::vector<float> staging(64);
  std::thread worker([&staging] { Fill(staging); });
  worker.join();
}

void StartWaited() {
  std::vector<float> staging(64);
  std::latch done(1);
  std::thread worker([&] {
    Fill(staging);
    done.count_down();
  });
  worker.detach();
  done.wait();
}
