// SPDX-License-Identifier: BSD-3-Clause
// CUBE primitives: exact products with one RNE rounding to FP32 for every pair of floating matrix
// input types (plain and E8M0-scaled) against mpfr_fma, and wrapping 32-bit integer MACs.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "model/numeric/matrix_ops.h"
#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

constexpr DataType kFloatInputs[] = {DataType::FP32, DataType::TF32, DataType::HF32,   DataType::FP16,
                                     DataType::BF16, DataType::HiF8, DataType::E4M3,   DataType::E5M2,
                                     DataType::E3M2, DataType::E2M3, DataType::E2M1X2, DataType::E1M2X2,
                                     DataType::HiF4X2};

class InputGen {
 public:
  explicit InputGen(std::uint64_t seed) : m_rng(seed), m_fp32(DataType::FP32, seed + 1) {}
  DataType type() { return kFloatInputs[m_rng() % (sizeof kFloatInputs / sizeof kFloatInputs[0])]; }
  std::uint64_t value(DataType t) {
    if (t == DataType::FP32) return m_fp32.next();
    if (t == DataType::TF32) return m_rng() & 0xFFFFE000;
    if (t == DataType::HF32) return m_rng() & 0xFFFFF000;
    return m_rng() & model::element_mask(t);
  }
  // An accumulator: edge values, or near -(a * b) to exercise cancellation.
  std::uint32_t acc(double product) {
    if (m_rng() % 3 != 0 || !std::isfinite(product)) return static_cast<std::uint32_t>(m_fp32.next());
    const float near = static_cast<float>(-product);
    std::uint32_t u;
    std::memcpy(&u, &near, sizeof u);
    return u + static_cast<std::uint32_t>(m_rng() % 5) - 2;
  }
  Rng& rng() { return m_rng; }

 private:
  Rng m_rng;
  EdgeGenerator m_fp32;
};

