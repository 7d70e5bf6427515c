// Reference-counted objects under Cocoa's ownership policy, as metal-cpp
// wraps them: alloc, new, copy, mutableCopy and Create functions give the
// caller a reference; retain takes one; release and autorelease give one
// up. Releasing a reference the function does not hold frees the object
// under its owner.
#include <Metal/Metal.hpp>

void returned_not_owned_bad(MTL::CommandQueue* queue) {
  MTL::CommandBuffer* cb = queue->commandBuffer();
  cb->commit();
  cb->release();  // want "over-release"
}

void released_twice_bad(MTL::Device* dev) {
  MTL::Buffer* buf = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  buf->release();
  buf->release();  // want "over-release"
}

void autoreleased_then_released_bad(MTL::Device* dev) {
  MTL::Buffer* buf = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  buf->autorelease();
  buf->release();  // want "over-release"
}

void auto_bad(MTL::Device* dev) {
  auto queue = dev->newCommandQueue();
  auto cb = queue->commandBuffer();
  cb->release();  // want "over-release"
  queue->release();
}

void used_after_release_bad(MTL::Device* dev) {
  MTL::Buffer* buf = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  buf->release();
  void* p = buf->contents();  // want "use-after-free"
}

void handed_after_release_bad(MTL::Device* dev, MTL::ComputeCommandEncoder* enc) {
  MTL::Buffer* buf = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  buf->release();
  enc->setBuffer(buf, 0, 0);  // want "use-after-free"
}

// Correct: the encoder was handed the buffer and may keep a reference.
void handed_before_release_ok(MTL::Device* dev, MTL::ComputeCommandEncoder* enc) {
  MTL::Buffer* buf = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  enc->setBuffer(buf, 0, 0);
  buf->release();
  buf->length();
}

// Correct: retained once more, so one release leaves it alive.
void retained_twice_ok(MTL::Device* dev) {
  MTL::Buffer* buf = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  buf->retain();
  buf->release();
  buf->length();
  buf->release();
}

// Correct: a blit's copyFromBuffer begins with copy but is a queued copy
// (the metal pack's async role), not an object the caller owns; the
// command buffer keeps a reference to the buffers its commands use
// (MTLCommandBuffer's retainedReferences), so releasing src is fine.
void blit_then_release_ok(MTL::Device* dev, MTL::CommandQueue* queue, MTL::Buffer* dst) {
  MTL::Buffer* src = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  MTL::CommandBuffer* cb = queue->commandBuffer();
  MTL::BlitCommandEncoder* blit = cb->blitCommandEncoder();
  blit->copyFromBuffer(src, 0, dst, 0, 64);
  blit->endEncoding();
  cb->commit();
  src->release();
}

// Correct: made with new and Create, released once each.
void owned_ok(MTL::CommandQueue* queue) {
  MTL::Device* dev = MTL::CreateSystemDefaultDevice();
  MTL::Buffer* buf = dev->newBuffer(64, MTL::ResourceStorageModeShared);
  buf->release();
  dev->release();
}

// Correct: retained before it is released.
void retained_ok(MTL::CommandQueue* queue) {
  MTL::CommandBuffer* cb = queue->commandBuffer();
  cb->retain();
  cb->commit();
  cb->release();
}

// Correct: retained and released under the same condition.
void retained_when_kept_ok(MTL::CommandQueue* queue, bool keep) {
  MTL::CommandBuffer* cb = queue->commandBuffer();
  if (keep) cb->retain();
  cb->commit();
  if (keep) cb->release();
}

// Correct: a parameter's reference is the caller's to say (a function
// may be documented to consume it).
void consumes_ok(MTL::Buffer* buf) { buf->release(); }

// Correct: a type of no counted namespace has a release of its own.
struct Pool {
  void release();
};
void other_release_ok(Pool* pool) { pool->release(); }

class Encoder {
 public:
  Encoder(MTL::CommandQueue* queue) { cb_ = queue->commandBuffer(); }  // want "over-release"
  ~Encoder() { cb_->release(); }

 private:
  MTL::CommandBuffer* cb_;
};

// Correct: the member is retained when stored.
class RetainingEncoder {
 public:
  RetainingEncoder(MTL::CommandQueue* queue) {
    cb_ = queue->commandBuffer();
    cb_->retain();
  }
  ~RetainingEncoder() { cb_->release(); }

 private:
  MTL::CommandBuffer* cb_;
};
