// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/strict_json.h"

#include <set>
#include <utility>
#include <vector>

namespace ptosim::platforms {

namespace {

using Json = nlohmann::json;

/// Builds the document as nlohmann's own parser does, checking each event as it comes: the key of
/// each member against those before it, each number's text against its value.
class StrictBuilder final : public nlohmann::json_sax<Json> {
 public:
  StrictBuilder(Json& root, const JsonRules& rules, std::string& error) : m_root(root), m_rules(rules), m_error(error) {}

  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  bool number_integer(number_integer_t v) override { return put(v); }
  bool number_unsigned(number_unsigned_t v) override { return put(v); }
  bool number_float(number_float_t v, const string_t& text) override {
    // The parser hands on 0 for a number below a double's range: only its text tells.
    if (reads_as_zero(text, v))
      return fail(at() + "'" + text + "' is too small to hold (it would read as 0)");
    return put(v);
  }
  bool string(string_t& v) override { return put(std::move(v)); }
  bool binary(binary_t& v) override { return put(Json::binary(std::move(v))); }  // not in JSON text
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Level& l = m_levels.back();
    l.key = k;
    if (!m_rules.dotted_keys && k.find('.') != std::string::npos)
      return fail("key '" + path() + "' has a dot: nest it ({\"a\": {\"b\": ...}} for a.b)");
    if (!l.keys.insert(k).second) return fail("key '" + path() + "' given twice");
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    return fail(at() + "invalid JSON: " + e.what());
  }

 private:
  struct Level {
    Json* container;
    std::set<std::string> keys;  ///< an object's keys so far
    std::string key;             ///< the member being parsed
  };

  /// Where the value being parsed lies: "tiles[1].reg"; "" at the top.
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i < m_levels.size(); ++i) {
      const Level& l = m_levels[i];
      if (l.container->is_object()) {
        p += (p.empty() ? "" : ".") + l.key;
      } else {
        // An array's open element is its last; at the deepest level, the one about to be added.
        const std::size_t size = l.container->size();
        p += "[" + std::to_string(i + 1 < m_levels.size() ? size - 1 : size) + "]";
      }
    }
    return p;
  }
  /// The path as a message's prefix ("sfu.x: "), or nothing at the top.
  std::string at() const {
    const std::string p = path();
    return p.empty() ? p : p + ": ";
  }

  bool fail(std::string message) {
    m_error = std::move(message);
    return false;  // stops the parse
  }
  /// Places `v` where the value being parsed goes; returns it there.
  Json* place(Json v) {
    if (m_levels.empty()) {
      m_root = std::move(v);
      return &m_root;
    }
    Level& l = m_levels.back();
    if (l.container->is_object()) return &((*l.container)[l.key] = std::move(v));
    l.container->push_back(std::move(v));
    return &l.container->back();
  }
  bool put(Json v) {
    place(std::move(v));
    return true;
  }
  bool open(Json empty) {
    if (m_levels.size() >= m_rules.max_depth) {
      // A path of array indices alone says less than the document's name.
      const std::string p = path();
      return fail((p.empty() || p[0] == '[' ? std::string(m_rules.document) : "'" + p + "'") + " nests deeper than " +
                  std::to_string(m_rules.max_depth) + " levels; " + m_rules.depth_reason);
    }
    // Pointers stay valid: nothing is added to a container while a child of it is open.
    Json* container = place(std::move(empty));
    m_levels.push_back({container, {}, {}});
    return true;
  }
  bool close() {
    m_levels.pop_back();
    return true;
  }

  Json& m_root;
  const JsonRules& m_rules;
  std::string& m_error;
  std::vector<Level> m_levels;
};

}  // namespace

bool reads_as_zero(const std::string& number, double value) {
  return value == 0 && number.substr(0, number.find_first_of("eE")).find_first_not_of("-0.") != std::string::npos;
}

std::optional<Json> parse_strict_json(const std::string& text, const JsonRules& rules, std::string& error) {
  Json root;
  StrictBuilder builder(root, rules, error);
  if (!Json::sax_parse(text, &builder)) return std::nullopt;
  return root;
}

}  // namespace ptosim::platforms
