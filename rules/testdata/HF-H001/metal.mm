// Objective-C++: a readback issued from a method, then the tensor reused.
@implementation Readback
- (void)readAndClear:(at::Tensor&)t into:(void*)dst {
  HostFuture<void> done = t.storage()->ReadToHost(dst);
  t.zero_();  // want "ReadToHost \(line 4\) may still be using 't' when zero_ mutates it in place" latent
  done.wait();
}

- (void)readWaitClear:(at::Tensor&)t into:(void*)dst {
  HostFuture<void> done = t.storage()->ReadToHost(dst);
  done.wait();
  t.zero_();
}

// A blit from the tensor's buffer, then the tensor changed before the
// command buffer completes.
- (void)blitAndClear:(at::Tensor&)t to:(id<MTLBuffer>)dst commands:(id<MTLCommandBuffer>)cb {
  id<MTLBlitCommandEncoder> blit = [cb blitCommandEncoder];
  [blit copyFromBuffer:getMTLBufferStorage(t) sourceOffset:0 toBuffer:dst destinationOffset:0 size:t.nbytes()];
  [blit endEncoding];
  [cb commit];
  t.zero_();  // want "copyFromBuffer \(line 19\) may still be using 't' when zero_ mutates it in place" confirmed
  [cb waitUntilCompleted];
}

- (void)blitWaitClear:(at::Tensor&)t to:(id<MTLBuffer>)dst commands:(id<MTLCommandBuffer>)cb {
  id<MTLBlitCommandEncoder> blit = [cb blitCommandEncoder];
  [blit copyFromBuffer:getMTLBufferStorage(t) sourceOffset:0 toBuffer:dst destinationOffset:0 size:t.nbytes()];
  [blit endEncoding];
  [cb commit];
  [cb waitUntilCompleted];
  t.zero_();
}
@end
