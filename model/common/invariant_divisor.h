// SPDX-License-Identifier: BSD-3-Clause
// InvariantDivisor: division by a divisor fixed at construction, as a shift when it is a power of
// two. The per-request timing path divides by sizes, interleaves and ring depths that are nearly
// always powers of two, and a hardware divide costs tens of cycles where a shift costs one.
#pragma once

#include <cstdint>

namespace ptosim::model {

class InvariantDivisor {
 public:
  /// `divisor` must not be zero.
  explicit InvariantDivisor(std::uint64_t divisor) : m_divisor(divisor) {
    if ((divisor & (divisor - 1)) == 0) m_shift = __builtin_ctzll(divisor);
  }

  std::uint64_t divisor() const { return m_divisor; }
  std::uint64_t quotient(std::uint64_t n) const { return m_shift >= 0 ? n >> m_shift : n / m_divisor; }
  std::uint64_t remainder(std::uint64_t n) const { return m_shift >= 0 ? n & (m_divisor - 1) : n % m_divisor; }
  /// ⌈n / divisor⌉
  std::uint64_t quotient_up(std::uint64_t n) const { return quotient(n + m_divisor - 1); }

 private:
  std::uint64_t m_divisor;
  int m_shift = -1;  ///< log2 of the divisor when it is a power of two
};

}  // namespace ptosim::model
