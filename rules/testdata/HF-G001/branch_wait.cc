// A wait in a branch: on the path that skips it the callback can outlive
// the object or the local; the witness takes that path, where the replay
// faults.
class Uploader {
 public:
  void Start(HostFuture<void> f, bool blocking) {
    f.Then([this](Status s) { done_ = true; });  // want "the callback registered with Then on 'f' captures this \(it uses 'done_' at line 7\).*the only wait for 'f' \(line 9\) is in a branch" latent
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
  f.OnReady([&received](Status s) { received++; });  // want "captures local 'received' by reference, and only a wait for 'f' in a branch \(line 30\) comes before 'received' dies at line 33: on the paths that skip it" confirmed
  if (sync) {
    f.Await();
  }
  return OkStatus();
}

// A wait in a loop body, which may run zero times: the rule reports; the
// witness goes through the loop body, where the replay is clean.
Status CountLoop(Reader* reader, int tries) {
  int received = 0;
  HostFuture<void> f = reader->ReadAsync();
  f.OnReady([&received](Status s) { received++; });  // want "only a wait for 'f' in a loop body that may run zero times \(line 42\) comes before 'received' dies at line 45: when the loop does not run" not-reproduced
  for (int i = 0; i < tries; ++i) {
    f.Await();
  }
  return OkStatus();
}
