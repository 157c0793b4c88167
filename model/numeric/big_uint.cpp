// SPDX-License-Identifier: BSD-3-Clause
// Schoolbook arbitrary-precision unsigned arithmetic (sizes here stay below a few thousand bits).
#include "model/numeric/big_uint.h"

namespace ptosim::model::numeric {

BigUint::BigUint(std::uint64_t v) {
  while (v != 0) {
    m_limbs.push_back(static_cast<std::uint32_t>(v));
    v >>= 32;
  }
}

void BigUint::trim() {
  while (!m_limbs.empty() && m_limbs.back() == 0) m_limbs.pop_back();
}

int BigUint::bit_length() const {
  if (m_limbs.empty()) return 0;
  return static_cast<int>(32 * (m_limbs.size() - 1)) + numeric::bit_length(std::uint64_t{m_limbs.back()});
}

std::uint64_t BigUint::low64() const {
  std::uint64_t v = 0;
  if (!m_limbs.empty()) v = m_limbs[0];
  if (m_limbs.size() > 1) v |= std::uint64_t{m_limbs[1]} << 32;
  return v;
}

u128 BigUint::top_bits(int n, bool& sticky, int& shift) const {
  const int len = bit_length();
  shift = len > n ? len - n : 0;
  BigUint top = *this;
  top >>= shift;
  u128 v = 0;
  for (std::size_t i = top.m_limbs.size(); i-- > 0;) v = (v << 32) | top.m_limbs[i];
  for (int i = 0; i < shift / 32 && !sticky; ++i) sticky = m_limbs[static_cast<std::size_t>(i)] != 0;
  if (!sticky && shift % 32 != 0)
    sticky = (m_limbs[static_cast<std::size_t>(shift / 32)] & ((std::uint32_t{1} << (shift % 32)) - 1)) != 0;
  return v;
}

BigUint& BigUint::operator+=(const BigUint& o) {
  if (m_limbs.size() < o.m_limbs.size()) m_limbs.resize(o.m_limbs.size(), 0);
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < m_limbs.size(); ++i) {
    carry += std::uint64_t{m_limbs[i]} + (i < o.m_limbs.size() ? o.m_limbs[i] : 0);
    m_limbs[i] = static_cast<std::uint32_t>(carry);
    carry >>= 32;
  }
  if (carry != 0) m_limbs.push_back(static_cast<std::uint32_t>(carry));
  return *this;
}

BigUint& BigUint::operator-=(const BigUint& o) {
  std::int64_t borrow = 0;
  for (std::size_t i = 0; i < m_limbs.size(); ++i) {
    std::int64_t d = std::int64_t{m_limbs[i]} - borrow - (i < o.m_limbs.size() ? std::int64_t{o.m_limbs[i]} : 0);
    borrow = d < 0 ? 1 : 0;
    if (d < 0) d += std::int64_t{1} << 32;
    m_limbs[i] = static_cast<std::uint32_t>(d);
  }
  trim();
  return *this;
}

BigUint& BigUint::operator<<=(int n) {
  if (m_limbs.empty() || n <= 0) return *this;
  const auto limbs = static_cast<std::size_t>(n / 32);
  const int bits = n % 32;
  m_limbs.insert(m_limbs.begin(), limbs, 0);
  if (bits != 0) {
    std::uint32_t carry = 0;
    for (std::size_t i = limbs; i < m_limbs.size(); ++i) {
      const std::uint32_t v = m_limbs[i];
      m_limbs[i] = (v << bits) | carry;
      carry = v >> (32 - bits);
    }
    if (carry != 0) m_limbs.push_back(carry);
  }
  return *this;
}

BigUint& BigUint::operator>>=(int n) {
  if (n <= 0) return *this;
  const auto limbs = static_cast<std::size_t>(n / 32);
  if (limbs >= m_limbs.size()) {
    m_limbs.clear();
    return *this;
  }
  m_limbs.erase(m_limbs.begin(), m_limbs.begin() + static_cast<std::ptrdiff_t>(limbs));
  const int bits = n % 32;
  if (bits != 0) {
    for (std::size_t i = 0; i < m_limbs.size(); ++i) {
      const std::uint32_t next = i + 1 < m_limbs.size() ? m_limbs[i + 1] : 0;
      m_limbs[i] = (m_limbs[i] >> bits) | (next << (32 - bits));
    }
  }
  trim();
  return *this;
}

BigUint& BigUint::mul_small(std::uint32_t m) {
  std::uint64_t carry = 0;
  for (auto& limb : m_limbs) {
    carry += std::uint64_t{limb} * m;
    limb = static_cast<std::uint32_t>(carry);
    carry >>= 32;
  }
  if (carry != 0) m_limbs.push_back(static_cast<std::uint32_t>(carry));
  trim();
  return *this;
}

std::uint32_t BigUint::div_small(std::uint32_t d) {
  std::uint64_t rem = 0;
  for (std::size_t i = m_limbs.size(); i-- > 0;) {
    const std::uint64_t cur = (rem << 32) | m_limbs[i];
    m_limbs[i] = static_cast<std::uint32_t>(cur / d);
    rem = cur % d;
  }
  trim();
  return static_cast<std::uint32_t>(rem);
}

