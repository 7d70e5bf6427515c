// A callback that captures a local by reference, stored where the caller
// keeps it, outlives the local: the caller runs it after the frame is gone.

#include <functional>
#include <string>

struct Options {
  std::function<void(int)> on_progress;
};

void Configure(Options& opts) {
  std::string label = "load";
  opts.on_progress = [&label](int pct) { (void)label.size(); (void)pct; };  // want "the caller's 'opts.on_progress' keeps a lambda that captures local 'label' by reference" confirmed
}

// Correct: the label is captured by value.
void ConfigureCopy(Options& opts) {
  std::string label = "load";
  opts.on_progress = [label](int pct) { (void)label.size(); (void)pct; };
}

// Correct: the callback is cleared before the local dies.
void ConfigureOnce(Options& opts, void (*run)(Options&)) {
  std::string label = "load";
  opts.on_progress = [&label](int pct) { (void)label.size(); (void)pct; };
  run(opts);
  opts.on_progress = nullptr;
}
