// SPDX-License-Identifier: BSD-3-Clause
// Random, edge-biased operand pairs for the 16-bit and TF32/HF32 floating types against MPFR's
// subnormal emulation; the fast path and the exact path must both match it.
#include <catch2/catch.hpp>

#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

void run_random(DataType t, std::uint64_t pairs, std::uint64_t seed) {
  const std::string type = model::data_type_name(t);
  for (const BinOp op : kArith) {
    EdgeGenerator gen(t, seed + static_cast<std::uint64_t>(op));
    Mismatches bad;
    for (std::uint64_t i = 0; i < pairs; ++i) {
      const auto [a, b] = gen.pair(op, i);
      const RefResult want = mpfr_binary(t, op, a, b);
      NumericFlags f = 0;
      const std::uint64_t got = api_binary(op, t, a, b, f);
      NumericFlags g = 0;
      const std::uint64_t slow = exact_binary(op, t, a, b, RoundingMode::RNE, g);
      bad.check(got == want.bits && f == want.flags, op_name(op), t, a, b, want, got, f, "fast");
      bad.check(slow == want.bits && g == want.flags, op_name(op), t, a, b, want, slow, g, "exact");
    }
    report_cases(op_name(op), type, pairs);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
  for (const bool is_max : {true, false}) {
    EdgeGenerator gen(t, seed + 7 + is_max);
    Mismatches bad;
    for (std::uint64_t i = 0; i < pairs; ++i) {
      const std::uint64_t a = gen.next();
      const std::uint64_t b = (i & 1) ? gen.related(a) : gen.next();
      const RefResult want = ref_min_max(t, a, b, is_max);
      NumericFlags f = 0;
      NumericFlags g = 0;
      const std::uint64_t got = is_max ? num::max(t, a, b, f) : num::min(t, a, b, f);
      const std::uint64_t slow = is_max ? num::exact::max(t, a, b, g) : num::exact::min(t, a, b, g);
      bad.check(got == want.bits && f == want.flags, is_max ? "MAX" : "MIN", t, a, b, want, got, f, "fast");
      bad.check(slow == want.bits && g == want.flags, is_max ? "MAX" : "MIN", t, a, b, want, slow, g, "exact");
    }
    report_cases(is_max ? "MAX" : "MIN", type, pairs);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
}

TEST_CASE("numeric: FP16 and BF16 ADD/SUB/MUL/DIV under all seven rounding modes vs the candidate search", "[numeric]") {
  // The exact path with a mode against ref_binary, which rounds by searching all encodings.
  for (const DataType t : {DataType::FP16, DataType::BF16}) {
    for (const RoundingMode rm : num::kAllRoundingModes) {
      check_binary_under_mode(t, rm, 0x7A0, 50'000,
                              [&](BinOp op, std::uint64_t a, std::uint64_t b) { return ref_binary(t, op, a, b, rm); });
    }
  }
}

TEST_CASE("numeric: FP16 binary ops, 10M edge-biased pairs per op vs MPFR", "[numeric]") {
  run_random(DataType::FP16, 10'000'000, 0x1600);
}

TEST_CASE("numeric: BF16 binary ops, 10M edge-biased pairs per op vs MPFR", "[numeric]") {
  run_random(DataType::BF16, 10'000'000, 0xBF16);
}

TEST_CASE("numeric: TF32 binary ops, 10M edge-biased pairs per op vs MPFR", "[numeric]") {
  run_random(DataType::TF32, 10'000'000, 0x7F32);
}

TEST_CASE("numeric: HF32 binary ops, 10M edge-biased pairs per op vs MPFR", "[numeric]") {
  run_random(DataType::HF32, 10'000'000, 0x4F32);
}

}  // namespace
}  // namespace ptosim::test