std::uint64_t BigUint::div_u64(std::uint64_t d) {
  u128 rem = 0;
  for (std::size_t i = m_limbs.size(); i-- > 0;) {
    const u128 cur = (rem << 32) | m_limbs[i];  // < d * 2^32
    m_limbs[i] = static_cast<std::uint32_t>(cur / d);
    rem = cur % d;
  }
  trim();
  return static_cast<std::uint64_t>(rem);
}

BigUint operator*(const BigUint& a, const BigUint& b) {
  BigUint r;
  if (a.is_zero() || b.is_zero()) return r;
  r.m_limbs.assign(a.m_limbs.size() + b.m_limbs.size(), 0);
  for (std::size_t i = 0; i < a.m_limbs.size(); ++i) {
    std::uint64_t carry = 0;
    const std::uint64_t ai = a.m_limbs[i];
    for (std::size_t j = 0; j < b.m_limbs.size(); ++j) {
      carry += ai * b.m_limbs[j] + r.m_limbs[i + j];
      r.m_limbs[i + j] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    r.m_limbs[i + b.m_limbs.size()] = static_cast<std::uint32_t>(carry);
  }
  r.trim();
  return r;
}

int compare(const BigUint& a, const BigUint& b) {
  if (a.m_limbs.size() != b.m_limbs.size()) return a.m_limbs.size() < b.m_limbs.size() ? -1 : 1;
  for (std::size_t i = a.m_limbs.size(); i-- > 0;)
    if (a.m_limbs[i] != b.m_limbs[i]) return a.m_limbs[i] < b.m_limbs[i] ? -1 : 1;
  return 0;
}

u128 BigUint::divide(const BigUint& a, const BigUint& b, bool& inexact) {
  if (compare(a, b) < 0) {
    inexact = inexact || !a.is_zero();
    return 0;
  }
  BigUint q = a;
  if (b.m_limbs.size() == 1) {
    inexact = q.div_small(b.m_limbs[0]) != 0 || inexact;
  } else {
    // Knuth's algorithm D in base 2^32 with a normalized divisor.
    const int s = 32 - numeric::bit_length(std::uint64_t{b.m_limbs.back()});
    BigUint u = a;
    BigUint v = b;
    u <<= s;
    v <<= s;
    const std::size_t n = v.m_limbs.size();
    u.m_limbs.resize(a.m_limbs.size() + 1, 0);  // the shift adds at most this limb
    const std::size_t m = u.m_limbs.size() - n - 1;
    std::vector<std::uint32_t> quotient(m + 1, 0);
    const std::uint64_t base = std::uint64_t{1} << 32;
    const std::uint64_t vtop = v.m_limbs[n - 1];
    const std::uint64_t vnext = v.m_limbs[n - 2];
    for (std::size_t j = m + 1; j-- > 0;) {
      const std::uint64_t num = (std::uint64_t{u.m_limbs[j + n]} << 32) | u.m_limbs[j + n - 1];
      std::uint64_t qhat = num / vtop;
      std::uint64_t rhat = num % vtop;
      while (qhat >= base || qhat * vnext > ((rhat << 32) | u.m_limbs[j + n - 2])) {
        --qhat;
        rhat += vtop;
        if (rhat >= base) break;
      }
      std::int64_t borrow = 0;
      std::uint64_t carry = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t p = qhat * v.m_limbs[i] + carry;
        carry = p >> 32;
        const std::int64_t t = std::int64_t{u.m_limbs[i + j]} - borrow - static_cast<std::int64_t>(p & 0xFFFFFFFF);
        u.m_limbs[i + j] = static_cast<std::uint32_t>(t);
        borrow = t < 0 ? 1 : 0;
      }
      const std::int64_t t = std::int64_t{u.m_limbs[j + n]} - borrow - static_cast<std::int64_t>(carry);
      u.m_limbs[j + n] = static_cast<std::uint32_t>(t);
      if (t < 0) {  // qhat was one too large: add the divisor back
        --qhat;
        std::uint64_t c = 0;
        for (std::size_t i = 0; i < n; ++i) {
          c += std::uint64_t{u.m_limbs[i + j]} + v.m_limbs[i];
          u.m_limbs[i + j] = static_cast<std::uint32_t>(c);
          c >>= 32;
        }
        u.m_limbs[j + n] = static_cast<std::uint32_t>(u.m_limbs[j + n] + c);
      }
      quotient[j] = static_cast<std::uint32_t>(qhat);
    }
    u.trim();
    inexact = inexact || !u.is_zero();
    q.m_limbs = std::move(quotient);
    q.trim();
  }
  u128 r = 0;
  for (std::size_t i = q.m_limbs.size(); i-- > 0;) r = (r << 32) | q.m_limbs[i];
  return r;
}

BigUint BigUint::pow10(unsigned n) {
  BigUint r(1);
  for (; n >= 9; n -= 9) r.mul_small(1000000000U);
  std::uint32_t tail = 1;
  for (; n > 0; --n) tail *= 10;
  return r.mul_small(tail);
}

}  // namespace ptosim::model::numeric
