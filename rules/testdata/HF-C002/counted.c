// Arrays filled through a counter for a call that then gets something else.

status_t prepare(set_t* set, const void* kernel, const void* indirect, int flags) {
  int count = 1;
  const void* keep[2] = {kernel, NULL};
  if (flags & USES_INDIRECT) {
    keep[count++] = indirect;
  }
  return iree_hal_resource_set_insert(set, count, &kernel);  // want "iree_hal_resource_set_insert gets the count of 'keep' with '&kernel', a single value, instead of 'keep'" not-modelled
}

// Correct: the filled array is what the call gets.
status_t prepare_fixed(set_t* set, const void* kernel, const void* indirect, int flags) {
  int count = 1;
  const void* keep[2] = {kernel, NULL};
  if (flags & USES_INDIRECT) {
    keep[count++] = indirect;
  }
  return iree_hal_resource_set_insert(set, count, keep);
}

// Correct: a single value with a count of one, no array built for it.
status_t keep_one(set_t* set, const void* kernel) {
  return iree_hal_resource_set_insert(set, 1, &kernel);
}

// Correct: the array is passed, elsewhere, after the counted call.
status_t prepare_both(set_t* set, const void* kernel, const void* indirect) {
  int count = 0;
  const void* keep[2];
  keep[count++] = indirect;
  status_t s = record(set, count, &kernel);
  if (is_ok(s)) s = iree_hal_resource_set_insert(set, count, keep);
  return s;
}
