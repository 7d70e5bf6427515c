// Members end in the reverse order of their declarations: a member that
// keeps a pointer into a member declared after it reads ended memory when
// its own destructor runs.
#include <memory>

struct Plugin {
  int* table;
  Plugin() : table(new int[8]) {}
  ~Plugin() { delete[] table; }
  void Release(int slot) { table[slot] = 0; }
};

class Session {
 public:
  void Bind(Plugin* p) { plugin_ = p; }
  ~Session() {
    if (plugin_ != nullptr) plugin_->Release(0);
  }

 private:
  Plugin* plugin_ = nullptr;
};

class Validator {
 public:
  Validator() : session_(new Session), plugin_(new Plugin) {  // want "when 'Validator' ends, ~Session of member 'session_' reads the pointer it keeps to 'plugin_'" confirmed
    session_->Bind(plugin_.get());
  }

 private:
  std::unique_ptr<Session> session_;
  std::unique_ptr<Plugin> plugin_;
};

// Correct: the plugin is declared first, so it outlives the session.
class OrderedValidator {
 public:
  OrderedValidator() : plugin_(new Plugin), session_(new Session) {
    session_->Bind(plugin_.get());
  }

 private:
  std::unique_ptr<Plugin> plugin_;
  std::unique_ptr<Session> session_;
};

// Correct: the destructor ends the session before the members end.
class ClosingValidator {
 public:
  ClosingValidator() : session_(new Session), plugin_(new Plugin) {
    session_->Bind(plugin_.get());
  }
  ~ClosingValidator() { session_.reset(); }

 private:
  std::unique_ptr<Session> session_;
  std::unique_ptr<Plugin> plugin_;
};
