// Helpers of this file that free their argument, and their callers.

static void job_free(job_t* job) {
  iree_allocator_free(job->allocator, job);
}

// Frees through another helper of the file.
static status_t job_retire(job_t* job) {
  notify(job->owner);
  job_free(job);
  return ok_status();
}

// Frees only on one path: not a fact about every call.
static void job_maybe_free(job_t* job) {
  if (job->done) {
    job_free(job);
  }
}

void process_all(job_t* job) {
  while (job) {
    job_t* next = job->next;
    status_t status = ok_status();
    switch (job->state) {
      case STATE_LIVE:
        status = job_run(job);
        break;
      case STATE_DEAD:
        status = job_retire(job);
        break;
    }
    if (!is_ok(status)) break;
    job->count = 0;  // want "'job' is used at line 34 after job_retire, which frees what it points to, was called with it at line 30" confirmed
    job = next;
  }
}

void drop(job_t* job) {
  job_free(job);
  log_job(job);  // want "'job' is used at line 41 after job_free" confirmed
}

// Correct: the job is used before it is freed.
void finish(job_t* job) {
  job->count = 0;
  job_retire(job);
}

// Correct: the pointer gets a new value after the free.
void recycle(job_t* job, pool_t* pool) {
  job_free(job);
  job = pool_take(pool);
  job->count = 0;
}

// Correct: the helper frees only on some paths.
void settle(job_t* job) {
  job_maybe_free(job);
  job->count = 0;
}

// Correct: the function returns right after the free.
void stop(job_t* job, int fail) {
  if (fail) {
    job_free(job);
    return;
  }
  job->count = 0;
}

// A reference taken first: the rule reports the use after the helper, and
// the replay, where the reference keeps the object, is clean.
void hand_off(job_t* job) {
  iree_hal_resource_retain(job);
  job_free(job);
  job->count = 0;  // want "'job' is used at line 77 after job_free" not-reproduced
}

// Correct: freed in one arm, used in the other.
void settle_or_queue(job_t* job, queue_t* q) {
  if (q->closed) {
    job_free(job);
  } else {
    queue_push(q, job);
  }
}

// Correct: freed in one case of a switch that breaks, used in another.
void dispatch(job_t* job) {
  switch (job->state) {
    case STATE_DEAD:
      job_free(job);
      break;
    case STATE_LIVE:
      job_run(job);
      break;
  }
}

// Correct: the loop is left right after the free.
void drain(job_t** jobs, int n) {
  for (int i = 0; i < n; ++i) {
    job_t* job = jobs[i];
    if (job->failed) {
      job_free(job);
      break;
    }
    job->count = 0;
  }
}

static void job_free_with(job_t* job, status_t status) {
  record(status);
  job_free(job);
}

// Correct: the freed pointer's field is an argument of the freeing call,
// read before the call runs.
void fail_job(job_t* job) {
  job_free_with(job, make_status(job->status));
  return;
}

// Correct: after the free only the pointer's value is used (logged,
// compared), never what it pointed to.
void drop_logged(job_t* job) {
  job_free(job);
  LOG(INFO) << "freed job " << job;
  if (job == last_job) last_job = NULL;
}

// Returns early on error before it frees: not a free on every path.
static status_t job_finish(job_t* job) {
  RETURN_IF_ERROR(flush(job->owner));
  job_free(job);
  return ok_status();
}

// Correct: the caller frees what the helper leaves on its error path.
void finish_or_free(job_t* job) {
  status_t status = job_finish(job);
  if (!is_ok(status)) {
    job->count = 0;
    job_free(job);
  }
}

// Only keys a table with the pointer: it never reaches the pointee.
static void forget_job(job_t* job) {
  table_erase_key(&g_jobs, (uintptr_t)job);
}

// Correct: after the free the pointer is handed to a helper of the file
// that only uses its value.
void drop_and_forget(job_t* job) {
  job_free(job);
  forget_job(job);
}

// One arm of a preprocessor conditional is compiled: the other build's
// free is not on this build's path.
void finish_build(job_t* job) {
#if defined(JOB_KEEP)
  notify(job->owner);
#else
  job_free(job);
#endif
  job->count = 0;
}

void finish_build_freeing(job_t* job) {
#ifdef JOB_FREE_FIRST
  job_free(job);
#else
  notify(job->owner);
#endif
  job->count = 0;  // want "'job' is used at line 178 after job_free, which frees what it points to, was called with it at line 174"
}
