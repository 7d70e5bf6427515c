// A function of the tree named like a pack's materialising call returns
// what its own declaration says: a reference to a member is no new copy,
// and a write through it reaches the member. One the tree declares to
// return a value is a copy, as the pack says.
#include <cstring>
#include <memory>

struct Chunk {
  unsigned char* Data();
  unsigned long Size() const;
};

struct Slot {
  std::unique_ptr<Chunk>& GetBuffer(int key) { return chunk; }
  std::unique_ptr<Chunk> chunk;
};

void Scribble(Slot& slot) {
  auto& c = slot.GetBuffer(0);
  std::memset(c->Data(), 0, c->Size());
}

struct Tensor {
  float* data_ptr();
};
Tensor MaterializeAndReturn(const Tensor& t);

void Fill(Tensor& out) {
  Tensor packed = MaterializeAndReturn(out);  // want "'packed' may be a new copy of 'out': the write at line 31 is lost when 'out' is a view"
  float* p = packed.data_ptr();
  p[0] = 1.0f;
}
