// What a call returns, as the declarations of the file say: a value whose
// reference must not be returned, or a reference that may be.
#include <string>

struct Message;

template <typename T>
T FieldOf(const Message& m, const std::string& name);

template <typename K, typename V>
V Lookup(const K& key);

std::string TypeName(const Message& m);

const std::string& value_template_bad(const Message& m) {
  return FieldOf<std::string>(m, "name");  // want "returns-local"
}

const std::string& second_parameter_bad(const std::string& k) {
  return Lookup<std::string, std::string>(k);  // want "returns-local"
}

const std::string& declared_value_bad(const Message& m) {
  return TypeName(m);  // want "returns-local"
}

const Message& reference_template_ok(const Message& m) {
  return FieldOf<const Message&>(m, "sub");
}

const std::string& second_reference_ok(const std::string& k) {
  return Lookup<std::string, const std::string&>(k);
}

std::string copy_ok(const Message& m) {
  return FieldOf<std::string>(m, "name");
}
