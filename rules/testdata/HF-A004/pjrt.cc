// PJRT C++: futures of copies dropped on the floor.
absl::Status Prefetch(xla::PjRtBuffer* buffer, void* dst, int64_t n) {
  buffer->CopyRawToHostFuture(dst, 0, n);  // want "the future of CopyRawToHostFuture is discarded" not-modelled
  return absl::OkStatus();
}

absl::Status Download(xla::PjRtBuffer* buffer, xla::MutableBorrowingLiteral* literal) {
  xla::Future<> done = buffer->ToLiteral(literal);  // want "future 'done' of ToLiteral is never waited on, handed on or chained" not-modelled
  return absl::OkStatus();
}

// Correct: returned, awaited, chained.
xla::Future<> PrefetchAsync(xla::PjRtBuffer* buffer, void* dst, int64_t n) {
  return buffer->CopyRawToHostFuture(dst, 0, n);
}

absl::Status DownloadNow(xla::PjRtBuffer* buffer, xla::MutableBorrowingLiteral* literal) {
  xla::Future<> done = buffer->ToLiteral(literal);
  return done.Await();
}

void DownloadThen(xla::PjRtBuffer* buffer, xla::MutableBorrowingLiteral* literal, Tracker& t) {
  xla::Future<> done = buffer->ToLiteral(literal);
  done.OnReady([&t](absl::Status s) { t.Done(s); });
}

// The PJRT C API: the event comes back in the argument struct.
PJRT_Error* CopyOut(const PJRT_Api* api, PJRT_Buffer* buffer, void* dst, size_t size) {
  PJRT_Buffer_ToHostBuffer_Args args;
  args.struct_size = PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE;
  args.src = buffer;
  args.dst = dst;
  args.dst_size = size;
  return api->PJRT_Buffer_ToHostBuffer(&args);  // want "the event PJRT_Buffer_ToHostBuffer returns in 'args' is never read" not-modelled
}

// Correct: the event is awaited and destroyed.
PJRT_Error* CopyOutAndWait(const PJRT_Api* api, PJRT_Buffer* buffer, void* dst, size_t size) {
  PJRT_Buffer_ToHostBuffer_Args args;
  args.struct_size = PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE;
  args.src = buffer;
  args.dst = dst;
  args.dst_size = size;
  if (PJRT_Error* err = api->PJRT_Buffer_ToHostBuffer(&args)) {
    return err;
  }
  PJRT_Event_Await_Args await;
  await.event = args.event;
  return api->PJRT_Event_Await(&await);
}
