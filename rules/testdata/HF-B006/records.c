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
  memcpy(job->tables, tables, table_count * sizeof(*tables));  // want "'job' copies the caller's 'tables' for later, but nothing keeps what it points to alive" latent
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

// An array of HAL objects the caller lends only for the call is copied
// into a task that runs later, and nothing retains them.
status_t issue_allocate(task_scope_t* scope, int count, iree_hal_command_buffer_t** const command_buffers, issue_cmd_t** out_cmd) {
  issue_cmd_t* cmd = NULL;
  allocate_cmd(scope, count, (void**)&cmd);
  cmd->count = count;
  memcpy(cmd->command_buffers, command_buffers, count * sizeof(*command_buffers));  // want "'cmd' copies the caller's 'command_buffers' for later, but nothing keeps what it points to alive" latent
  *out_cmd = cmd;
  return ok_status();
}

// Correct: each command buffer is retained for the task.
status_t issue_allocate_retained(task_scope_t* scope, int count, iree_hal_command_buffer_t** const command_buffers, issue_cmd_t** out_cmd) {
  issue_cmd_t* cmd = NULL;
  allocate_cmd(scope, count, (void**)&cmd);
  cmd->count = count;
  memcpy(cmd->command_buffers, command_buffers, count * sizeof(*command_buffers));
  for (int i = 0; i < count; ++i) {
    iree_hal_command_buffer_retain(command_buffers[i]);
  }
  *out_cmd = cmd;
  return ok_status();
}

// Correct: the copy's entries are inserted into the task's resource set.
status_t issue_allocate_set(task_scope_t* scope, resource_set_t* set, int count, iree_hal_buffer_ref_list_t bindings, issue_cmd_t** out_cmd) {
  issue_cmd_t* cmd = NULL;
  allocate_cmd(scope, count, (void**)&cmd);
  memcpy(cmd->bindings, bindings.values, count * sizeof(*bindings.values));
  status_t status = iree_hal_resource_set_insert_strided(set, count, cmd->bindings, 0, 16);
  *out_cmd = cmd;
  return status;
}
