// A wait in a branch: on the path that skips it the callback can outlive
// the object or the local; the witness takes that path, where the replay
// faults.
class Uploader {
 public:
  void Start(HostFuture<void> f, bool blocking) {
    f.Then([this](Status s) { done_ = true; });  // want "the callback registered with Then on 'f' captures this but holds no reference to the object" latent
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
  f.OnReady([&received](Status s) { received++; });  // want "the callback registered with OnReady on 'f' captures local 'received' by reference, which dies at line 33" confirmed
  if (sync) {
    f.Await();
  }
  return OkStatus();
}

// A wait in a loop body, which may run zero times: on that path the local
// dies first.
Status CountLoop(Reader* reader, int tries) {
  int received = 0;
  HostFuture<void> f = reader->ReadAsync();
  f.OnReady([&received](Status s) { received++; });  // want "the callback registered with OnReady on 'f' captures local 'received' by reference, which dies at line 45" confirmed
  for (int i = 0; i < tries; ++i) {
    f.Await();
  }
  return OkStatus();
}

// The same on a value of no declared type: only the rule's reading of the
// name OnReady takes it for a future; its witness goes through the loop
// body, where the replay is clean.
Status CountLoopAuto(Reader* reader, int tries) {
  int received = 0;
  auto f = reader->ReadAsync();
  f.OnReady([&received](Status s) { received++; });  // want "the callback registered with OnReady on 'f' captures local 'received' by reference, which dies at line 58" not-reproduced
  for (int i = 0; i < tries; ++i) {
    f.Await();
  }
  return OkStatus();
}
