// (the test parses as .cc; a .cu file's __shared__ reads as static, see
// parser/cuda.go) A static block-wide buffer returned by reference.
struct Storage { float v[32]; };

// Correct: static storage outlives the call.
Storage& private_storage() {
  static Storage s;
  return s;
}

// Shared memory lives as long as the thread block, whatever block of the
// kernel declares it: __align__(sizeof(T)) must not split the declaration
// from its storage class.
void tile_rows(const float* in, float* out, int width, bool tiled, int lane) {
  float* buf = out;
  if (tiled) {
    extern __shared__ __align__(sizeof(float)) unsigned char staging[];
    buf = reinterpret_cast<float*>(staging);
  }
  buf[lane] = in[lane];
  out[lane] = buf[width - 1 - lane];
}

// An automatic array of the block does end with it.
void tile_rows_bad(const float* in, float* out, bool tiled, int lane) {
  float* buf = out;
  if (tiled) {
    __align__(sizeof(float)) unsigned char staging[1024];
    buf = reinterpret_cast<float*>(staging);
  }
  buf[lane] = in[lane];  // want "use-after-scope"
}
