// SPDX-License-Identifier: BSD-3-Clause
// The SFU fast path for FP32 and FP64 ADD/SUB/MUL/DIV: the host's binary32/binary64 arithmetic.
// Host IEEE 754 round-to-nearest-even gives the profile's result bits for every non-NaN result;
// the host's sticky exception status over a whole kernel is the OR of the per-step IEEE flags,
// which are the profile's flags for these operations (tininess after rounding). A produced NaN
// only needs the canonical encoding. host_float_matches_profile() checks those properties once,
// at run time; where they do not hold the kernels use numeric::TypedOps instead.
#pragma once

#include <cfenv>
#include <cstdint>
#include <cstring>

#include "model/numeric/flags.h"

namespace ptosim::model::sfu_detail {

/// True when the host evaluates binary32/binary64 in their own precision, rounds to nearest-even,
/// underflows gradually (no FTZ/DAZ) and detects tininess after rounding, as the profile requires.
bool host_float_matches_profile();
/// Whether the kernels take the host path: host_float_matches_profile(), unless turned off.
bool host_float_enabled();
/// Turns the host path off (tests run the portable kernels with it) or back on where the host
/// matches the profile.
void set_host_float_enabled(bool enabled);

/// Clears the host's floating-point exception flags for the kernel it scopes and reports the flags
/// the kernel raised. The host flags are scratch state (nothing in ptosim reads them); they are
/// not restored, which halves the cost of a small kernel (clearing is the expensive part).
class HostFlagScope {
 public:
  HostFlagScope() { std::feclearexcept(FE_ALL_EXCEPT); }

  /// The flags raised since construction.
  NumericFlags flags() const {
    const int e = std::fetestexcept(FE_ALL_EXCEPT);
    return static_cast<NumericFlags>(((e & FE_INVALID) ? kFlagNV : 0) | ((e & FE_DIVBYZERO) ? kFlagDZ : 0) |
                                     ((e & FE_OVERFLOW) ? kFlagOF : 0) | ((e & FE_UNDERFLOW) ? kFlagUF : 0) |
                                     ((e & FE_INEXACT) ? kFlagNX : 0));
  }
};

/// binary32 / binary64 and their encodings.
template <typename Float>
struct HostFloat;
template <>
struct HostFloat<float> {
  using Bits = std::uint32_t;
  static constexpr Bits kCanonicalNaN = 0x7FC00000;
};
template <>
struct HostFloat<double> {
  using Bits = std::uint64_t;
  static constexpr Bits kCanonicalNaN = 0x7FF8000000000000;
};

template <typename Float>
inline Float host_value(typename HostFloat<Float>::Bits b) {
  Float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
/// The encoding of a host result, a NaN canonical.
template <typename Float>
inline typename HostFloat<Float>::Bits profile_bits(Float f) {
  typename HostFloat<Float>::Bits b;
  std::memcpy(&b, &f, sizeof b);
  return f != f ? HostFloat<Float>::kCanonicalNaN : b;
}

}  // namespace ptosim::model::sfu_detail
