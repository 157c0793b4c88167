// SPDX-License-Identifier: BSD-3-Clause
// Text form of element values: exact decimal parsing and shortest round-trip formatting.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "model/common/text.h"
#include "model/numeric/big_uint.h"
#include "model/numeric/float_format.h"
#include "model/numeric/rounding.h"
#include "model/numeric/scalar_ops.h"

namespace ptosim::model::numeric {

namespace {

std::optional<std::uint64_t> parse_hex(DataType t, std::string_view digits) {
  if (digits.empty() || digits.size() > 16) return std::nullopt;
  std::uint64_t v = 0;
  for (const char c : digits) {
    const int d = ascii_digit(c) ? c - '0'
                  : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                              : -1;
    if (d < 0) return std::nullopt;
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  if ((v & ~element_mask(t)) != 0) return std::nullopt;
  return v;
}

// An exact decimal digits * 10^exp10 as sig * 2^exp2 (+ sticky) with sig of 126..127 bits.
struct Binary {
  u128 sig;
  int exp2;
  bool sticky;
};

Binary to_binary(const BigUint& digits, int exp10) {
  Binary r{0, 0, false};
  if (exp10 >= 0) {
    const BigUint n = digits * BigUint::pow10(static_cast<unsigned>(exp10));
    int shift = 0;
    r.sig = n.top_bits(126, r.sticky, shift);
    r.exp2 = shift;
    return r;
  }
  BigUint num = digits;
  BigUint den = BigUint::pow10(static_cast<unsigned>(-exp10));
  const int k = num.bit_length() - den.bit_length() - 126;
  if (k < 0) num <<= -k;
  else den <<= k;
  r.exp2 = k;
  if (den.fits_u64()) {  // the common short case: one pass of limb division
    r.sticky = num.div_u64(den.low64()) != 0;
    int shift = 0;
    r.sig = num.top_bits(127, r.sticky, shift);
    r.exp2 += shift;
    return r;
  }
  r.sig = BigUint::divide(num, den, r.sticky);
  return r;
}

}  // namespace

std::optional<std::uint64_t> parse_value(DataType t, std::string_view text) {
  const FloatFormat* f = float_format(t);
  bool negative = false;
  std::string_view s = text;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return parse_hex(t, s.substr(2));
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (iequal(s, "inf") || iequal(s, "infinity")) {
    if (f == nullptr || !f->has_inf) return std::nullopt;
    return infinity_of(*f, negative);
  }
  if (iequal(s, "nan")) return canonical_nan(t);

  // digits [. digits] [e [+-] digits]
  BigUint digits;
  // Up to nine digits gather in `chunk` before they join `digits` (digits * 10^n + chunk): one
  // big-integer step per nine digits, not one per digit (.random parses every value it draws).
  std::uint32_t chunk = 0, chunk_scale = 1;
  const auto fold_chunk = [&] {
    digits.mul_small(chunk_scale);
    digits += BigUint(chunk);
    chunk = 0;
    chunk_scale = 1;
  };
  int exp10 = 0;
  bool any_digit = false;
  int significant = 0;  // digits from the first nonzero one
  std::size_t i = 0;
  bool seen_point = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (!ascii_digit(c)) break;
    any_digit = true;
    if (c != '0' || significant > 0) ++significant;
    chunk = chunk * 10 + static_cast<std::uint32_t>(c - '0');
    chunk_scale *= 10;
    if (chunk_scale == 1'000'000'000) fold_chunk();
    if (seen_point) --exp10;
  }
  if (chunk_scale != 1) fold_chunk();
  if (!any_digit) return std::nullopt;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return std::nullopt;
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    if (i == s.size()) return std::nullopt;
    long e = 0;
    for (; i < s.size(); ++i) {
      if (!ascii_digit(s[i])) return std::nullopt;
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    exp10 += static_cast<int>(exp_negative ? -e : e);
  }

  NumericFlags flags = 0;
  if (digits.is_zero()) {
    if (f == nullptr) return 0;
    const std::uint64_t z = round_to_format(*f, negative, 0, 0, false, RoundingMode::RNE, false, flags);
    if (flags != 0) return std::nullopt;  // E8M0 has no zero
    return z;
  }
  // 10^(magnitude10 - 1) <= value < 10^magnitude10. Beyond 10^+-400 every type overflows or
  // rounds to zero, so a stand-in far outside all ranges replaces the exact arithmetic.
  const int magnitude10 = exp10 + significant;
  Binary b{u128{1} << 64, 0, true};
  if (magnitude10 > 400) b.exp2 = 2000;
  else if (magnitude10 < -400) b.exp2 = -2200;
  else b = to_binary(digits, exp10);

  if (f == nullptr) {
    if (b.exp2 > 0) return std::nullopt;
    bool inexact = false;
    const u128 m = round_to_integer(negative, b.sig, b.exp2, b.sticky, RoundingMode::RNE, inexact);
    const unsigned w = element_bits(t);
    const bool is_signed = is_signed_integer(t);
    const u128 limit = is_signed ? (u128{1} << (w - 1)) - (negative ? 0 : 1) : negative ? 0 : (u128{1} << w) - 1;
    if (m > limit) return std::nullopt;
    const auto low = static_cast<std::uint64_t>(m);
    return (negative ? 0 - low : low) & element_mask(t);
  }
  const std::uint64_t r = round_to_format(*f, negative, b.sig, b.exp2, b.sticky, RoundingMode::RNE, false, flags);
  if ((flags & kFlagNV) != 0) return std::nullopt;  // a negative E8M0 value
  return r;
}

std::string format_value(DataType t, std::uint64_t bits) {
  const Decoded d = decode(t, bits);
  const FloatFormat* f = float_format(t);
  if (f == nullptr) {
    if (d.cls == ValueClass::Zero) return "0";
    return (d.negative ? "-" : "") + std::to_string(d.significand);
  }
  switch (d.cls) {
    case ValueClass::QuietNaN:
    case ValueClass::SignalingNaN: return "nan";
    case ValueClass::Infinity: return d.negative ? "-inf" : "inf";
    case ValueClass::Zero: return d.negative ? "-0" : "0";
    case ValueClass::Finite: break;
  }
  // Shortest digit string that parses back: std::to_chars for the native binary32/binary64;
  // otherwise for each length the nearest decimal (glibc prints exactly rounded digits) and its
  // two neighbours, since the rounding interval is lopsided at powers of two.
  NumericFlags flags = 0;
  const std::uint64_t canonical = convert(t, bits, t, RoundingMode::RNE, false, flags);
  const double v = to_double(t, bits);
  std::string digits;
  int exp10 = 0;
  auto split = [&](const char* sci) {  // d.ddde+-x -> digits, exponent
    digits.clear();
    const char* e = std::strchr(sci, 'e');
    for (const char* c = sci; c != e; ++c)
      if (ascii_digit(*c)) digits += *c;
    exp10 = std::atoi(e + 1);
  };
  char buf[48];
  if (t == DataType::FP64 || t == DataType::FP32) {
    const auto res = t == DataType::FP64 ? std::to_chars(buf, buf + sizeof buf - 1, v, std::chars_format::scientific)
                                         : std::to_chars(buf, buf + sizeof buf - 1, static_cast<float>(v),
                                                         std::chars_format::scientific);
    *res.ptr = 0;
    split(buf);
  } else {
    for (int precision = 0; precision < 17 && digits.empty(); ++precision) {
      std::snprintf(buf, sizeof buf, "%.*e", precision, std::fabs(v));
      split(buf);
      const std::uint64_t nearest = std::stoull(digits);
      const int nearest_exp = exp10;
      digits.clear();
      for (const std::uint64_t m : {nearest, nearest + 1, nearest - 1}) {
        std::string cand = std::to_string(m);
        int e = nearest_exp + static_cast<int>(cand.size()) - (precision + 1);  // 999 + 1 carries
        if (m == 0) continue;
        std::snprintf(buf, sizeof buf, "%s%se%d", v < 0 ? "-" : "", cand.c_str(), e - static_cast<int>(cand.size()) + 1);
        if (parse_value(t, buf) == canonical) {
          digits = cand;
          exp10 = e;
          break;
        }
      }
    }
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const std::string sign = v < 0 ? "-" : "";
  if (exp10 < -7 || exp10 > 20) {
    std::string mantissa = digits.substr(0, 1);
    if (digits.size() > 1) mantissa += "." + digits.substr(1);
    return sign + mantissa + (exp10 < 0 ? "e-" : "e+") + std::to_string(exp10 < 0 ? -exp10 : exp10);
  }
  const int point = exp10 + 1;  // digits before the decimal point
  if (point <= 0) return sign + "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
  if (static_cast<std::size_t>(point) >= digits.size())
    return sign + digits + std::string(static_cast<std::size_t>(point) - digits.size(), '0');
  return sign + digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
}

}  // namespace ptosim::model::numeric
