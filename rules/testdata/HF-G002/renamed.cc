// Other names: an IValue, a py::object and an implicit copy into callbacks
// on device work.

void Engine::Submit(c10::IValue input, se::Stream* stream) {
  stream->DoHostCallback([input]() { Log(input); }).IgnoreError();  // want "'input' \(c10::IValue\) is captured by value and released by the DoHostCallback callback on the runtime thread" confirmed
}

void Engine::Notify(py::object on_done, HostFuture<void> f) {
  f.OnReady([=](Status s) { Fire(on_done, s); });  // want "'on_done' \(py::object\) is captured by value" confirmed
}

// A container of tensors copies every one of them.
void Engine::Gather(const std::vector<at::Tensor>& parts, HostFuture<void> f) {
  f.OnReady([parts](Status s) { Consume(s); });  // want "'parts' \(std::vector<at::Tensor>\) is captured by value" confirmed
}

void Engine::Chain(at::Tensor t, HostFuture<void> f) {
  f.Then([t = std::move(t)](Status s) { Consume(s); });  // want "'t' \(at::Tensor\) is captured by value" confirmed
}

// Correct: captured by reference (the caller keeps it until it waits).
void Engine::ByReference(at::Tensor& t, HostFuture<void> f) {
  f.OnReady([&t](Status s) { Consume(s); });
  f.Await();
}

// Correct: only a raw data pointer travels into the callback.
void Engine::RawPointer(const at::Tensor& t, HostFuture<void> f) {
  const float* data = t.data_ptr<float>();
  f.OnReady([data](Status s) { Consume(data); });
}

// Correct: a tensor captured by a lambda that is not a completion callback.
void Engine::Immediate(at::Tensor t) {
  auto run = [t]() { Consume(t); };
  run();
}

// A callback wrapped in an adapter that returns a callable running it.
void Engine::Wrapped(at::Tensor t, HostFuture<void> f) {
  f.Then(at::wrapPropagateTLSState([t](Status s) { Consume(s); }));  // want "'t' \(at::Tensor\) is captured by value and released by the Then callback on the runtime thread" confirmed
}

// The caller's own reference outlives the wait: the callback's copy is not
// the last one and the tensor is released on the host after the wait. The
// rule cannot tell the last reference apart and still reports; the replay
// shows no deadlock.
void Engine::SubmitAndWait(at::Tensor t, HostFuture<void> f) {
  f.OnReady([t](Status s) { Consume(s); });  // want "'t' \(at::Tensor\) is captured by value and released by the OnReady callback on the runtime thread" not-reproduced
  f.Await();
}

void Engine::LocalAndWait(HostFuture<void> f) {
  at::Tensor scratch = at::empty({4});
  f.OnReady([keep = scratch](Status s) { Consume(s); });  // want "'keep' \(at::Tensor\) is captured by value" not-reproduced
  f.Await();
}

// A wait on one path only does not keep the host's reference to the end of
// every path: the callback may hold the last reference.
void Engine::LocalMaybeWait(HostFuture<void> f, bool sync) {
  at::Tensor scratch = at::empty({4});
  f.OnReady([keep = scratch](Status s) { Consume(s); });  // want "'keep' \(at::Tensor\) is captured by value" confirmed
  if (sync) {
    f.Await();
  }
}

// Moved into the callback: the callback holds the only reference, whatever
// the host waits for afterwards.
void Engine::MovedThenWait(at::Tensor t, HostFuture<void> f) {
  f.OnReady([t = std::move(t)](Status s) { Consume(s); });  // want "'t' \(at::Tensor\) is captured by value" confirmed
  f.Await();
}

// A wait in a loop body, which may run zero times: the rule cannot prove
// the host's reference outlives a wait and reports; the witness goes
// through the loop body, where the host releases its reference after the
// wait and the replay shows no deadlock.
void Engine::LocalPolled(HostFuture<void> f, int polls) {
  at::Tensor scratch = at::empty({4});
  f.OnReady([keep = scratch](Status s) { Consume(s); });  // want "'keep' \(at::Tensor\) is captured by value" not-reproduced
  for (int i = 0; i < polls; ++i) {
    f.Await();
  }
}
