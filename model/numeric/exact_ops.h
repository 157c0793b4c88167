// SPDX-License-Identifier: BSD-3-Clause
// The exact (reference) path of every typed operation: decode, compute exactly, round once.
#pragma once

#include <cstdint>

#include "model/numeric/data_type.h"
#include "model/numeric/flags.h"
#include "model/numeric/rounding_mode.h"

// The public API (scalar_ops.h) routes through the fast paths of typed_ops.h; these functions are
// the slow, obviously-exact definition those fast paths are tested against and fall back to.
namespace ptosim::model::numeric::exact {

std::uint64_t add(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
std::uint64_t mul(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
std::uint64_t div(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
std::uint64_t max(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
std::uint64_t min(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
/// e^a rounded to nearest-even.
std::uint64_t exp(DataType t, std::uint64_t a, NumericFlags& flags);
std::uint64_t convert(DataType from, std::uint64_t bits, DataType to, RoundingMode rm, bool saturate,
                      NumericFlags& flags);
/// c + a * b * 2^scale_exp rounded once to `dst` (the type of c); a and b of any floating type.
/// Integer `dst`: wrapping c + a * b at the width of dst (scale ignored, no flags).
std::uint64_t fma(DataType dst, std::uint64_t c, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b,
                  int scale_exp, RoundingMode rm, NumericFlags& flags);

}  // namespace ptosim::model::numeric::exact
