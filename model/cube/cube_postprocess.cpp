// SPDX-License-Identifier: BSD-3-Clause
#include "model/cube/cube_postprocess.h"

#include <algorithm>
#include <array>
#include <vector>

#include "model/numeric/decoded.h"
#include "model/numeric/scalar_ops.h"
#include "model/numeric/wide_int.h"

namespace ptosim::model::cube {

namespace {

using numeric::RoundingMode;
using numeric::u128;

constexpr NumericFlags kOfNx = kFlagOF | kFlagNX;
constexpr NumericFlags kUfNx = kFlagUF | kFlagNX;

// ---------------------------------------------------------------------------------------------
// Exact values. The ASL evaluates post-processing on reals; every value it forms here is a
// product of an S32/U32/FP32 accumulator and an FP19 multiplier, i.e. a dyadic rational with a
// significand of at most 43 bits.

struct Dyadic {
  bool neg = false;
  std::uint64_t sig = 0;  ///< 0 = zero
  int exp = 0;            ///< value = (-1)^neg * sig * 2^exp
};

Dyadic times(const Dyadic& a, const Dyadic& b) {
  if (a.sig == 0 || b.sig == 0) return Dyadic{a.neg != b.neg, 0, 0};
  return Dyadic{a.neg != b.neg, a.sig * b.sig, a.exp + b.exp};  // <= 32 + 11 bits
}

Dyadic scaled(Dyadic v, int by) {
  v.exp += by;
  return v;
}

Dyadic magnitude(Dyadic v) {
  v.neg = false;
  return v;
}

/// floor(log2 |v|) of a nonzero value.
int log2_floor(const Dyadic& v) { return numeric::bit_length(v.sig) - 1 + v.exp; }

/// ReferenceFP32FiniteValue.
Dyadic fp32_value(std::uint32_t bits) {
  const unsigned e = (bits >> 23) & 0xFF;
  const std::uint32_t f = bits & 0x7FFFFF;
  const bool neg = (bits >> 31) != 0;
  if (e == 0) return Dyadic{neg, f, -149};
  return Dyadic{neg, 0x800000u | f, static_cast<int>(e) - 150};
}

/// FP19FiniteValue of bits 18:0.
Dyadic fp19_value(std::uint64_t bits) {
  const unsigned e = (bits >> 10) & 0xFF;
  const std::uint64_t f = bits & 0x3FF;
  const bool neg = ((bits >> 18) & 1) != 0;
  if (e == 0) return Dyadic{neg, f, -136};
  return Dyadic{neg, 1024 | f, static_cast<int>(e) - 137};
}

/// Sign of |a| - |b| for exact values.
int compare_magnitude(const Dyadic& a, const Dyadic& b) {
  if (a.sig == 0 || b.sig == 0) return (a.sig != 0) - (b.sig != 0);
  const int la = log2_floor(a), lb = log2_floor(b);
  if (la != lb) return la < lb ? -1 : 1;
  // Equal leading binade: the exponents differ by less than 64, so both fit 128 bits aligned.
  const int m = std::min(a.exp, b.exp);
  const u128 x = u128{a.sig} << (a.exp - m), y = u128{b.sig} << (b.exp - m);
  return x < y ? -1 : x > y ? 1 : 0;
}

// An integer from FloatingToInteger: sign, magnitude modulo 2^128, and whether the magnitude
// reached 2^127 (then only its low bits are meaningful).
struct Integer {
  bool neg = false;
  u128 mag = 0;
  bool huge = false;
  bool inexact = false;

