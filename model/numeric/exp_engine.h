// SPDX-License-Identifier: BSD-3-Clause
// Correctly rounded e^x: enclosures of increasing precision and a Ziv rounding test.
#pragma once

#include <cstdint>

#include "model/numeric/big_uint.h"
#include "model/numeric/flags.h"
#include "model/numeric/float_format.h"
#include "model/numeric/wide_int.h"

namespace ptosim::model::numeric {

/// e^x lies strictly between lo * 2^exp and hi * 2^exp.
struct ExpEnclosure {
  u128 lo;
  u128 hi;
  int exp;
};
struct BigExpEnclosure {
  BigUint lo;
  BigUint hi;
  int exp;
};

/// Inputs of the enclosures: finite, |x| <= kExpEnclosureLimit. Beyond it e^x overflows or rounds
/// to zero in every format (e^1100 > 2^1586, e^-1100 < 2^-1586).
constexpr double kExpEnclosureLimit = 1100.0;

/// Binary64 evaluation: e^x = y * 2^k within a relative 2^-48 (error analysis in the source),
/// y in [0.99, 2.03].
double exp_core_double(double x, int& k);
/// exp_core_double as an enclosure (relative half-width 2^-48).
ExpEnclosure exp_enclosure_double(double x);
/// Double-double evaluation, relative width 2^-95.
ExpEnclosure exp_enclosure_dd(double x);
/// Fixed-point evaluation with at least `bits` correct bits (bits >= 64).
BigExpEnclosure exp_enclosure_mp(double x, int bits);

/// The common rounding test: both ends rounded (as values just above each end) give the same
/// encoding and flags. On success returns true and sets `bits` and ORs the flags.
bool exp_try_round(const FloatFormat& f, const ExpEnclosure& e, std::uint64_t& bits, NumericFlags& flags);
bool exp_try_round(const FloatFormat& f, const BigExpEnclosure& e, std::uint64_t& bits, NumericFlags& flags);

/// e^x for a finite nonzero x (any binary64 value), rounded to nearest-even in `f`, flags ORed.
/// Stages: binary64 (precision <= 30 bits), double-double, then fixed point doubling the working
/// precision until the rounding test passes (e^x is transcendental for x != 0, so it terminates).
std::uint64_t exp_round(const FloatFormat& f, double x, NumericFlags& flags);

}  // namespace ptosim::model::numeric
