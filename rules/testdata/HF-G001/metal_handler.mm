// Objective-C++: a C++ object registers a completion handler whose block
// reaches a member through this.
#import <Metal/Metal.h>

class FrameEncoder {
 public:
  void Submit(id<MTLCommandBuffer> cb) {
    [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {  // want "the callback registered with addCompletedHandler on 'cb' captures this but holds no reference to the object" latent
      inflight_--;
    }];
    [cb commit];
  }

  // Correct: the encoder waits for the command buffer before returning.
  void SubmitAndWait(id<MTLCommandBuffer> cb) {
    [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
      inflight_--;
    }];
    [cb commit];
    [cb waitUntilCompleted];
  }

 private:
  int inflight_ = 0;
};
