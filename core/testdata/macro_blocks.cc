// Statement macros applied to a block: FOREACH(args) { ... }, which the
// grammar reads as a nested function definition, and FOREACH(args, {
// ... }), a block as an argument. Neither is C or C++ a function can
// be: the block is the enclosing function's, it runs zero times or
// once, and the macro may assign the variables it names (a loop
// variable).
#include <stdlib.h>

struct node { struct node* next; int v; };

int foreach_ok(struct node* head, struct node* it) {
  free(it);
  list_for_each(it, head) {
    it->v = 0;
  }
  return 0;
}

int table_ok(struct table* t) {
  const char* key;
  table_foreach_key(t, key, {
    free((void*)key);
  })
  table_foreach(t, key, {
    free((void*)key);
  })
  return 0;
}

int block_bad(struct node* head, struct node* it, int* p) {
  free(p);
  list_for_each(it, head) {
    it->v = p[0];  // want "use-after-free"
  }
  return 0;
}

int run_once_bad(int* p) {
  int r = 0;
  INIT_ONCE(&guard) {
    free(p);
  }
  r = p[0];  // want "use-after-free"
  return r;
}

int run_once_ok(int* p) {
  INIT_ONCE(&guard) {
    free(p);
    return -1;
  }
  return p[0];
}

// The same with an address as the first argument: the grammar reads a
// call statement lacking its semicolon and the block after it.
struct ctx { struct node* used; };

int address_ok(struct ctx* c) {
  struct node *it, *tmp;
  list_for_each_safe(&c->used, it, tmp) {
    free(it);
  }
  list_for_each_safe(&c->used, it, tmp)
    it->v = 0;
  return 0;
}

int address_bad(struct ctx* c) {
  struct node *it, *tmp;
  list_for_each_safe(&c->used, it, tmp) {
    struct node* copy = (struct node*)malloc(sizeof *copy);
    free(copy);
    copy->v = it->v;  // want "use-after-free"
  }
  return 0;
}
