// A chain of helpers written callers first: the free at the end of the
// chain is known of every link, whatever the order of the file.

void use_job(job_t* job) {
  job_release5(job);
  log_job(job);  // want "'job' is used at line 6 after job_release5, which frees what it points to" confirmed
}

static void job_release5(job_t* job) { job_release4(job); }
static void job_release4(job_t* job) { job_release3(job); }
static void job_release3(job_t* job) { job_release2(job); }
static void job_release2(job_t* job) { job_release1(job); }
static void job_release1(job_t* job) { job_free_now(job); }
static void job_free_now(job_t* job) { iree_allocator_free(job->allocator, job); }

// Correct: used before the chain frees it.
void use_then_release(job_t* job) {
  log_job(job);
  job_release5(job);
}
