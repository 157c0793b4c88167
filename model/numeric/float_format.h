// SPDX-License-Identifier: BSD-3-Clause
// Field layout and special-value descriptor of every floating and scale DataType (numerics.md §2).
#pragma once

#include <cstdint>

#include "model/numeric/data_type.h"

namespace ptosim::model::numeric {

/// Binary: sign | exponent | fraction with a bias (every IEEE-like type, FP6 and the FP4 lanes);
/// HiF8: the tapered dot-prefix format; E8M0: unsigned power-of-two scale.
enum class FormatKind : std::uint8_t { Binary, HiF8, E8M0 };

/// Ieee: exponent all ones with fraction != 0 (quiet bit = fraction MSB); E4M3: only S.1111.111;
/// Single: exactly one NaN code (HiF8 0x80, E8M0 0xFF); None: no NaN encoding.
enum class NanStyle : std::uint8_t { None, Ieee, E4M3, Single };

struct FloatFormat {
  DataType type;
  FormatKind kind;
  unsigned width;          ///< element bits (carrier bits for E3M2/E2M3)
  std::uint64_t payload;   ///< bits that carry the encoding (sign..fraction, TF32/HF32 low bits excluded)
  unsigned sign_bit;       ///< position of the sign bit (Binary and HiF8)
  unsigned exp_bits;       ///< Binary: exponent field width
  unsigned frac_bits;      ///< Binary: stored fraction bits
  unsigned frac_shift;     ///< Binary: position of the fraction LSB (13 TF32, 12 HF32, else 0)
  int bias;                ///< Binary: exponent bias
  int emin;                ///< exponent of the smallest normal binade
  int emax;                ///< exponent of the largest binade holding finite values
  unsigned min_normal_frac_bits;  ///< fraction bits of the smallest normal binade (tininess precision)
  bool has_inf;
  NanStyle nan;
  bool signed_zero;
  std::uint64_t canonical_nan;  ///< valid when nan != None
  std::uint64_t max_finite;     ///< positive largest finite encoding
  std::uint64_t inf;            ///< positive infinity encoding when has_inf
};

/// The descriptor of a floating or scale type; nullptr for integer types.
const FloatFormat* float_format(DataType t);

/// HiF8 (dot-prefix) helpers shared by decoding and rounding.
namespace hif8 {
/// Fraction bits of the normal binade with unbiased exponent e (|e| <= 3: 3, 4..7: 2, otherwise 1).
inline unsigned frac_bits(int e) {
  const int a = e < 0 ? -e : e;
  return a <= 3 ? 3U : a <= 7 ? 2U : 1U;
}
/// Exponent of the unit in the last place for a value in binade [2^e, 2^(e+1)), unbounded above.
inline int quantum(int e) {
  if (e >= -15) return e - static_cast<int>(frac_bits(e));
  return e >= -22 ? e : -22;  // denormals 2^-22..2^-16 are bare powers of two, then a 2^-22 grid
}
/// Positive magnitude encoding (bits 6:0) of t * 2^q, which must be a HiF8 value <= 2^15.
std::uint64_t encode_magnitude(std::uint64_t t, int q);
}  // namespace hif8

}  // namespace ptosim::model::numeric
