// Stream-ordered copies that keep nothing alive: host staging memory must
// live until the stream reaches the copy, on every path out of the
// function, early returns and error macros included.

#include <vector>

absl::Status Validate(const se::DeviceMemoryBase& mem);

// No wait at all: the staging vector is freed while the copy is queued.
absl::Status PushRows(se::Stream* stream, se::DeviceMemoryBase dst, const float* rows, size_t n) {
  std::vector<float> staging(rows, rows + n);
  TF_RETURN_IF_ERROR(stream->Memcpy(&dst, staging.data(), n * sizeof(float)));  // want "Memcpy queues work that reads 'staging', which dies at line 14" confirmed
  return absl::OkStatus();
}

// The wait covers the last path only: the early return leaves first.
absl::Status PushChecked(se::Stream* stream, se::DeviceMemoryBase dst, const float* rows, size_t n, bool strict) {
  std::vector<float> staging(rows, rows + n);
  TF_RETURN_IF_ERROR(stream->Memcpy(&dst, staging.data(), n * sizeof(float)));  // want "Memcpy queues work that reads 'staging', which dies at the early exit at line 21, before the wait" confirmed
  if (strict && n == 0) {
    return absl::InvalidArgumentError("empty");
  }
  return stream->BlockHostUntilDone();
}

// An error macro after the copy returns before the wait.
absl::Status PushValidated(se::Stream* stream, se::DeviceMemoryBase dst, const float* rows, size_t n) {
  std::vector<float> staging(rows, rows + n);
  TF_RETURN_IF_ERROR(stream->Memcpy(&dst, staging.data(), n * sizeof(float)));  // want "Memcpy queues work that reads 'staging', which dies at the early exit at line 30" confirmed
  TF_RETURN_IF_ERROR(Validate(dst));
  return stream->BlockHostUntilDone();
}

// Correct: the only return waits for the stream as it leaves.
absl::Status PushAndWait(se::Stream* stream, se::DeviceMemoryBase dst, const float* rows, size_t n) {
  std::vector<float> staging(rows, rows + n);
  TF_RETURN_IF_ERROR(stream->Memcpy(&dst, staging.data(), n * sizeof(float)));
  return stream->BlockHostUntilDone();
}

// Correct: the early return comes before anything was queued.
absl::Status PushNonEmpty(se::Stream* stream, se::DeviceMemoryBase dst, const float* rows, size_t n) {
  std::vector<float> staging(rows, rows + n);
  if (n == 0) {
    return absl::OkStatus();
  }
  TF_RETURN_IF_ERROR(stream->Memcpy(&dst, staging.data(), n * sizeof(float)));
  return stream->BlockHostUntilDone();
}

// Correct: the wait comes before the check that may return.
absl::Status PushThenCheck(se::Stream* stream, se::DeviceMemoryBase dst, const float* rows, size_t n) {
  std::vector<float> staging(rows, rows + n);
  TF_RETURN_IF_ERROR(stream->Memcpy(&dst, staging.data(), n * sizeof(float)));
  TF_RETURN_IF_ERROR(stream->BlockHostUntilDone());
  TF_RETURN_IF_ERROR(Validate(dst));
  return absl::OkStatus();
}

// Correct: the early return is on the other arm from the copy.
absl::Status PushEither(se::Stream* stream, se::DeviceMemoryBase dst, const float* rows, size_t n, bool skip) {
  std::vector<float> staging(rows, rows + n);
  if (skip) {
    return absl::OkStatus();
  } else {
    TF_RETURN_IF_ERROR(stream->Memcpy(&dst, staging.data(), n * sizeof(float)));
  }
  return stream->BlockHostUntilDone();
}
