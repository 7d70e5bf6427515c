// Other names: a handle type named like a work object, built with new.

std::shared_ptr<ReceiveWork> Channel::Receive(Buffer* dst) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  auto work = std::make_shared<ReceiveWork>(dst);  // want "ReceiveWork is built without 'arrived' \(started at line 4\)" latent
  return work;
}

ReceiveWork* Channel::ReceiveRaw(Buffer* dst) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  return new ReceiveWork(dst, /*tag=*/7);  // want "ReceiveWork is built without 'arrived'" latent
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

// The receive is waited for in a branch: on the path that skips it the work
// object's wait() returns early; the witness takes that path, where the
// replay faults.
std::shared_ptr<ReceiveWork> Channel::ReceiveMaybeSync(Buffer* dst, bool sync) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  if (sync) {
    arrived.Await();
  }
  return std::make_shared<ReceiveWork>(dst);  // want "ReceiveWork is built without 'arrived' \(started at line 39\): its wait\(\) returns before the work is done" latent
}

// The receive is waited for in a polling loop, which may run zero times:
// the rule reports; the witness goes through the loop body, where the
// replay is clean.
std::shared_ptr<ReceiveWork> Channel::ReceivePolled(Buffer* dst, int polls) {
  HostFuture<void> arrived = transport_->ReadAsync(dst);
  for (int i = 0; i < polls; ++i) {
    arrived.Await();
  }
  return std::make_shared<ReceiveWork>(dst);  // want "ReceiveWork is built without 'arrived' \(started at line 50\): its wait\(\) returns before the work is done" not-reproduced
}
