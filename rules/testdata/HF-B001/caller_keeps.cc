// A method of an object the caller owns that keeps its argument (its code
// stores the pointer in a member) keeps a pointer into this frame.

#include <string>
#include <vector>

class Args {
 public:
  void Push(const char* a) { args_.push_back(a); }
  int Run();

 private:
  std::vector<const char*> args_;
};

void AddFlag(Args& args, int level) {
  std::string flag = "--level=" + std::to_string(level);
  args.Push(flag.c_str());  // want "the caller's 'args' keeps a pointer to 'flag', a local that dies when the function returns" confirmed
}

// Correct: a string literal lives for the whole program.
void AddVerbose(Args& args) {
  args.Push("--verbose");
}

// Correct: the object is run before the string dies.
int RunWithFlag(Args& args, int level) {
  std::string flag = "--level=" + std::to_string(level);
  args.Push(flag.c_str());
  return args.Run();
}
