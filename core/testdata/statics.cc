// Statics in their common spellings: none of them dies with the call.
const char* a1() { static std::string s = "x"; return s.c_str(); }
const char* a2() { static const std::string s = "x"; return s.c_str(); }
std::string* a3() { static std::string s; return &s; }
const std::string& a4() { static std::string s; return s; }
Foo& a5() { static Foo instance; return instance; }
Foo* a6() { static Foo instance; return &instance; }
const std::vector<int>& a7() { static std::vector<int> v{1, 2}; return v; }
const char* a8() { static char buf[64]; return buf; }
const int* a9() { static int v[4]; return &v[0]; }
template <typename T> const T& a10() { static T t; return t; }
const std::string& a11() { static const std::string* s = new std::string("x"); return *s; }
const char* a12() { static thread_local std::string s; return s.data(); }
const Foo& a13() { static Foo instance = Foo::Make(); return instance; }
const std::map<int, int>& a14() { static std::map<int, int> m = {{1, 2}}; return m; }
const std::map<int, int>& a15() {
  static const std::map<int, int> m = {
      {1, 2},
  };
  return m;
}

// static MACRO(arg) T v; reads as two declarations (the macro call takes
// the first's declarator): the second is the static one's rest.
#define ALIGNED_TO(n) __attribute__((aligned(n)))
#define VEC_ALIGN 16

struct Record {
  int len;
};

Record* LoadAligned() {
  static ALIGNED_TO(VEC_ALIGN) Record rec;
  rec.len = 0;
  return &rec;
}

Record* LoadLocal() {
  Record rec;
  rec.len = 0;
  return &rec;  // want "returns-local"
}
