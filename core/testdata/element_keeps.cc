// Elements built in place keep what their constructor keeps; a container
// moved into an object goes with it.
#include <memory>
#include <vector>

class Engine {};
class Queue {};

class Port {
 public:
  Port(const Engine& engine, Queue& queue, int id) : engine_(engine), queue_(&queue), id_(id) {}
  void Poll();

 private:
  const Engine& engine_;
  Queue* queue_;
  int id_;
};

class Hub {
 public:
  Hub(Engine engine, std::vector<Port> ports) : engine_(std::move(engine)), ports_(std::move(ports)) {}

 private:
  Engine engine_;
  std::vector<Port> ports_;
};

void poll_after(const Engine& engine, int n) {
  std::vector<Port> ports;
  for (int i = 0; i < n; ++i) {
    Queue queue;
    ports.emplace_back(engine, queue, i);
  }
  for (Port& p : ports) {
    p.Poll();  // want "use-after-scope"
  }
}

void handed_after(const Engine& engine, int n) {
  std::vector<Port> ports;
  for (int i = 0; i < n; ++i) {
    Queue queue;
    ports.emplace_back(engine, queue, i);
  }
  Consume(ports);  // want "use-after-scope"
}

std::vector<Port> returned(const Engine& engine) {
  Queue queue;
  std::vector<Port> ports;
  ports.emplace_back(engine, queue, 0);
  return ports;  // want "returns-local"
}

std::shared_ptr<Hub> moved_in(Queue& queue) {
  Engine engine;
  std::vector<Port> ports;
  ports.emplace_back(engine, queue, 0);
  return std::make_shared<Hub>(std::move(engine), std::move(ports));  // want "returns-local"
}

// Correct: the queue outlives the ports.
void poll_within(const Engine& engine, int n) {
  Queue queue;
  std::vector<Port> ports;
  for (int i = 0; i < n; ++i) {
    ports.emplace_back(engine, queue, i);
  }
  for (Port& p : ports) {
    p.Poll();
  }
}

// Correct: the ports refer to the caller's objects.
std::shared_ptr<Hub> from_caller(Engine& engine, Queue& queue) {
  std::vector<Port> ports;
  ports.emplace_back(engine, queue, 0);
  return std::make_shared<Hub>(Engine(), std::move(ports));
}

// Correct: the ports die with the queue.
void per_iteration(const Engine& engine, int n) {
  for (int i = 0; i < n; ++i) {
    Queue queue;
    std::vector<Port> ports;
    ports.emplace_back(engine, queue, i);
    for (Port& p : ports) {
      p.Poll();
    }
  }
}
