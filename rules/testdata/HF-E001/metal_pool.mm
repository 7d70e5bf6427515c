// Objective-C++: a Metal buffer pool recycles a buffer while a command
// buffer that reads it may still be running.
#import <Metal/Metal.h>

class MetalBufferPool {
 public:
  void Release(id<MTLBuffer> buffer) {
    [blit_ fillBuffer:buffer range:NSMakeRange(0, 64) value:0];
    [cache_ recycle:buffer];  // want "'buffer' goes back to the allocator via recycle with nothing ordering it after 'queue_'" confirmed
  }

  // Correct: nothing was encoded on the buffer here.
  void ReleaseUnused(id<MTLBuffer> buffer) {
    [cache_ recycle:buffer];
  }

  // Correct: wait for the last command buffer before recycling.
  void ReleaseAfterWait(id<MTLBuffer> buffer) {
    [last_ waitUntilCompleted];
    [cache_ recycle:buffer];
  }

  // Correct: recycle from the command buffer's completion handler.
  void ReleaseWhenDone(id<MTLBuffer> buffer) {
    [last_ addCompletedHandler:^(id<MTLCommandBuffer> cb) {
      [cache_ recycle:buffer];
    }];
  }

 private:
  id<MTLCommandQueue> queue_;
  id<MTLCommandBuffer> last_;
  id<MTLBlitCommandEncoder> blit_;
  BufferCache* cache_;
};
