// Objective-C++: a completion handler block copies the tensor it uses.
#import <Metal/Metal.h>

void EncodeAndRelease(at::Tensor output, id<MTLCommandBuffer> cb) {
  [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {  // want "'output' \(at::Tensor\) is captured by value and released by the addCompletedHandler callback on the runtime thread" confirmed
    MarkReady(output);
  }];
  [cb commit];
}

// Correct: the block only uses the buffer's contents pointer.
void EncodeRaw(const at::Tensor& output, id<MTLCommandBuffer> cb) {
  float* out = output.data_ptr<float>();
  [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
    Touch(out);
  }];
  [cb commit];
}
