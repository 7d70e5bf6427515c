// Correct look-alikes from real backends.

// unique_ptr::release() hands ownership to the pointer: nothing dangles
// when the unique_ptr dies.
Chunk* Detach(Pool& pool) {
  Chunk* raw = nullptr;
  {
    std::unique_ptr<Chunk> owned = pool.Take();
    raw = owned.release();
  }
  return Fill(raw);
}

// se::DeviceMemoryBase is a non-owning handle (a pointer and a size): its
// end frees nothing.
void* Peek(Allocation& allocation) {
  void* p = nullptr;
  {
    se::DeviceMemoryBase mem = allocation.mem();
    p = mem.opaque();
  }
  return Use(p);
}
