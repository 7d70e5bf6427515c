// A method named free (a residency list's, a base class's) is not C's
// free: it frees none of its arguments unless its own code says so. A call
// of C's free does (see HF-N001/method_named_free.cc).

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
