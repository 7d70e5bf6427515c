// Other names: a pool pointer captured into a host function that frees.

void Arena::ReturnWhenDone(cudaStream_t stream, void* block) {
  Pool* pool = pool_;
  auto fn = [pool, block]() {
    pool->recycle(block);  // want "the deferred callback frees 'block' through 'pool', a raw allocator pointer copied into it" not-modelled
  };
  stream_->ThenExecuteCallback(stream, fn).IgnoreError();
}

// Correct: the pointer is captured, but the lambda is not deferred.
void Arena::ReturnNow(void* block) {
  Pool* pool = pool_;
  auto fn = [pool, block]() { pool->recycle(block); };
  fn();
}
