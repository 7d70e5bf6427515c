// Continuations and the code around them that holdfast cannot see.

// Correct: a builder's Map runs the lambda before it returns; the builder
// is neither a future nor a stream, so nothing is registered.
void WriteOptions(std::vector<uint8_t>* out, int tolerance) {
  FlatMapBuilder fbb;
  fbb.Map([&]() {
    fbb.Int("tolerance", tolerance);
  });
  fbb.Finish();
  *out = fbb.GetBuffer();
}

// Correct: the host blocks on a latch the continuation counts down, so the
// two synchronise there.
void RunAll(HostFuture<void> done) {
  CountDownLatch latch(1);
  done.AndThen([&latch]() { latch.CountDown(); });
  latch.Wait();
}

// Confirmed: the local dies at return and nothing the host does afterwards
// can wait for the continuation.
int CountLater(HostFuture<void> done) {
  int seen = 0;
  done.AndThen([&seen]() { seen++; });  // want "captures local 'seen' by reference" confirmed
  return 0;
}

// Latent: the object the continuation signals is handed to a helper
// holdfast cannot see, which may wait on it: the replay faults only if the
// helper does not.
void RunAllHelped(HostFuture<void> done) {
  CountDownLatch latch(1);
  done.AndThen([&latch]() { latch.CountDown(); });  // want "captures local 'latch' by reference" latent
  DrainUntilZero(&latch);
}
