// A reference member refers to an object the class does not own: the
// destructor destroys the members, not what a reference member is bound
// to ([class.dtor]), so handing it to a call gives nothing up. Two
// wrappers that keep a reference to one device end in either order.
#include <vector>

typedef struct Device_T* DeviceHandle;
typedef struct Module_T* ModuleHandle;
typedef struct Buffer_T* BufferHandle;
void destroy_module(DeviceHandle d, ModuleHandle m);
void free_buffers(DeviceHandle d, unsigned n, const BufferHandle* b);
void release_device(DeviceHandle d);

class Device {
 public:
  operator DeviceHandle() const;
};

class Module {
 public:
  Module(const Device& d) : device_(d) {}
  ~Module() { destroy_module(device_, handle_); }

 private:
  const Device& device_;
  ModuleHandle handle_ = nullptr;
};

class Buffers {
 public:
  Buffers(const Device& d) : device_(d) {}
  ~Buffers() { free_buffers(device_, 1, &handle_); }

 private:
  const Device& device_;
  BufferHandle handle_ = nullptr;
};

int Run(Device& device) {
  Module module(device);
  Buffers buffers(device);
  return 0;
}

// The address of a reference member is the address of what it is bound
// to ([dcl.ref]: a reference is not an object of its own), not a part of
// the object that holds it.
struct Cache {
  int hits;
};
struct CacheHandle {
  Cache& cache;
};
Cache* CacheOf(CacheHandle h) { return &h.cache; }

// A pointer member is part of the object: its address points into it.
struct PointerHandle {
  Cache* cache;
};
Cache** SlotOf(PointerHandle h) { return &h.cache; }  // want "returns-local"
