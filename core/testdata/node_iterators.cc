// An iterator over a map or list moved on (++it) names the next node:
// erasing a copy of it taken before the increment leaves it valid.
// Erasing the node it still names and then moving it on is a fault.
#include <map>

struct Chunk { void* ptr; int size; };
void release(void* p);

void FreeAll(std::map<void*, Chunk>& chunks) {
  for (auto it = chunks.begin(); it != chunks.end();) {
    Chunk& chunk = it->second;
    release(chunk.ptr);
    auto cur = it;
    ++it;
    chunks.erase(cur);
  }
}

void FreeAllWrong(std::map<void*, Chunk>& chunks) {
  for (auto it = chunks.begin(); it != chunks.end(); ++it) {  // want "use-after-invalidate"
    if (it->second.size == 0) {
      chunks.erase(it);
    }
  }
}
