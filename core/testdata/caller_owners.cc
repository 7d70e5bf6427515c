// A parameter declared as a reference to an owning object (a unique_ptr,
// a shared_ptr, a container) is the caller's object under another name:
// what it owns, and what it is given to own, outlives the call. A local
// owner of the same type dies with the frame.
#include <memory>
#include <vector>

struct Closer {
  int device;
  void operator()(void* p) const;
};
void* Open(int device);

void* Ensure(std::unique_ptr<void, Closer>& handle, int device) {
  if (handle.get() == nullptr || handle.get_deleter().device != device) {
    handle.reset(nullptr);
    handle = std::unique_ptr<void, Closer>(Open(device), Closer{device});
  }
  return handle.get();
}

int* Refill(std::vector<int>& out, std::vector<int> staged) {
  out = std::move(staged);
  return out.data();
}

void* EnsureLocal(int device) {
  std::unique_ptr<void, Closer> handle(Open(device), Closer{device});
  return handle.get();  // want "returns-local"
}

int* RefillLocal(std::vector<int> staged) {
  std::vector<int> out;
  out = std::move(staged);
  return out.data();  // want "returns-local"
}
