// SPDX-License-Identifier: BSD-3-Clause
// Exact rounding of a dyadic value to any floating or scale format, with the five status flags.
#pragma once

#include <cstdint>

#include "model/numeric/flags.h"
#include "model/numeric/float_format.h"
#include "model/numeric/rounding_mode.h"
#include "model/numeric/wide_int.h"

namespace ptosim::model::numeric {

/// Rounds the exact value (-1)^negative * (sig + s) * 2^exp, where s = 0 when !sticky and
/// 0 < s < 1 otherwise, to format `f` under `rm`. 0 < sig < 2^127, or sig == 0 with !sticky for
/// an exact zero, which yields the zero of that sign (E8M0: NaN with NV). With `sticky` the unit
/// 2^exp must lie below the rounding position (sig carries at least two bits more than the
/// format's precision), so that s only decides between "exact" and "just above". Overflow follows the
/// mode (to infinity or to the largest finite value); Inf-less formats substitute NaN (E4M3) or
/// the largest finite value; `saturate` clamps every overflow to the largest finite value.
/// Tininess is detected after rounding; UF is raised when tiny and inexact. Flags are ORed in.
std::uint64_t round_to_format(const FloatFormat& f, bool negative, u128 sig, int exp, bool sticky,
                              RoundingMode rm, bool saturate, NumericFlags& flags);

/// Zero of the given sign (HiF8 has only +0; E8M0 has no zero and returns its NaN).
std::uint64_t zero_of(const FloatFormat& f, bool negative);
/// The canonical NaN; +0 for formats without NaN (E3M2, E2M3, FP4 lanes).
std::uint64_t nan_of(const FloatFormat& f);
/// The result of an exact infinity (x/0, inf op finite): +-inf, canonical NaN for E4M3, the
/// largest finite value of that sign for formats with neither.
std::uint64_t infinity_of(const FloatFormat& f, bool negative);
/// The largest finite value of the given sign (E8M0 ignores the sign).
std::uint64_t max_finite_of(const FloatFormat& f, bool negative);
/// The exact encoding of 1.0.
std::uint64_t one_of(const FloatFormat& f);

/// Rounds the nonnegative magnitude (sig + s) * 2^exp (s as for round_to_format, value below
/// 2^126) to an integer under `rm`, `negative` giving the sign for the directed and RHB modes.
/// `inexact` is set when the magnitude was not already an integer.
u128 round_to_integer(bool negative, u128 sig, int exp, bool sticky, RoundingMode rm, bool& inexact);

}  // namespace ptosim::model::numeric
