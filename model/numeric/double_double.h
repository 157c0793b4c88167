// SPDX-License-Identifier: BSD-3-Clause
// Error-free transformations and double-double arithmetic (Dekker/Knuth) on host IEEE binary64.
#pragma once

namespace ptosim::model::numeric {

// Every function here needs strict binary64 evaluation: SSE2 arithmetic, round-to-nearest-even,
// no contraction into FMA (ISO C++ mode keeps -ffp-contract=off; model/numeric/CMakeLists.txt
// also states it for these sources).
struct DoubleDouble {
  double hi;
  double lo;
};

/// s + e == a + b exactly (Knuth TwoSum).
inline DoubleDouble two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

/// s + e == a + b exactly, for |a| >= |b| or a == 0.
inline DoubleDouble fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

/// p + e == a * b exactly (Dekker with Veltkamp splitting; |a|, |b| < 2^995 and no underflow).
inline DoubleDouble two_prod(double a, double b) {
  constexpr double kSplit = 134217729.0;  // 2^27 + 1
  const double p = a * b;
  const double ca = kSplit * a;
  const double ah = ca - (ca - a);
  const double al = a - ah;
  const double cb = kSplit * b;
  const double bh = cb - (cb - b);
  const double bl = b - bh;
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

inline DoubleDouble dd_add(DoubleDouble a, DoubleDouble b) {
  DoubleDouble s = two_sum(a.hi, b.hi);
  const DoubleDouble t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = fast_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return fast_two_sum(s.hi, s.lo);
}

inline DoubleDouble dd_mul(DoubleDouble a, DoubleDouble b) {
  DoubleDouble p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum(p.hi, p.lo);
}

}  // namespace ptosim::model::numeric
