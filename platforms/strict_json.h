// SPDX-License-Identifier: BSD-3-Clause
// The one JSON reader of the command line's inputs (configuration files, scenarios). A plain parse
// lets some mistakes through silently: a key given twice in one object keeps the last value, and a
// number too small for a double reads as 0. This one refuses them, and nesting past a limit (so a
// hostile file costs neither time nor stack), in the same single pass that builds the value.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptosim::platforms {

/// What a document may hold, beyond JSON syntax and the rules every document keeps.
struct JsonRules {
  const char* document;     ///< the document as messages name it ("the configuration")
  unsigned max_depth;       ///< containers nested deeper are refused at once
  const char* depth_reason;  ///< why ("no configuration key is that deep")
  bool dotted_keys = true;  ///< false: a key with a '.' is refused (where "a.b" names a nested key)
};

/// What a strict parse notes of a document besides its problems, by path ("tiles[1].reg").
struct JsonNotes {
  /// Numbers written with a fraction that read as whole numbers (0.99999999999999999 reads as 1),
  /// with their text: a reader of integers refuses them, which it cannot tell from the value alone.
  std::map<std::string, std::string> rounded_to_whole;
  /// The values a problem was found in (a key given twice, whose last value the document holds; a
  /// number too small, read as 0): already reported, so a reader that checks the document further
  /// for more problems passes over them. A key with a dot is not among them: its path is also the
  /// nested key's it names.
  std::set<std::string> refused;
};

/// Parses `text`. Nothing when it cannot be read: a syntax error or a number beyond a double
/// ("clock: invalid JSON: ...") or nesting too deep ("'a.b' nests deeper than 16 levels; ..."),
/// the one problem added to `problems`. Otherwise the document, each problem that leaves it
/// readable added to `problems`, naming where it is by its path: "key 'tiles[1].reg' given twice",
/// "sfu.x: '1e-400' is too small to hold (it would read as 0)". A document with problems is for
/// finding more of them only, never for use. `notes`, if given, receives what JsonNotes holds.
/// `Json` is nlohmann::json (members sorted by key) or nlohmann::ordered_json (in the file's order).
template <typename Json = nlohmann::json>
std::optional<Json> parse_strict_json(const std::string& text, const JsonRules& rules, std::vector<std::string>& problems,
                                      JsonNotes* notes = nullptr);

/// Whether a number's JSON text is not zero though it reads as 0: too small for a double.
bool reads_as_zero(const std::string& number, double value);
/// Whether a JSON number's text ("-12.50e1", blanks around it allowed) denotes a whole number
/// (false for text that is not a JSON number).
bool number_text_is_whole(const std::string& number);

}  // namespace ptosim::platforms
