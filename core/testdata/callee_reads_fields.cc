// A function that reads only some fields of the object it is handed
// reads nothing the other members hold: an object whose reference member
// dangles may be handed to it, as long as that member is not among them.
struct Options {
  int level;
};

struct Context {
  Context(const Options& o) : options(o), level(o.level) {}
  const Options& options;
  int level;
  int retries = 0;
};

int send(Context& ctx) { return ctx.level + ctx.retries; }
int send_options(Context& ctx) { return ctx.options.level; }
int send_method(Context& ctx);
int send_through(Context* ctx) { return ctx->level; }

int fields_read_good() {
  Context ctx(Options{});
  return send(ctx);
}

int pointer_fields_read_good() {
  Context ctx(Options{});
  return send_through(&ctx);
}

int dangling_field_read_bad() {
  Context ctx(Options{});
  return send_options(ctx);  // want "use-of-temporary"
}

int unknown_callee_bad() {
  Context ctx(Options{});
  return send_method(ctx);  // want "use-of-temporary"
}
