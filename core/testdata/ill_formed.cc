// Code no build can compile is no path: q->m where q points to a pointer
// (q = &p) reads a member of a pointer, which has none. A scan reads
// every variant of a #if, also one whose types do not fit; such a
// variant reports nothing.
struct Regs {
  long r0, r1;
};

#if defined(VARIANT_A)
long* Slot(Regs* ctx, int i) {
  return i == 0 ? &ctx->r0 : &ctx->r1;
}
#else
long* Slot(Regs* ctx, int i) {
  auto* s = &ctx;
  if (i == 0) {
    return &s->r0;
  }
  return &s->r1;
}
#endif

long* LocalSlot(int i) {
  Regs local;
  Regs* s = &local;
  if (i == 0) {
    return &s->r0;  // want "returns-local"
  }
  return nullptr;
}
