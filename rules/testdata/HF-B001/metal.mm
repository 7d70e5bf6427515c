// Objective-C++: the C++ inside methods is analysed.
class HostStaging {
 public:
  ~HostStaging();
  const void* data() const;
};

@implementation Uploader
- (void)uploadAll:(const std::vector<Tensor>&)ts {
  std::vector<const void*> srcs;
  for (const Tensor& t : ts) {
    HostStaging staging = [self stagingFor:t];
    srcs.push_back(staging.data());  // want "pointer kept in 'srcs' is used at line 15 after its owner 'staging' dies" confirmed
  }
  [self.queue submit:srcs.data() count:srcs.size()];
}
@end