  bool within(std::int64_t lo, std::int64_t hi) const {
    if (huge || mag > (u128{1} << 64)) return false;
    const numeric::s128 v = neg ? -static_cast<numeric::s128>(mag) : static_cast<numeric::s128>(mag);
    return v >= lo && v <= hi;
  }
  /// The value; meaningful when within() some int64 range.
  std::int64_t value() const { return static_cast<std::int64_t>(low_bits()); }
  /// Two's complement low 64 bits.
  std::uint64_t low_bits() const {
    const auto m = static_cast<std::uint64_t>(mag);
    return neg ? 0 - m : m;
  }
};

enum class Frac { Zero, Below, Half, Above };

/// |v| split into its integer part and the class of its fraction.
struct Split {
  u128 q = 0;
  bool huge = false;
  Frac frac = Frac::Zero;
};

Split split(const Dyadic& v) {
  Split s;
  if (v.sig == 0) return s;
  if (v.exp >= 0) {
    s.huge = numeric::bit_length(v.sig) + v.exp > 127;
    s.q = v.exp >= 128 ? 0 : u128{v.sig} << v.exp;
    return s;
  }
  const int sh = -v.exp;
  if (sh > 64) {
    s.frac = Frac::Below;  // sig < 2^64 <= 2^(sh-1)
    return s;
  }
  const u128 one = u128{1} << sh;
  const u128 r = u128{v.sig} & (one - 1);
  const u128 half = one >> 1;
  s.q = u128{v.sig} >> sh;
  s.frac = r == 0 ? Frac::Zero : r < half ? Frac::Below : r == half ? Frac::Half : Frac::Above;
  return s;
}

/// FloatingToInteger(value, mode) (asl/scalar/model/fsu/arithmetic.asl with the reference
/// profile's nearest-even FloatingRoundNearest).
Integer to_integer(const Dyadic& v, RoundingMode rm) {
  const Split s = split(v);
  Frac frac = s.frac;
  // lower = floor(v) as sign and magnitude; up() moves one step toward +infinity.
  Integer lower{v.neg && v.sig != 0, s.q, s.huge, frac != Frac::Zero};
  if (lower.neg && frac != Frac::Zero) {
    lower.mag = s.q + 1;
    frac = frac == Frac::Below ? Frac::Above : frac == Frac::Above ? Frac::Below : Frac::Half;
  }
  auto up = [](Integer x) {
    if (x.neg) {
      x.mag -= 1;
      if (x.mag == 0) x.neg = false;
    } else {
      x.mag += 1;
    }
    return x;
  };
  const bool odd = (lower.mag & 1) != 0;
  switch (rm) {
    case RoundingMode::RNE: return frac == Frac::Above || (frac == Frac::Half && odd) ? up(lower) : lower;
    case RoundingMode::RTP: return frac == Frac::Zero ? lower : up(lower);
    case RoundingMode::RTM: return lower;
    case RoundingMode::RTZ: return v.neg && frac != Frac::Zero ? up(lower) : lower;
    case RoundingMode::RNA: return frac == Frac::Above || (frac == Frac::Half && !v.neg) ? up(lower) : lower;
    case RoundingMode::RTO: return frac == Frac::Zero || odd ? lower : up(lower);
    case RoundingMode::RHB: return frac == Frac::Half || frac == Frac::Above ? up(lower) : lower;
  }
  return lower;
}

/// MatrixRoundMagnitude: a nonnegative magnitude rounded for a value of the given sign.
Integer round_magnitude(const Dyadic& mag, RoundingMode rm, bool negative) {
  if (negative && rm == RoundingMode::RHB) {
    // An exact tie goes to the smaller magnitude, i.e. the numerically greater value.
    const Split s = split(mag);
    return Integer{false, s.frac == Frac::Above ? s.q + 1 : s.q, s.huge, s.frac != Frac::Zero};
  }
  if (negative && rm == RoundingMode::RTP) rm = RoundingMode::RTM;
  else if (negative && rm == RoundingMode::RTM) rm = RoundingMode::RTP;
  return to_integer(mag, rm);
}

// ---------------------------------------------------------------------------------------------
// Destination encodings (asl/arch/profile/matrix-quantization.asl).

/// ReferenceFP32FiniteEncoding.
std::uint32_t fp32_encoding(const Dyadic& v, RoundingMode rm, NumericFlags& flags) {
  if (v.sig == 0) return 0;
  const std::uint32_t sign = v.neg ? 0x80000000u : 0;
  const int e = log2_floor(v);
  if (e > 127) {
    flags |= kOfNx;
    return sign | 0x7F800000u;
  }
  if (e < -126) {
    const Integer r = to_integer(scaled(v, 149), rm);
    const auto mag = static_cast<std::uint32_t>(r.mag);
    if (mag == 0) {
      flags |= kUfNx;
      return sign;
    }
    if (r.inexact) flags |= kUfNx;
    return sign | mag;
  }
  const Integer r = to_integer(scaled(v, 23 - e), rm);
  auto mag = static_cast<std::uint32_t>(r.mag);
  int biased = e + 127;
  if (mag == 0x1000000u) {
    mag = 0x800000u;
    ++biased;
  }
  if (biased >= 255) {
    flags |= kOfNx;
    return sign | 0x7F800000u;
  }
  if (r.inexact) flags |= kFlagNX;
  return sign | (static_cast<std::uint32_t>(biased) << 23) | (mag - 0x800000u);
}

/// ReferenceBinary16Encoding for FP16 and BF16.
std::uint32_t binary16_encoding(const Dyadic& v, bool bf16, RoundingMode rm, bool saturate, NumericFlags& flags) {
  if (v.sig == 0) return 0;
  const unsigned frac_bits = bf16 ? 7 : 10;
  const std::uint32_t fraction_scale = 1u << frac_bits;
  const int bias = bf16 ? 127 : 15;
  const int min_exponent = bf16 ? -126 : -14;
  const int min_subnormal = bf16 ? -133 : -24;
  const std::uint32_t sign = v.neg ? 0x8000u : 0;
  const std::uint32_t overflow = saturate ? (bf16 ? 0x7F7Fu : 0x7BFFu) : (bf16 ? 0x7F80u : 0x7C00u);
  const int e = log2_floor(v);
  if (e > bias) {
    flags |= kOfNx;
    return sign | overflow;
  }
  if (e < min_exponent) {
    const Integer r = round_magnitude(scaled(magnitude(v), -min_subnormal), rm, v.neg);
    if (r.inexact) flags |= kUfNx;
    const auto mag = static_cast<std::uint32_t>(r.mag);
    return sign | (mag >= fraction_scale ? fraction_scale : mag);
  }
  const Integer r = round_magnitude(scaled(magnitude(v), static_cast<int>(frac_bits) - e), rm, v.neg);
  auto mag = static_cast<std::uint32_t>(r.mag);
  int biased = e + bias;
  if (mag == 2 * fraction_scale) {
    mag = fraction_scale;
    ++biased;
  }
  if (biased >= 2 * bias + 1) {
    flags |= kOfNx;
    return sign | overflow;
  }
  if (r.inexact) flags |= kFlagNX;
  return sign | (static_cast<std::uint32_t>(biased) * fraction_scale + (mag - fraction_scale));
}

// ReferenceFP8Encoding searches every finite code for the best candidate. The table below holds
// the same candidates sorted by value (in units of 2^-25, on which every E4M3 and HiF8 value and
// every midpoint between two of them is an integer), so the search becomes a neighbour lookup
// followed by the ASL's tie and round-to-odd rules.
struct Fp8Candidate {
  std::int64_t units;
  std::uint8_t code;
};

std::vector<Fp8Candidate> build_fp8_table(DataType t) {
  std::vector<Fp8Candidate> table;
  for (unsigned code = 0; code < 256; ++code) {
    const numeric::Decoded d = numeric::decode(t, code);
    if (d.cls == numeric::ValueClass::Zero) {
      // -0 (E4M3 0x80) equals +0 and comes later in code order: the search never prefers it.
      if (code == 0) table.push_back({0, 0});
      continue;
    }
    if (d.cls != numeric::ValueClass::Finite) continue;
    const auto units = static_cast<std::int64_t>(d.significand << (d.exponent + 25));
    table.push_back({d.negative ? -units : units, static_cast<std::uint8_t>(code)});
  }
  std::sort(table.begin(), table.end(), [](const Fp8Candidate& a, const Fp8Candidate& b) { return a.units < b.units; });
  return table;
}

const std::vector<Fp8Candidate>& fp8_table(DataType t) {
  static const std::vector<Fp8Candidate> e4m3 = build_fp8_table(DataType::E4M3);
  static const std::vector<Fp8Candidate> hif8 = build_fp8_table(DataType::HiF8);
  return t == DataType::E4M3 ? e4m3 : hif8;
}

/// A value known to lie within the E4M3/HiF8 range as a signed fixed-point number with `shift`
/// fraction bits: v = units + sign * f, 0 <= f < 1, sticky = (f != 0).
struct Fixed {
  bool neg;
  std::int64_t units;
  bool sticky;

