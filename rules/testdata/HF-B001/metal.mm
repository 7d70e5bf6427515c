// Objective-C++: the C++ inside methods is analysed.
class HostStaging {
 public:
  ~HostStaging() { free(bytes_); }
  const void* data() const { return bytes_; }

 private:
  void* bytes_;
};

@implementation Uploader
- (void)uploadAll:(const std::vector<Tensor>&)ts {
  std::vector<const void*> srcs;
  for (const Tensor& t : ts) {
    HostStaging staging = [self stagingFor:t];
    srcs.push_back(staging.data());
  }
  [self.queue submit:srcs.data() count:srcs.size()];  // want "is handed on holding a pointer into the memory of 'staging', which ended at line 17" confirmed
}
@end
