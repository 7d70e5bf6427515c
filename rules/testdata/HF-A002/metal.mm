// Objective-C++: a Metal readback returns its completion and, beside it,
// the staging buffer it reads; the caller keeps only the completion.
struct Readback {
  MTLFuture<void> done;
  std::shared_ptr<void> staging_hold;
};

Readback StartReadback(id<MTLCommandQueue> queue, const at::Tensor& t);

@implementation Fetcher
- (MTLFuture<void>)fetch:(const at::Tensor&)t {
  Readback rb = StartReadback(queue_, t);
  return std::move(rb.done);  // want "'rb.done' is kept but 'rb.staging_hold' is dropped" confirmed
}

- (void)fetchAndWait:(const at::Tensor&)t {
  Readback rb = StartReadback(queue_, t);
  rb.done.wait();
}
@end
