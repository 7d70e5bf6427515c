// A wait that only some paths reach: nothing proves the callback is done
// before the object or the local goes away, so the rule reports; the
// witness follows the path through the wait, where the replay is clean.
class Uploader {
 public:
  void Start(HostFuture<void> f, bool blocking) {
    f.Then([this](Status s) { done_ = true; });  // want "the callback registered with Then on 'f' captures this \(it uses 'done_' at line 7\)" not-reproduced
    if (blocking) {
      f.Await();
    }
  }

  // Correct: the wait is in a plain block that every path runs.
  void StartBlock(HostFuture<void> f) {
    f.Then([this](Status s) { done_ = true; });
    {
      f.Await();
    }
  }

 private:
  bool done_ = false;
};

Status CountMaybe(Reader* reader, bool sync) {
  int received = 0;
  HostFuture<void> f = reader->ReadAsync();
  f.OnReady([&received](Status s) { received++; });  // want "captures local 'received' by reference, and only some paths wait for 'f' \(line 30\) before 'received' dies at line 33" not-reproduced
  if (sync) {
    f.Await();
  }
  return OkStatus();
}

// A wait in a loop may run zero times.
Status CountLoop(Reader* reader, int tries) {
  int received = 0;
  HostFuture<void> f = reader->ReadAsync();
  f.OnReady([&received](Status s) { received++; });  // want "only some paths wait for 'f'" not-reproduced
  for (int i = 0; i < tries; ++i) {
    f.Await();
  }
  return OkStatus();
}
