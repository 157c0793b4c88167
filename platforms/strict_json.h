// SPDX-License-Identifier: BSD-3-Clause
// The one JSON reader of the command line's inputs (configuration files, scenarios). A plain parse
// lets some mistakes through silently: a key given twice in one object keeps the last value, and a
// number too small for a double reads as 0. This one refuses them, and nesting past a limit (so a
// hostile file costs neither time nor stack), in the same single pass that builds the value.
#pragma once

#include <map>
#include <optional>
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

/// Numbers written with a fraction that read as whole numbers (0.99999999999999999 reads as 1), by
/// their path: a reader of integers refuses them, which it cannot tell from the value alone.
using RoundedToWhole = std::map<std::string, std::string>;  ///< path -> the number's text

/// Parses `text`; nothing when it has a problem, each added to `problems` and naming where it is by
/// its path ("tiles[1].reg"): "key 'tiles[1].reg' given twice", "sfu.x: '1e-400' is too small to
/// hold (it would read as 0)", and, ending the parse, "'a.b' nests deeper than 16 levels; ..." or
/// "clock: invalid JSON: ..." (a syntax error, or a number beyond a double). `rounded`, if given,
/// receives the numbers that read as whole though they are not.
std::optional<nlohmann::json> parse_strict_json(const std::string& text, const JsonRules& rules,
                                                std::vector<std::string>& problems, RoundedToWhole* rounded = nullptr);

/// Whether a number's JSON text is not zero though it reads as 0: too small for a double.
bool reads_as_zero(const std::string& number, double value);
/// Whether a JSON number's text ("-12.50e1", blanks around it allowed) denotes a whole number
/// (false for text that is not a JSON number).
bool number_text_is_whole(const std::string& number);

}  // namespace ptosim::platforms
