// SPDX-License-Identifier: BSD-3-Clause
#include "model/sfu/sfu_host_float.h"

#include <cfloat>

namespace ptosim::model::sfu_detail {

namespace {

// One product whose exact value lies just below the smallest normal but rounds up to it: tiny
// before rounding, not tiny after. The result must be exact-but-for-rounding and flag NX only.
template <typename Float>
bool tininess_after_rounding(Float a, Float b, Float expected) {
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile Float x = a, y = b;
  volatile Float p = x * y;
  const int e = std::fetestexcept(FE_ALL_EXCEPT);
  return p == expected && (e & FE_INEXACT) != 0 && (e & FE_UNDERFLOW) == 0;
}

// Subnormal inputs and results survive (no DAZ, no FTZ), and a tiny inexact result flags UF.
template <typename Float>
bool gradual_underflow(Float min_subnormal) {
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile Float s = min_subnormal, one = 1, half = 0.5;
  volatile Float kept = s * one;
  volatile Float lost = s * half;  // halfway to zero: rounds to even (zero), tiny and inexact
  const int e = std::fetestexcept(FE_ALL_EXCEPT);
  return kept == min_subnormal && lost == 0 && (e & FE_UNDERFLOW) != 0 && (e & FE_INEXACT) != 0;
}

bool probe() {
  // Operations evaluated in their own type (no x87-style wider intermediates: no double rounding).
  if (FLT_EVAL_METHOD != 0 || std::fegetround() != FE_TONEAREST) return false;
  return gradual_underflow<float>(0x1p-149f) && gradual_underflow<double>(0x1p-1074) &&
         tininess_after_rounding<float>(0x1.fffffcp-1f, 0x1.000002p-126f, 0x1p-126f) &&
         tininess_after_rounding<double>(0x1.ffffffffffffep-1, 0x1.0000000000001p-1022, 0x1p-1022);
}

}  // namespace

bool host_float_matches_profile() {
  static const bool matches = probe();
  return matches;
}

namespace {
bool g_host_float_enabled = host_float_matches_profile();
}  // namespace

bool host_float_enabled() { return g_host_float_enabled; }

void set_host_float_enabled(bool enabled) { g_host_float_enabled = enabled && host_float_matches_profile(); }

}  // namespace ptosim::model::sfu_detail
