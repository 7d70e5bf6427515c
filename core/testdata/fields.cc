// The pointer a field holds: freeing it (free(p->buf), delete p->obj, a
// callee that frees its parameter) ends the memory it points to, so a
// later p->buf[0], *p->buf or p->obj->n on the same object uses freed
// memory, and a second free frees it twice. A pointer copied out of the
// field is not followed. Storing in the field, or
// handing the object to a call, points the field elsewhere.
#include <cstdlib>

struct Item {
  int n;
};

struct Table {
  char* buf;
  Item* item;
  Table* next;
};

void release(char* p) { free(p); }
void refill(Table* t);

void free_then_index_bad(Table* t) {
  free(t->buf);
  t->buf[0] = 0;  // want "use-after-free"
}

void delete_then_arrow_bad(Table* t) {
  delete t->item;
  t->n_items = t->item->n;  // want "use-after-free"
}

void freed_twice_bad(Table* t) {
  free(t->buf);
  free(t->buf);  // want "double-free"
}

void callee_frees_bad(Table* t) {
  release(t->buf);
  *t->buf = 1;  // want "use-after-free"
}

void other_field_ok(Table* t) {
  free(t->buf);
  t->item->n = 0;
}

// Correct: each element's field is freed once (a[i].buf is not followed).
void elements_ok(Table* rows, int n) {
  for (int i = 0; i < n; i++) release(rows[i].buf);
}

// Correct: a pointer stepped through an array names another element at
// each step.
void stepped_ok(Table* t, int n) {
  for (int i = 0; i < n; i++) {
    free(t->buf);
    t = t + 1;
  }
}

void incremented_ok(Table* t, int n) {
  for (int i = 0; i < n; i++, ++t) free(t->buf);
}

struct Pool {
  int count;
  Table* tables;
};

// Correct: the address of an element of an array a field points to is a
// different element at each step.
void element_address_ok(Pool* pool) {
  for (int i = 0; i < pool->count; i++) {
    Table* t = &pool->tables[i];
    if (t->item != nullptr) delete t->item;
  }
}

// Correct: t->next->buf is another object's field than t->buf.
void nested_ok(Table* t) {
  free(t->next->buf);
  free(t->buf);
}

// Correct: two reads of the field in branches the code keeps apart (by
// another field) are not taken for one pointer freed twice.
void exclusive_reads_ok(Table* t) {
  if (t->item->n == 1) {
    char* a = t->buf;
    free(a);
  }
  if (t->item->n == 2) {
    char* b = t->buf;
    free(b);
  }
}

void stored_local_bad(Table* t) {
  char* p = static_cast<char*>(malloc(8));
  t->buf = p;
  free(p);
  t->buf[0] = 1;  // want "use-after-free"
}

// Correct: the field is given new memory after the free.
void refilled_ok(Table* t) {
  free(t->buf);
  t->buf = static_cast<char*>(malloc(16));
  t->buf[0] = 0;
}

// Correct: cleared after the free, and tested before the use.
void nulled_ok(Table* t) {
  free(t->buf);
  t->buf = nullptr;
  if (t->buf) t->buf[0] = 0;
}

// Correct: a call handed the object may give the field new memory.
void handed_on_ok(Table* t) {
  free(t->buf);
  refill(t);
  t->buf[0] = 0;
}

// Correct: another object's field.
void other_object_ok(Table* a, Table* b) {
  free(a->buf);
  b->buf[0] = 0;
}

// Correct: each node's fields are freed once, the node after them.
void list_ok(Table* head) {
  Table* next;
  for (Table* t = head; t; t = next) {
    next = t->next;
    free(t->buf);
    delete t->item;
    delete t;
  }
}

void list_while_ok(Table* head) {
  while (head) {
    Table* t = head;
    head = head->next;
    free(t->buf);
    delete t;
  }
}
