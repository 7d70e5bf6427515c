// A helper that frees its argument, called on an error branch that jumps
// to a cleanup label past the use: the use runs only on the path where
// the object is live. A jump to a label before the use does not cut.

static void region_destroy(region_t* region) { free(region); }

int insert_region(cache_t* cache, region_t* region) {
  int status = cache_insert(cache, region);
  if (status != 0) {
    region_destroy(region);
    goto out;
  }
  region->flags = 1;
out:
  return status;
}

int retry_region(cache_t* cache, region_t* region) {
  int status = cache_insert(cache, region);
  if (status != 0) {
    region_destroy(region);
    goto again;
  }
again:
  region->flags = 1;  // want "'region' is used at line 25 after region_destroy, which frees what it points to" confirmed
  return status;
}

// The address of the pointer is handed to an allocator, which stores a
// new object in it: the later use is of the new one.
int refresh_region(cache_t* cache, region_t* region) {
  int ret;
  region_destroy(region);
  ret = my_memalign((void **)&region,
                    64, sizeof(region_t), "region");
  if (ret != 0) {
    goto err;
  }
  region->flags = 2;
  ret = cache_insert(cache, region);
err:
  return ret;
}

// The address of another pointer stores nothing in this one.
int other_region(cache_t* cache, region_t* region) {
  int ret;
  region_t* fresh = 0;
  region_destroy(region);
  ret = my_memalign((void **)&fresh, 64, sizeof(region_t), "region");
  if (ret != 0) {
    goto err;
  }
  region->flags = 2;  // want "'region' is used at line 54 after region_destroy, which frees what it points to" confirmed
  ret = cache_insert(cache, fresh);
err:
  return ret;
}

// Correct: whichever variant the build compiles leaves before the second
// release (a goto past it, or a return).
int check_text(char* text, int bad) {
  int r = 1;
  if (bad) {
    drop_text(text);
#ifdef QUIET_ERRORS
    r = 0;
    goto out;
#else
    return -1;
#endif
  }
  drop_text(text);
out:
  return r;
}

// One variant goes on to the second release.
int check_text_loud(char* text, int bad) {
  int r = 1;
  if (bad) {
    drop_text(text);
#ifdef QUIET_ERRORS
    r = 0;
#else
    return -1;
#endif
  }
  drop_text(text);  // want "'text' is used at line 89 after drop_text, which frees what it points to" confirmed
  return r;
}

void drop_text(char* p) { free(p); }
