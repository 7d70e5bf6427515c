// Layout through other calls and names.

void Stripes(const at::Tensor& x, Sender& s) {
  auto flat = x.contiguous().flatten();
  auto parts = flat.split(1 << 20);
  for (const auto& part : parts) {
    s.Send(part.contiguous());  // want "contiguous\(\) returns 'part' itself, not a copy" not-modelled
  }
  auto rows = at::empty({8, 128}).narrow(0, 2, 4);
  s.Send(rows.contiguous());  // want "contiguous\(\) returns 'rows' itself, not a copy" not-modelled
  at::Tensor grid = at::zeros({4, 4});
  s.Send(grid[1].contiguous());  // want "contiguous\(\) returns 'grid\[1\]' itself, not a copy" not-modelled
  s.Send(grid.select(0, 2).contiguous());  // want "contiguous\(\) returns 'grid.select\(0, 2\)' itself, not a copy" not-modelled
  s.Send(grid.reshape({-1}).contiguous());  // want "contiguous\(\) returns 'grid.reshape\({-1}\)' itself, not a copy" not-modelled
  auto last = flat.chunk(2, -1);
  s.Send(last[0].contiguous());  // want "contiguous\(\) returns 'last\[0\]' itself, not a copy" not-modelled
  s.Send(at::contiguous(grid));  // want "contiguous\(\) returns 'grid' itself, not a copy" not-modelled
}

void Quiet(const at::Tensor& x, Sender& s, bool flip) {
  // Unknown: parameters, and values derived from them without .contiguous().
  s.Send(x.contiguous());
  s.Send(x.view(-1).contiguous());
  // Not contiguous: transpose, permute, expand, t(), a slice with a step.
  at::Tensor m = at::randn({16, 32});
  s.Send(m.transpose(0, 1).contiguous());
  s.Send(m.permute({1, 0}).contiguous());
  s.Send(m.t().contiguous());
  s.Send(at::ones({1, 32}).expand({16, 32}).contiguous());
  s.Send(m.slice(0, 0, 16, 2).contiguous());
  // A chunk along a later dim of an N-D tensor.
  auto cols = m.chunk(4, 1);
  s.Send(cols[0].contiguous());
  // A narrow along dim 1.
  s.Send(m.narrow(1, 0, 8).contiguous());
  // Channels-last is not contiguous.
  at::Tensor img = at::empty({1, 3, 8, 8}).contiguous(at::MemoryFormat::ChannelsLast);
  s.Send(img.contiguous());
  // A value reassigned on one path only.
  at::Tensor y = at::empty({4, 4});
  if (flip) {
    y = y.t();
  }
  s.Send(y.contiguous());
  // A value mutated in place.
  at::Tensor z = at::empty({4, 4});
  z.transpose_(0, 1);
  s.Send(z.contiguous());
}

// Meant as a snapshot: the "copy" is 'flag' itself, which changes while the
// read of it is in flight.
Status Snapshot(void* dst) {
  at::Tensor flag = at::ones({4});
  at::Tensor snapshot = flag.contiguous();  // want "contiguous\(\) returns 'flag' itself, not a copy" latent
  HostFuture<void> read = snapshot.storage()->ReadToHost(dst);
  flag.fill_(0);
  return read.get();
}

// The same no-op snapshot, but the read is waited for before 'flag'
// changes: the rule reports the no-op, and the replay shows no fault.
Status SnapshotWaited(void* dst) {
  at::Tensor flag = at::ones({4});
  at::Tensor snapshot = flag.contiguous();  // want "contiguous\(\) returns 'flag' itself, not a copy" not-reproduced
  HostFuture<void> read = snapshot.storage()->ReadToHost(dst);
  Status s = read.get();
  flag.fill_(0);
  return s;
}

// The same snapshot read by an async copy an API model names: the replay
// faults whatever unseen code does.
Status SnapshotDma(void* dst) {
  at::Tensor flag = at::ones({4});
  at::Tensor snapshot = flag.contiguous();  // want "contiguous\(\) returns 'flag' itself, not a copy" confirmed
  xla::Future<> read = TpuAsyncDmaCopyDtoH(snapshot, dst);
  flag.fill_(0);
  return read.Await();
}

// A .contiguous() whose result is dropped: the receiver keeps its layout,
// and the kernel below still writes through the strided view.
void ScatterInto(at::Tensor& self, const at::Tensor& index, bool overlap) {
  at::Tensor original;
  if (overlap) {
    original = self;
    self.contiguous();  // want "the result of self.contiguous\(\) is dropped" confirmed
  }
  launch_scatter(self, index);
  if (overlap) {
    original.copy_(self);
  }
}

// The twin keeps the result: the kernel writes into the contiguous copy,
// which is copied back.
void ScatterIntoCopy(at::Tensor& self, const at::Tensor& index, bool overlap) {
  at::Tensor original;
  if (overlap) {
    original = self;
    self = self.contiguous();
  }
  launch_scatter(self, index);
  if (overlap) {
    original.copy_(self);
  }
}

// A call whose result initialises a value is not dropped.
void Kept(const at::Tensor& x) {
  at::Tensor y = x.contiguous();
  launch_scatter(y, x);
}