  /// Sign of v - g for an integer g in the same units.
  int compare(std::int64_t g) const {
    if (units != g) return units < g ? -1 : 1;
    return sticky ? (neg ? -1 : 1) : 0;
  }
};

Fixed to_fixed(const Dyadic& v, int shift) {
  const Integer r = to_integer(scaled(magnitude(v), shift), RoundingMode::RTZ);
  const auto mag = static_cast<std::int64_t>(static_cast<std::uint64_t>(r.mag));
  return Fixed{v.neg, v.neg ? -mag : mag, r.inexact};
}

/// ReferenceFP8Encoding for E4M3 and HiF8.
std::uint32_t fp8_encoding(const Dyadic& v, DataType t, RoundingMode rm, bool saturate, NumericFlags& flags) {
  if (v.sig == 0) return 0;
  const bool e4m3 = t == DataType::E4M3;
  const Dyadic maximum = e4m3 ? Dyadic{false, 7, 6} : Dyadic{false, 1, 15};  // 448, 32768
  if (compare_magnitude(v, maximum) > 0) {
    flags |= kOfNx;
    if (saturate) return e4m3 ? (v.neg ? 0xFEu : 0x7Eu) : (v.neg ? 0xEEu : 0x6Eu);
    return e4m3 ? 0x7Fu : (v.neg ? 0xEFu : 0x6Fu);  // E4M3 overflows to its (positive) NaN
  }
  const std::vector<Fp8Candidate>& table = fp8_table(t);
  const Fixed x = to_fixed(v, 25);
  // hi = the first candidate >= v, lo = the last candidate <= v.
  const std::size_t hi = static_cast<std::size_t>(
      std::partition_point(table.begin(), table.end(), [&x](const Fp8Candidate& c) { return x.compare(c.units) > 0; }) -
      table.begin());
  const std::size_t lo = x.compare(table[hi].units) == 0 ? hi : hi - 1;
  std::size_t best = lo;
  switch (rm) {
    case RoundingMode::RTP: best = hi; break;
    case RoundingMode::RTM: best = lo; break;
    case RoundingMode::RTZ:
    case RoundingMode::RTO: best = v.neg ? hi : lo; break;
    default: {
      if (lo == hi) break;
      // v against the midpoint (lo + hi) / 2, which is an integer in 2^-26 units.
      const int c = to_fixed(v, 26).compare(table[lo].units + table[hi].units);
      if (c != 0) {
        best = c < 0 ? lo : hi;
      } else if (rm == RoundingMode::RNE) {
        // The search keeps its first (lowest-code) candidate unless the other one is even and it odd.
        const bool lo_even = (table[lo].code & 1) == 0, hi_even = (table[hi].code & 1) == 0;
        best = lo_even != hi_even ? (lo_even ? lo : hi) : (table[lo].code < table[hi].code ? lo : hi);
      } else if (rm == RoundingMode::RNA) {
        best = v.neg ? lo : hi;  // the larger magnitude
      } else {
        best = hi;  // RHB: the numerically greater candidate
      }
    }
  }
  bool inexact = x.compare(table[best].units) != 0;
  if (rm == RoundingMode::RTO && inexact && (table[best].code & 1) == 0) {
    // The nearest odd-coded candidate beyond `best`, away from zero (kept when none exists).
    if (v.neg) {
      for (std::size_t i = best; i-- > 0;)
        if ((table[i].code & 1) != 0) {
          best = i;
          break;
        }
    } else {
      for (std::size_t i = best + 1; i < table.size(); ++i)
        if ((table[i].code & 1) != 0) {
          best = i;
          break;
        }
    }
    inexact = x.compare(table[best].units) != 0;
  }
  if (inexact) {
    const Dyadic min_normal = e4m3 ? Dyadic{false, 1, -6} : Dyadic{false, 1, -15};
    flags |= compare_magnitude(v, min_normal) < 0 ? kUfNx : kFlagNX;
  }
  return table[best].code;
}

/// The range of an integer destination type.
void integer_range(DataType t, std::int64_t& lo, std::int64_t& hi) {
  const unsigned bits = element_bits(t);
  if (is_signed_integer(t)) {
    lo = -(std::int64_t{1} << (bits - 1));
    hi = (std::int64_t{1} << (bits - 1)) - 1;
  } else {
    lo = 0;
    hi = bits >= 64 ? INT64_MAX : (std::int64_t{1} << bits) - 1;
  }
}

/// ReferenceMatrixIntegerEncoding.
std::uint64_t integer_encoding(const Dyadic& v, DataType t, RoundingMode rm, bool saturate, NumericFlags& flags) {
  const Integer r = to_integer(v, rm);
  std::int64_t lo = 0, hi = 0;
  integer_range(t, lo, hi);
  const bool overflow = !r.within(lo, hi);
  std::uint64_t selected = r.low_bits();
  if (overflow) {
    flags |= kOfNx;
    if (saturate) selected = static_cast<std::uint64_t>(r.neg ? lo : hi);
  } else if (r.inexact) {
    flags |= kFlagNX;
  }
  return selected & element_mask(t);
}

/// MatrixRoundAndSaturateSigned into the S5/S9/S17 intermediate.
std::int64_t round_saturate_signed(const Dyadic& v, unsigned width, RoundingMode rm, NumericFlags& flags) {
  const Integer r = to_integer(v, rm);
  const std::int64_t lo = -(std::int64_t{1} << (width - 1)), hi = (std::int64_t{1} << (width - 1)) - 1;
  if (!r.within(lo, hi)) {
    flags |= kOfNx;
    return r.neg ? lo : hi;
  }
  if (r.inexact) flags |= kFlagNX;
  return r.value();
}

Dyadic integer_value(std::int64_t v) {
  return Dyadic{v < 0, static_cast<std::uint64_t>(v < 0 ? -v : v), 0};
}

/// The canonical NaN of a floating destination (HiF8 0x80, E4M3 0x7F, IEEE quiet NaNs).
std::uint64_t canonical_nan(DataType t) { return *numeric::canonical_nan(t); }

/// MatrixFloatingInfinity: +-inf, or the canonical NaN for E4M3.
std::uint64_t floating_infinity(DataType t, bool negative) {
  switch (t) {
    case DataType::FP32: return negative ? 0xFF800000u : 0x7F800000u;
    case DataType::FP16: return negative ? 0xFC00u : 0x7C00u;
    case DataType::BF16: return negative ? 0xFF80u : 0x7F80u;
    case DataType::HiF8: return negative ? 0xEFu : 0x6Fu;
    default: return canonical_nan(t);
  }
}

/// MatrixFloatingLargestFinite.
std::uint64_t floating_largest(DataType t, bool negative) {
  switch (t) {
    case DataType::FP32: return negative ? 0xFF7FFFFFu : 0x7F7FFFFFu;
    case DataType::FP16: return negative ? 0xFBFFu : 0x7BFFu;
    case DataType::BF16: return negative ? 0xFF7Fu : 0x7F7Fu;
    case DataType::E4M3: return negative ? 0xFEu : 0x7Eu;
    default: return negative ? 0xEEu : 0x6Eu;  // HiF8
  }
}

/// MatrixFloatingSignedZero for a negative zero (HiF8 has none).
std::uint64_t floating_negative_zero(DataType t) {
  switch (t) {
    case DataType::FP32: return 0x80000000u;
    case DataType::FP16: case DataType::BF16: return 0x8000u;
    case DataType::E4M3: return 0x80u;
    default: return 0;
  }
}

/// MatrixEncodeReal.
std::uint64_t encode_real(const Dyadic& v, DataType t, RoundingMode rm, bool saturate, NumericFlags& flags) {
  if (is_integer(t)) return integer_encoding(v, t, rm, saturate, flags);
  switch (t) {
    case DataType::FP32: {
      NumericFlags f = 0;
      const std::uint32_t bits = fp32_encoding(v, rm, f);
      flags |= f;
      if (saturate && (f & kFlagOF) != 0) return (bits & 0x80000000u) | 0x7F7FFFFFu;
      return bits;
    }
    case DataType::FP16: return binary16_encoding(v, false, rm, saturate, flags);
    case DataType::BF16: return binary16_encoding(v, true, rm, saturate, flags);
    default: return fp8_encoding(v, t, rm, saturate, flags);
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The PreQuantMode table.

bool prequant_mode_assigned(unsigned m) {
  return m <= 5 || m == 12 || m == 13 || (m >= 16 && m <= 20) || (m >= 23 && m <= 28) || (m >= 32 && m <= 39);
}

bool mode_uses_vector_param(unsigned m) {
  return m == 2 || m == 4 || m == 12 || m == 18 || m == 20 || m == 23 || m == 28 || m == 33 || m == 36 || m == 37 ||
         m == 38 || m == 39;
}

bool mode_uses_scalar_param(unsigned m) {
  return m == 3 || m == 5 || m == 13 || m == 17 || m == 19 || m == 24 || m == 25 || m == 26 || m == 27 || m == 32 ||
         m == 34 || m == 35;
}

namespace {
bool mode_uses_s32_accumulator(unsigned m) {
  return (m >= 2 && m <= 5) || m == 12 || m == 13 || (m >= 17 && m <= 20) || m == 35 || m == 39;
}
}  // namespace

bool mode_is_shift(unsigned m) { return m == 12 || m == 13; }

bool mode_fixed_rounding(unsigned m) {
  return m == 1 || m == 16 || m == 25 || m == 26 || m == 28 || m == 32 || m == 33 || m == 34 || m == 36 || m == 37;
}

unsigned mode_offset_width(unsigned m) {
  if (m == 17 || m == 18) return 5;
  if (m == 2 || m == 3 || m == 23 || m == 24) return 9;
  if (m == 19 || m == 20) return 17;
  return 0;
}

bool mode_accepts_accumulator(unsigned m, DataType acc) {
  if (m == 0) return acc == DataType::FP32 || acc == DataType::S32 || acc == DataType::U32;
  if (!prequant_mode_assigned(m)) return false;
  return acc == (mode_uses_s32_accumulator(m) ? DataType::S32 : DataType::FP32);
}

DataType mode_output_type(unsigned m, DataType acc) {
  switch (m) {
    case 0: return acc;
    case 1: case 4: case 5: case 32: case 33: return DataType::FP16;
    case 2: case 3: case 23: case 24: return DataType::S8;
    case 12: case 13: case 19: case 20: return DataType::S16;
    case 16: case 34: case 35: case 36: case 39: return DataType::BF16;
    case 17: case 18: return DataType::S4X2;
    case 25: case 28: return DataType::HiF8;
    case 26: case 37: return DataType::E4M3;
    default: return DataType::FP32;  // 27, 38
  }
}

const char* prequant_mode_name(unsigned m) {
  switch (m) {
    case 0: return "NoQuant";
    case 1: return "F322F16";
    case 2: return "VREQ8";
    case 3: return "REQ8";
    case 4: return "VDEQF16";
    case 5: return "DEQF16";
    case 12: return "VSHIFTS322S16";
    case 13: return "SHIFTS322S16";
    case 16: return "F322BF16";
    case 17: return "REQ4";
    case 18: return "VREQ4";
    case 19: return "DEQS16";
    case 20: return "VDEQS16";
    case 23: return "VQF322B8_PRE";
    case 24: return "QF322B8_PRE";
    case 25: return "QF322HIF8_PRE";
    case 26: return "QF322FP8_PRE";
    case 27: return "QF322F32_PRE";
    case 28: return "VQF322HIF8_PRE";
    case 32: return "QF322F16_PRE";
    case 33: return "VQF322F16_PRE";
    case 34: return "QF322BF16_PRE";
    case 35: return "QS322BF16_PRE";
    case 36: return "VQF322BF16_PRE";
    case 37: return "VQF322FP8_PRE";
    case 38: return "VQF322F32_PRE";
    case 39: return "VQS322BF16_PRE";
    default: return "reserved";
  }
}

unsigned group_n_columns(unsigned code) {
  static constexpr unsigned kWidths[] = {0, 8, 16, 32, 48, 64, 80, 96, 112, 128};
  return code < 10 ? kWidths[code] : 0;
}

namespace {
/// FP19ScaleLegal: a positive normal FP19.
bool fp19_positive_normal(std::uint64_t fp19) {
  const unsigned e = (fp19 >> 10) & 0xFF;
  return ((fp19 >> 18) & 1) == 0 && e != 0 && e != 0xFF;
}
}  // namespace

bool quant_param_word_legal(unsigned mode, std::uint64_t w) {
  auto bits_zero = [w](unsigned hi, unsigned lo) {
    const std::uint64_t field = hi == 63 ? w >> lo : (w >> lo) & ((std::uint64_t{1} << (hi - lo + 1)) - 1);
    return field == 0;
  };
  if (mode_is_shift(mode)) return bits_zero(31, 0) && bits_zero(63, 36);
  if (!mode_uses_scalar_param(mode) && !mode_uses_vector_param(mode)) return false;
  if (!bits_zero(12, 0) || !fp19_positive_normal((w >> 13) & 0x7FFFF)) return false;
  switch (mode_offset_width(mode)) {
    case 5: return bits_zero(36, 32) && bits_zero(63, 42);
    case 9: return bits_zero(36, 32) && bits_zero(63, 46);
    case 17: return bits_zero(36, 32) && bits_zero(63, 54);
    default: return bits_zero(63, 32);
  }
}

bool relu_param_word_legal(std::uint64_t w) {
  if ((w >> 19) != 0) return false;
  return w == 0 || fp19_positive_normal(w);  // FP19ActivationParameterLegal: +0 or positive normal
}

bool datr_controls_legal(unsigned mode, unsigned rmode, bool sat) {
  if (mode == 0) return true;
  if (mode_is_shift(mode)) return rmode == 0 && !sat;
  if (mode_fixed_rounding(mode)) return rmode == 0;
  return true;
}

RoundingMode effective_rounding(unsigned mode, unsigned rmode) {
  if (mode == 25 || mode == 28) return RoundingMode::RHB;
  if (mode_fixed_rounding(mode)) return RoundingMode::RNE;
  return numeric::rounding_mode_from_bdatr(rmode).value_or(RoundingMode::RNE);
}

// ---------------------------------------------------------------------------------------------
// MatrixPostQuantBaseWithFlags.

std::uint64_t PostProcess::apply(std::uint64_t value, std::uint64_t quant, std::uint64_t relu_param,
                                 NumericFlags& flags) const {
  if (identity()) return value;
  if (mode_is_shift(mode)) {
    // MatrixShiftS32ToS16: arithmetic right shift by 1..16, then clamp to S16.
    const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
    const unsigned by = static_cast<unsigned>((quant >> 32) & 0xF) + 1;
    const std::int32_t shifted = v >= 0 ? v >> by : ~(~v >> by);  // ASR, portable for negatives
    if (shifted < -32768 || shifted > 32767) {
      flags |= kOfNx;
      return shifted < 0 ? 0x8000u : 0x7FFFu;
    }
    return static_cast<std::uint16_t>(shifted);
  }
  const DataType source = mode == 0 ? out : mode_uses_s32_accumulator(mode) ? DataType::S32 : DataType::FP32;
  const auto v32 = static_cast<std::uint32_t>(value);
  const bool fp32 = source == DataType::FP32;
  const bool nan = fp32 && (v32 & 0x7F800000u) == 0x7F800000u && (v32 & 0x7FFFFFu) != 0;
  const bool inf = fp32 && (v32 & 0x7FFFFFFFu) == 0x7F800000u;
  const bool negative = source == DataType::S32 ? static_cast<std::int32_t>(v32) < 0
                                                : fp32 && !nan && (v32 >> 31) != 0;

  // MatrixSelectedMultiplier.
  const Dyadic scale = mode_uses_scalar_param(mode) || mode_uses_vector_param(mode) ? fp19_value(quant >> 13)
                                                                                     : Dyadic{false, 1, 0};
  Dyadic multiplier = scale;
  if (negative && relu == 1) multiplier = Dyadic{};
  else if (negative && relu >= 2) multiplier = fp19_value(relu_param);

  // MatrixPostQuantSpecialValue, except that -inf times a zero multiplier is an ordinary zero.
  if ((nan || inf) && !(inf && negative && multiplier.sig == 0)) {
    if (nan) {
      const bool signaling = (v32 & 0x400000u) == 0;
      if (is_integer(out)) {
        flags |= kFlagNV;
        return saturate ? 0 : (std::uint64_t{1} << (element_bits(out) - 1));
      }
      if (signaling) flags |= kFlagNV;
      return saturate ? 0 : canonical_nan(out);
    }
    if (is_integer(out)) {
      std::int64_t lo = 0, hi = 0;
      integer_range(out, lo, hi);
      if (!saturate) {
        flags |= kFlagNV;
        return static_cast<std::uint64_t>(lo) & element_mask(out);
      }
      flags |= kOfNx;
      return static_cast<std::uint64_t>(negative ? lo : hi) & element_mask(out);
    }
    if (saturate) {
      flags |= kOfNx;
      return floating_largest(out, negative);
    }
    if (out == DataType::E4M3) flags |= kOfNx;
    return floating_infinity(out, negative);
  }

  Dyadic source_value;
  if (source == DataType::S32) source_value = integer_value(static_cast<std::int32_t>(v32));
  else if (source == DataType::U32) source_value = Dyadic{false, v32, 0};
  else if (!inf) source_value = fp32_value(v32);  // -inf with a zero multiplier contributes 0
  const Dyadic activated = times(source_value, multiplier);
  const unsigned width = mode_offset_width(mode);
  std::int64_t offset = 0;
  if (width != 0) {
    const std::uint64_t field = (quant >> 37) & ((std::uint64_t{1} << width) - 1);
    offset = (field >> (width - 1)) != 0 ? static_cast<std::int64_t>(field) - (std::int64_t{1} << width)
                                         : static_cast<std::int64_t>(field);
  }
  if (fp32 && v32 == 0x80000000u && multiplier.sig != 0 && offset == 0 && is_float(out))
    return floating_negative_zero(out);
  if (width != 0) {
    // MatrixQuantizedAffine: round and saturate at the S5/S9/S17 intermediate, then add the offset.
    const std::int64_t intermediate = round_saturate_signed(activated, width, rounding, flags);
    return integer_encoding(integer_value(intermediate + offset), out, rounding, saturate, flags);
  }
  return encode_real(activated, out, rounding, saturate, flags);
}

// ---------------------------------------------------------------------------------------------
// Reductions.

namespace {
/// MatrixReductionAbsoluteWithFlags.
std::uint64_t reduction_abs(DataType t, std::uint64_t v, NumericFlags& flags) {
  const auto w = static_cast<std::uint32_t>(v);
  if (t == DataType::U32) return w;
  if (t == DataType::S32) {
    if ((w >> 31) == 0) return w;
    if (w == 0x80000000u) {
      flags |= kFlagOF;
      return 0x7FFFFFFFu;
    }
    return static_cast<std::uint32_t>(0u - w);
  }
  return w & 0x7FFFFFFFu;  // floating ABS clears the sign bit and raises nothing
}
}  // namespace

std::uint64_t reduction_step(DataType t, std::uint64_t current, std::uint64_t candidate, bool max_abs,
                             NumericFlags& flags) {
  if (max_abs) {
    current = reduction_abs(t, current, flags);
    candidate = reduction_abs(t, candidate, flags);
  }
  return numeric::max(t, current, candidate, flags);
}

}  // namespace ptosim::model::cube
