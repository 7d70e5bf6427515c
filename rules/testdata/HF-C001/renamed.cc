// Other names, other consumers.

// Returned empty inside a pair with the future.
std::pair<HostFuture<void>, std::vector<std::shared_ptr<const void>>> ReadAll(Storage& storage, int n) {
  std::vector<std::shared_ptr<const void>> keepalive;
  std::vector<HostFuture<void>> futures;
  for (int i = 0; i < n; ++i) {
    BufferHandle h = storage.Slot(i);
    futures.push_back(h.ReadToHost());
  }
  return {JoinAll(std::move(futures)), std::move(keepalive)};  // want "hold container 'keepalive' is returned but nothing is ever put into it" not-modelled
}

// A hold known by its name, moved into a lambda that outlives the call.
void Launch(Queue& q, const std::vector<Block>& blocks) {
  std::vector<std::unique_ptr<Block>> pins;
  q.Enqueue(blocks);
  q.OnDone([pins = std::move(pins)]() mutable { pins.clear(); });  // want "hold container 'pins' is moved into a lambda but nothing is ever put into it" not-modelled
}

// Filled through a helper taking it by pointer: quiet.
void ByPointer(Queue& q) {
  std::vector<std::shared_ptr<void>> holds;
  CollectHolds(q, &holds);
  q.Submit(std::move(holds));
}

// Filled through a helper taking it by reference: quiet.
void ByReference(Queue& q) {
  std::vector<std::shared_ptr<void>> holds;
  CollectHolds(q, holds);
  q.Submit(std::move(holds));
}

// Filled on one path only: quiet (the rule asks for no fill on any path).
void OnePath(Queue& q, bool keep, std::shared_ptr<void> buf) {
  std::vector<std::shared_ptr<void>> holds;
  if (keep) {
    holds.emplace_back(buf);
  }
  q.Submit(std::move(holds));
}

// Assigned, resized, swapped: quiet.
void Assigned(Queue& q, std::vector<std::shared_ptr<void>> other) {
  std::vector<std::shared_ptr<void>> a, b, c;
  a = std::move(other);
  b.resize(2);
  c.swap(a);
  q.Submit(std::move(a));
  q.Submit(std::move(b));
  q.Submit(std::move(c));
}

// Filled inside a lambda that captures it by reference: quiet.
void ByLambda(Queue& q, const std::vector<std::shared_ptr<void>>& bufs) {
  std::vector<std::shared_ptr<void>> holds;
  std::for_each(bufs.begin(), bufs.end(), [&](const std::shared_ptr<void>& b) { holds.push_back(b); });
  q.Submit(std::move(holds));
}

// Declared and never handed on: nothing to report.
void Unused() {
  std::vector<std::shared_ptr<void>> holds;
}

// Not a hold: an ordinary empty vector handed on is fine.
void NotAHold(Queue& q) {
  std::vector<int> sizes;
  q.Submit(std::move(sizes));
}

// The hold is handed on empty, but the buffer's owner outlives the wait on
// the transfer: the rule reports the empty hold, and the replay of these
// events shows no fault.
void UploadAndWait(Queue& q, HostSlice src) {
  std::vector<std::shared_ptr<void>> holds;
  DeviceBufferRef dst = AllocateDeviceBuffer(src.size());
  HostFuture<void> done = CopyRawHostToDevice(dst, src);
  q.Submit(std::move(holds));  // want "hold container 'holds' is handed to Submit" not-reproduced
  done.Await();
}
