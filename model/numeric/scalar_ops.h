// SPDX-License-Identifier: BSD-3-Clause
// Runtime-typed scalar operations on raw element encodings under the hardware numeric profile.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/numeric/data_type.h"
#include "model/numeric/decoded.h"
#include "model/numeric/flags.h"
#include "model/numeric/rounding_mode.h"

/// Contract for every function here: an encoding lives in the low element_bits(t) bits of a
/// std::uint64_t; higher input bits are ignored and result bits above the width are zero. Floating
/// results follow `pto-hardware-numeric-0.58.3-ieee-v1` (IEEE 754-2019 plus the format
/// refinements, numerics.md §3-§9); every choice the spec leaves open is listed in docs/numerics.md.
/// Flags (kFlagNV..kFlagNX) are ORed into `flags`, never cleared. Integer arithmetic wraps at the
/// element width and raises no flag except DZ for a zero divisor.
namespace ptosim::model::numeric {

/// a + b rounded to nearest-even (or `rm`).
std::uint64_t add(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
std::uint64_t add(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
std::uint64_t mul(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
std::uint64_t mul(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
/// Integers: signed division truncates toward zero, S_min / -1 wraps to S_min; a zero divisor
/// returns all ones of the width (unsigned maximum, signed -1) and raises DZ.
std::uint64_t div(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
std::uint64_t div(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags);
/// TMAX/TMIN (numerics.md §6): one NaN -> the other operand's bits; two NaNs -> canonical NaN;
/// NV iff an operand is a signaling NaN; +0/-0 -> +0 (max) / -0 (min); ties -> a.
std::uint64_t max(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
std::uint64_t min(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags);
/// e^a correctly rounded to nearest-even for every floating and scale type; exp(+-0) = 1,
/// exp(+inf) = +inf, exp(-inf) = +0, NaN -> canonical NaN (+NV if signaling). Integer types have
/// no exponential: NV and the indefinite value (signed minimum, unsigned maximum).
std::uint64_t exp(DataType t, std::uint64_t a, NumericFlags& flags);

/// Value conversion between any two types. Floating destinations round with `rm`; `saturate`
/// clamps overflow and infinities to the largest finite value and turns NaN into +0 (NV only for
/// a signaling NaN). Integer destinations: NaN -> 0 (Sat) or the indefinite value (signed
/// minimum / unsigned maximum) with NV; +-inf -> clamp with OF|NX (Sat) or indefinite with NV;
/// finite out of range -> clamp (Sat) or wrap modulo 2^width, both with OF|NX. E8M0 destinations
/// follow asl/arch/profile/e8m0-conversion.asl. docs/numerics.md has the full table.
std::uint64_t convert(DataType from, std::uint64_t bits, DataType to, RoundingMode rm, bool saturate,
                      NumericFlags& flags);

/// The all-zero encoding (+0, integer 0); E8M0 has no zero and returns 0x00 (2^-127).
std::uint64_t zero(DataType t);
/// The exact encoding of 1.
std::uint64_t one(DataType t);
std::optional<std::uint64_t> canonical_nan(DataType t);
/// PadValue Max/Min (state-model.md §7, asl TilePadValueForDataType), truncated to the width;
/// for types without a table row the ASL's all-ones / 0x8000000000000000 words apply literally.
std::uint64_t pad_max(DataType t);
std::uint64_t pad_min(DataType t);
/// Largest and smallest (most negative) finite values; integers: type maximum and minimum.
std::uint64_t max_finite(DataType t);
std::uint64_t lowest_finite(DataType t);

/// B.DATR comparison modes (hardware-conformance-profile.json b_datr.comparison_modes).
enum class CompareMode : std::uint8_t { EQ, NE, LT, GT, LE, GE };
/// IEEE comparison: a NaN operand makes only NE true; +0 == -0; a signaling NaN raises NV.
/// Integers compare as signed or unsigned by type.
bool compare(DataType t, std::uint64_t a, std::uint64_t b, CompareMode mode, NumericFlags& flags);

/// False for TF32/HF32 with nonzero discarded fraction bits and E3M2/E2M3 with bits 7:6 set.
bool is_valid_encoding(DataType t, std::uint64_t bits);
bool is_nan(DataType t, std::uint64_t bits);
bool is_signaling_nan(DataType t, std::uint64_t bits);
/// A nonzero value of a format's subnormal (HiF8: denormal) encodings.
bool is_subnormal(DataType t, std::uint64_t bits);

/// The fewest significant digits that parse back to the same encoding, positional for decimal
/// exponents -7..20 and d.ddde+-x otherwise ("1.5", "0.001", "6e-8", "65500" for FP16 65504),
/// "-0", "inf", "-inf", "nan"; integers in decimal.
std::string format_value(DataType t, std::uint64_t bits);
/// Decimal ("1.5", "-3", "1e-3", "inf", "-inf", "nan") rounded to nearest-even in the type (with
/// the type's overflow rule; integers: to the nearest integer, nullopt when out of range), or a
/// raw "0x..." encoding that fits the width. nullopt for malformed or unrepresentable text
/// (inf/nan for types without them, zero or negative values for E8M0).
std::optional<std::uint64_t> parse_value(DataType t, std::string_view text);
/// The value as binary64: exact for every type except S64/U64 magnitudes beyond 2^53.
double to_double(DataType t, std::uint64_t bits);

}  // namespace ptosim::model::numeric
