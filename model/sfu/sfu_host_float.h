// SPDX-License-Identifier: BSD-3-Clause
// The SFU fast path for FP32 and FP64 ADD/SUB/MUL/DIV: the host's binary32/binary64 arithmetic.
// Host IEEE 754 round-to-nearest-even gives the profile's result bits for every non-NaN result;
// the host's sticky exception status over a whole kernel is the OR of the per-step IEEE flags,
// which are the profile's flags for these operations (tininess after rounding). A produced NaN
// only needs the canonical encoding. host_float_matches_profile() checks those properties once,
// at run time; where they do not hold the kernels use numeric::TypedOps instead.
// FP16, BF16 and TF32 sums (and FP16 products and quotients) take the same path in binary32,
// rounded again to the format in software (Narrow, NarrowRounding).
#pragma once

#include <cfenv>
#include <cstdint>
#include <cstring>

#include "model/numeric/data_type.h"
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

/// The bits of a binary32 value.
inline std::uint32_t host_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

/// FP16, BF16 and TF32 as binary32 values, which hold each of their values exactly. A sum of two
/// of them rounded to binary32 and then to the format is the sum correctly rounded to the format:
/// binary32's 24 bits are at least 2p + 2 for their p = 11, 8 and 11 significand bits (so
/// rounding twice is innocuous), and a sum tiny enough to be subnormal in the format is exact.
/// kDropped: the binary32 fraction bits the format lacks; kMaxBits: its largest finite magnitude,
/// as binary32 bits.
template <DataType T>
struct Narrow;
template <>
struct Narrow<DataType::FP16> {
  using Lane = std::uint16_t;
  static constexpr unsigned kDropped = 13;
  static constexpr std::uint32_t kMaxBits = 0x477FE000;  // 65504
  static float to_binary32(Lane v) {
    // The fields moved into binary32's places, then rebiased by an exact multiplication (which
    // also makes a subnormal normal); infinities and NaNs take binary32's top exponent instead.
    const std::uint32_t moved = std::uint32_t{v & 0x7FFFu} << 13;
    const std::uint32_t finite = host_bits(host_value<float>(moved) * 0x1p112f);
    const std::uint32_t magnitude = (v & 0x7C00) == 0x7C00 ? moved | 0x7F800000 : finite;
    return host_value<float>(std::uint32_t{v & 0x8000u} << 16 | magnitude);
  }
  /// `u`: a binary32 value FP16 holds, or an infinity, or a NaN (canonical in FP16).
  static Lane from_binary32(std::uint32_t u) {
    const std::uint32_t a = u & 0x7FFFFFFF;
    // The inverse rebias: exact, a value below FP16's normals becoming binary32's subnormal of the
    // same fraction bits.
    const std::uint32_t finite = host_bits(host_value<float>(a) * 0x1p-112f) >> 13;
    const std::uint32_t magnitude = a < 0x7F800000 ? finite : a == 0x7F800000 ? 0x7C00 : 0x7E00;
    return static_cast<Lane>(a > 0x7F800000 ? magnitude : ((u >> 16) & 0x8000) | magnitude);
  }
};
template <>
struct Narrow<DataType::BF16> {
  using Lane = std::uint16_t;
  static constexpr unsigned kDropped = 16;
  static constexpr std::uint32_t kMaxBits = 0x7F7F0000;
  static float to_binary32(Lane v) { return host_value<float>(std::uint32_t{v} << 16); }
  static Lane from_binary32(std::uint32_t u) {
    return (u & 0x7FFFFFFF) > 0x7F800000 ? Lane{0x7FC0} : static_cast<Lane>(u >> 16);
  }
};
template <>
struct Narrow<DataType::TF32> {
  using Lane = std::uint32_t;  ///< binary32's layout, the 13 lowest bits not part of the value
  static constexpr unsigned kDropped = 13;
  static constexpr std::uint32_t kMaxBits = 0x7F7FE000;
  static float to_binary32(Lane v) { return host_value<float>(v & 0xFFFFE000); }
  static Lane from_binary32(std::uint32_t u) { return (u & 0x7FFFFFFF) > 0x7F800000 ? Lane{0x7FC00000} : u; }
};

