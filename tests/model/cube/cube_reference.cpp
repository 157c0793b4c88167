// SPDX-License-Identifier: BSD-3-Clause
#include "tests/model/cube/cube_reference.h"

#include <gmp.h>
#include <mpfr.h>

#include "model/numeric/matrix_ops.h"
#include "model/numeric/scalar_ops.h"

namespace ptosim::model::cube_test {

// ---------------------------------------------------------------------------------------------
// Accumulation.

std::vector<std::uint32_t> reference_accumulator(const RefProblem& p) {
  std::vector<std::uint32_t> out(std::size_t{p.m} * p.n);
  const std::uint32_t blocks = (p.k + 31) / 32;
  const bool floating = p.acc_type == DataType::FP32;
  for (std::uint32_t i = 0; i < p.m; ++i)
    for (std::uint32_t j = 0; j < p.n; ++j) {
      NumericFlags ignored = 0;  // accumulation raises no architectural flag (docs/numerics.md)
      std::uint32_t acc = p.c ? static_cast<std::uint32_t>((*p.c)[std::size_t{i} * p.n + j]) : 0;
      for (std::uint32_t kk = 0; kk < p.k; ++kk) {
        const std::uint64_t a = p.a[std::size_t{i} * p.k + kk], b = p.b[std::size_t{kk} * p.n + j];
        if (p.mx) {
          std::optional<std::uint8_t> sa, sb;
          if (p.sa) sa = static_cast<std::uint8_t>((*p.sa)[std::size_t{i} * blocks + kk / 32]);
          if (p.sb) sb = static_cast<std::uint8_t>((*p.sb)[std::size_t{kk / 32} * p.n + j]);
          acc = numeric::fma_fp32_scaled(acc, p.a_type, a, sa, p.b_type, b, sb, ignored);
        } else if (floating) {
          acc = numeric::fma_fp32(acc, p.a_type, a, p.b_type, b, ignored);
        } else {
          acc = numeric::mac_32(acc, p.a_type, a, p.b_type, b);
        }
      }
      if (p.bias) {
        const std::uint64_t bias = (*p.bias)[j];
        acc = floating ? static_cast<std::uint32_t>(numeric::add(DataType::FP32, acc, bias, ignored))
                       : acc + static_cast<std::uint32_t>(bias);
      }
      out[std::size_t{i} * p.n + j] = acc;
    }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Post-processing on reals. Every quantity is a dyadic rational far below 256 significant bits,
// so every MPFR operation below is exact; the ASL's `real` is modelled without rounding.

namespace {

class Real {
 public:
  Real() { mpfr_init2(m_v, 320); mpfr_set_zero(m_v, 1); }
  Real(double d) : Real() { mpfr_set_d(m_v, d, MPFR_RNDN); }  // NOLINT: literals as in the ASL
  Real(const Real& o) : Real() { mpfr_set(m_v, o.m_v, MPFR_RNDN); }
  Real& operator=(const Real& o) {
    mpfr_set(m_v, o.m_v, MPFR_RNDN);
    return *this;
  }
  ~Real() { mpfr_clear(m_v); }

  static Real integer(std::int64_t v) {
    Real r;
    mpfr_set_si(r.m_v, static_cast<long>(v), MPFR_RNDN);
    return r;
  }
  static Real pow2(long e) {
    Real r;
    mpfr_set_ui_2exp(r.m_v, 1, e, MPFR_RNDN);
    return r;
  }
  friend Real operator+(const Real& a, const Real& b) { return op(mpfr_add, a, b); }
  friend Real operator-(const Real& a, const Real& b) { return op(mpfr_sub, a, b); }
  friend Real operator*(const Real& a, const Real& b) { return op(mpfr_mul, a, b); }
  friend Real operator/(const Real& a, const Real& b) { return op(mpfr_div, a, b); }
  Real operator-() const {
    Real r;
    mpfr_neg(r.m_v, m_v, MPFR_RNDN);
    return r;
  }
  friend bool operator<(const Real& a, const Real& b) { return mpfr_less_p(a.m_v, b.m_v) != 0; }
  friend bool operator>(const Real& a, const Real& b) { return b < a; }
  friend bool operator<=(const Real& a, const Real& b) { return !(b < a); }
  friend bool operator>=(const Real& a, const Real& b) { return !(a < b); }
  friend bool operator==(const Real& a, const Real& b) { return mpfr_equal_p(a.m_v, b.m_v) != 0; }
  friend bool operator!=(const Real& a, const Real& b) { return !(a == b); }

  Real floor() const { return fn(mpfr_floor); }
  Real ceil() const { return fn(mpfr_ceil); }
  Real trunc() const { return fn(mpfr_trunc); }
  /// An integral value's residue modulo 2^bits (the low bits of its two's complement).
  std::uint64_t low_bits(unsigned bits) const {
    mpz_t z;
    mpz_init(z);
    mpfr_get_z(z, m_v, MPFR_RNDN);
    mpz_fdiv_r_2exp(z, z, bits);
    std::uint64_t r = 0;
    mpz_export(&r, nullptr, -1, sizeof r, 0, 0, z);
    mpz_clear(z);
    return r;
  }
  bool is_even_integer() const { return (low_bits(1) & 1) == 0; }

 private:
  using Binary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
  static Real op(Binary f, const Real& a, const Real& b) {
    Real r;
    f(r.m_v, a.m_v, b.m_v, MPFR_RNDN);
    return r;
  }
  Real fn(int (*f)(mpfr_ptr, mpfr_srcptr)) const {
    Real r;
    f(r.m_v, m_v);
    return r;
  }
  mpfr_t m_v;
};

enum class Rm { RNE, RTZ, RTM, RTP, RNA, RTO, RHB };

struct Control {
  Rm rounding;
  bool saturating;
};

constexpr NumericFlags kNV = 0x01, kOF = 0x04, kUF = 0x08, kNX = 0x10;

/// DecodeBundleRoundingSelection then ResolveTileNumericExecutionControl (default RNE).
Rm decode_rounding(unsigned code) {
  switch (code) {
    case 2: return Rm::RTZ;
    case 3: return Rm::RTM;
    case 4: return Rm::RTP;
    case 5: return Rm::RNA;
    case 6: return Rm::RTO;
    case 7: return Rm::RHB;
    default: return Rm::RNE;
  }
}

/// FloatingToInteger with the reference profile's FloatingRoundNearest.
Real floating_to_integer(const Real& value, Rm mode) {
  const Real lower = value.floor();
  const Real fraction = value - lower;
  switch (mode) {
    case Rm::RNE:
      if (fraction < 0.5) return lower;
      if (fraction > 0.5) return lower + 1.0;
      return lower.is_even_integer() ? lower : lower + 1.0;
    case Rm::RTP: return value.ceil();
    case Rm::RTM: return value.floor();
    case Rm::RTZ: return value.trunc();
    case Rm::RNA:
      if (fraction < 0.5) return lower;
      if (fraction > 0.5) return lower + 1.0;
      return value < 0.0 ? lower : lower + 1.0;
    case Rm::RTO:
      if (fraction == 0.0) return lower;
      return !lower.is_even_integer() ? lower : lower + 1.0;
    case Rm::RHB: return fraction < 0.5 ? lower : lower + 1.0;
  }
  return lower;
}

Real fp32_finite_value(std::uint32_t v) {
  const unsigned exponent = (v >> 23) & 0xFF;
  const std::uint32_t fraction = v & 0x7FFFFF;
  Real magnitude = exponent == 0 ? Real::integer(fraction) * Real::pow2(-149)
                                 : Real::integer(0x800000 + fraction) / Real::integer(0x800000) *
                                       Real::pow2(static_cast<long>(exponent) - 127);
  return (v >> 31) != 0 ? -magnitude : magnitude;
}

Real fp19_finite_value(std::uint64_t v) {
  const unsigned exponent = (v >> 10) & 0xFF;
  const std::uint64_t fraction = v & 0x3FF;
  Real magnitude = exponent == 0 ? Real::integer(static_cast<std::int64_t>(fraction)) * Real::pow2(-136)
                                 : (Real(1.0) + Real::integer(static_cast<std::int64_t>(fraction)) / 1024.0) *
                                       Real::pow2(static_cast<long>(exponent) - 127);
  return ((v >> 18) & 1) != 0 ? -magnitude : magnitude;
}

/// ReferenceFP32FiniteEncoding.
std::uint64_t fp32_encoding(const Real& value, Rm rm, NumericFlags& flags) {
  if (value == 0.0) return 0;
  const bool negative = value < 0.0;
  Real normalized = negative ? -value : value;
  int exponent = 0;
  for (int step = 1; step <= 128; ++step)
    if (normalized >= 2.0 && exponent < 128) {
      normalized = normalized / 2.0;
      ++exponent;
    }
  for (int step = 1; step <= 149; ++step)
    if (normalized < 1.0 && exponent > -149) {
      normalized = normalized * 2.0;
      --exponent;
    }
  const std::uint64_t sign = negative ? 0x80000000U : 0;
  if (exponent > 127) {
    flags |= kOF | kNX;
    return sign + 0x7F800000U;
  }
  if (exponent < -126) {
    const Real scaled = value / Real::pow2(-149);
    const Real rounded = floating_to_integer(scaled, rm);
    const Real magnitude = rounded < 0.0 ? -rounded : rounded;
    if (magnitude == 0.0) {
      flags |= kUF | kNX;
      return sign;
    }
    if (rounded != scaled) flags |= kUF | kNX;
    return sign + magnitude.low_bits(32);
  }
  const Real scaled = negative ? -(normalized * Real::integer(0x800000)) : normalized * Real::integer(0x800000);
  const Real rounded = floating_to_integer(scaled, rm);
  std::uint64_t magnitude = (rounded < 0.0 ? -rounded : rounded).low_bits(32);
  int encoded_exponent = exponent + 127;
  if (magnitude == 0x1000000) {
    magnitude = 0x800000;
    ++encoded_exponent;
  }
  if (encoded_exponent >= 255) {
    flags |= kOF | kNX;
    return sign + 0x7F800000U;
  }
  if (rounded != scaled) flags |= kNX;
  return sign + static_cast<std::uint64_t>(encoded_exponent) * 0x800000 + (magnitude - 0x800000);
}

/// MatrixRoundMagnitude.
Real round_magnitude(const Real& value, Rm mode, bool negative) {
  if (negative && mode == Rm::RHB) {
    const Real lower = value.floor();
    return value - lower <= 0.5 ? lower : lower + 1.0;
  }
  if (negative && mode == Rm::RTP) mode = Rm::RTM;
  else if (negative && mode == Rm::RTM) mode = Rm::RTP;
  return floating_to_integer(value, mode);
}

/// ReferenceBinary16Encoding.
std::uint64_t binary16_encoding(const Real& value, bool bf16, const Control& control, NumericFlags& flags) {
  if (value == 0.0) return 0;
  const bool negative = value < 0.0;
  Real normalized = negative ? -value : value;
  int exponent = 0;
  for (int step = 1; step <= 128; ++step)
    if (normalized >= 2.0 && exponent < 128) {
      normalized = normalized / 2.0;
      ++exponent;
    }
  for (int step = 1; step <= 149; ++step)
    if (normalized < 1.0 && exponent > -149) {
      normalized = normalized * 2.0;
      --exponent;
    }
  const std::uint64_t fraction_scale = bf16 ? 128 : 1024;
  const int bias = bf16 ? 127 : 15, maximum_exponent = bf16 ? 127 : 15, minimum_exponent = bf16 ? -126 : -14;
  const int minimum_subnormal_exponent = bf16 ? -133 : -24;
  const std::uint64_t sign = negative ? 0x8000 : 0;
  const std::uint64_t overflow = control.saturating ? (bf16 ? 0x7F7F : 0x7BFF) : (bf16 ? 0x7F80 : 0x7C00);
  if (exponent > maximum_exponent) {
    flags |= kOF | kNX;
    return sign + overflow;
  }
  if (exponent < minimum_exponent) {
    const Real scaled = (negative ? -value : value) / Real::pow2(minimum_subnormal_exponent);
    const Real rounded = round_magnitude(scaled, control.rounding, negative);
    const NumericFlags f = rounded == scaled ? 0 : kUF | kNX;
    if (rounded >= Real::integer(static_cast<std::int64_t>(fraction_scale))) {
      flags |= f;
      return sign + fraction_scale;
    }
    flags |= f;
    return sign + rounded.low_bits(32);
  }
  const Real scaled = normalized * Real::integer(static_cast<std::int64_t>(fraction_scale));
  std::uint64_t rounded = round_magnitude(scaled, control.rounding, negative).low_bits(32);
  const bool exact = Real::integer(static_cast<std::int64_t>(rounded)) == scaled;
  int encoded_exponent = exponent + bias;
  if (rounded == 2 * fraction_scale) {
    rounded = fraction_scale;
    ++encoded_exponent;
  }
  if (encoded_exponent >= 2 * bias + 1) {
    flags |= kOF | kNX;
    return sign + overflow;
  }
  if (!exact) flags |= kNX;
  return sign + static_cast<std::uint64_t>(encoded_exponent) * fraction_scale + (rounded - fraction_scale);
}

/// ReferenceFP8FiniteValue, transliterated bit field by bit field.
Real fp8_finite_value(DataType t, unsigned code) {
  const bool negative = (code & 0x80) != 0;
  Real magnitude = 0.0;
  if (t == DataType::E4M3) {
    const unsigned exponent = (code >> 3) & 0xF, fraction = code & 7;
    magnitude = exponent == 0 ? Real::integer(fraction) * Real::pow2(-9)
                              : (Real(1.0) + Real::integer(fraction) / 8.0) * Real::pow2(static_cast<long>(exponent) - 7);
  } else {
    const unsigned body = code & 0x7F;
    auto bit = [code](unsigned hi, unsigned lo) { return (code >> lo) & ((1U << (hi - lo + 1)) - 1); };
    if (body <= 7) {
      magnitude = body == 0 ? Real(0.0) : Real::pow2(static_cast<long>(body) - 23);
    } else if (body <= 15) {
      magnitude = Real(1.0) + Real::integer(body - 8) / 8.0;
    } else if (body <= 31) {
      const long e = bit(3, 3) == 0 ? 1 : -1;
      magnitude = (Real(1.0) + Real::integer(bit(2, 0)) / 8.0) * Real::pow2(e);
    } else if (body <= 63) {
      const long absolute = 2 + static_cast<long>(bit(3, 3));
      const long e = bit(4, 3) < 2 ? absolute : -absolute;
      magnitude = (Real(1.0) + Real::integer(bit(2, 0)) / 8.0) * Real::pow2(e);
    } else if (body <= 95) {
      const long absolute = 4 + static_cast<long>(bit(3, 2));
      const long e = bit(4, 2) < 4 ? absolute : -absolute;
      magnitude = (Real(1.0) + Real::integer(bit(1, 0)) / 4.0) * Real::pow2(e);
    } else {
      const long absolute = 8 + static_cast<long>(bit(3, 1));
      const long e = bit(4, 1) < 8 ? absolute : -absolute;
      magnitude = (Real(1.0) + Real::integer(bit(0, 0)) / 2.0) * Real::pow2(e);
    }
  }
  return negative ? -magnitude : magnitude;
}

/// TileNumericValueClass reduced to what the FP8 search skips: NaN or infinity.
bool fp8_special(DataType t, unsigned code) {
  if (t == DataType::E4M3) return (code & 0x7F) == 0x7F;
  return code == 0x80 || code == 0x6F || code == 0xEF;
}

/// ReferenceNearestFP8CandidateBetter.
bool nearest_better(const Real& target, const Real& candidate, unsigned candidate_code, const Real& best,
                    unsigned best_code, Rm mode) {
  const Real cd = candidate >= target ? candidate - target : target - candidate;
  const Real bd = best >= target ? best - target : target - best;
  if (cd < bd) return true;
  if (cd > bd) return false;
  if (mode == Rm::RNE) return candidate_code % 2 == 0 && best_code % 2 != 0;
  if (mode == Rm::RNA) return (candidate < 0.0 ? -candidate : candidate) > (best < 0.0 ? -best : best);
  if (mode == Rm::RTO) return candidate_code % 2 != 0 && best_code % 2 == 0;
  return candidate > best;
}

/// ReferenceFP8Encoding: the literal search over all 256 codes.
std::uint64_t fp8_encoding(const Real& value, DataType t, const Control& control, NumericFlags& flags) {
  if (value == 0.0) return 0;
  const bool e4m3 = t == DataType::E4M3;
  const bool negative = value < 0.0;
  const Real magnitude = negative ? -value : value;
  if (magnitude > Real(e4m3 ? 448.0 : 32768.0)) {
    flags |= kOF | kNX;
    if (control.saturating) return e4m3 ? (negative ? 0xFE : 0x7E) : (negative ? 0xEE : 0x6E);
    return e4m3 ? 0x7F : negative ? 0xEF : 0x6F;
  }
  const Rm rm = control.rounding;
  bool best_set = false;
  unsigned best_code = 0;
  Real best_value = 0.0;
  for (unsigned code = 0; code < 256; ++code) {
    if (fp8_special(t, code)) continue;
    const Real candidate = fp8_finite_value(t, code);
    bool eligible = true;
    if (rm == Rm::RTP) eligible = candidate >= value;
    else if (rm == Rm::RTM) eligible = candidate <= value;
    else if (rm == Rm::RTZ || rm == Rm::RTO)
      eligible = negative ? candidate <= 0.0 && candidate >= value : candidate >= 0.0 && candidate <= value;
    if (!eligible) continue;
    bool better = !best_set;
    if (best_set) {
      if (rm == Rm::RTP) better = candidate < best_value;
      else if (rm == Rm::RTM) better = candidate > best_value;
      else if (rm == Rm::RTZ || rm == Rm::RTO) better = negative ? candidate < best_value : candidate > best_value;
      else better = nearest_better(value, candidate, code, best_value, best_code, rm);
    }
    if (better) {
      best_set = true;
      best_code = code;
      best_value = candidate;
    }
  }
  if (rm == Rm::RTO && best_value != value && best_code % 2 == 0) {
    bool odd_set = false;
    unsigned odd_code = best_code;
    Real odd_value = best_value;
    for (unsigned code = 1; code < 256; code += 2) {
      if (fp8_special(t, code)) continue;
      const Real candidate = fp8_finite_value(t, code);
      const bool away = negative ? candidate < best_value : candidate > best_value;
      if (away && (!odd_set || (negative ? candidate > odd_value : candidate < odd_value))) {
        odd_set = true;
        odd_code = code;
        odd_value = candidate;
      }
    }
    if (odd_set) {
      best_code = odd_code;
      best_value = odd_value;
    }
  }
  const Real minimum_normal = Real::pow2(e4m3 ? -6 : -15);
  const bool inexact = best_value != value;
  if (inexact) flags |= magnitude < minimum_normal ? kUF | kNX : kNX;
  return best_code;
}

void integer_limits(DataType t, std::int64_t& minimum, std::int64_t& maximum) {
  switch (t) {
    case DataType::S4X2: minimum = -8; maximum = 7; return;
    case DataType::S8: minimum = -128; maximum = 127; return;
    case DataType::S16: minimum = -32768; maximum = 32767; return;
    case DataType::S32: minimum = INT32_MIN; maximum = INT32_MAX; return;
    default: minimum = 0; maximum = UINT32_MAX; return;  // U32
  }
}

/// ReferenceMatrixIntegerEncoding.
std::uint64_t integer_encoding(const Real& value, DataType t, const Control& control, NumericFlags& flags) {
  const Real rounded = floating_to_integer(value, control.rounding);
  std::int64_t lo = 0, hi = 0;
  integer_limits(t, lo, hi);
  const bool overflow = rounded < Real::integer(lo) || rounded > Real::integer(hi);
  Real selected = rounded;
  if (control.saturating && overflow) selected = rounded < Real::integer(lo) ? Real::integer(lo) : Real::integer(hi);
  if (overflow) flags |= kOF | kNX;
  else if (rounded != value) flags |= kNX;
  return selected.low_bits(element_bits(t));
}

/// MatrixRoundAndSaturateSigned.
std::int64_t round_and_saturate(const Real& value, unsigned width, Rm rm, NumericFlags& flags) {
  const Real rounded = floating_to_integer(value, rm);
  const std::int64_t minimum = width == 5 ? -16 : width == 9 ? -256 : -65536;
  const std::int64_t maximum = width == 5 ? 15 : width == 9 ? 255 : 65535;
  const bool overflow = rounded < Real::integer(minimum) || rounded > Real::integer(maximum);
  Real selected = rounded;
  if (selected < Real::integer(minimum)) selected = Real::integer(minimum);
  else if (selected > Real::integer(maximum)) selected = Real::integer(maximum);
  if (overflow) flags |= kOF | kNX;
  else if (rounded != value) flags |= kNX;
  const std::uint64_t bits = selected.low_bits(64);
  return static_cast<std::int64_t>(bits);
}

std::uint64_t encode_real(const Real& value, DataType t, const Control& control, NumericFlags& flags) {
  if (is_integer(t)) return integer_encoding(value, t, control, flags);
  if (t == DataType::FP32) {
    NumericFlags f = 0;
    const std::uint64_t r = fp32_encoding(value, control.rounding, f);
    flags |= f;
    if (control.saturating && (f & kOF) != 0) return (r & 0x80000000U) | 0x7F7FFFFFU;
    return r;
  }
  if (t == DataType::FP16 || t == DataType::BF16) return binary16_encoding(value, t == DataType::BF16, control, flags);
  return fp8_encoding(value, t, control, flags);
}

std::uint64_t canonical_nan(DataType t) {
  switch (t) {
    case DataType::FP32: return 0x7FC00000;
    case DataType::FP16: return 0x7E00;
    case DataType::BF16: return 0x7FC0;
    case DataType::E4M3: return 0x7F;
    default: return 0x80;  // HiF8
  }
}

std::uint64_t floating_infinity(DataType t, bool negative) {
  switch (t) {
    case DataType::FP32: return negative ? 0xFF800000 : 0x7F800000;
    case DataType::FP16: return negative ? 0xFC00 : 0x7C00;
    case DataType::BF16: return negative ? 0xFF80 : 0x7F80;
    case DataType::HiF8: return negative ? 0xEF : 0x6F;
    default: return canonical_nan(t);
  }
}

std::uint64_t floating_largest(DataType t, bool negative) {
  switch (t) {
    case DataType::FP32: return negative ? 0xFF7FFFFF : 0x7F7FFFFF;
    case DataType::FP16: return negative ? 0xFBFF : 0x7BFF;
    case DataType::BF16: return negative ? 0xFF7F : 0x7F7F;
    case DataType::E4M3: return negative ? 0xFE : 0x7E;
    default: return negative ? 0xEE : 0x6E;
  }
}

std::uint64_t integer_minimum(DataType t) { return std::uint64_t{1} << (element_bits(t) - 1); }

bool uses_scalar(unsigned m) {
  return m == 3 || m == 5 || m == 13 || m == 17 || m == 19 || m == 24 || m == 25 || m == 26 || m == 27 || m == 32 ||
         m == 34 || m == 35;
}
bool uses_vector(unsigned m) {
  return m == 2 || m == 4 || m == 12 || m == 18 || m == 20 || m == 23 || m == 28 || m == 33 || m == 36 || m == 37 ||
         m == 38 || m == 39;
}
bool uses_s32(unsigned m) {
  return m == 2 || m == 3 || m == 4 || m == 5 || m == 12 || m == 13 || m == 17 || m == 18 || m == 19 || m == 20 ||
         m == 35 || m == 39;
}
bool fixed_rounding(unsigned m) {
  return m == 1 || m == 16 || m == 25 || m == 26 || m == 28 || m == 32 || m == 33 || m == 34 || m == 36 || m == 37;
}
unsigned offset_width(unsigned m) {
  if (m == 17 || m == 18) return 5;
  if (m == 2 || m == 3 || m == 23 || m == 24) return 9;
  if (m == 19 || m == 20) return 17;
  return 0;
}

}  // namespace

DataType reference_output_type(unsigned mode, DataType acc) {
  switch (mode) {
    case 0: return acc;
    case 1: case 4: case 5: case 32: case 33: return DataType::FP16;
    case 2: case 3: case 23: case 24: return DataType::S8;
    case 12: case 13: case 19: case 20: return DataType::S16;
    case 16: case 34: case 35: case 36: case 39: return DataType::BF16;
    case 17: case 18: return DataType::S4X2;
    case 25: case 28: return DataType::HiF8;
    case 26: case 37: return DataType::E4M3;
    default: return DataType::FP32;
  }
}

std::uint64_t reference_postprocess(unsigned mode, unsigned relu, DataType acc, unsigned datr_rmode, bool sat,
                                    std::uint64_t value, std::uint64_t quant, std::uint64_t relu_param,
                                    NumericFlags& flags) {
  // MatrixFPATREffectiveControl.
  Control control{decode_rounding(datr_rmode), sat};
  if (mode == 25 || mode == 28) control.rounding = Rm::RHB;
  else if (fixed_rounding(mode)) control.rounding = Rm::RNE;
  const DataType output = reference_output_type(mode, acc);

  if (mode == 0 && relu == 0) return value;
  if (mode == 12 || mode == 13) {
    // MatrixShiftS32ToS16.
    const unsigned shift = static_cast<unsigned>((quant >> 32) & 0xF) + 1;
    const auto v = static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(value)));
    const std::int64_t shifted = v >= 0 ? v / (std::int64_t{1} << shift) : -((-v - 1) / (std::int64_t{1} << shift)) - 1;
    if (shifted < -32768) {
      flags |= kOF | kNX;
      return 0x8000;
    }
    if (shifted > 32767) {
      flags |= kOF | kNX;
      return 0x7FFF;
    }
    return static_cast<std::uint64_t>(shifted) & 0xFFFF;
  }
  const DataType source = mode == 0 ? output : uses_s32(mode) ? DataType::S32 : DataType::FP32;
  const auto v32 = static_cast<std::uint32_t>(value);
  // TileNumericValueClass of an FP32 source.
  const bool exp_ones = (v32 & 0x7F800000) == 0x7F800000;
  const bool nan = source == DataType::FP32 && exp_ones && (v32 & 0x7FFFFF) != 0;
  const bool signaling = nan && (v32 & 0x400000) == 0;
  const bool infinity = source == DataType::FP32 && exp_ones && (v32 & 0x7FFFFF) == 0;
  const bool negative_zero = source == DataType::FP32 && v32 == 0x80000000;
  const bool source_negative = source == DataType::S32 ? static_cast<std::int32_t>(v32) < 0
                                                       : source == DataType::FP32 && !nan && (v32 >> 31) != 0;
  const Real scale = uses_scalar(mode) || uses_vector(mode) ? fp19_finite_value((quant >> 13) & 0x7FFFF) : Real(1.0);
  // MatrixSelectedMultiplier.
  Real multiplier = scale;
  if (source_negative && relu == 1) multiplier = 0.0;
  else if (source_negative && relu >= 2) multiplier = fp19_finite_value(relu_param & 0x7FFFF);