TEST_CASE("numeric: FP32 fused accumulate of every matrix input type pair vs mpfr_fma", "[numeric]") {
  InputGen gen(0xFA);
  Mismatches bad;
  constexpr std::uint64_t kCases = 2'000'000;
  for (std::uint64_t i = 0; i < kCases; ++i) {
    const DataType ta = gen.type();
    const DataType tb = gen.type();
    const std::uint64_t a = gen.value(ta);
    const std::uint64_t b = gen.value(tb);
    const std::uint32_t c = gen.acc(ref_decode(ta, a).value * ref_decode(tb, b).value);
    const RefResult want = mpfr_fused(DataType::FP32, c, ta, a, tb, b, 0);
    NumericFlags f = 0;
    const std::uint32_t got = num::fma_fp32(c, ta, a, tb, b, f);
    char extra[64];
    std::snprintf(extra, sizeof extra, "%s*%s acc=0x%x", model::data_type_name(ta), model::data_type_name(tb), c);
    bad.check(got == want.bits && f == want.flags, "FMA", DataType::FP32, a, b, want, got, f, extra);
  }
  report_cases("FMA", "FP32acc", kCases);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("numeric: fused multiply-add into FP64, FP16 and BF16 accumulators vs mpfr_fma", "[numeric]") {
  Mismatches bad;
  std::uint64_t cases = 0;
  for (const DataType t : {DataType::FP64, DataType::FP16, DataType::BF16}) {
    EdgeGenerator gen(t, 0xFAD + static_cast<std::uint64_t>(t));
    for (int i = 0; i < 200'000; ++i, ++cases) {
      const auto [a, b] = gen.pair(BinOp::Mul, static_cast<std::uint64_t>(i));
      const std::uint64_t c = (i & 1) ? gen.related(a) : gen.next();
      const RefResult want = mpfr_fused(t, c, t, a, t, b, 0);
      NumericFlags f = 0;
      const std::uint64_t got = num::exact::fma(t, c, t, a, t, b, 0, RoundingMode::RNE, f);
      bad.check(got == want.bits && f == want.flags, "FMA", t, a, b, want, got, f, "c");
    }
  }
  report_cases("FMA", "FP64/16", cases);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("numeric: MX scaled accumulate (E8M0 scales, NaN scale) vs mpfr_fma", "[numeric]") {
  constexpr DataType kMx[] = {DataType::FP16, DataType::BF16, DataType::E4M3, DataType::E5M2, DataType::E2M1X2,
                              DataType::E1M2X2};
  InputGen gen(0x3C);
  Mismatches bad;
  constexpr std::uint64_t kCases = 1'000'000;
  for (std::uint64_t i = 0; i < kCases; ++i) {
    const DataType ta = kMx[gen.rng()() % 6];
    const DataType tb = kMx[gen.rng()() % 6];
    const std::uint64_t a = gen.value(ta);
    const std::uint64_t b = gen.value(tb);
    // FP16/BF16 sides carry no scale; others draw a scale near 2^0, occasionally extreme or NaN.
    auto scale = [&](DataType t) -> std::optional<std::uint8_t> {
      if (t == DataType::FP16 || t == DataType::BF16) return std::nullopt;
      const std::uint64_t r = gen.rng()() % 64;
      if (r == 0) return 0xFF;
      if (r < 6) return static_cast<std::uint8_t>(gen.rng()() % 255);
      return static_cast<std::uint8_t>(127 - 20 + gen.rng()() % 41);
    };
    const std::optional<std::uint8_t> sa = scale(ta);
    const std::optional<std::uint8_t> sb = scale(tb);
    const int exp = (sa ? *sa - 127 : 0) + (sb ? *sb - 127 : 0);
    const std::uint32_t c =
        gen.acc(std::ldexp(ref_decode(ta, a).value * ref_decode(tb, b).value, exp));
    RefResult want = mpfr_fused(DataType::FP32, c, ta, a, tb, b, exp);
    if (sa == 0xFF || sb == 0xFF) {  // the term and the lane become the canonical NaN
      const bool signaling = ref_decode(ta, a).kind == Kind::SNaN || ref_decode(tb, b).kind == Kind::SNaN ||
                             ref_decode(DataType::FP32, c).kind == Kind::SNaN;
      want = {0x7FC00000, signaling ? model::kFlagNV : NumericFlags{0}};
    }
    NumericFlags f = 0;
    const std::uint32_t got = num::fma_fp32_scaled(c, ta, a, sa, tb, b, sb, f);
    char extra[80];
    std::snprintf(extra, sizeof extra, "%s*%s scales %d,%d acc=0x%x", model::data_type_name(ta),
                  model::data_type_name(tb), sa ? *sa : -1, sb ? *sb : -1, c);
    bad.check(got == want.bits && f == want.flags, "MXFMA", DataType::FP32, a, b, want, got, f, extra);
  }
  report_cases("MX-FMA", "FP32acc", kCases);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("numeric: E8M0 scale application, every scale and 8/4-bit value into FP32/FP16/BF16", "[numeric]") {
  Mismatches bad;
  std::uint64_t cases = 0;
  for (const DataType t : {DataType::HiF8, DataType::E4M3, DataType::E5M2, DataType::E3M2, DataType::E2M3,
                           DataType::E2M1X2, DataType::E1M2X2, DataType::HiF4X2}) {
    const std::uint64_t n = std::uint64_t{1} << model::element_bits(t);
    for (const DataType dst : {DataType::FP32, DataType::FP16, DataType::BF16}) {
      for (unsigned scale = 0; scale < 256; ++scale) {
        for (std::uint64_t a = 0; a < n; ++a, ++cases) {
          // x * 2^(scale - 127) rounded once (RNE); a NaN operand or scale gives the canonical NaN.
          const RefValue x = ref_decode(t, a);
          RefResult want{0, 0};
          if (x.kind == Kind::QNaN || x.kind == Kind::SNaN || scale == 0xFF) {
            want = {*ref_canonical_nan(dst), x.kind == Kind::SNaN ? model::kFlagNV : NumericFlags{0}};
          } else if (x.kind == Kind::Inf) {
            want = {ref_infinity(dst, x.negative), 0};
          } else if (x.kind == Kind::Zero) {
            want = {x.negative ? std::uint64_t{1} << binary_spec(dst)->sign_bit : 0, 0};
          } else {
            Mp v(64);
            mpfr_set_d(v.v, x.value, MPFR_RNDN);
            mpfr_mul_2si(v.v, v.v, static_cast<long>(scale) - 127, MPFR_RNDN);  // exact
            want = ref_round(dst, v.v, 0, RoundingMode::RNE, false);
          }
          NumericFlags f = 0;
          const std::uint64_t got = num::apply_scale(t, a, static_cast<std::uint8_t>(scale), dst, f);
          char extra[48];
          std::snprintf(extra, sizeof extra, "scale 0x%02x ->%s", scale, model::data_type_name(dst));
          bad.check(got == want.bits && f == want.flags, "SCALE", t, a, 0, want, got, f, extra);
        }
      }
    }
  }
  report_cases("SCALE", "8/4-bit", cases);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("numeric: integer MACs wrap at 32 bits, accumulator classes, scale application", "[numeric]") {
  constexpr DataType kInts[] = {DataType::S16, DataType::S8, DataType::S4X2, DataType::U16, DataType::U8, DataType::U4X2};
  Rng rng(0x1AC);
  Mismatches bad;
  constexpr std::uint64_t kCases = 1'000'000;
  for (std::uint64_t i = 0; i < kCases; ++i) {
    const DataType ta = kInts[rng() % 6];
    const DataType tb = model::is_signed_integer(ta) ? kInts[rng() % 3] : kInts[3 + rng() % 3];
    const std::uint64_t a = rng() & model::element_mask(ta);
    const std::uint64_t b = rng() & model::element_mask(tb);
    const auto c = static_cast<std::uint32_t>(rng());
    auto value = [](DataType t, std::uint64_t v) -> std::int64_t {
      const unsigned w = model::element_bits(t);
      if (model::is_signed_integer(t) && ((v >> (w - 1)) & 1)) return static_cast<std::int64_t>(v) - (std::int64_t{1} << w);
      return static_cast<std::int64_t>(v);
    };
    const auto want = static_cast<std::uint32_t>(static_cast<std::uint64_t>(c) + static_cast<std::uint64_t>(value(ta, a) * value(tb, b)));
    const std::uint32_t got = num::mac_32(c, ta, a, tb, b);
    bad.check(got == want, "MAC", ta, a, b, {want, 0}, got, 0, model::data_type_name(tb));
  }
  report_cases("MAC32", "S32/U32", kCases);
  INFO(bad.first);
  CHECK(bad.count == 0);

  for (const DataType t : kFloatInputs) CHECK(num::accumulator_type(t) == DataType::FP32);
  CHECK(num::accumulator_type(DataType::S8) == DataType::S32);
  CHECK(num::accumulator_type(DataType::U4X2) == DataType::U32);

  // Every matrix input value decodes exactly with a significand of at most 24 bits and
  // converts to FP32 without flags.
  Mismatches widening;
  for (const DataType t : kFloatInputs) {
    const std::uint64_t n = model::element_bits(t) <= 16 ? std::uint64_t{1} << model::element_bits(t) : 0x10000;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t v = model::element_bits(t) <= 16 ? i : (i << 16) & (t == DataType::TF32 ? 0xFFFFE000 : 0xFFFFF000);
      const num::Decoded d = num::decode(t, v);
      if (d.cls != num::ValueClass::Finite) continue;
      NumericFlags f = 0;
      const std::uint64_t w = num::convert(t, v, DataType::FP32, RoundingMode::RNE, false, f);
      widening.check(d.significand < (std::uint64_t{1} << 24) && f == 0 &&
                         num::to_double(DataType::FP32, w) == ref_decode(t, v).value,
                     "widen", t, v, 0, {0, 0}, w, f);
    }
  }
  INFO(widening.first);
  CHECK(widening.count == 0);
  NumericFlags f = 0;
  CHECK(num::apply_scale(DataType::E4M3, 0x38, 0xFF, DataType::FP32, f) == 0x7FC00000);  // NaN scale
  const num::Decoded d = num::decode_scaled(DataType::E2M1X2, 0x7, 0x81);                 // 6 * 4
  CHECK(std::ldexp(static_cast<double>(d.significand), d.exponent) == 24.0);
}

}  // namespace
}  // namespace ptosim::test
