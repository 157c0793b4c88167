// SPDX-License-Identifier: BSD-3-Clause
// Exact typed operations: IEEE 754-2019 special cases, exact integer arithmetic on the decoded
// significands, one rounding (numerics.md §5-§7, hardware-conformance-profile.json).
#include "model/numeric/exact_ops.h"

#include <cmath>
#include <utility>

#include "model/numeric/decoded.h"
#include "model/numeric/exp_engine.h"
#include "model/numeric/float_format.h"
#include "model/numeric/rounding.h"
#include "model/numeric/wide_int.h"

namespace ptosim::model::numeric::exact {

namespace {

bool is_snan(const Decoded& d) { return d.cls == ValueClass::SignalingNaN; }
bool is_inf(const Decoded& d) { return d.cls == ValueClass::Infinity; }
bool is_zero(const Decoded& d) { return d.cls == ValueClass::Zero; }

std::uint64_t nan_result(const FloatFormat& f, const Decoded& x, const Decoded& y, NumericFlags& flags) {
  if (is_snan(x) || is_snan(y)) flags |= kFlagNV;
  return nan_of(f);
}

std::uint64_t invalid(const FloatFormat& f, NumericFlags& flags) {
  flags |= kFlagNV;
  return nan_of(f);
}

// Exact zero result; E8M0 has no zero and reports NV.
std::uint64_t exact_zero(const FloatFormat& f, bool negative, NumericFlags& flags) {
  return round_to_format(f, negative, 0, 0, false, RoundingMode::RNE, false, flags);
}

std::uint64_t reencode(const FloatFormat& f, const Decoded& d, NumericFlags& flags) {
  return round_to_format(f, d.negative, d.significand, d.exponent, false, RoundingMode::RNE, false, flags);
}

struct Exact {
  bool negative;
  u128 sig;
  int exp;
  bool sticky;
};

// Exact signed sum of two nonzero magnitudes below 2^107. The larger is placed at bit 124 so
// that anything of the smaller below its unit only feeds a sticky bit far under any precision.
Exact add_exact(bool na, u128 sa, int ea, bool nb, u128 sb, int eb) {
  if (bit_length(sa) + ea < bit_length(sb) + eb) {
    std::swap(na, nb);
    std::swap(sa, sb);
    std::swap(ea, eb);
  }
  const int shift = 125 - bit_length(sa);
  const u128 big = sa << shift;
  const int e = ea - shift;
  bool sticky = false;
  const int d = eb - e;
  const u128 small = d >= 0 ? sb << d : shift_right_sticky(sb, -d, sticky);
  if (na == nb) return {na, big + small, e, sticky};
  if (big >= small) return {na, big - small - (sticky ? 1 : 0), e, sticky};
  return {nb, small - big, e, false};  // only reachable with d >= 0, where nothing was dropped
}

std::uint64_t add_float(const FloatFormat& f, const Decoded& x, const Decoded& y, RoundingMode rm,
                        NumericFlags& flags) {
  if (x.is_nan() || y.is_nan()) return nan_result(f, x, y, flags);
  if (is_inf(x) || is_inf(y)) {
    if (is_inf(x) && is_inf(y) && x.negative != y.negative) return invalid(f, flags);
    return infinity_of(f, is_inf(x) ? x.negative : y.negative);
  }
  if (is_zero(x) && is_zero(y)) return zero_of(f, x.negative == y.negative ? x.negative : rm == RoundingMode::RTM);
  if (is_zero(x)) return reencode(f, y, flags);
  if (is_zero(y)) return reencode(f, x, flags);
  const Exact s = add_exact(x.negative, x.significand, x.exponent, y.negative, y.significand, y.exponent);
  if (s.sig == 0) return exact_zero(f, rm == RoundingMode::RTM, flags);
  return round_to_format(f, s.negative, s.sig, s.exp, s.sticky, rm, false, flags);
}

std::uint64_t mul_float(const FloatFormat& f, const Decoded& x, const Decoded& y, RoundingMode rm,
                        NumericFlags& flags) {
  if (x.is_nan() || y.is_nan()) return nan_result(f, x, y, flags);
  const bool negative = x.negative != y.negative;
  if (is_inf(x) || is_inf(y)) {
    if (is_zero(x) || is_zero(y)) return invalid(f, flags);
    return infinity_of(f, negative);
  }
  if (is_zero(x) || is_zero(y)) return exact_zero(f, negative, flags);
  return round_to_format(f, negative, static_cast<u128>(x.significand) * y.significand, x.exponent + y.exponent,
                         false, rm, false, flags);
}

std::uint64_t div_float(const FloatFormat& f, const Decoded& x, const Decoded& y, RoundingMode rm,
                        NumericFlags& flags) {
  if (x.is_nan() || y.is_nan()) return nan_result(f, x, y, flags);
  const bool negative = x.negative != y.negative;
  if (is_inf(x)) return is_inf(y) ? invalid(f, flags) : infinity_of(f, negative);
  if (is_inf(y)) return exact_zero(f, negative, flags);
  if (is_zero(y)) {
    if (is_zero(x)) return invalid(f, flags);
    flags |= kFlagDZ;
    return infinity_of(f, negative);
  }
  if (is_zero(x)) return exact_zero(f, negative, flags);
  // A quotient of at least 126 - 53 = 73 bits: the remainder only feeds the sticky bit.
  const int shift = 126 - bit_length(x.significand);
  const u128 n = static_cast<u128>(x.significand) << shift;
  const u128 q = n / y.significand;
  const bool sticky = n % y.significand != 0;
  return round_to_format(f, negative, q, x.exponent - shift - y.exponent, sticky, rm, false, flags);
}

std::int64_t sign_extend(std::uint64_t v, unsigned w) {
  return static_cast<std::int64_t>(v << (64 - w)) >> (64 - w);
}

enum class IntOp { Add, Sub, Mul, Div };

std::uint64_t int_binary(IntOp op, DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  const unsigned w = element_bits(t);
  const std::uint64_t mask = low_mask(w);
  a &= mask;
  b &= mask;
  switch (op) {
    case IntOp::Add: return (a + b) & mask;
    case IntOp::Sub: return (a - b) & mask;
    case IntOp::Mul: return (a * b) & mask;
    case IntOp::Div: break;
  }
  if (b == 0) {  // the SFU preflight rejects it; the op itself returns all ones and reports DZ
    flags |= kFlagDZ;
    return mask;
  }
  if (!is_signed_integer(t)) return a / b;
  const std::int64_t sa = sign_extend(a, w);
  const std::int64_t sb = sign_extend(b, w);
  if (sb == -1) return (0 - a) & mask;  // also wraps S_min / -1 back to S_min
  return static_cast<std::uint64_t>(sa / sb) & mask;
}

int compare_decoded(const Decoded& x, const Decoded& y) {
  // Every non-NaN value of every type is a binary64 value (FP64 itself included).
  auto value = [](const Decoded& d) {
    if (d.cls == ValueClass::Infinity) return d.negative ? -HUGE_VAL : HUGE_VAL;
    const double m = std::ldexp(static_cast<double>(d.significand), d.exponent);
    return d.negative ? -m : m;
  };
  const double vx = value(x);
  const double vy = value(y);
  return vx < vy ? -1 : vx > vy ? 1 : 0;
}

std::uint64_t min_max(DataType t, std::uint64_t a, std::uint64_t b, bool is_max, NumericFlags& flags) {
  const std::uint64_t mask = element_mask(t);
  a &= mask;
  b &= mask;
  const FloatFormat* f = float_format(t);
  if (f == nullptr) {
    const unsigned w = element_bits(t);
    const bool a_less =
        is_signed_integer(t) ? sign_extend(a, w) < sign_extend(b, w) : a < b;
    const bool b_less =
        is_signed_integer(t) ? sign_extend(b, w) < sign_extend(a, w) : b < a;
    return is_max ? (a_less ? b : a) : (b_less ? b : a);
  }
  const Decoded x = decode(t, a);
  const Decoded y = decode(t, b);
  if (x.is_nan() || y.is_nan()) {
    if (is_snan(x) || is_snan(y)) flags |= kFlagNV;
    if (x.is_nan() && y.is_nan()) return f->canonical_nan;
    return x.is_nan() ? b : a;
  }
  if (is_zero(x) && is_zero(y)) {
    if (is_max) return x.negative && y.negative ? a : zero_of(*f, false);
    if (x.negative) return a;
    return y.negative ? b : zero_of(*f, false);
  }
  const int c = compare_decoded(x, y);
  return is_max ? (c >= 0 ? a : b) : (c <= 0 ? a : b);
}

std::uint64_t to_integer(DataType to, const Decoded& x, RoundingMode rm, bool saturate, NumericFlags& flags) {
  const unsigned w = element_bits(to);
  const bool is_signed = is_signed_integer(to);
  const std::uint64_t mask = low_mask(w);
  const std::uint64_t min_enc = is_signed ? std::uint64_t{1} << (w - 1) : 0;
  const std::uint64_t max_enc = is_signed ? mask >> 1 : mask;
  // HWP conversion.float_to_integer_invalid: signed minimum, unsigned maximum.
  const std::uint64_t indefinite = is_signed ? min_enc : mask;
  switch (x.cls) {
    case ValueClass::QuietNaN:
    case ValueClass::SignalingNaN:
      flags |= kFlagNV;
      return saturate ? 0 : indefinite;
    case ValueClass::Infinity:
      if (saturate) {
        flags |= kFlagOF | kFlagNX;
        return x.negative ? min_enc : max_enc;
      }
      flags |= kFlagNV;
      return indefinite;
    case ValueClass::Zero: return 0;
    case ValueClass::Finite: break;
  }
  const u128 max_pos = is_signed ? (u128{1} << (w - 1)) - 1 : (u128{1} << w) - 1;
  const u128 max_neg = is_signed ? u128{1} << (w - 1) : 0;
  bool huge = false;
  bool inexact = false;
  u128 magnitude = 0;
  std::uint64_t low = 0;
  if (bit_length(x.significand) + x.exponent > 100) {
    huge = true;  // beyond every integer type; only the low 64 bits matter for wrapping
    low = x.exponent >= 64 ? 0 : static_cast<std::uint64_t>(static_cast<u128>(x.significand) << x.exponent);
  } else {
    magnitude = round_to_integer(x.negative, x.significand, x.exponent, false, rm, inexact);
    low = static_cast<std::uint64_t>(magnitude);
  }
  if (!huge && magnitude <= (x.negative ? max_neg : max_pos)) {
    if (inexact) flags |= kFlagNX;
    return (x.negative ? 0 - low : low) & mask;
  }
  flags |= kFlagOF | kFlagNX;  // asl/arch/profile/matrix-quantization.asl integer encoding
  if (saturate) return x.negative ? min_enc : max_enc;
  return (x.negative ? 0 - low : low) & mask;
}

std::uint64_t to_float(const FloatFormat& f, const Decoded& x, RoundingMode rm, bool saturate, NumericFlags& flags) {
  switch (x.cls) {
    case ValueClass::QuietNaN:
    case ValueClass::SignalingNaN:
      if (f.kind == FormatKind::E8M0 || x.cls == ValueClass::SignalingNaN || f.nan == NanStyle::None)
        flags |= kFlagNV;
      if (f.kind == FormatKind::E8M0) return f.canonical_nan;
      return saturate ? zero_of(f, false) : nan_of(f);
    case ValueClass::Infinity:
      if (f.kind == FormatKind::E8M0) {
        if (x.negative) return invalid(f, flags);
        flags |= kFlagOF | kFlagNX;
        return saturate ? f.max_finite : f.canonical_nan;
      }
      if (!saturate && f.has_inf) return infinity_of(f, x.negative);
      flags |= kFlagOF | kFlagNX;
      return saturate ? max_finite_of(f, x.negative) : infinity_of(f, x.negative);
    case ValueClass::Zero: return exact_zero(f, x.negative, flags);
    case ValueClass::Finite: break;
  }
  return round_to_format(f, x.negative, x.significand, x.exponent, false, rm, saturate, flags);
}

}  // namespace

std::uint64_t add(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr) return int_binary(IntOp::Add, t, a, b, flags);
  return add_float(*f, decode(t, a), decode(t, b), rm, flags);
}

