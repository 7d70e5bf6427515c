// Objective-C++: a C++ completion token declared in a Metal backend.
class CommandToken {
 public:
  CommandToken(MTLFuture<void> done, std::shared_ptr<void> retained = nullptr);  // want "hold parameter 'retained' of CommandToken defaults to nullptr" not-modelled
};

@implementation Encoder
- (void)finish:(id<MTLCommandBuffer>)cb {
  [cb commit];
}
@end
