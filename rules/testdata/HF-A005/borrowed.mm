// Work encoded on values the API lends a function only for the call.

// The wait and signal events come from semaphores the caller lends; the
// command buffers run after the function returns, keeping nothing.
status_t queue_execute(device_t* device, const iree_hal_semaphore_list_t wait_list, const iree_hal_semaphore_list_t signal_list) {
  id<MTLCommandBuffer> wait_cb = [device->queue commandBufferWithUnretainedReferences];
  for (int i = 0; i < wait_list.count; ++i) {
    [wait_cb encodeWaitForEvent:shared_event_handle(wait_list.semaphores[i]) value:wait_list.payload_values[i]];  // want "encodeWaitForEvent queues work that reads 'wait_list', which the caller lends only for this call" latent
  }
  [wait_cb commit];
  return ok_status();
}

// Correct: the semaphores go into a resource set freed on completion.
status_t queue_execute_kept(device_t* device, resource_set_t* set, const iree_hal_semaphore_list_t wait_list) {
  status_t status = iree_hal_resource_set_insert(set, wait_list.count, wait_list.semaphores);
  id<MTLCommandBuffer> wait_cb = [device->queue commandBufferWithUnretainedReferences];
  for (int i = 0; i < wait_list.count; ++i) {
    [wait_cb encodeWaitForEvent:shared_event_handle(wait_list.semaphores[i]) value:wait_list.payload_values[i]];
  }
  [wait_cb addCompletedHandler:^(id<MTLCommandBuffer> cb) { iree_hal_resource_set_free(set); }];
  [wait_cb commit];
  return status;
}

// Correct: the host waits for the work before returning.
status_t queue_execute_sync(device_t* device, const iree_hal_semaphore_list_t wait_list) {
  id<MTLCommandBuffer> wait_cb = [device->queue commandBufferWithUnretainedReferences];
  for (int i = 0; i < wait_list.count; ++i) {
    [wait_cb encodeWaitForEvent:shared_event_handle(wait_list.semaphores[i]) value:wait_list.payload_values[i]];
  }
  [wait_cb commit];
  [wait_cb waitUntilCompleted];
  return ok_status();
}
