// SPDX-License-Identifier: BSD-3-Clause
// Small text helpers shared by the parsers of model/ (mnemonics, type names, value literals).
#pragma once

#include <cctype>
#include <string_view>

namespace ptosim::model {

/// ASCII case-insensitive equality (mnemonics and names are ASCII).
inline bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace ptosim::model
