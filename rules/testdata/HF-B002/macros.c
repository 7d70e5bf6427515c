// Statement macros applied to a block: the macro may assign the
// variables it names (an iteration's element), so a helper that freed the
// last one is not followed into the next; the block itself is code of the
// function, and a use in it after the helper is found.

static void entry_free(entry_t* e) { free(e); }

void drain(table_t* t) {
  entry_t* e;
  table_foreach(t, e, {
    entry_free(e);
  })
  table_foreach(t, e, {
    entry_free(e);
  })
}

void drain_list(list_t* head, entry_t* e) {
  entry_free(e);
  list_for_each(e, head) {
    e->v = 0;
  }
}

void guard_bad(entry_t* e) {
  entry_free(e);
  INIT_ONCE(&guard) {
    e->v = 1;  // want "'e' is used at line 28 after entry_free, which frees what it points to" confirmed
  }
}
