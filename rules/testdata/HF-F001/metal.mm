// Objective-C++: an encoder method binds a packed copy of its output.
@implementation ScatterOp
- (void)encode:(id<MTLComputeCommandEncoder>)enc output:(at::Tensor&)out {
  at::Tensor packed = out.contiguous();  // want "'packed' may be a new copy of 'out': the write at line 5 is lost when 'out' is a view" confirmed
  [enc setBuffer:getMTLBufferStorage(packed) offset:0 atIndex:0];
  [enc dispatchThreads:MTLSizeMake(out.numel(), 1, 1) threadsPerThreadgroup:MTLSizeMake(64, 1, 1)];
}

- (void)encodeFixed:(id<MTLComputeCommandEncoder>)enc output:(at::Tensor&)out {
  at::Tensor packed = out.contiguous();
  [enc setBuffer:getMTLBufferStorage(packed) offset:0 atIndex:0];
  [enc dispatchThreads:MTLSizeMake(out.numel(), 1, 1) threadsPerThreadgroup:MTLSizeMake(64, 1, 1)];
  if (!out.is_contiguous()) {
    out.copy_(packed);
  }
}
@end
