// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/strict_json.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

namespace ptosim::platforms {

namespace {

/// Builds the document as nlohmann's own parser does, checking each event as it comes: the key of
/// each member against those before it, each number's text against its value.
template <typename Json>
class StrictBuilder final : public nlohmann::json_sax<Json> {
 public:
  using typename nlohmann::json_sax<Json>::number_integer_t;
  using typename nlohmann::json_sax<Json>::number_unsigned_t;
  using typename nlohmann::json_sax<Json>::number_float_t;
  using typename nlohmann::json_sax<Json>::string_t;
  using typename nlohmann::json_sax<Json>::binary_t;

  StrictBuilder(Json& root, const JsonRules& rules, std::vector<std::string>& problems, JsonNotes* notes)
      : m_root(root), m_rules(rules), m_problems(problems), m_notes(notes) {}

  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  bool number_integer(number_integer_t v) override { return put(v); }
  bool number_unsigned(number_unsigned_t v) override { return put(v); }
  bool number_float(number_float_t v, const string_t& text) override {
    // The parser hands on 0 for a number below a double's range: only its text tells.
    if (reads_as_zero(text, v)) refuse(at() + "'" + text + "' is too small to hold (it would read as 0)");
    if (m_notes && std::floor(v) == v && !number_text_is_whole(text)) m_notes->rounded_to_whole[path()] = text;
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
    l.member = true;
    if (!m_rules.dotted_keys && k.find('.') != std::string::npos)
      note("key '" + path() + "' has a dot: nest it ({\"a\": {\"b\": ...}} for a.b)");  // the path is also a nested key's
    else if (!l.keys.insert(k).second)
      refuse("key '" + path() + "' given twice");
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    note(at() + "invalid JSON: " + e.what());
    return false;  // stops the parse
  }

 private:
  struct Level {
    Json* container;
    std::set<std::string> keys;  ///< an object's keys so far
    std::string key;             ///< the member being parsed, while `member`
    bool member = false;         ///< between a member's key and the end of its value
  };

  /// Where the value being parsed lies: "tiles[1].reg"; "" at the top.
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i < m_levels.size(); ++i) {
      const Level& l = m_levels[i];
      if (l.container->is_object()) {
        if (l.member) p += (p.empty() ? "" : ".") + l.key;  // else between members: the object's path
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

  /// A problem: one that ends the parse, or one whose value the rest of the document is read
  /// around (see refuse).
  void note(std::string problem) { m_problems.push_back(std::move(problem)); }
  /// A problem in the value being parsed that leaves the document readable: the parse goes on, to
  /// find the others.
  void refuse(std::string problem) {
    note(std::move(problem));
    if (m_notes) m_notes->refused.insert(path());
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
    end_member();
    return true;
  }
  /// A value is complete: its object is between members again.
  void end_member() {
    if (!m_levels.empty()) m_levels.back().member = false;
  }
  bool open(Json empty) {
    if (m_levels.size() >= m_rules.max_depth) {
      // A path of array indices alone says less than the document's name.
      const std::string p = path();
      note((p.empty() || p[0] == '[' ? std::string(m_rules.document) : "'" + p + "'") + " nests deeper than " +
           std::to_string(m_rules.max_depth) + " levels; " + m_rules.depth_reason);
      return false;  // stops the parse before the nesting costs time or stack
    }
    // Pointers stay valid: nothing is added to a container while a child of it is open.
    Json* container = place(std::move(empty));
    m_levels.push_back({container, {}, {}});
    return true;
  }
  bool close() {
    m_levels.pop_back();
    end_member();
    return true;
  }

  Json& m_root;
  const JsonRules& m_rules;
  std::vector<std::string>& m_problems;
  JsonNotes* m_notes;
  std::vector<Level> m_levels;
};

}  // namespace

bool reads_as_zero(const std::string& number, double value) {
  return value == 0 && number.substr(0, number.find_first_of("eE")).find_first_of("123456789") != std::string::npos;
}

bool number_text_is_whole(const std::string& number) {
  // The significand's digits, and how many of them stand before the point once the exponent moved it.
  std::size_t i = number.find_first_not_of(" \t");
  if (i == std::string::npos) return false;
  if (number[i] == '-') ++i;
  std::string digits;
  long before_point = 0;
  const auto take_digits = [&] {
    const std::size_t start = i;
    while (i < number.size() && std::isdigit(static_cast<unsigned char>(number[i]))) digits += number[i++];
    return static_cast<long>(i - start);
  };
  before_point = take_digits();
  if (before_point == 0) return false;
  if (i < number.size() && number[i] == '.') {
    ++i;
    if (take_digits() == 0) return false;
  }
  if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
    ++i;
    const bool negative = i < number.size() && number[i] == '-';
    if (i < number.size() && (number[i] == '-' || number[i] == '+')) ++i;
    long exponent = 0;
    const std::size_t start = i;
    // Past the digits' count the exponent decides nothing more: it saturates there.
    const long limit = static_cast<long>(digits.size()) + 1;
    for (; i < number.size() && std::isdigit(static_cast<unsigned char>(number[i])); ++i)
      exponent = std::min(limit, exponent * 10 + (number[i] - '0'));
    if (i == start) return false;
    before_point += negative ? -exponent : exponent;
  }
  if (number.find_first_not_of(" \t", i) != std::string::npos) return false;
  for (std::size_t d = static_cast<std::size_t>(std::max(0L, before_point)); d < digits.size(); ++d)
    if (digits[d] != '0') return false;
  return true;
}

template <typename Json>
std::optional<Json> parse_strict_json(const std::string& text, const JsonRules& rules, std::vector<std::string>& problems,
                                      JsonNotes* notes) {
  Json root;
  StrictBuilder<Json> builder(root, rules, problems, notes);
  if (!Json::sax_parse(text, &builder)) return std::nullopt;
  return root;
}

template std::optional<nlohmann::json> parse_strict_json(const std::string&, const JsonRules&, std::vector<std::string>&,
                                                         JsonNotes*);
template std::optional<nlohmann::ordered_json> parse_strict_json(const std::string&, const JsonRules&,
                                                                 std::vector<std::string>&, JsonNotes*);

}  // namespace ptosim::platforms
