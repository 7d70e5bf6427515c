// Other names: a handle type named like a work object, built with new.

std::shared_ptr<ReceiveWork> Channel::Receive(Buffer* dst) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  auto work = std::make_shared<ReceiveWork>(dst);  // want "ReceiveWork is built without 'arrived' \(started at line 4\)" confirmed
  return work;
}

ReceiveWork* Channel::ReceiveRaw(Buffer* dst) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  return new ReceiveWork(dst, /*tag=*/7);  // want "ReceiveWork is built without 'arrived'" confirmed
}

// Correct: the work is given the future after it is built.
std::shared_ptr<ReceiveWork> Channel::ReceiveLater(Buffer* dst) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  auto work = std::make_shared<ReceiveWork>(dst);
  work->SetFuture(std::move(arrived));
  return work;
}

// Correct: the receive is waited for before the work is built.
std::shared_ptr<ReceiveWork> Channel::ReceiveSync(Buffer* dst) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  arrived.Await();
  return std::make_shared<ReceiveWork>(dst);
}

// Correct: the constructor takes the future.
std::shared_ptr<ReceiveWork> Channel::ReceiveWithFuture(Buffer* dst) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  return std::make_shared<ReceiveWork>(dst, std::move(arrived));
}

// The receive is waited for on one path only: nothing proves the work is
// done when the object is built, so the rule reports; on the path the
// witness follows (through the wait) the replay is clean.
std::shared_ptr<ReceiveWork> Channel::ReceiveMaybeSync(Buffer* dst, bool sync) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  if (sync) {
    arrived.Await();
  }
  return std::make_shared<ReceiveWork>(dst);  // want "ReceiveWork is built without 'arrived' \(started at line 39\)" not-reproduced
}
