// Objective-C++: a Metal encoder path that hands on an empty keepalive.
@implementation Encoder
- (void)encodeAll:(id<MTLCommandBuffer>)cb {
  std::vector<std::shared_ptr<void>> keepalive;
  for (auto& t : inputs_) {
    [self encode:t into:cb];
  }
  Finish(cb, std::move(keepalive));  // want "hold container 'keepalive' is handed to Finish" not-modelled
}
@end
