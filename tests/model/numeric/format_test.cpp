// SPDX-License-Identifier: BSD-3-Clause
// DataType facts (asl/arch/data-types/tile-data-types.asl, formats/*.asl, numerics.md §1-§2), the
// constant encodings (one, zero, canonical NaN, PadValue Max/Min), validity and classification of
// every encoding of every type up to 16 bits against the spec-derived decoder.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model/numeric/typed_ops.h"
#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

using model::TypeClass;

struct Fact {
  const char* name;
  unsigned code;
  unsigned bits;
  TypeClass cls;
};
// numerics.md §1 (TF32/HF32 32-bit carriers, E3M2/E2M3 8-bit carriers, X2 types 4-bit lanes).
constexpr Fact kFacts[] = {
    {"FP64", 0, 64, TypeClass::Float},    {"FP32", 1, 32, TypeClass::Float},   {"TF32", 2, 32, TypeClass::Float},
    {"HF32", 3, 32, TypeClass::Float},    {"FP16", 4, 16, TypeClass::Float},   {"BF16", 5, 16, TypeClass::Float},
    {"HiF8", 6, 8, TypeClass::Float},     {"E4M3", 7, 8, TypeClass::Float},    {"E5M2", 8, 8, TypeClass::Float},
    {"E3M2", 9, 8, TypeClass::Float},     {"E2M3", 10, 8, TypeClass::Float},   {"E2M1X2", 11, 4, TypeClass::Float},
    {"E1M2X2", 12, 4, TypeClass::Float},  {"E8M0", 13, 8, TypeClass::Scale},   {"HiF4X2", 14, 4, TypeClass::Float},
    {"S64", 16, 64, TypeClass::Signed},   {"S32", 17, 32, TypeClass::Signed},  {"S16", 18, 16, TypeClass::Signed},
    {"S8", 19, 8, TypeClass::Signed},     {"S4X2", 20, 4, TypeClass::Signed},  {"U64", 24, 64, TypeClass::Unsigned},
    {"U32", 25, 32, TypeClass::Unsigned}, {"U16", 26, 16, TypeClass::Unsigned}, {"U8", 27, 8, TypeClass::Unsigned},
    {"U4X2", 28, 4, TypeClass::Unsigned},
};

TEST_CASE("numeric: the 25 DataTypes, their codes, widths and classes, reserved codes rejected", "[numeric]") {
  for (const Fact& f : kFacts) {
    const auto t = model::data_type_from_code(f.code);
    REQUIRE(t.has_value());
    CHECK(std::string(model::data_type_name(*t)) == f.name);
    CHECK(model::data_type_from_name(f.name) == t);
    CHECK(model::element_bits(*t) == f.bits);
    CHECK(model::type_class(*t) == f.cls);
  }
  for (const unsigned reserved : {15U, 21U, 22U, 23U, 29U, 30U, 31U, 32U})
    CHECK_FALSE(model::data_type_from_code(reserved).has_value());
  CHECK(sizeof kFacts / sizeof kFacts[0] == static_cast<std::size_t>(model::kDataTypeCount));
  CHECK(model::data_type_from_name("hif8") == DataType::HiF8);
  CHECK_FALSE(model::data_type_from_name("FP8").has_value());
}

