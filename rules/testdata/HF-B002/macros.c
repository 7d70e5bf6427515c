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

// The same macros with an address as their first argument, which the
// grammar reads as a call statement lacking its semicolon followed by
// the block (or, without braces, the indented statement) it runs.
struct ctx_s { list_head_t used; list_head_t hot; };

void drain_both(struct ctx_s* ctx) {
  entry_t *e, *tmp;
  list_for_each_safe(&ctx->used, e, tmp, link) {
    list_del(&e->link);
    entry_free(e);
  }
  list_for_each_safe(&ctx->hot, e, tmp, link) {
    entry_free(e);
  }
}

void drain_braceless(struct ctx_s* ctx) {
  entry_t *e, *tmp;
  list_for_each_safe(&ctx->used, e, tmp, link)
    entry_free(e);
  list_for_each_safe(&ctx->hot, e, tmp, link)
    entry_free(e);
}

void drain_bad(struct ctx_s* ctx) {
  entry_t *e, *tmp;
  list_for_each_safe(&ctx->used, e, tmp, link) {
    entry_free(e);
    e->v = 0;  // want "'e' is used at line 60 after entry_free, which frees what it points to" confirmed
  }
}
