// SPDX-License-Identifier: BSD-3-Clause
// CUBE numeric primitives on top of the exact fused multiply-add.
#include "model/numeric/matrix_ops.h"

#include "model/numeric/exact_ops.h"
#include "model/numeric/float_format.h"
#include "model/numeric/rounding.h"

namespace ptosim::model::numeric {

namespace {
constexpr std::uint8_t kScaleNaN = 0xFF;
}

DataType accumulator_type(DataType input) {
  if (is_signed_integer(input)) return DataType::S32;
  if (is_integer(input)) return DataType::U32;
  return DataType::FP32;
}

std::uint32_t fma_fp32(std::uint32_t acc, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b,
                       NumericFlags& flags) {
  return static_cast<std::uint32_t>(exact::fma(DataType::FP32, acc, ta, a, tb, b, 0, RoundingMode::RNE, flags));
}

std::uint32_t fma_fp32_scaled(std::uint32_t acc, DataType ta, std::uint64_t a, std::optional<std::uint8_t> scale_a,
                              DataType tb, std::uint64_t b, std::optional<std::uint8_t> scale_b,
                              NumericFlags& flags) {
  if (scale_a == kScaleNaN || scale_b == kScaleNaN) {
    if (decode(DataType::FP32, acc).cls == ValueClass::SignalingNaN ||
        decode(ta, a).cls == ValueClass::SignalingNaN || decode(tb, b).cls == ValueClass::SignalingNaN)
      flags |= kFlagNV;
    return 0x7FC00000;
  }
  const int scale_exp = (scale_a ? *scale_a - 127 : 0) + (scale_b ? *scale_b - 127 : 0);
  return static_cast<std::uint32_t>(
      exact::fma(DataType::FP32, acc, ta, a, tb, b, scale_exp, RoundingMode::RNE, flags));
}

std::uint32_t mac_32(std::uint32_t acc, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b) {
  NumericFlags unused = 0;
  return static_cast<std::uint32_t>(exact::fma(DataType::U32, acc, ta, a, tb, b, 0, RoundingMode::RNE, unused));
}

Decoded decode_scaled(DataType t, std::uint64_t bits, std::uint8_t scale) {
  Decoded d = decode(t, bits);
  if (scale == kScaleNaN) return {ValueClass::QuietNaN, false, 0, 0};
  if (d.cls == ValueClass::Finite) d.exponent += scale - 127;
  return d;
}

std::uint64_t apply_scale(DataType t, std::uint64_t bits, std::uint8_t scale, DataType dst, NumericFlags& flags) {
  const Decoded d = decode_scaled(t, bits, scale);
  const FloatFormat* f = float_format(dst);
  if (f == nullptr || d.cls != ValueClass::Finite) {
    // Specials keep their class: convert the unscaled encoding (NaN scale: a quiet NaN).
    if (scale == kScaleNaN) {
      if (decode(t, bits).cls == ValueClass::SignalingNaN) flags |= kFlagNV;  // as fma_fp32_scaled
      return exact::convert(DataType::E8M0, kScaleNaN, dst, RoundingMode::RNE, false, flags);
    }
    return exact::convert(t, bits, dst, RoundingMode::RNE, false, flags);
  }
  return round_to_format(*f, d.negative, d.significand, d.exponent, false, RoundingMode::RNE, false, flags);
}

}  // namespace ptosim::model::numeric
