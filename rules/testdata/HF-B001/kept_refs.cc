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
  Context(Driver driver, std::vector<Port> ports);
};

// The ports refer to the factory's local driver; the driver is moved into
// the context, but the ports still refer to the local, which dies.
std::shared_ptr<Context> MakeContext(Queue& queue) {
  Driver driver;
  std::vector<Port> ports;
  ports.emplace_back(driver, queue, 0);  // want "'ports' holds a Port that keeps a reference to local 'driver', and is returned at line 34" confirmed
  return std::make_shared<Context>(std::move(driver), std::move(ports));
}

// A port built in a loop body over the body's queue, used after the loop.
void PollAll(const Driver& driver, int n) {
  std::vector<Port> ports;
  for (int i = 0; i < n; ++i) {
    Queue queue;
    ports.emplace_back(driver, queue, i);  // want "'ports' holds a Port that keeps a reference to local 'queue', and is used at line 44 after it dies at line 43" confirmed
  }
  for (Port& p : ports) {
    p.Poll();
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
