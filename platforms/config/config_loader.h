// SPDX-License-Identifier: BSD-3-Clause
// Platform configuration: JSON file and --set overrides -> model::PlatformParams, with errors that
// name the full key path; and the effective configuration back to JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/params/platform_params.h"

namespace ptosim::platforms {

struct ConfigResult {
  model::PlatformParams params;
  std::vector<std::string> errors;  ///< empty on success
};

/// Starts from the embedded defaults, applies `file` (if non-empty) then each "key=value" of `sets`
/// in order, then validates ranges. An unreadable file, invalid JSON (numbers beyond a double
/// included), a key given twice in one object, unknown keys (with a suggestion when one is close),
/// wrong types and out-of-range values are errors naming the file or --set and the key; nothing
/// is thrown.
ConfigResult load_config(const std::string& file, const std::vector<std::string>& sets);

/// The effective configuration as nested JSON (keys as in docs/config.md).
nlohmann::ordered_json config_to_json(const model::PlatformParams& params);

}  // namespace ptosim::platforms
