// More paths alive at once than the bound (32) that differ only in the
// integers they know are merged, not dropped: the merged path forgets n,
// so the branch on it is followed both ways and the free on the path
// where no branch was taken (dropped first under truncation) is seen.

int merged_bad(int* a) {
  int* p = new int(1);
  int n = 0;
  if (a[0]) n = n + 1;
  if (a[1]) n = n + 2;
  if (a[2]) n = n + 4;
  if (a[3]) n = n + 8;
  if (a[4]) n = n + 16;
  if (a[5]) n = n + 32;
  if (a[6]) n = n + 64;
  if (a[7]) n = n + 128;
  if (n == 0) delete p;
  int r = *p;  // want "use-after-free"
  delete p;
  return r;
}

int merged_ok(int* a) {
  int* p = new int(1);
  int n = 0;
  if (a[0]) n = n + 1;
  if (a[1]) n = n + 2;
  if (a[2]) n = n + 4;
  if (a[3]) n = n + 8;
  if (a[4]) n = n + 16;
  if (a[5]) n = n + 32;
  if (a[6]) n = n + 64;
  if (a[7]) n = n + 128;
  int r = *p;
  if (n == 0) r = r + 1;
  delete p;
  return r;
}
