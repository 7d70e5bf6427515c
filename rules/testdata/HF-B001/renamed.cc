// The same shapes with other names: nothing here is in an API pack. The
// owners' classes are defined here, so it is visible that they free the
// memory their accessors lend when they die.

class BufferHandle {
 public:
  ~BufferHandle() { pool_->Return(memory_); }
  DeviceMemory* Get() { return memory_; }

 private:
  Pool* pool_;
  DeviceMemory* memory_;
};

class Staging {
 public:
  ~Staging() { free(data_); }
  const float* data() const { return data_; }

 private:
  float* data_;
};

Status Sender::Send(const std::vector<Tensor>& ts) {
  std::vector<DeviceMemory*> raw;
  for (const Tensor& t : ts) {
    BufferHandle h = Materialize(t);
    DeviceMemory* m = h.Get();
    raw.push_back(m);
  }
  WaitForPeer();
  return transport_->Send(raw);  // want "'raw' is handed on holding a pointer into the memory of 'h', which ended at line 30" confirmed
}

// A temporary borrow pushed straight into an outer vector.
void Gather(Stream& s, int n) {
  std::vector<const float*> views;
  for (int i = 0; i < n; ++i) {
    std::unique_ptr<HostBlock> block = s.Next();
    views.push_back(block.get());
  }
  Reduce(views);  // want "'views' is handed on holding a pointer into the memory of 'block', which ended at line 41" confirmed
}

// An outer pointer assigned inside a block.
float Peek(Pool& pool) {
  const float* p = nullptr;
  {
    Staging staging = pool.Acquire();
    p = staging.data();
  }
  return *p;  // want "'\*p' is used after 'staging', which owned its memory, ended at line 51" confirmed
}

// The address of a scoped struct kept in an outer vector.
void Collect(int n) {
  std::vector<Descriptor*> descs;
  for (int i = 0; i < n; ++i) {
    Descriptor d = MakeDescriptor(i);
    descs.push_back(&d);
  }
  Submit(descs);  // want "'descs' is handed on holding a pointer into the memory of 'd', which ended at line 61" confirmed
}

// Correct: the owners are kept alongside.
void CollectKept(int n) {
  std::vector<Descriptor*> descs;
  std::vector<std::unique_ptr<Descriptor>> keep;
  for (int i = 0; i < n; ++i) {
    auto d = std::make_unique<Descriptor>(MakeDescriptor(i));
    descs.push_back(d.get());
    keep.push_back(std::move(d));
  }
  Submit(descs);
}

// Correct: the container lives in the same scope as the owner.
void PerIteration(const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) {
    BufferHandle h = Materialize(t);
    std::vector<DeviceMemory*> raw;
    raw.push_back(h.Get());
    Send(raw);
  }
}

// Correct: the owner is a reference into a longer-lived container.
void FromCache(std::vector<BufferHandle>& cache) {
  std::vector<DeviceMemory*> raw;
  for (size_t i = 0; i < cache.size(); ++i) {
    BufferHandle& h = cache[i];
    raw.push_back(h.Get());
  }
  Send(raw);
}

// Correct: the owner lives until the end of the function.
void WholeFunction(Pool& pool) {
  Staging staging = pool.Acquire();
  std::vector<const float*> ptrs;
  {
    ptrs.push_back(staging.data());
  }
  Use(ptrs);
}

// Correct: nothing reads the outer container after the owner died.
void NoLaterUse(const std::vector<Tensor>& ts) {
  std::vector<DeviceMemory*> raw;
  for (const Tensor& t : ts) {
    BufferHandle h = Materialize(t);
    raw.push_back(h.Get());
    Send(raw);
    raw.clear();
  }
}

// Correct: a range insert copies the pointees into a container of values.
void CopyShape(Input& input, int n) {
  auto shape = std::vector<int64_t>{};
  {
    std::unique_ptr<int64_t[]> copy = std::make_unique<int64_t[]>(n);
    input.CopyTo(copy.get());
    shape.insert(shape.end(), copy.get(), copy.get() + n);
  }
  Resize(shape);
}

// The pointers' consumer runs and is awaited while each owner lives, and
// the container is emptied before the owner dies. The rule does not model
// clear(), so it reports the later use; the replay of these events, with
// the wait before the owner's death, shows no fault.
void SendAndWait(Transport& transport, const std::vector<Tensor>& ts) {
  std::vector<DeviceMemory*> raw;
  for (const Tensor& t : ts) {
    BufferHandle h = Materialize(t);
    DeviceMemory* m = h.Get();  // want "pointer 'm' kept in 'raw' is used at line 143 after its owner 'h' dies" not-reproduced
    raw.push_back(m);
    HostFuture<void> sent = transport.SendAsync(raw);
    sent.Await();
    raw.clear();
  }
  Log(raw);
}

// Latent: the same shape with a handle whose definition holdfast cannot
// see. It may be a non-owning handle (an op or value handle, an alias of a
// reference-counted object), so the owner's death freeing anything is an
// assumption.
Status SendOpaque(const std::vector<Tensor>& ts) {
  std::vector<DeviceMemory*> raw;
  for (const Tensor& t : ts) {
    OpaqueHandle h = Lookup(t);
    DeviceMemory* m = h.Get();  // want "pointer 'm' kept in 'raw' is used at line 157 after its owner 'h' dies" latent
    raw.push_back(m);
  }
  return Send(raw);
}
