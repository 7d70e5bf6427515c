// A method named free (a residency list's, a base class's) is not C's
// free: it frees none of its arguments unless its own code says so. A call
// of C's free, or of a function whose body frees its argument, does.

#include <cstdlib>

struct Device {
  int id;
};

struct Residency {
  int free(Device* device, int handle);
};

struct BaseHandler {
  int free(Device* device, int handle);
};

struct Handler : BaseHandler {
  Residency* residency;
  int free(Device* device, int handle) {
    residency->free(device, handle);
    BaseHandler::free(device, handle);
    return device->id;
  }
};

void release(Device* device) { std::free(device); }

int ReleaseThenRead(Device* device) {
  release(device);
  return device->id;  // want "'device->id' is used after the memory it points to was freed by release"
}
