// Objects whose constructor keeps a reference to an argument, built over
// a local that dies before them.

#include <memory>
#include <vector>

class Driver {};
class Queue {};

class Port {
 public:
  Port(const Driver& driver, Queue& queue, int id);
  void Poll();

 private:
  const Driver& driver_;
  Queue* queue_;
  int id_;
};

Port::Port(const Driver& driver, Queue& queue, int id) : driver_(driver), queue_(&queue), id_(id) {}

class Context {
 public:
  Context(Driver driver, std::vector<Port> ports) : driver_(std::move(driver)), ports_(std::move(ports)) {}

 private:
  Driver driver_;
  std::vector<Port> ports_;
};

// The ports refer to the factory's local driver; the driver is moved into
// the context, but the ports still refer to the local, which dies.
std::shared_ptr<Context> MakeContext(Queue& queue) {
  Driver driver;
  std::vector<Port> ports;
  ports.emplace_back(driver, queue, 0);
  return std::make_shared<Context>(std::move(driver), std::move(ports));  // want "returns 'Context.ports_', which points into 'driver', a local that dies when the function returns" confirmed
}

// Latent: a context whose constructor holdfast cannot see may not keep
// the ports.
class OpaqueContext {
 public:
  OpaqueContext(Driver driver, std::vector<Port> ports);
};

std::shared_ptr<OpaqueContext> MakeOpaqueContext(Queue& queue) {
  Driver driver;
  std::vector<Port> ports;
  ports.emplace_back(driver, queue, 0);  // want "'ports' holds a Port that keeps a reference to local 'driver'" latent
  return std::make_shared<OpaqueContext>(std::move(driver), std::move(ports));
}

// A port built in a loop body over the body's queue, used after the loop.
void PollAll(const Driver& driver, int n) {
  std::vector<Port> ports;
  for (int i = 0; i < n; ++i) {
    Queue queue;
    ports.emplace_back(driver, queue, i);
  }
  for (Port& p : ports) {
    p.Poll();  // want "'p' keeps a pointer into the memory of 'queue', which ended at line 61, and is used here" confirmed
  }
}

// Correct: the references are to the caller's objects.
std::vector<Port> MakePorts(const Driver& driver, Queue& queue) {
  std::vector<Port> ports;
  ports.emplace_back(driver, queue, 0);
  return ports;
}

// Correct: the port and the locals it refers to die together.
void PollOnce(Queue& queue) {
  Driver driver;
  Port port(driver, queue, 0);
  port.Poll();
}
