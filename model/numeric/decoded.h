// SPDX-License-Identifier: BSD-3-Clause
// Exact decoding of any element encoding into sign * significand * 2^exponent (or a special class).
#pragma once

#include <cstdint>

#include "model/numeric/data_type.h"

namespace ptosim::model::numeric {

enum class ValueClass : std::uint8_t { Zero, Finite, Infinity, QuietNaN, SignalingNaN };

/// A decoded element. Finite: value = (-1)^negative * significand * 2^exponent, significand > 0
/// (at most 53 bits for FP64, at most 24 bits for every other floating type, 1 for E8M0, the
/// magnitude for integers with exponent 0). Zero keeps its sign; specials have significand 0.
struct Decoded {
  ValueClass cls = ValueClass::Zero;
  bool negative = false;
  std::uint64_t significand = 0;
  int exponent = 0;

  bool is_nan() const { return cls == ValueClass::QuietNaN || cls == ValueClass::SignalingNaN; }
};

/// Decodes the low element_bits(t) of `bits`. Bits that are not part of the payload are ignored:
/// the 13/12 discarded TF32/HF32 fraction bits and bits 7:6 of the E3M2/E2M3 carrier (callers that
/// must reject such encodings check is_valid_encoding first).
Decoded decode(DataType t, std::uint64_t bits);

}  // namespace ptosim::model::numeric
