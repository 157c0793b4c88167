// SPDX-License-Identifier: BSD-3-Clause
// The one JSON reader of the command line's inputs (configuration files, scenarios). A plain parse
// lets some mistakes through silently: a key given twice in one object keeps the last value, and a
// number too small for a double reads as 0. This one refuses them, and nesting past a limit (so a
// hostile file costs neither time nor stack), in the same single pass that builds the value.
#pragma once

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

/// Parses `text`; nothing when it has a problem, each added to `problems` and naming where it is by
/// its path ("tiles[1].reg"): "key 'tiles[1].reg' given twice", "sfu.x: '1e-400' is too small to
/// hold (it would read as 0)", and, ending the parse, "'a.b' nests deeper than 16 levels; ..." or
/// "clock: invalid JSON: ..." (a syntax error, or a number beyond a double).
std::optional<nlohmann::json> parse_strict_json(const std::string& text, const JsonRules& rules,
                                                std::vector<std::string>& problems);

/// Whether a number's JSON text is not zero though it reads as 0: too small for a double.
bool reads_as_zero(const std::string& number, double value);

}  // namespace ptosim::platforms
