// SPDX-License-Identifier: BSD-3-Clause
// The inner loops of the CUBE: one-rounding FP32 multiply-accumulate on exactly decoded binary64
// operands, and wrapping 32-bit integer multiply-accumulate.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ptosim::model::cube {

/// acc + p rounded once to binary32, round-to-nearest-even, where `p` is an exact binary64 value
/// (a product of two decoded inputs, or a bias). Infinities and NaNs follow IEEE 754; a NaN result
/// is some NaN (callers canonicalise). No status flags.
float fused_add(float acc, double p);

/// acc[j] = fused_add(acc[j], a * b[j]) for j < n: one K step of a row of outputs. Every a * b[j]
/// must be exact in binary64 (both significands at most 26 bits, exponents in range), which holds
/// for every decoded (and E8M0-scaled) CUBE input.
void fma_row(float* acc, const double* b, double a, std::size_t n);

/// acc[j] += a * b[j] modulo 2^32 for j < n.
void mac_row(std::uint32_t* acc, const std::int64_t* b, std::int64_t a, std::size_t n);

}  // namespace ptosim::model::cube
