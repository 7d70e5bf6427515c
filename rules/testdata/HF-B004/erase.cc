// Iterators and references into a map or a vector used after erase took
// their element away, beside the loops that take the iterator erase
// returns.
#include <map>
#include <vector>

struct Session { int id; bool closed; };
void Notify(const Session& s);

void ReapClosed(std::map<int, Session>& sessions) {
  for (auto it = sessions.begin(); it != sessions.end(); ++it) {  // want "'\+\+it' is used after erase removed the element it refers to from 'sessions' at line 13"
    if (it->second.closed) {
      sessions.erase(it);
    }
  }
}

// Correct: the loop continues from the iterator erase returns.
void ReapClosedNext(std::map<int, Session>& sessions) {
  for (auto it = sessions.begin(); it != sessions.end();) {
    if (it->second.closed) {
      it = sessions.erase(it);
    } else {
      ++it;
    }
  }
}

void CloseAndNotify(std::map<int, Session>& sessions, int id) {
  Session& s = sessions.at(id);
  sessions.erase(id);
  Notify(s);  // want "'s' is used after erase removed the element it refers to from 'sessions' at line 31"
}

// Correct: a copy outlives the element.
void CloseAndNotifyCopy(std::map<int, Session>& sessions, int id) {
  Session s = sessions.at(id);
  sessions.erase(id);
  Notify(s);
}
