// Other names: a std::pair of a HostFuture and a keepalive, and a
// constructor whose keepalive defaults to {}.
std::pair<HostFuture<void>, std::shared_ptr<const void>> Storage::ReadAsync(void* dst);

class ReadJob {
 public:
  ReadJob(HostFuture<void> done, std::shared_ptr<void> keepalive = {});
};

HostFuture<void> Reader::Start(void* dst) {
  std::pair<HostFuture<void>, std::shared_ptr<const void>> read = storage()->ReadAsync(dst);
  return std::move(read.first);  // want "'read.first' is kept but 'read.second' is dropped" confirmed
}

std::unique_ptr<ReadJob> Reader::Job(void* dst) {
  HostFuture<void> done = Issue(dst);
  return std::make_unique<ReadJob>(std::move(done));  // want "ReadJob is built with a future but without its 'keepalive' parameter" not-modelled
}

// Correct: both members go to the job.
std::unique_ptr<ReadJob> Reader::JobKept(void* dst) {
  std::pair<HostFuture<void>, std::shared_ptr<const void>> read = storage()->ReadAsync(dst);
  return std::make_unique<ReadJob>(std::move(read.first), std::move(read.second));
}

// Correct: the hold is passed explicitly.
ReadJob* Reader::JobNew(void* dst, std::shared_ptr<void> pin) {
  HostFuture<void> done = Issue(dst);
  return new ReadJob(std::move(done), std::move(pin));
}
