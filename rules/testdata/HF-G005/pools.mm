// Completion handlers that free into a pool embedded in another object.

typedef struct gpu_device_t {
  block_pool_t block_pool;
  id<MTLCommandQueue> queue;
} gpu_device_t;

gpu_device_t* gpu_device_cast(device_t* base);

// The handler frees the set into the device's pool; nothing keeps the
// device alive until it runs.
status_t submit(device_t* base_device, id<MTLCommandBuffer> cb) {
  gpu_device_t* device = gpu_device_cast(base_device);
  resource_set_t* resource_set = NULL;
  status_t status = resource_set_allocate(&device->block_pool, &resource_set);
  [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {  // want "the addCompletedHandler callback frees 'resource_set' into the pool of 'device' but keeps no reference to it" latent
    iree_hal_resource_set_free(resource_set);
  }];
  [cb commit];
  return status;
}

// Correct: the device is retained before and released in the handler.
status_t submit_retained(device_t* base_device, id<MTLCommandBuffer> cb) {
  gpu_device_t* device = gpu_device_cast(base_device);
  resource_set_t* resource_set = NULL;
  status_t status = resource_set_allocate(&device->block_pool, &resource_set);
  device_retain(base_device);
  [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
    iree_hal_resource_set_free(resource_set);
    device_release(base_device);
  }];
  [cb commit];
  return status;
}

// Correct: the set comes from a pool the caller passed, not a member.
status_t submit_pool(block_pool_t* pool, id<MTLCommandBuffer> cb) {
  resource_set_t* resource_set = NULL;
  status_t status = resource_set_allocate(pool, &resource_set);
  [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
    iree_hal_resource_set_free(resource_set);
  }];
  [cb commit];
  return status;
}
