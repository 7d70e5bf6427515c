// (the test parses as .cc; a .cu file's __shared__ reads as static, see
// parser/cuda.go) A static block-wide buffer returned by reference.
struct Storage { float v[32]; };

// Correct: static storage outlives the call.
Storage& private_storage() {
  static Storage s;
  return s;
}
