// An object returned by value that was given a pointer to an argument
// holds it in the caller (Call.Holds): made in the return statement
// (T{&a}, T(&a), {&a}) or a local returned. Returning one given a
// pointer into the frame is a dangling return.
#include <vector>

struct Blob {
  explicit Blob(int n);
  int* data;
};

struct Ref {
  const Blob* blob;
  int tag;
};

class Handle {
 public:
  explicit Handle(const Blob* b) : blob_(b) {}
  const Blob* get() const { return blob_; }

 private:
  const Blob* blob_;
};

Ref refer(const Blob& b) { return Ref{&b, 1}; }
Ref refer_braced(const Blob& b) { return {&b, 2}; }
Handle wrap(const Blob* b) { return Handle(b); }
Ref refer_local(const Blob& b) {
  Ref r{&b, 3};
  return r;
}
// Holds nothing of its argument: only a value read through it.
Ref tagged(const Blob& b) { return Ref{nullptr, *b.data}; }

void Submit(const Ref& r);
void Send(const Handle& h);

void factory_result_outlives_block() {
  Ref r{nullptr, 0};
  {
    Blob b(0);
    r = refer(b);
  }
  Submit(r);  // want "use-after-scope"
}

void braced_factory_result_outlives_block() {
  Ref r{nullptr, 0};
  {
    Blob b(0);
    r = refer_braced(b);
  }
  Submit(r);  // want "use-after-scope"
}

void local_factory_result_outlives_block() {
  Ref r{nullptr, 0};
  {
    Blob b(0);
    r = refer_local(b);
  }
  Submit(r);  // want "use-after-scope"
}

int factory_result_after_growth() {
  std::vector<Blob> blobs;
  blobs.emplace_back(Blob(0));
  Ref r = refer(blobs.back());
  blobs.emplace_back(Blob(1));
  return *r.blob->data;  // want "use-after-invalidate"
}

void constructed_factory_outlives_block() {
  Handle h(nullptr);
  {
    Blob b(0);
    h = wrap(&b);
  }
  Send(h);  // want "use-after-scope"
}

Ref returns_made_of_local() {
  Blob b(0);
  return Ref{&b, 4};  // want "returns-local"
}

// Correct: used while the argument lives.
void factory_result_used_inside() {
  Blob b(0);
  Ref r = refer(b);
  Submit(r);
}

// Correct: the factory keeps nothing of its argument.
void value_factory_outlives_block() {
  Ref r{nullptr, 0};
  {
    Blob b(0);
    r = tagged(b);
  }
  Submit(r);
}

void SubmitAll(const std::vector<Ref>& refs);

// A temporary made by a factory or a braced list, put in a container of
// values: the element holds what the temporary held.
void factory_result_put_in_container() {
  std::vector<Ref> refs;
  {
    Blob b(0);
    refs.push_back(refer(b));
  }
  SubmitAll(refs);  // want "use-after-scope"
}

void made_put_in_container() {
  std::vector<Ref> refs;
  {
    Blob b(0);
    refs.push_back(Ref{&b, 5});
  }
  SubmitAll(refs);  // want "use-after-scope"
}

// Correct: handed on while the blob lives.
void made_put_in_container_used_inside() {
  std::vector<Ref> refs;
  Blob b(0);
  refs.push_back(Ref{&b, 5});
  SubmitAll(refs);
}
