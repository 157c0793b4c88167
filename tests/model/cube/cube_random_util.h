// SPDX-License-Identifier: BSD-3-Clause
// Random CUBE inputs for the tests: every legal input type and E8M0 scale, biased toward special
// values, extremes and magnitudes whose sums cancel and round.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "model/cube/cube_postprocess.h"
#include "model/numeric/data_type.h"
#include "model/numeric/scalar_ops.h"

namespace ptosim::model::cube_test {

using Rng = std::mt19937_64;

inline const std::vector<DataType> kFloatInputs = {
    DataType::FP32, DataType::TF32, DataType::HF32, DataType::FP16, DataType::BF16,   DataType::HiF8,
    DataType::E4M3, DataType::E5M2, DataType::E3M2, DataType::E2M3, DataType::E2M1X2, DataType::E1M2X2};
inline const std::vector<DataType> kSignedInputs = {DataType::S16, DataType::S8, DataType::S4X2};
inline const std::vector<DataType> kUnsignedInputs = {DataType::U16, DataType::U8, DataType::U4X2};
inline const std::vector<DataType> kMxInputs = {DataType::FP16, DataType::BF16,   DataType::E4M3,
                                                DataType::E5M2, DataType::E2M1X2, DataType::E1M2X2};

/// Keeps an encoding legal for its type (TF32/HF32 low fraction bits, FP6 carrier bits 7:6).
inline std::uint64_t legal(DataType t, std::uint64_t v) {
  switch (t) {
    case DataType::TF32: return v & 0xFFFFE000U;
    case DataType::HF32: return v & 0xFFFFF000U;
    case DataType::E3M2: case DataType::E2M3: return v & 0x3F;
    default: return v & element_mask(t);
  }
}

/// A random encoding: specials, values of moderate magnitude (so long sums cancel and round), or
/// any bit pattern.
inline std::uint64_t random_input(DataType t, Rng& rng) {
  const std::uint64_t r = rng();
  const unsigned width = element_bits(t);
  switch (r % 16) {
    case 0: return legal(t, numeric::canonical_nan(t).value_or(r >> 8));
    case 1: return legal(t, numeric::max_finite(t) | (r & 0x100 ? std::uint64_t{1} << (width - 1) : 0));
    case 2: return legal(t, (r >> 8) & 1 ? std::uint64_t{1} << (width - 1) : 0);  // +-0
    case 3: return legal(t, (r >> 8) & 7);                                         // smallest magnitudes
    default: break;
  }
  if (width >= 16 && r % 16 < 10) {
    // Sign, exponent within a few binades of one, random fraction.
    const unsigned exp_bits = t == DataType::FP16 ? 5 : 8;
    const unsigned frac_bits = width - 1 - exp_bits;
    const std::uint64_t bias = (std::uint64_t{1} << (exp_bits - 1)) - 1;
    const std::uint64_t e = bias - 6 + ((r >> 8) % 13);
    return legal(t, ((r >> 60) & 1) << (width - 1) | e << frac_bits | ((r >> 16) & ((std::uint64_t{1} << frac_bits) - 1)));
  }
  return legal(t, r >> 4);
}

inline std::uint64_t random_scale(Rng& rng) {
  const std::uint64_t r = rng();
  switch (r % 8) {
    case 0: return r >> 8 & 0xFF;            // anything, 0xFF (NaN) and the extremes included
    case 1: return (r >> 8) & 1 ? 0 : 254;  // 2^-127 and 2^127
    default: return 120 + (r >> 8) % 15;
  }
}

inline std::uint64_t random_accumulator(DataType acc, Rng& rng) {
  if (acc != DataType::FP32) return rng() & 0xFFFFFFFFU;
  return random_input(DataType::FP32, rng);
}

inline std::vector<std::uint64_t> random_vector(std::size_t n, const std::function<std::uint64_t()>& gen) {
  std::vector<std::uint64_t> v(n);
  for (auto& e : v) e = gen();
  return v;
}

/// FP19 encoding of the positive normal value (mantissa / 1024) * 2^exponent, mantissa in [1024, 2047].
inline std::uint64_t fp19(std::uint64_t mantissa, int exponent) {
  return (static_cast<std::uint64_t>(exponent + 127) << 10) | (mantissa - 1024);
}

/// A legal QuantParam word of `mode` with an FP19 scale and a signed offset (when the mode has one).
inline std::uint64_t quant_word(unsigned mode, std::uint64_t scale_fp19, std::int64_t offset) {
  if (cube::mode_is_shift(mode)) return (static_cast<std::uint64_t>(offset) & 0xF) << 32;
  std::uint64_t w = scale_fp19 << 13;
  const unsigned width = cube::mode_offset_width(mode);
  if (width != 0) w |= (static_cast<std::uint64_t>(offset) & ((std::uint64_t{1} << width) - 1)) << 37;
  return w;
}

/// A legal FP19 scale: simple powers and halves (exact ties), or anything positive normal.
inline std::uint64_t random_fp19(Rng& rng) {
  const std::uint64_t r = rng();
  switch (r % 4) {
    case 0: return fp19(1024, static_cast<int>((r >> 8) % 9) - 4);
    case 1: return fp19(1536, static_cast<int>((r >> 8) % 9) - 4);
    case 2: return fp19(1024 + (r >> 8) % 1024, static_cast<int>((r >> 20) % 40) - 20);
    default: return fp19(1024 + (r >> 8) % 1024, static_cast<int>((r >> 20) % 254) - 126);
  }
}

inline std::uint64_t random_quant(unsigned mode, Rng& rng) {
  if (cube::mode_is_shift(mode)) return quant_word(mode, 0, static_cast<std::int64_t>(rng() % 16));
  const unsigned width = cube::mode_offset_width(mode);
  const std::int64_t offset =
      width == 0 ? 0 : static_cast<std::int64_t>(rng() % (std::uint64_t{1} << width)) - (std::int64_t{1} << (width - 1));
  return quant_word(mode, random_fp19(rng), offset);
}

}  // namespace ptosim::model::cube_test
