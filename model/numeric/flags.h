// SPDX-License-Identifier: BSD-3-Clause
// The five sticky numeric status flags (CORE_STATE[36:32]; ASL 5-bit vector, NV = bit 0).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptosim::model {

using NumericFlags = std::uint8_t;
constexpr NumericFlags kFlagNV = 1U << 0;  ///< invalid operation
constexpr NumericFlags kFlagDZ = 1U << 1;  ///< divide by zero
constexpr NumericFlags kFlagOF = 1U << 2;  ///< overflow
constexpr NumericFlags kFlagUF = 1U << 3;  ///< underflow (tiny after rounding and inexact)
constexpr NumericFlags kFlagNX = 1U << 4;  ///< inexact
constexpr NumericFlags kAllFlags = 0x1F;

/// Flag names in bit order ("NV", "DZ", "OF", "UF", "NX") for the set bits.
std::vector<std::string> flag_names(NumericFlags flags);
/// The flag a name denotes, or nullopt.
std::optional<NumericFlags> flag_from_name(std::string_view name);

}  // namespace ptosim::model
