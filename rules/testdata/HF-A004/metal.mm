// Objective-C++: a readback whose future is dropped inside a method.
@implementation Readback
- (void)warm:(Storage&)storage into:(void*)dst {
  HostFuture<void> warm = storage.ReadToHost(dst);  // want "future 'warm' of ReadToHost is never waited on" not-modelled
}

- (void)warmAndWait:(Storage&)storage into:(void*)dst {
  HostFuture<void> warm = storage.ReadToHost(dst);
  warm.wait();
}
@end
