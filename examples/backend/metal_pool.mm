// A Metal buffer pool: released buffers are recycled for the next
// allocation of a fitting size.
#import <Metal/Metal.h>

#include "backend/metal_pool.h"

namespace backend {

class MetalBufferPool {
 public:
  void Release(id<MTLBuffer> buffer) {
    // Bad: recycled at once, while the last command buffer may still read it.
    cache_->recycle(buffer);
  }

  void ReleaseWhenDone(id<MTLBuffer> buffer) {
    // Good: recycled from the command buffer's completion handler, which
    // holds its own reference to the cache.
    std::shared_ptr<BufferCache> cache = cache_;
    [last_ addCompletedHandler:^(id<MTLCommandBuffer> done) {
      cache->recycle(buffer);
    }];
  }

 private:
  id<MTLCommandQueue> queue_;
  id<MTLCommandBuffer> last_;
  std::shared_ptr<BufferCache> cache_;
};

}  // namespace backend
