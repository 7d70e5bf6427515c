// Correct look-alikes from real backends: the host waits for the
// continuation through an object it shares with it.

// absl::Notification: the host blocks until the callback notifies.
Status CopyAndWait(HostFuture<void> done) {
  absl::Notification ready;
  Status result;
  done.OnReady([&](Status s) {
    result = s;
    ready.Notify();
  });
  ready.WaitForNotification();
  return result;
}

// A promise the callback sets, awaited by the host.
int AwaitValue(HostFuture<int> f) {
  std::promise<int> p;
  std::future<int> got = p.get_future();
  f.OnReady([&p](int v) { p.set_value(v); });
  return got.get();
}

// A function combinator's then composes functions; the composition runs
// when it is called, here, before the locals die: nothing is a future.
Tensor SquareThenScale(const Tensor& x, const Tensor& scale) {
  Tensor bias = MakeBias(x);
  return sequence_function(Square).then([&](const Tensor& y) { return Mul(y, scale, bias); }).call(x);
}
