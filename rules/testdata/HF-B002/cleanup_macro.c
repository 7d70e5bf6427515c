// A macro that runs its cleanup argument only on the branch where it
// returns: the code after the macro runs only where the cleanup did not.
// The same cleanup written out before the code that goes on is a use
// after the free.

static void image_release(image_t* img) { free(img); }

#define WARN_OR_FAIL(strict, cmd, cleanup) \
  {                                        \
    int err = cmd;                         \
    if (err) {                             \
      if (strict) {                        \
        cleanup                            \
        return err;                        \
      } else {                             \
        warn(err);                         \
      }                                    \
    }                                      \
  }

int decode(image_t* img, int strict) {
  WARN_OR_FAIL(strict, set_profile(img), { image_release(img); });
  set_colors(img);
  return 0;
}

#define WARN_THEN(cmd, cleanup) \
  {                             \
    int err = cmd;              \
    if (err) {                  \
      cleanup                   \
      warn(err);                \
    }                           \
  }

int decode_warned(image_t* img) {
  WARN_THEN(set_profile(img), { image_release(img); });
  set_colors(img);  // want "'img' is used at line 38 after image_release, which frees what it points to" confirmed
  return 0;
}
