// Objective-C++: a packing helper that expects .contiguous() to copy.
@implementation Packer
- (void)pack:(const at::Tensor&)src into:(id<MTLBuffer>)dst {
  at::Tensor staging = at::empty({src.numel()}, src.options());
  at::Tensor packed = staging.contiguous();  // want "contiguous\(\) returns 'staging' itself, not a copy" not-modelled
  packed.copy_(src.view(-1));
}
@end
