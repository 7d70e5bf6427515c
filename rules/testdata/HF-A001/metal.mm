// Objective-C++: a readback method whose staging buffer is a local the
// returned future does not keep.
@implementation Readback
- (HostFuture<void>)readBack:(const at::Tensor&)t into:(void*)dst {
  BufferHandle staging = MaterializeOnDevice(t);
  HostFuture<void> done = staging.ReadToHost(dst);  // want "ReadToHost may still use 'staging' when its only owner dies at line 8" latent
  return done;
}

- (void)readBackNow:(const at::Tensor&)t into:(void*)dst {
  BufferHandle staging = MaterializeOnDevice(t);
  HostFuture<void> done = staging.ReadToHost(dst);
  done.wait();
}
@end