  // MatrixPostQuantSpecialValue.
  if ((nan || infinity) && !(infinity && source_negative && multiplier == 0.0)) {
    if (nan) {
      if (is_integer(output)) {
        flags |= kNV;
        return control.saturating ? 0 : integer_minimum(output);
      }
      if (signaling) flags |= kNV;
      return control.saturating ? 0 : canonical_nan(output);
    }
    const bool negative = (v32 >> 31) != 0;
    if (is_integer(output)) {
      std::int64_t lo = 0, hi = 0;
      integer_limits(output, lo, hi);
      flags |= control.saturating ? kOF | kNX : kNV;
      const std::int64_t endpoint = !control.saturating || negative ? lo : hi;
      return static_cast<std::uint64_t>(endpoint) & ((std::uint64_t{1} << element_bits(output)) - 1);
    }
    if (control.saturating) {
      flags |= kOF | kNX;
      return floating_largest(output, negative);
    }
    if (output == DataType::E4M3) flags |= kOF | kNX;
    return floating_infinity(output, negative);
  }

  Real source_value;
  if (source == DataType::S32) source_value = Real::integer(static_cast<std::int32_t>(v32));
  else if (source == DataType::U32) source_value = Real::integer(v32);
  else if (infinity) source_value = 0.0;
  else source_value = fp32_finite_value(v32);
  const Real activated = source_value * multiplier;
  const unsigned width = offset_width(mode);
  std::int64_t offset = 0;
  if (width != 0) {
    const std::uint64_t field = (quant >> 37) & ((std::uint64_t{1} << width) - 1);
    offset = (field & (std::uint64_t{1} << (width - 1))) != 0 ? static_cast<std::int64_t>(field) - (std::int64_t{1} << width)
                                                             : static_cast<std::int64_t>(field);
  }
  if (negative_zero && multiplier != 0.0 && offset == 0 && is_float(output)) {
    switch (output) {
      case DataType::FP32: return 0x80000000;
      case DataType::FP16: case DataType::BF16: return 0x8000;
      case DataType::E4M3: return 0x80;
      default: return 0;
    }
  }
  if (width != 0) {
    const std::int64_t intermediate = round_and_saturate(activated, width, control.rounding, flags);
    return integer_encoding(Real::integer(intermediate + offset), output, control, flags);
  }
  return encode_real(activated + Real::integer(offset), output, control, flags);
}

std::uint64_t reference_reduction_step(DataType t, std::uint64_t current, std::uint64_t candidate, bool max_abs,
                                       NumericFlags& flags) {
  auto absolute = [t, &flags](std::uint64_t v) -> std::uint64_t {
    const auto w = static_cast<std::uint32_t>(v);
    if (t == DataType::U32) return w;
    if (t == DataType::S32) {
      if ((w >> 31) == 0) return w;
      if (w == 0x80000000U) {
        flags |= kOF;
        return 0x7FFFFFFF;
      }
      return static_cast<std::uint32_t>(0 - w);
    }
    return w & 0x7FFFFFFFU;
  };
  if (max_abs) {
    current = absolute(current);
    candidate = absolute(candidate);
  }
  return numeric::max(t, current, candidate, flags);
}

}  // namespace ptosim::model::cube_test
