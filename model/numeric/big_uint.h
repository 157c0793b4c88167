// SPDX-License-Identifier: BSD-3-Clause
// Minimal arbitrary-precision unsigned integer for exact decimal parsing and the exp fallback.
#pragma once

#include <cstdint>
#include <vector>

#include "model/numeric/wide_int.h"

namespace ptosim::model::numeric {

/// Little-endian base-2^32 magnitude. Only what exact decimal conversion and fixed-point
/// exponential evaluation need; no signed values.
class BigUint {
 public:
  BigUint() = default;
  explicit BigUint(std::uint64_t v);

  bool is_zero() const { return m_limbs.empty(); }
  int bit_length() const;
  /// The value's top `n` bits (1..127) as an integer; `sticky` is set when lower bits are nonzero.
  /// `shift` receives the number of dropped low bits (0 when the value has at most n bits).
  u128 top_bits(int n, bool& sticky, int& shift) const;
  /// The low 64 bits.
  std::uint64_t low64() const;
  /// Whether the value fits in 64 bits.
  bool fits_u64() const { return m_limbs.size() <= 2; }

  BigUint& operator+=(const BigUint& o);
  /// Requires *this >= o.
  BigUint& operator-=(const BigUint& o);
  BigUint& operator<<=(int n);
  /// Truncating right shift.
  BigUint& operator>>=(int n);
  BigUint& mul_small(std::uint32_t m);
  /// Divides in place by d != 0 and returns the remainder.
  std::uint32_t div_small(std::uint32_t d);
  /// Divides in place by d != 0 and returns the remainder.
  std::uint64_t div_u64(std::uint64_t d);
  friend BigUint operator*(const BigUint& a, const BigUint& b);
  friend int compare(const BigUint& a, const BigUint& b);
  friend bool operator<(const BigUint& a, const BigUint& b) { return compare(a, b) < 0; }

  /// floor(a / b) for a quotient below 2^127 (b != 0); `inexact` is set when a remainder is left.
  static u128 divide(const BigUint& a, const BigUint& b, bool& inexact);
  /// 10^n.
  static BigUint pow10(unsigned n);

 private:
  void trim();
  std::vector<std::uint32_t> m_limbs;
};

}  // namespace ptosim::model::numeric
