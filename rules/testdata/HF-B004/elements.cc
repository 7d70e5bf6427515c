// References into a local container's elements after the container
// removed or moved them.

void Finish(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op& last = ops.back();
  ops.pop_back();
  done.push_back(last);  // want "'last' is used after pop_back removed the element it refers to from 'ops' at line 7" confirmed
}

// A helper lambda that returns a reference to the copy it just added,
// called twice: the second insertion may move the first copy.
void Normalize(const std::vector<array>& inputs, const Stream& s) {
  std::vector<array> copies;
  auto check_input = [&copies, &s](const array& x) -> const array& {
    if (x.flags().row_contiguous) {
      return x;
    }
    copies.push_back(array(x.shape(), x.dtype(), nullptr, {}));
    copy_gpu(x, copies.back(), CopyType::General, s);
    return copies.back();
  };
  const array& x = check_input(inputs[0]);
  const array& g = check_input(inputs[1]);
  encode(x, g);  // want "'x' is used after push_back replaced the storage of 'copies' at line 19" confirmed
}

// Correct: the element is moved out before it is removed.
void FinishMoved(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op last = std::move(ops.back());
  ops.pop_back();
  done.push_back(last);
}

// Correct: a deque's growth at its ends keeps references valid.
void Queue(std::deque<Op>& pending, Op op) {
  std::deque<Op> local = Snapshot();
  Op& first = local.front();
  local.push_back(op);
  pending.push_back(first);
}

// Correct: the reference is taken again after the removal.
void FinishAgain(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op* last = &ops.back();
  ops.pop_back();
  last = &ops.back();
  done.push_back(*last);
}

// Correct: a copy of the element (a value, or a pointer element) survives
// the removal.
void Walk(std::vector<Node*> stack) {
  while (!stack.empty()) {
    Node* n = stack.back();
    auto copy = stack.back();
    stack.pop_back();
    Visit(n, copy);
  }
}

// Correct: capacity for both insertions is reserved before the references
// are taken.
void NormalizeReserved(const std::vector<array>& inputs, const Stream& s) {
  std::vector<array> copies;
  copies.reserve(2);
  auto check_input = [&copies, &s](const array& x) -> const array& {
    copies.push_back(array(x.shape(), x.dtype(), nullptr, {}));
    copy_gpu(x, copies.back(), CopyType::General, s);
    return copies.back();
  };
  const array& x = check_input(inputs[0]);
  const array& g = check_input(inputs[1]);
  encode(x, g);
}

// A member container of the class: the operation at the front is removed
// before the reference to it is read.
class Channel {
 public:
  void OnReply(const Reply& reply);

 private:
  std::deque<SendOp> send_ops_;
};

void Channel::OnReply(const Reply& reply) {
  auto& op = send_ops_.front();
  op.Process(reply);
  send_ops_.pop_front();
  Ack(op.sequence);  // want "'op' is used after pop_front removed the element it refers to from 'send_ops_' at line 92" confirmed
}

// Correct: another end of the container is removed.
void DropNewest(std::vector<Op>& done) {
  std::vector<Op> ops = Collect();
  Op& oldest = ops.front();
  ops.pop_back();
  done.push_back(oldest);
}

// The reservation makes room for two insertions in the empty vector; the
// optional third one moves the elements the first two references point to.
void NormalizeShortReserve(const std::vector<array>& inputs, const Stream& s) {
  std::vector<array> copies;
  copies.reserve(2);
  auto check_input = [&copies, &s](const array& x) -> const array& {
    copies.push_back(array(x.shape(), x.dtype(), nullptr, {}));
    copy_gpu(x, copies.back(), CopyType::General, s);
    return copies.back();
  };
  const array& x = check_input(inputs[0]);
  const array& g = check_input(inputs[1]);
  if (inputs.size() > 2) {
    const array& b = check_input(inputs[2]);
    encode(x, g, b);  // want "'x' is used after push_back replaced the storage of 'copies' at line 110" confirmed
  } else {
    encode(x, g);
  }
}

// Correct: the removal leaves the loop, so no later iteration uses the
// reference to the removed element.
struct Access {
  int id;
  std::vector<int> calls;
};

int FillUntilFull(int m) {
  std::vector<Access> out;
  out.emplace_back();
  Access& a = out.back();
  for (int j = 0; j < m; j++) {
    if (j == 3) {
      out.pop_back();
      return 1;
    }
    a.calls.push_back(j);
  }
  return 0;
}
