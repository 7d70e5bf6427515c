// Records for later work that copy the caller's arrays.

typedef struct job_t {
  resource_set_t* resources;
  buffer_t** buffers;
  table_t* tables;
  fence_t** fences;
} job_t;

// The buffers and fences are kept with the job; the tables are not.
status_t queue_job(queue_t* queue, buffer_t** buffers, int buffer_count, table_t* tables, int table_count, fence_t** fences, int fence_count) {
  job_t* job = NULL;
  allocate(queue->allocator, sizeof(*job), (void**)&job);
  memcpy(job->buffers, buffers, buffer_count * sizeof(*buffers));
  memcpy(job->tables, tables, table_count * sizeof(*tables));  // want "'job' copies the caller's 'tables' for later, but only 'buffers', 'fences' go to iree_hal_resource_set_insert" latent
  memcpy(job->fences, fences, fence_count * sizeof(*fences));
  status_t status = iree_hal_resource_set_insert(job->resources, buffer_count, buffers);
  if (is_ok(status)) {
    status = iree_hal_resource_set_insert(job->resources, fence_count, fences);
  }
  if (is_ok(status)) {
    job_list_push(&queue->jobs, job);
  }
  return status;
}

// Correct: every copied array is kept with the job.
status_t queue_job_kept(queue_t* queue, buffer_t** buffers, int buffer_count, table_t* tables, int table_count) {
  job_t* job = NULL;
  allocate(queue->allocator, sizeof(*job), (void**)&job);
  memcpy(job->buffers, buffers, buffer_count * sizeof(*buffers));
  memcpy(job->tables, tables, table_count * sizeof(*tables));
  status_t status = iree_hal_resource_set_insert(job->resources, buffer_count, buffers);
  if (is_ok(status)) {
    status = iree_hal_resource_set_insert(job->resources, table_count, tables);
  }
  job_list_push(&queue->jobs, job);
  return status;
}

// Correct: nothing is kept, so nothing says the caller's references are
// not enough (the caller keeps them until the job completes).
status_t queue_job_borrowed(queue_t* queue, buffer_t** buffers, int buffer_count) {
  job_t* job = NULL;
  allocate(queue->allocator, sizeof(*job), (void**)&job);
  memcpy(job->buffers, buffers, buffer_count * sizeof(*buffers));
  job_list_push(&queue->jobs, job);
  return ok_status();
}
