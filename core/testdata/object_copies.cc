// An object of a class copied member by member (no copy constructor or
// assignment of its own: [class.copy.ctor], [class.copy.assign]) holds
// what its source's pointer members hold; a pointer member read back
// is that pointer.
#include <vector>

struct Blob {
  explicit Blob(int n);
  int* data;
};

struct Handle {
  const Blob* blob;
  int tag;
};

void Submit(const Handle& h);

// The member read back points at the element the second emplace_back
// moved away.
int member_read_after_growth() {
  std::vector<Blob> blobs;
  blobs.emplace_back(Blob(0));
  Handle h{&blobs.back(), 0};
  blobs.emplace_back(Blob(1));
  return *h.blob->data;  // want "use-after-invalidate"
}

// A copy made by declaration holds what its source holds.
Handle copy_returned() {
  Blob b(0);
  Handle h{&b, 1};
  Handle copy = h;
  return copy;  // want "returns-local"
}

// Assigned from a local inside a block: the copy outlives the block's
// local.
void assigned_from_local() {
  Handle out{nullptr, 0};
  {
    Blob b(0);
    Handle h{&b, 1};
    out = h;
  }
  Submit(out);  // want "use-after-scope"
}

// Assigned a temporary made by a braced list.
void assigned_made() {
  Handle out{nullptr, 0};
  {
    Blob b(0);
    out = Handle{&b, 1};
  }
  Submit(out);  // want "use-after-scope"
}

// Correct: the copy is used while the block's local lives.
void assigned_used_inside() {
  Handle out{nullptr, 0};
  {
    Blob b(0);
    out = Handle{&b, 1};
    Submit(out);
  }
}

// Correct: assigned again from an object pointing at a live blob before
// the use.
void reassigned_before_use(const Blob& kept) {
  Handle out{nullptr, 0};
  {
    Blob b(0);
    out = Handle{&b, 1};
  }
  Handle fresh{&kept, 2};
  out = fresh;
  Submit(out);
}

// Correct: reading the member after the element moved only when room was
// reserved first.
int member_read_reserved() {
  std::vector<Blob> blobs;
  blobs.reserve(2);
  blobs.emplace_back(Blob(0));
  Handle h{&blobs.back(), 0};
  blobs.emplace_back(Blob(1));
  return *h.blob->data;
}

// A class with a copy constructor of its own copies what that says, not
// member by member.
struct Deep {
  Deep(const Blob* b) : blob(b) {}
  Deep(const Deep& o);
  const Blob* blob;
};

void Send(const Deep& d);

// Correct: Deep's own copy constructor decides what the copy points to.
void deep_copy_outlives() {
  Deep out(nullptr);
  {
    Blob b(0);
    Deep d(&b);
    Deep copy(d);
    (void)copy;
  }
  Send(out);
}

// An assignment from an object of another class runs that class's
// converting operator=, which decides what the local keeps.
struct View;
struct Initializer {
  const View& from;
  int dir;
};
struct View {
  const Blob* blob;
  View& operator=(const Initializer& init);
};
View make_view();
void Show(const View& v);

void assigned_from_other_class() {
  auto v = make_view();
  {
    View parent{nullptr};
    v = Initializer{parent, 1};
  }
  Show(v);
}
