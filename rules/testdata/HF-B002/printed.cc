// A pointer printed by a %p conversion goes on by its value only (C11
// 7.21.6.1: the value of the pointer is converted to printing
// characters): after a helper freed what it points to, printing it reads
// nothing freed. A %s conversion reads the string it points to.
#include <cstdio>
#include <cstdlib>

struct Item {
  int kind;
  char* name;
};

void release_item(Item* it) { std::free(it); }

int finish_logged(Item* it, int n) {
  release_item(it);
  std::printf("released %p\n", static_cast<void*>(it));
  return n;
}

int finish_named(Item* it, int n) {
  release_item(it);
  std::printf("released %d %s\n", n, it->name);  // want "'it' is used at line 23 after release_item, which frees what it points to" confirmed
  return n;
}

void release_name(char* name) { std::free(name); }

void forget_name(char* name, int n) {
  release_name(name);
  std::printf("%d %s\n", n, name);  // want "'name' is used at line 31 after release_name, which frees what it points to" confirmed
}

void forget_name_logged(char* name, int n) {
  release_name(name);
  std::fprintf(stderr, "%d %p\n", n, static_cast<void*>(name));
}
