// Correct look-alikes from real backends: values that are not futures, and
// futures declared through test macros.

// absl::StatusOr is a synchronous value, not a future.
absl::StatusOr<int> Count(const Shape& s) {
  absl::StatusOr<int> n = CountElements(s);
  if (!n.ok()) return n.status();
  return *n + 1;
}

// A future declared by a macro whose first argument is a declaration is
// read as the declaration it stands for, so its wait is seen.
TEST(Transfer, Waits) {
  ASSERT_OK_AND_ASSIGN(xla::Future<> done, buffer->ToLiteral(&literal));
  EXPECT_TRUE(done.Await().ok());
}
