// SPDX-License-Identifier: BSD-3-Clause
// Numeric primitives of the CUBE: exact products, single-rounding accumulation, MX scaling.
#pragma once

#include <cstdint>
#include <optional>

#include "model/numeric/data_type.h"
#include "model/numeric/decoded.h"
#include "model/numeric/flags.h"

/// HWP matrix rules (hardware-conformance-profile.json "matrix"): each term is one fused
/// multiply-add rounded to nearest-even in the accumulator type, products exact. Every floating
/// matrix input value is sign * significand * 2^exponent with a significand of at most 24 bits
/// (decode()), so a product is exact in 48 bits and only the final addition rounds.
namespace ptosim::model::numeric {

/// The accumulator class of a matrix input type: FP32 (floating), S32 (signed), U32 (unsigned).
DataType accumulator_type(DataType input);

/// acc + a * b rounded once to FP32 (RNE); a, b any floating types (mixed allowed). NaN operands
/// give the canonical NaN (NV if signaling), inf * 0 and inf - inf give NV.
std::uint32_t fma_fp32(std::uint32_t acc, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b,
                       NumericFlags& flags);
/// MX term acc + (a * 2^(sa - 127)) * (b * 2^(sb - 127)) rounded once to FP32. A missing scale
/// (FP16/BF16 side) multiplies by one; a 0xFF scale makes the result the canonical NaN (quiet:
/// NV only if another operand is a signaling NaN).
std::uint32_t fma_fp32_scaled(std::uint32_t acc, DataType ta, std::uint64_t a, std::optional<std::uint8_t> scale_a,
                              DataType tb, std::uint64_t b, std::optional<std::uint8_t> scale_b,
                              NumericFlags& flags);
/// acc + a * b modulo 2^32; operands sign- or zero-extended by their own type.
std::uint32_t mac_32(std::uint32_t acc, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b);

/// The exact value of `bits` of type t multiplied by the E8M0 scale 2^(scale - 127); a 0xFF
/// scale yields a quiet NaN.
Decoded decode_scaled(DataType t, std::uint64_t bits, std::uint8_t scale);
/// That value rounded to `dst` (RNE), e.g. the MX "mx-e8m0-scale" vector 1.5 * 2 = 3.0. A 0xFF
/// scale gives the canonical NaN, with NV only when the value is a signaling NaN.
std::uint64_t apply_scale(DataType t, std::uint64_t bits, std::uint8_t scale, DataType dst, NumericFlags& flags);

}  // namespace ptosim::model::numeric