TEST_CASE("numeric: constant encodings - one, zero, canonical NaN, PadValue Max/Min", "[numeric]") {
  struct Row {
    DataType t;
    std::uint64_t one;
    std::optional<std::uint64_t> nan;
    std::uint64_t pad_max;
    std::uint64_t pad_min;
  };
  // numerics.md §6 (ones, NaNs) and state-model.md §7 (PadValue); types without a PadValue row
  // take the ASL's all-ones / 0x8000000000000000 words truncated to the width.
  const Row rows[] = {
      {DataType::FP64, 0x3FF0000000000000, 0x7FF8000000000000, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF},
      {DataType::FP32, 0x3F800000, 0x7FC00000, 0x7F7FFFFF, 0xFF7FFFFF},
      {DataType::TF32, 0x3F800000, 0x7FC00000, 0x7F7FE000, 0xFF7FE000},
      {DataType::HF32, 0x3F800000, 0x7FC00000, 0x7F7FF000, 0xFF7FF000},
      {DataType::FP16, 0x3C00, 0x7E00, 0x7BFF, 0xFBFF},
      {DataType::BF16, 0x3F80, 0x7FC0, 0x7F7F, 0xFF7F},
      {DataType::HiF8, 0x08, 0x80, 0xFF, 0x00},
      {DataType::E4M3, 0x38, 0x7F, 0x7E, 0xFE},
      {DataType::E5M2, 0x3C, 0x7E, 0x7B, 0xFB},
      {DataType::E3M2, 0x0C, std::nullopt, 0xFF, 0x00},
      {DataType::E2M3, 0x08, std::nullopt, 0xFF, 0x00},
      {DataType::E2M1X2, 0x2, std::nullopt, 0xF, 0x0},
      {DataType::E1M2X2, 0x4, std::nullopt, 0xF, 0x0},
      {DataType::E8M0, 0x7F, 0xFF, 0xFF, 0x00},
      {DataType::HiF4X2, 0x4, std::nullopt, 0xF, 0x0},
      {DataType::S64, 1, std::nullopt, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000},
      {DataType::S32, 1, std::nullopt, 0x7FFFFFFF, 0x80000000},
      {DataType::S16, 1, std::nullopt, 0x7FFF, 0x8000},
      {DataType::S8, 1, std::nullopt, 0x7F, 0x80},
      {DataType::S4X2, 1, std::nullopt, 0xF, 0x0},
      {DataType::U64, 1, std::nullopt, 0xFFFFFFFFFFFFFFFF, 0},
      {DataType::U32, 1, std::nullopt, 0xFFFFFFFF, 0},
      {DataType::U16, 1, std::nullopt, 0xFFFF, 0},
      {DataType::U8, 1, std::nullopt, 0xFF, 0},
      {DataType::U4X2, 1, std::nullopt, 0xF, 0},
  };
  for (const Row& r : rows) {
    INFO(model::data_type_name(r.t));
    CHECK(num::one(r.t) == r.one);
    CHECK(num::zero(r.t) == 0);
    CHECK(num::canonical_nan(r.t) == r.nan);
    CHECK(num::pad_max(r.t) == r.pad_max);
    CHECK(num::pad_min(r.t) == r.pad_min);
    if (model::is_float(r.t)) CHECK(num::to_double(r.t, r.one) == 1.0);
  }
  // Largest/smallest finite values (saturation endpoints): numerics.md §2 maxima.
  CHECK(num::to_double(DataType::HiF8, num::max_finite(DataType::HiF8)) == 32768.0);
  CHECK(num::to_double(DataType::E4M3, num::lowest_finite(DataType::E4M3)) == -448.0);
  CHECK(num::to_double(DataType::E3M2, num::max_finite(DataType::E3M2)) == 28.0);
  CHECK(num::to_double(DataType::E2M3, num::max_finite(DataType::E2M3)) == 7.5);
  CHECK(num::to_double(DataType::E2M1X2, num::lowest_finite(DataType::E2M1X2)) == -6.0);
  CHECK(num::to_double(DataType::E1M2X2, num::max_finite(DataType::E1M2X2)) == 1.75);
  CHECK(num::to_double(DataType::E8M0, num::max_finite(DataType::E8M0)) == std::ldexp(1.0, 127));
  CHECK(num::lowest_finite(DataType::S16) == 0x8000);
  CHECK(num::max_finite(DataType::U4X2) == 0xF);
  // Every floating type: the largest finite encoding is the largest finite value of the
  // spec-derived decoder, and lowest_finite is its negation (E8M0: 2^-127, no sign).
  for (const DataType t : model::kAllDataTypes) {
    if (model::is_integer(t)) continue;
    INFO(model::data_type_name(t));
    const unsigned w = model::element_bits(t);
    double max = 0;
    double min = 0;
    const std::uint64_t n = w <= 16 ? std::uint64_t{1} << w : 0;
    for (std::uint64_t b = 0; b < n; ++b) {
      const RefValue r = ref_decode(t, b);
      if (r.kind != Kind::Finite || !num::is_valid_encoding(t, b)) continue;
      max = std::max(max, r.value);
      min = min == 0 ? r.value : std::min(min, r.value);
    }
    if (n == 0) {  // 32/64-bit: the digest's max-finite encodings
      max = ref_decode(t, binary_spec(t)->max_finite).value;
      min = -max;
    }
    CHECK(ref_decode(t, num::max_finite(t)).value == max);
    CHECK(ref_decode(t, num::lowest_finite(t)).value == min);
  }
}

