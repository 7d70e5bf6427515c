// goto jumps: a forward goto to a label of an enclosing block skips the
// statements between, and the path goes on from the label; the scopes it
// leaves end their locals. The C cleanup idiom (free, goto out) is a
// path that never reaches the code after the jump.
#include <stdlib.h>

int cleanup_ok(int n) {
  char* buf = (char*)malloc(n);
  int ret = 0;
  if (n > 100) {
    free(buf);
    ret = -1;
    goto out;
  }
  buf[0] = 1;
  free(buf);
out:
  return ret;
}

int cleanup_bad(int n) {
  char* buf = (char*)malloc(n);
  int ret = 0;
  if (n > 100) {
    free(buf);
    goto out;
  }
  ret = 1;
out:
  free(buf);  // want "double-free"
  return ret;
}

int nested_ok(int n) {
  char* buf = (char*)malloc(n);
  for (int i = 0; i < n; i++) {
    if (i == 3) {
      free(buf);
      goto done;
    }
    buf[i] = 0;
  }
  free(buf);
done:
  return 0;
}

int* scope_bad(int n) {
  int* p = 0;
  {
    int local = n;
    p = &local;
    if (n) goto out;
    p = 0;
  }
out:
  return p;  // want "use-after-scope"
}

int label_fallthrough_bad(int n) {
  char* buf = (char*)malloc(n);
  free(buf);
  if (n) goto out;
  n = 2;
out:
  return buf[0];  // want "use-after-free"
}
