// The same shapes with other names: a HostFuture<void> from ReadToHost is
// as async as xla::Future<> from ToLiteral (a type named *Future is a
// future), and a BufferHandle local is as much an owner as a
// DeviceBufferRef. No name below is in an API pack.

HostFuture<void> Reader::ReadBack(const Tensor& t, void* dst) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> done = h.ReadToHost(dst);  // want "ReadToHost may still use 'h' when its only owner dies at line 10" latent
  return done;
}

// Through the storage of a packed copy that only this function owns.
HostFuture<void> Reader::ReadPacked(const Tensor& t, void* dst) {
  Tensor packed = t.contiguous();
  HostFuture<void> done = packed.storage()->ReadToHost(dst);  // want "ReadToHost may still use 'packed' when its only owner dies at line 17" latent
  pending_ = std::move(done);
}

// Handed to a work object that outlives the call.
c10::intrusive_ptr<Work> Reader::ReadAsWork(const Tensor& t, void* dst) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> done = h.ReadToHost(dst);  // want "ReadToHost may still use 'h' when its only owner dies at line 24" latent
  return c10::make_intrusive<ReadWork>(std::move(done));
}

// Correct: get() blocks until the read is done, while h lives.
Status Reader::ReadNow(const Tensor& t, void* dst) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> done = h.ReadToHost(dst);
  return done.get();
}

// Correct: the futures are collected and waited for before the handles die.
Status Reader::ReadAll(const std::vector<Tensor>& ts, void* dst) {
  std::vector<BufferHandle> handles;
  std::vector<HostFuture<void>> pending;
  for (const Tensor& t : ts) {
    BufferHandle h = store_->Materialize(t);
    pending.push_back(h.ReadToHost(dst));
    handles.push_back(std::move(h));
  }
  for (auto& f : pending) {
    f.wait();
  }
  return Status::OK();
}

// Correct: the continuation keeps the handle until the read completes.
HostFuture<void> Reader::ReadKept(const Tensor& t, void* dst) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> done = h.ReadToHost(dst);
  done.Then([h = std::move(h)]() mutable { h.Reset(); });
  return done;
}

// Correct: the handle is a copy of a member, a shared owner.
HostFuture<void> Reader::ReadCached(void* dst) {
  BufferHandle h = cached_;
  HostFuture<void> done = h.ReadToHost(dst);
  return done;
}

// Only the non-blocking path leaks: the blocking one waits first.
HostFuture<void> Reader::ReadMaybeBlocking(const Tensor& t, void* dst, bool blocking) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> done = h.ReadToHost(dst);  // want "ReadToHost may still use 'h' when its only owner dies at line 72" latent
  if (blocking) {
    done.wait();
    return done;
  }
  return done;
}

// A .contiguous() of a tensor known to be contiguous is that tensor: the
// owner that dies is 'base'.
HostFuture<void> Reader::ReadFresh(int64_t n, void* dst) {
  Tensor base = at::empty({n});
  Tensor same = base.contiguous();
  HostFuture<void> done = same.storage()->ReadToHost(dst);  // want "ReadToHost may still use 'base' \(through 'same'\) when its only owner dies at line 81" latent
  return done;
}

// Stored into a container the caller owns: it outlives the handle.
void Reader::ReadInto(const Tensor& t, void* dst, std::vector<HostFuture<void>>* pending) {
  BufferHandle h = store_->Materialize(t);
  HostFuture<void> done = h.ReadToHost(dst);  // want "ReadToHost may still use 'h' when its only owner dies at line 88" latent
  pending->push_back(std::move(done));
}

// Correct: the host blocks until the buffer is ready before returning.
xla::Future<> ReadBlocking(const at::Tensor& src, xla::MutableBorrowingLiteral* literal) {
  DeviceBufferRef ref = MaterializeAndReturn(src, MaterializationReason::kTransfer);
  xla::Future<> done = ref->ToLiteral(literal);
  TF_RETURN_IF_ERROR(ref->BlockHostUntilReady());
  return done;
}

// The future is waited for in a loop over the pending reads, which
// holdfast cannot prove runs: the rule reports, and the replay of the path
// through the loop body, where the read is waited for before 'h' dies, is
// clean.
HostFuture<void> Reader::ReadDrained(const Tensor& t, void* dst) {
  BufferHandle h = store_->Materialize(t);
  std::vector<HostFuture<void>> pending;
  HostFuture<void> done = h.ReadToHost(dst);  // want "ReadToHost may still use 'h' when its only owner dies at line 111" not-reproduced
  pending.push_back(done);
  for (auto& f : pending) {
    f.wait();
  }
  return done;
}
