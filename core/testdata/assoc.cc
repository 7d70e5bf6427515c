// Associative containers: insertion keeps every reference, erase ends the
// erased element (and its iterators), clear ends them all. Sequence
// containers: erase may move every later element.
#include <list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct Entry { int refs; float* data; };
bool Expired(const Entry& e);
void Use(const Entry& e);

void EraseThenIncrement(std::map<int, Entry>& table) {
  for (auto it = table.begin(); it != table.end(); ++it) {  // want "use-after-invalidate"
    if (Expired(it->second)) {
      table.erase(it);
    }
  }
}

void EraseReturnsNext(std::map<int, Entry>& table) {
  for (auto it = table.begin(); it != table.end();) {
    if (Expired(it->second)) {
      it = table.erase(it);
    } else {
      ++it;
    }
  }
}

void ErasePostIncrement(std::map<int, Entry>& table) {
  for (auto it = table.begin(); it != table.end();) {
    if (Expired(it->second)) {
      table.erase(it++);
    } else {
      ++it;
    }
  }
}

void ReferenceThenEraseByKey(std::unordered_map<std::string, Entry>& cache, const std::string& name) {
  Entry& e = cache[name];
  cache.erase(name);
  Use(e);  // want "use-after-invalidate"
}

void ReferenceSurvivesInsert(std::unordered_map<std::string, Entry>& cache, const std::string& name) {
  Entry& e = cache[name];
  cache["other"] = Entry{};
  cache.emplace("third", Entry{});
  Use(e);
}

void FoundThenCleared(std::map<int, Entry>& table, int key) {
  auto it = table.find(key);
  if (it == table.end()) return;
  table.clear();
  Use(it->second);  // want "use-after-invalidate"
}

void FoundOtherKeyErased(std::map<int, Entry>& table, int key, int other) {
  auto it = table.find(key);
  table.erase(other);
  Use(it->second);
}

void VectorEraseThenIncrement(std::vector<int>& v) {
  for (auto it = v.begin(); it != v.end(); ++it) {  // want "use-after-invalidate"
    if (*it < 0) {
      v.erase(it);
    }
  }
}

void VectorEraseReturnsNext(std::vector<int>& v) {
  for (auto it = v.begin(); it != v.end();) {
    if (*it < 0) {
      it = v.erase(it);
    } else {
      ++it;
    }
  }
}

void ListEraseKeepsOthers(std::list<int>& l) {
  auto first = l.begin();
  auto second = std::next(first);
  l.erase(second);
  int x = *first;
  (void)x;
}

// A map's element is its mapped value: a string element's buffer ends
// with the element.
int mapped_string_erased_bad() {
  std::map<int, std::string> m;
  m[1] = "a";
  const char* p = m[1].c_str();
  m.erase(1);
  return p[0];  // want "use-after-invalidate"
}

// Correct: another key erased; an insertion keeps every element.
int mapped_string_other_key_ok() {
  std::map<int, std::string> m;
  m[1] = "a";
  const char* p = m[1].c_str();
  m.erase(2);
  return p[0];
}

int mapped_vector_inserted_ok() {
  std::map<std::string, std::vector<int>> m;
  int* p = m["a"].data();
  m["b"] = {1, 2};
  return p[0];
}

// A map whose arguments are deduced (std::unordered_map m = ...): its
// elements' kind is not known, and an erase still ends the iterator.
std::unordered_map<int, Entry> Configs();

void DeducedMap() {
  std::unordered_map configs = Configs();
  auto it = configs.begin();
  configs.erase(it);
  Use(it->second);  // want "use-after-invalidate"
}
