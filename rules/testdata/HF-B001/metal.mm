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
    srcs.push_back(staging.data());  // want "raw pointer borrowed from 'staging' is kept in 'srcs', which is used at line 15" confirmed
  }
  [self.queue submit:srcs.data() count:srcs.size()];
}
@end
