// A function that stores one pointer parameter in a field of what
// another points to (q->field = p, on every path that returns) leaves
// that field pointing at the caller's argument: handing it a local and
// an object the caller's caller reaches leaves that object pointing into
// the frame.
struct Record {
  int first_block;
};
struct Queue {
  const Record* recording;
  int pending;
};

static void attach(Queue* q, const Record* rec) {
  q->recording = rec;
  q->pending++;
}

static void attach_if(Queue* q, const Record* rec, bool keep) {
  if (keep) {
    q->recording = rec;
  }
}

static void count(Queue* q, const Record* rec) { q->pending += rec->first_block; }

void drain(Queue* q) {
  Record r;
  r.first_block = 1;
  attach(q, &r);  // want "returns-local"
}

// Correct: the callee only reads the record.
void counted(Queue* q) {
  Record r;
  r.first_block = 1;
  count(q, &r);
}

// Correct: the field is cleared before the record dies.
void detached(Queue* q) {
  Record r;
  r.first_block = 1;
  attach(q, &r);
  q->recording = nullptr;
}

// Correct: a record that outlives the call.
static Record kept;
void static_record(Queue* q) { attach(q, &kept); }

// Not on every path: the callee keeps it only when told to.
void maybe(Queue* q, bool keep) {
  Record r;
  r.first_block = 1;
  attach_if(q, &r, keep);
}