std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr) return int_binary(IntOp::Sub, t, a, b, flags);
  Decoded y = decode(t, b);
  y.negative = !y.negative;
  return add_float(*f, decode(t, a), y, rm, flags);
}

std::uint64_t mul(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr) return int_binary(IntOp::Mul, t, a, b, flags);
  return mul_float(*f, decode(t, a), decode(t, b), rm, flags);
}

std::uint64_t div(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr) return int_binary(IntOp::Div, t, a, b, flags);
  return div_float(*f, decode(t, a), decode(t, b), rm, flags);
}

std::uint64_t max(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return min_max(t, a, b, true, flags);
}

std::uint64_t min(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return min_max(t, a, b, false, flags);
}

std::uint64_t exp(DataType t, std::uint64_t a, NumericFlags& flags) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr) {  // TEXP is floating-only (ADR 0080 Decision 073): invalid, indefinite result
    flags |= kFlagNV;
    const unsigned w = element_bits(t);
    return is_signed_integer(t) ? std::uint64_t{1} << (w - 1) : low_mask(w);
  }
  const Decoded x = decode(t, a);
  switch (x.cls) {
    case ValueClass::QuietNaN:
    case ValueClass::SignalingNaN: return nan_result(*f, x, x, flags);
    case ValueClass::Zero: return one_of(*f);
    case ValueClass::Infinity: return x.negative ? zero_of(*f, false) : f->inf;
    case ValueClass::Finite: break;
  }
  const double v = std::ldexp(static_cast<double>(x.significand), x.exponent);
  return exp_round(*f, x.negative ? -v : v, flags);
}

