// Host memory freed, then used, on a path of the function.
struct Job { int state; Job* next; void Run(); };

void retire(Job* job) {
  delete job;
  job->state = 1;  // want "'job->state' is used after the memory it points to was freed by delete at line 5" confirmed
}

static void job_free(Job* job) { free(job); }

void drop(Job* job, bool log) {
  job_free(job);
  if (log) {
    job->Run();  // want "freed by job_free" confirmed
  }
}

void twice(Job* job) {
  delete job;
  delete job;  // want "frees memory already freed by delete" confirmed
}

void handle_reset() {
  auto owner = std::make_unique<Job>();
  Job* raw = owner.get();
  owner.reset();
  raw->Run();  // want "freed by reset" confirmed
}

// Correct: used before the free.
void finish(Job* job) {
  job->state = 1;
  delete job;
}

// Correct: the pointer is re-pointed after the free.
void advance(Job* job) {
  while (job) {
    Job* next = job->next;
    delete job;
    job = next;
  }
}

// Correct: the free is on a path that returns.
void maybe(Job* job, bool done) {
  if (done) {
    delete job;
    return;
  }
  job->Run();
}
