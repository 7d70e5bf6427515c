// A map whose mapped values are pointers holds what they point to, as a
// vector of pointers does: handing the map on reads every pointer in it.
// The value comes in through emplace(k, p), try_emplace(k, p),
// insert_or_assign(k, p), insert(std::make_pair(k, p)), insert({k, p})
// and m[k] = p.
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

struct Arg {
  int* data;
};

void run(const std::map<std::string, const Arg*>& args);
void run_all(const std::unordered_map<int, Arg*>& args);
Arg make_arg(int i);

void Emplaced(int n) {
  std::vector<Arg> storage;
  std::map<std::string, const Arg*> args;
  for (int i = 0; i < n; i++) {
    storage.emplace_back(make_arg(i));
    args.emplace(std::make_pair(std::to_string(i), &storage.back()));
  }
  run(args);  // want "use-after-invalidate"
}

void Subscripted() {
  std::vector<Arg> storage;
  std::unordered_map<int, Arg*> args;
  storage.push_back(make_arg(0));
  args[0] = &storage.back();
  storage.push_back(make_arg(1));
  args[1] = &storage.back();
  run_all(args);  // want "use-after-invalidate"
}

void TwoArguments() {
  std::vector<Arg> storage;
  std::map<std::string, const Arg*> args;
  storage.push_back(make_arg(0));
  args.try_emplace("a", &storage.back());
  storage.push_back(make_arg(1));
  args.insert({"b", &storage.back()});
  run(args);  // want "use-after-invalidate"
}

// Correct: room for every element is reserved first, so no push_back
// moves them.
void Reserved(int n) {
  std::vector<Arg> storage;
  storage.reserve(2);
  std::map<std::string, const Arg*> args;
  storage.push_back(make_arg(0));
  args.emplace("a", &storage.back());
  storage.push_back(make_arg(1));
  args.emplace("b", &storage.back());
  run(args);
}

// Correct: the pointers are taken once the storage is complete.
void TakenAfter(int n) {
  std::vector<Arg> storage;
  for (int i = 0; i < n; i++) {
    storage.push_back(make_arg(i));
  }
  std::map<std::string, const Arg*> args;
  for (int i = 0; i < n; i++) {
    args[std::to_string(i)] = &storage[i];
  }
  run(args);
}

// Correct: a map of values copies what it is given.
void Copied() {
  std::vector<Arg> storage;
  std::map<std::string, Arg> args;
  storage.push_back(make_arg(0));
  args.emplace("a", storage.back());
  storage.push_back(make_arg(1));
  run_values(args);
}

// Correct: the map is emptied before it is handed on.
void Cleared() {
  std::vector<Arg> storage;
  std::map<std::string, const Arg*> args;
  storage.push_back(make_arg(0));
  args.emplace("a", &storage.back());
  storage.push_back(make_arg(1));
  args.clear();
  run(args);
}

// Correct: a pointer the map was given by code holdfast cannot see.
Arg* lookup(int i);
void Unknown() {
  std::vector<Arg> storage;
  std::unordered_map<int, Arg*> args;
  storage.push_back(make_arg(0));
  args.emplace(0, lookup(0));
  storage.push_back(make_arg(1));
  run_all(args);
}