TEST_CASE("numeric: validity, classification and exact value of every encoding up to 16 bits", "[numeric]") {
  Mismatches bad;
  std::uint64_t cases = 0;
  for (const DataType t : model::kAllDataTypes) {
    if (!model::is_float(t) && t != DataType::E8M0) continue;
    const unsigned w = model::element_bits(t);
    const std::uint64_t n = w <= 16 ? std::uint64_t{1} << w : 0;
    for (std::uint64_t b = 0; b < n; ++b, ++cases) {
      const RefValue r = ref_decode(t, b);
      const bool nan = r.kind == Kind::QNaN || r.kind == Kind::SNaN;
      const double v = num::to_double(t, b);
      const bool valid = !((t == DataType::E3M2 || t == DataType::E2M3) && (b & 0xC0) != 0);
      bool ok = num::is_nan(t, b) == nan && num::is_signaling_nan(t, b) == (r.kind == Kind::SNaN) &&
                num::is_valid_encoding(t, b) == valid;
      if (!nan) ok = ok && v == r.value && std::signbit(v) == std::signbit(r.value);
      bad.check(ok, "decode", t, b, 0, {0, 0}, 0, 0);
    }
  }
  // TF32/HF32: the discarded fraction bits make an encoding invalid, nothing else does.
  for (std::uint64_t low = 0; low < 0x2000; ++low) {
    bad.check(num::is_valid_encoding(DataType::TF32, 0x3F800000 | low) == (low == 0), "valid", DataType::TF32, low, 0,
              {0, 0}, 0, 0);
    bad.check(num::is_valid_encoding(DataType::HF32, 0x3F800000 | low) == ((low & 0xFFF) == 0), "valid",
              DataType::HF32, low, 0, {0, 0}, 0, 0);
  }
  report_cases("decode", "<=16bit", cases);
  INFO(bad.first);
  CHECK(bad.count == 0);
  // numerics.md §2 landmarks.
  CHECK(num::to_double(DataType::HiF8, 0x7E) == std::ldexp(1.0, -15));  // smallest normal magnitude
  CHECK(num::is_subnormal(DataType::HiF8, 0x07));
  CHECK_FALSE(num::is_subnormal(DataType::HiF8, 0x7E));
  CHECK(num::is_subnormal(DataType::FP16, 0x8001));
  CHECK_FALSE(num::is_subnormal(DataType::E8M0, 0x00));
  CHECK(num::to_double(DataType::TF32, 0x00002000) == std::ldexp(1.0, -136));
  CHECK(num::to_double(DataType::HF32, 0x00001000) == std::ldexp(1.0, -137));
  CHECK(num::to_double(DataType::E2M1X2, 0x1) == 0.5);
  CHECK(num::to_double(DataType::S64, 0x8000000000000000) == -std::ldexp(1.0, 63));
  CHECK(num::is_nan(DataType::HiF8, 0x80));
  CHECK_FALSE(num::is_nan(DataType::S8, 0x80));
  // Inputs read only the element width; results never carry higher bits.
  NumericFlags f = 0;
  CHECK(num::add(DataType::FP16, 0xABCD3C00, 0x3C00, f) == 0x4000);
  CHECK(num::add(DataType::E2M1X2, 0x12, 0x02, f) == 0x4);
  CHECK(f == 0);
}

TEST_CASE("numeric: rounding-mode selector namespaces (ADR 0047)", "[numeric]") {
  CHECK_FALSE(num::rounding_mode_from_bdatr(0).has_value());
  const RoundingMode bdatr[] = {RoundingMode::RNE, RoundingMode::RTZ, RoundingMode::RTM, RoundingMode::RTP,
                                RoundingMode::RNA, RoundingMode::RTO, RoundingMode::RHB};
  for (unsigned code = 1; code < 8; ++code) CHECK(num::rounding_mode_from_bdatr(code) == bdatr[code - 1]);
  CHECK(num::resolve_bdatr_rounding(0, false) == RoundingMode::RNE);
  CHECK(num::resolve_bdatr_rounding(0, true) == RoundingMode::RTZ);
  CHECK(num::resolve_bdatr_rounding(6, true) == RoundingMode::RTO);
  CHECK(num::rounding_mode_from_core_state(3) == RoundingMode::RTZ);
  CHECK(num::rounding_mode_from_core_state(5) == RoundingMode::RNE);
  CHECK(std::string(num::rounding_mode_name(RoundingMode::RHB)) == "RHB");
}

}  // namespace
}  // namespace ptosim::test