std::uint64_t convert(DataType from, std::uint64_t bits, DataType to, RoundingMode rm, bool saturate,
                      NumericFlags& flags) {
  const Decoded x = decode(from, bits);
  const FloatFormat* f = float_format(to);
  if (f == nullptr) return to_integer(to, x, rm, saturate, flags);
  return to_float(*f, x, rm, saturate, flags);
}

std::uint64_t fma(DataType dst, std::uint64_t c, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b,
                  int scale_exp, RoundingMode rm, NumericFlags& flags) {
  const Decoded x = decode(ta, a);
  const Decoded y = decode(tb, b);
  const FloatFormat* f = float_format(dst);
  if (f == nullptr) {
    auto value = [](const Decoded& d) {
      const u128 m = d.significand;
      return d.negative ? 0 - m : m;
    };
    const u128 sum = static_cast<u128>(c) + value(x) * value(y);
    return static_cast<std::uint64_t>(sum) & element_mask(dst);
  }
  const Decoded z = decode(dst, c);
  if (x.is_nan() || y.is_nan() || z.is_nan()) {
    if (is_snan(x) || is_snan(y) || is_snan(z)) flags |= kFlagNV;
    return nan_of(*f);
  }
  const bool pneg = x.negative != y.negative;
  if (is_inf(x) || is_inf(y)) {
    if (is_zero(x) || is_zero(y) || (is_inf(z) && z.negative != pneg)) return invalid(*f, flags);
    return infinity_of(*f, pneg);
  }
  if (is_inf(z)) return infinity_of(*f, z.negative);
  if (is_zero(x) || is_zero(y)) {
    if (is_zero(z)) return zero_of(*f, z.negative == pneg ? pneg : rm == RoundingMode::RTM);
    return reencode(*f, z, flags);
  }
  const u128 product = static_cast<u128>(x.significand) * y.significand;
  const int product_exp = x.exponent + y.exponent + scale_exp;
  if (is_zero(z)) return round_to_format(*f, pneg, product, product_exp, false, rm, false, flags);
  const Exact s = add_exact(pneg, product, product_exp, z.negative, z.significand, z.exponent);
  if (s.sig == 0) return exact_zero(*f, rm == RoundingMode::RTM, flags);
  return round_to_format(*f, s.negative, s.sig, s.exp, s.sticky, rm, false, flags);
}

}  // namespace ptosim::model::numeric::exact
