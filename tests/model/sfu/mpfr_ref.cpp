// SPDX-License-Identifier: BSD-3-Clause
#include "tests/model/sfu/mpfr_ref.h"

#include <mpfr.h>

#include <cmath>
#include <cstring>

namespace ptosim::model::mpfr_ref {

namespace {

struct Format {
  int precision;    ///< significand bits including the leading one
  int emax;         ///< largest binade exponent
  int emin;         ///< smallest normal binade exponent
};

Format format_of(DataType t) {
  switch (t) {
    case DataType::FP64: return {53, 1023, -1022};
    case DataType::FP32: return {24, 127, -126};
    case DataType::TF32: return {11, 127, -126};
    case DataType::HF32: return {12, 127, -126};
    case DataType::FP16: return {11, 15, -14};
    default: return {8, 127, -126};  // BF16
  }
}

std::uint64_t encode(DataType t, double v) {
  if (t == DataType::FP64) {
    std::uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
  }
  if (t == DataType::FP16) {
    const std::uint64_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    if (std::isinf(a)) return sign | 0x7C00;
    if (a < 0x1p-14) return sign | static_cast<std::uint64_t>(a * 0x1p24);
    int e = 0;
    const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    return sign | (static_cast<std::uint64_t>(e - 1 + 15) << 10) | (static_cast<std::uint64_t>(m * 2048) & 0x3FF);
  }
  const auto f = static_cast<float>(v);  // exact: every value of these formats is an FP32 value
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return t == DataType::BF16 ? u >> 16 : u;
}

std::uint64_t nan_of(DataType t) {
  switch (t) {
    case DataType::FP64: return 0x7FF8000000000000;
    case DataType::FP16: return 0x7E00;
    case DataType::BF16: return 0x7FC0;
    default: return 0x7FC00000;
  }
}

/// Rounds `exact` (NaN-free) into `t`; `exact_inexact` says `exact` itself is already rounded.
std::uint64_t round_into(DataType t, mpfr_srcptr exact, bool exact_inexact, NumericFlags& flags) {
  const Format f = format_of(t);
  if (mpfr_inf_p(exact)) return encode(t, mpfr_signbit(exact) ? -INFINITY : INFINITY);
  if (mpfr_zero_p(exact)) return encode(t, mpfr_signbit(exact) ? -0.0 : 0.0);
  mpfr_t unbounded, scaled;
  mpfr_inits2(f.precision, unbounded, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(scaled, 4096);
  const bool inexact_p = mpfr_set(unbounded, exact, MPFR_RNDN) != 0 || exact_inexact;
  // mpfr exponents: x = m * 2^e with m in [0.5, 1), so the binade 2^k has mpfr exponent k + 1.
  const long e = mpfr_get_exp(unbounded) - 1;
  double result = 0;
  if (e > f.emax) {
    flags |= kFlagOF | kFlagNX;
    result = mpfr_signbit(exact) ? -INFINITY : INFINITY;
  } else if (e >= f.emin) {
    if (inexact_p) flags |= kFlagNX;
    result = mpfr_get_d(unbounded, MPFR_RNDN);
  } else {
    // Tiny after rounding: round on the fixed subnormal grid 2^(emin - precision + 1).
    const long quantum = f.emin - f.precision + 1;
    mpfr_mul_2si(scaled, exact, -quantum, MPFR_RNDN);  // exact in 4096 bits
    const bool inexact_q = mpfr_rint(scaled, scaled, MPFR_RNDN) != 0 || exact_inexact;
    if (inexact_q) flags |= kFlagUF | kFlagNX;
    mpfr_mul_2si(scaled, scaled, quantum, MPFR_RNDN);
    result = mpfr_get_d(scaled, MPFR_RNDN);
    if (result == 0) result = mpfr_signbit(exact) ? -0.0 : 0.0;
  }
  mpfr_clears(unbounded, scaled, static_cast<mpfr_ptr>(nullptr));
  return encode(t, result);
}

}  // namespace

double value(DataType t, std::uint64_t bits) {
  switch (t) {
    case DataType::FP64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    case DataType::FP16: {
      const double sign = (bits & 0x8000) ? -1.0 : 1.0;
      const unsigned e = (bits >> 10) & 0x1F;
      const double m = static_cast<double>(bits & 0x3FF);
      if (e == 0x1F) return m == 0 ? sign * INFINITY : NAN;
      if (e == 0) return sign * std::ldexp(m, -24);
      return sign * std::ldexp(1024 + m, static_cast<int>(e) - 25);
    }
    case DataType::BF16: bits <<= 16; break;
    default: break;
  }
  const auto u = static_cast<std::uint32_t>(bits);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  const double x = value(t, a), y = value(t, b);
  if (std::isinf(x) && std::isinf(y) && std::signbit(x) == std::signbit(y)) {
    flags |= kFlagNV;
    return nan_of(t);
  }
  mpfr_t d;
  mpfr_init2(d, 4096);  // a - b of two binary64 values is exact in 2200 bits
  mpfr_set_d(d, x, MPFR_RNDN);
  mpfr_sub_d(d, d, y, MPFR_RNDN);
  const std::uint64_t r = round_into(t, d, false, flags);
  mpfr_clear(d);
  return r;
}

std::uint64_t exp(DataType t, std::uint64_t a, NumericFlags& flags) {
  const double x = value(t, a);
  if (x == 0) return encode(t, 1.0);
  mpfr_t e;
  mpfr_init2(e, 512);
  mpfr_set_d(e, x, MPFR_RNDN);
  mpfr_exp(e, e, MPFR_RNDN);  // e^x is transcendental: a 512-bit rounding decides every binade
  const std::uint64_t r = round_into(t, e, !std::isinf(x), flags);
  mpfr_clear(e);
  return r;
}

}  // namespace ptosim::model::mpfr_ref
