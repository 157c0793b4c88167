// SPDX-License-Identifier: BSD-3-Clause
// Rounding to the floating formats: IEEE 754-2019 semantics with the HWP format refinements.
#include "model/numeric/rounding.h"

namespace ptosim::model::numeric {

namespace {

enum class Rem { Exact, Low, Half, High };

// (sig + s) * 2^exp truncated to a multiple of 2^q, in units of 2^q; `rem` classifies the rest.
// The caller keeps (value / 2^q) below 2^127.
u128 quantize(u128 sig, int exp, bool sticky, int q, Rem& rem) {
  const int sh = q - exp;
  if (sh <= 0) {
    rem = sticky ? Rem::Low : Rem::Exact;
    return sig << -sh;
  }
  if (sh >= 128) {  // sig < 2^127 <= 2^(sh-1): the whole value is below half a unit
    rem = Rem::Low;
    return 0;
  }
  const u128 r = sig & ((u128{1} << sh) - 1);
  const u128 half = u128{1} << (sh - 1);
  if (r == 0 && !sticky) rem = Rem::Exact;
  else if (r < half) rem = Rem::Low;
  else if (r == half) rem = sticky ? Rem::High : Rem::Half;
  else rem = Rem::High;
  return sig >> sh;
}

// Whether the truncated magnitude moves one unit away from zero. `odd`: the truncated
// candidate's last retained bit (for HiF8 the encoding's last bit).
bool round_up(Rem rem, bool odd, bool negative, RoundingMode rm) {
  switch (rm) {
    case RoundingMode::RNE: return rem == Rem::High || (rem == Rem::Half && odd);
    case RoundingMode::RNA: return rem == Rem::High || rem == Rem::Half;
    case RoundingMode::RHB: return rem == Rem::High || (rem == Rem::Half && !negative);
    case RoundingMode::RTZ: return false;
    case RoundingMode::RTP: return rem != Rem::Exact && !negative;
    case RoundingMode::RTM: return rem != Rem::Exact && negative;
    case RoundingMode::RTO: return rem != Rem::Exact && !odd;
  }
  return false;
}

// IEEE 754 §7.4 overflow result for the mode, then the format refinements.
std::uint64_t overflow_result(const FloatFormat& f, bool negative, RoundingMode rm, bool saturate,
                              NumericFlags& flags) {
  flags |= kFlagOF | kFlagNX;
  if (saturate) return max_finite_of(f, negative);
  bool to_infinity = true;
  switch (rm) {
    case RoundingMode::RNE:
    case RoundingMode::RNA:
    case RoundingMode::RHB: to_infinity = true; break;
    case RoundingMode::RTZ:
    case RoundingMode::RTO: to_infinity = false; break;
    case RoundingMode::RTP: to_infinity = !negative; break;
    case RoundingMode::RTM: to_infinity = negative; break;
  }
  return to_infinity ? infinity_of(f, negative) : max_finite_of(f, negative);
}

// Tininess after rounding: the value rounded to the precision of the smallest normal binade
// with an unbounded exponent stays below 2^emin. `e` is the exact value's binade.
bool is_tiny(const FloatFormat& f, bool negative, u128 sig, int exp, bool sticky, int e, RoundingMode rm) {
  if (e >= f.emin) return false;
  if (e < f.emin - 1) return true;
  const int p = static_cast<int>(f.min_normal_frac_bits);
  Rem rem;
  u128 t = quantize(sig, exp, sticky, f.emin - 1 - p, rem);
  if (round_up(rem, (t & 1) != 0, negative, rm)) ++t;
  return t != (u128{1} << (p + 1));
}

std::uint64_t round_binary(const FloatFormat& f, bool negative, u128 sig, int exp, bool sticky, RoundingMode rm,
                           bool saturate, NumericFlags& flags) {
  const int fb = static_cast<int>(f.frac_bits);
  const int e = bit_length(sig) - 1 + exp;
  const int e_eff = e > f.emin ? e : f.emin;
  Rem rem;
  u128 t = quantize(sig, exp, sticky, e_eff - fb, rem);
  if (round_up(rem, (t & 1) != 0, negative, rm)) ++t;
  const bool inexact = rem != Rem::Exact;
  // The fraction carry of t into bit fb+1 propagates into the exponent field by itself.
  const u128 magnitude = (static_cast<u128>(e_eff - f.emin) << fb) + t;
  if (magnitude > (f.max_finite >> f.frac_shift)) return overflow_result(f, negative, rm, saturate, flags);
  if (inexact) {
    flags |= kFlagNX;
    if (is_tiny(f, negative, sig, exp, sticky, e, rm)) flags |= kFlagUF;
  }
  const std::uint64_t sign = negative ? std::uint64_t{1} << f.sign_bit : 0;
  return sign | (static_cast<std::uint64_t>(magnitude) << f.frac_shift);
}

std::uint64_t round_hif8(const FloatFormat& f, bool negative, u128 sig, int exp, bool sticky, RoundingMode rm,
                         bool saturate, NumericFlags& flags) {
  const int e = bit_length(sig) - 1 + exp;
  const int q = hif8::quantum(e);
  Rem rem;
  u128 t = quantize(sig, exp, sticky, q, rem);
  // Denormals 2^-22..2^-16 are the codes 0x01..0x07: their parity is that of the code, not of t.
  const bool odd = (e >= -22 && e <= -16) ? ((e + 23) & 1) != 0 : (t & 1) != 0;
  if (round_up(rem, odd, negative, rm)) ++t;
  const bool inexact = rem != Rem::Exact;
  if (t != 0) {
    const int e_result = bit_length(t) - 1 + q;
    if (e_result > f.emax || (e_result == f.emax && (t & (t - 1)) != 0))
      return overflow_result(f, negative, rm, saturate, flags);
  }
  if (inexact) {
    flags |= kFlagNX;
    if (is_tiny(f, negative, sig, exp, sticky, e, rm)) flags |= kFlagUF;
  }
  if (t == 0) return 0;  // the single HiF8 zero
  return (negative ? 0x80 : 0) | hif8::encode_magnitude(static_cast<std::uint64_t>(t), q);
}

// TCVT-to-E8M0 rule of asl/arch/profile/e8m0-conversion.asl, used for every E8M0 result.
std::uint64_t round_e8m0(bool negative, u128 sig, int exp, bool sticky, RoundingMode rm, bool saturate,
                         NumericFlags& flags) {
  if (negative || sig == 0) {
    flags |= kFlagNV;
    return 0xFF;
  }
  const int nb = bit_length(sig);
  const int floor_exp = nb - 1 + exp;
  const bool exact_power = !sticky && (sig & (sig - 1)) == 0;
  if (floor_exp < -127) {
    flags |= kFlagUF | kFlagNX;
    return saturate ? 0x00 : 0xFF;
  }
  if (floor_exp > 127 || (floor_exp == 127 && !exact_power)) {
    flags |= kFlagOF | kFlagNX;
    return saturate ? 0xFE : 0xFF;
  }
  if (exact_power) return static_cast<std::uint64_t>(floor_exp + 127);
  flags |= kFlagNX;
  bool up = false;
  switch (rm) {
    case RoundingMode::RTM: up = false; break;
    case RoundingMode::RTP: up = true; break;
    case RoundingMode::RTZ: up = floor_exp < 0; break;
    case RoundingMode::RTO: up = (floor_exp & 1) == 0; break;
    case RoundingMode::RNE:
    case RoundingMode::RNA:
    case RoundingMode::RHB: {
      // Geometric midpoint: up iff value > sqrt(2) * 2^floor_exp, i.e. the significand aligned to
      // 127 bits exceeds floor(sqrt(2) * 2^126). An odd power of two is never a square, so the
      // ASL's exact-tie branches cannot be reached. Equal aligned bits plus a sticky remainder
      // (a value within 2^-126 relative of sqrt(2) * 2^k, which no caller produces) count as above.
      const u128 kSqrt2 = (static_cast<u128>(0x5A827999FCEF3242) << 64) | 0x2CBEC4D9BAA55F4F;
      const u128 aligned = sig << (127 - nb);
      up = aligned > kSqrt2 || (aligned == kSqrt2 && sticky);
      break;
    }
  }
  return static_cast<std::uint64_t>(floor_exp + (up ? 1 : 0) + 127);
}

}  // namespace

std::uint64_t zero_of(const FloatFormat& f, bool negative) {
  switch (f.kind) {
    case FormatKind::Binary: return negative ? std::uint64_t{1} << f.sign_bit : 0;
    case FormatKind::HiF8: return 0;
    case FormatKind::E8M0: return f.canonical_nan;
  }
  return 0;
}

std::uint64_t one_of(const FloatFormat& f) {
  switch (f.kind) {
    case FormatKind::Binary: return static_cast<std::uint64_t>(f.bias) << (f.frac_bits + f.frac_shift);
    case FormatKind::HiF8: return 0x08;
    case FormatKind::E8M0: return 0x7F;
  }
  return 0;
}

u128 round_to_integer(bool negative, u128 sig, int exp, bool sticky, RoundingMode rm, bool& inexact) {
  Rem rem;
  u128 t = quantize(sig, exp, sticky, 0, rem);
  if (round_up(rem, (t & 1) != 0, negative, rm)) ++t;
  inexact = rem != Rem::Exact;
  return t;
}

std::uint64_t nan_of(const FloatFormat& f) { return f.nan == NanStyle::None ? 0 : f.canonical_nan; }

std::uint64_t max_finite_of(const FloatFormat& f, bool negative) {
  if (f.kind == FormatKind::E8M0 || !negative) return f.max_finite;
  return f.max_finite | (std::uint64_t{1} << f.sign_bit);
}

std::uint64_t infinity_of(const FloatFormat& f, bool negative) {
  if (f.has_inf) return f.inf | (negative ? std::uint64_t{1} << f.sign_bit : 0);
  if (f.nan != NanStyle::None) return f.canonical_nan;
  return max_finite_of(f, negative);
}

std::uint64_t round_to_format(const FloatFormat& f, bool negative, u128 sig, int exp, bool sticky,
                              RoundingMode rm, bool saturate, NumericFlags& flags) {
  if (f.kind == FormatKind::E8M0) return round_e8m0(negative, sig, exp, sticky, rm, saturate, flags);
  if (sig == 0) return zero_of(f, negative);
  if (f.kind == FormatKind::HiF8) return round_hif8(f, negative, sig, exp, sticky, rm, saturate, flags);
  return round_binary(f, negative, sig, exp, sticky, rm, saturate, flags);
}

}  // namespace ptosim::model::numeric