/// A binary32 sum rounded again to format T's precision (round-to-nearest-even on the bits), which
/// records what the host's status cannot: a step whose second rounding was inexact, or overflowed
/// (a finite sum past the format's largest value becomes an infinity). Infinities and NaNs pass
/// unchanged (the host's status has their flags).
template <DataType T>
class NarrowRounding {
 public:
  float round(float sum) {
    using N = Narrow<T>;
    constexpr std::uint32_t kLow = (std::uint32_t{1} << N::kDropped) - 1;
    const std::uint32_t u = host_bits(sum);
    const std::uint32_t nearest = (u + (kLow >> 1) + ((u >> N::kDropped) & 1)) & ~kLow;
    const bool finite = (u & 0x7F800000) != 0x7F800000;
    const bool over = finite && (nearest & 0x7FFFFFFF) > N::kMaxBits;
    const std::uint32_t r = !finite ? u : over ? (u & 0x80000000) | 0x7F800000 : nearest;
    m_inexact |= u ^ r;
    m_overflow |= over;
    return host_value<float>(r);
  }
  /// FP16 only, for a product or quotient: `result` is the binary32 rounding of the exact value,
  /// `exact()` whether it held it (asked only below FP16's normals). Binary32 holds every FP16
  /// product exactly and rounds a quotient of FP16 values without crossing or reaching an FP16
  /// midpoint (|x - m| > 2^-24 |x| unless x = m), and neither leaves binary32's normal range. A result below FP16's normals goes to its
  /// subnormal grid instead (UF when tiny after rounding and inexact).
  template <typename Exact>
  float round_any(float result, Exact exact) {
    static_assert(T == DataType::FP16, "binary32 keeps FP16 products and quotients normal");
    const std::uint32_t u = host_bits(result);
    const std::uint32_t a = u & 0x7FFFFFFF;
    if (a >= 0x38800000) {  // 2^-14 and up, infinities and NaNs: as a sum (host NX covers !exact)
      return round(result);
    }
    // To the grid of 2^-24 in integers, nearest-even: an operation of the host here could raise a
    // flag even where it is not taken, as a compiler may evaluate it ahead of the branch.
    const std::uint32_t e = a >> 23;  // at most 112: below 2^-14
    const std::uint32_t m = (a & 0x7FFFFF) | (e != 0 ? 0x800000 : 0);
    const std::uint32_t shift = 126 - e < 31 ? 126 - e : 31;  // m * 2^(e - 150) in units of 2^-24
    std::uint32_t units = m >> shift;
    const std::uint32_t rest = m & ((std::uint32_t{1} << shift) - 1);
    const std::uint32_t half = std::uint32_t{1} << (shift - 1);
    units += static_cast<std::uint32_t>((rest > half) | ((rest == half) & ((units & 1) != 0)));
    const bool inexact = rest != 0 || !exact();
    m_inexact |= inexact ? 1 : 0;
    m_underflow |= inexact && a < 0x387FF000;  // tiny: below 2^-14 - 2^-26, which rounds up to 2^-14
    // units <= 1024: the conversion and the scaling are exact and raise nothing.
    return host_value<float>(host_bits(static_cast<float>(units) * 0x1p-24f) | (u & 0x80000000));
  }
  /// Whether binary32 holds the quotient x / b of finite FP16 values exactly: iff the odd part of
  /// b's significand divides x's (the quotient is then a whole number of at most 11 bits times a
  /// power of two, in binary32's normal range); computed in integers, so no host flag is raised.
  static bool exact_quotient(std::uint16_t x, std::uint16_t b) {
    static_assert(T == DataType::FP16, "FP16 significands");
    const auto significand = [](std::uint32_t v) { return (v & 0x3FF) | ((v & 0x7C00) != 0 ? 0x400u : 0u); };
    const std::uint32_t sx = significand(x);
    const std::uint32_t sb = significand(b);
    return sx == 0 || sb == 0 || (sx >> __builtin_ctz(sx)) % (sb >> __builtin_ctz(sb)) == 0;
  }
  NumericFlags flags() const {
    return static_cast<NumericFlags>((m_inexact != 0 ? kFlagNX : 0) | (m_overflow ? kFlagOF | kFlagNX : 0) |
                                     (m_underflow ? kFlagUF : 0));
  }

 private:
  std::uint32_t m_inexact = 0;
  bool m_overflow = false;
  bool m_underflow = false;
};

}  // namespace ptosim::model::sfu_detail
