// Completions handed over with their data: the caller must not touch the
// data afterwards, since the completion may run at once and free it.

static void xfer_destroy(xfer_t* xfer) {
  if (!xfer) {
    return;
  }
  pool_release(xfer->pool);
  free(xfer);
}

// Frees its data only when the last part is done.
static status_t xfer_part_done(void* user_data, status_t status) {
  xfer_t* xfer = (xfer_t*)user_data;
  if (++xfer->parts_done != xfer->part_count) {
    return status;
  }
  xfer_destroy(xfer);
  return status;
}

// Never frees: a completion that only counts.
static void xfer_count(void* user_data) {
  counter_t* counter = (counter_t*)user_data;
  counter->value++;
}

status_t submit(engine_t* engine, xfer_t* xfer) {
  status_t status = engine_add_completion(engine, &xfer_part_done, xfer);
  xfer->submitted = 1;  // want "'xfer' is used at line 30 after it was handed to engine_add_completion at line 29, which may free it" latent
  return status;
}

// Correct twin: the field is written before the hand-off.
status_t submit_first(engine_t* engine, xfer_t* xfer) {
  xfer->submitted = 1;
  return engine_add_completion(engine, &xfer_part_done, xfer);
}

// The last part hands the data over inside the loop, whose condition then
// reads it again.
status_t submit_parts(engine_t* engine, xfer_t* xfer) {
  status_t status = ok_status();
  for (int i = 0; i < xfer->part_count; ++i) {
    if (i == xfer->part_count - 1) {
      status = engine_add_completion(engine, xfer_part_done, xfer);  // want "'xfer' is handed to engine_add_completion, which may free it, in a loop whose condition reads it at line 44" latent
    } else {
      status = engine_queue(engine, i);
    }
  }
  return status;
}

// Correct twin: the loop is left right after the hand-off.
status_t submit_parts_break(engine_t* engine, xfer_t* xfer) {
  status_t status = ok_status();
  for (int i = 0; i < xfer->part_count; ++i) {
    if (i == xfer->part_count - 1) {
      status = engine_add_completion(engine, xfer_part_done, xfer);
      break;
    }
    status = engine_queue(engine, i);
  }
  return status;
}

// Correct twin: a failed hand-off handed nothing over, so the failure
// branch may still use and destroy the data.
status_t submit_or_fail(engine_t* engine, xfer_t* xfer) {
  status_t status = engine_add_completion(engine, &xfer_part_done, xfer);
  if (!is_ok(status)) {
    fail_all(xfer->waiters);
    xfer_destroy(xfer);
  }
  return status;
}

// Correct twin: the completion never frees its data.
void count_later(engine_t* engine, counter_t* counter) {
  engine_add_completion(engine, &xfer_count, counter);
  counter->pending++;
}

// Correct twin: the arm for the last part hands the data over for good and
// leaves the loop; the other arm's completions only count parts, so the
// loop may go on reading the data.
status_t submit_parts_final(engine_t* engine, xfer_t* xfer) {
  status_t status = ok_status();
  for (int i = 0; i < xfer->part_count; ++i) {
    if (i == xfer->part_count - 1) {
      status = engine_add_completion(engine, xfer_part_done, xfer);
      break;
    } else {
      status = engine_add_completion(engine, xfer_part_done, xfer);
    }
  }
  return status;
}

// A completion that only forwards its data to a function that frees it on
// some paths (a state machine the completion checks first): not counted.
static void xfer_resolved(void* user_data, status_t status) {
  xfer_settle((xfer_t*)user_data, status);
}
static void xfer_settle(xfer_t* xfer, status_t status) {
  if (atomic_exchange(&xfer->state, STATE_DONE) == STATE_ARMED) {
    return;
  }
  xfer_destroy(xfer);
}
void arm(engine_t* engine, xfer_t* xfer) {
  status_t status = engine_wait(engine, xfer_resolved, xfer);
  xfer_finish_arming(xfer, status);
}
