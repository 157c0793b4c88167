// SPDX-License-Identifier: BSD-3-Clause
// An independent IEEE reference for the SFU tests: MPFR arithmetic rounded to nearest-even into
// the binary formats FP64, FP32, TF32, HF32, FP16 and BF16 with gradual underflow, tininess after
// rounding and the five IEEE flags; encodings produced by hand, not by the numerics library.
#pragma once

#include <cstdint>

#include "model/numeric/data_type.h"
#include "model/numeric/flags.h"

namespace ptosim::model::mpfr_ref {

/// a - b in format `t` (finite or infinite operands; NaN operands are not handled here).
std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
/// e^a in format `t` (a finite or infinite, |a| < 2^60 so that MPFR's own range holds e^a).
std::uint64_t exp(DataType t, std::uint64_t a, NumericFlags& flags);
/// The exact value of an encoding of one of the formats above as binary64 (every value fits).
double value(DataType t, std::uint64_t bits);

}  // namespace ptosim::model::mpfr_ref
