// SPDX-License-Identifier: BSD-3-Clause
// Every operand pair of every 8-bit and 4-bit floating/scale type, every binary op, checked
// against the independent MPFR-based reference (values and all five flags).
#include <catch2/catch.hpp>

#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

constexpr DataType kSmallTypes[] = {DataType::HiF8,   DataType::E4M3,   DataType::E5M2,
                                    DataType::E3M2,   DataType::E2M3,   DataType::E8M0,
                                    DataType::E2M1X2, DataType::E1M2X2, DataType::HiF4X2};
constexpr BinOp kArith[] = {BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div};

TEST_CASE("numeric: exhaustive binary arithmetic on 8-bit and 4-bit types, all rounding modes", "[numeric]") {
  for (const DataType t : kSmallTypes) {
    const std::uint64_t n = std::uint64_t{1} << model::element_bits(t);
    for (const BinOp op : kArith) {
      Mismatches bad;
      std::uint64_t cases = 0;
      for (std::uint64_t a = 0; a < n; ++a) {
        for (std::uint64_t b = 0; b < n; ++b) {
          for (const RoundingMode rm : num::kAllRoundingModes) {
            const char* rm_name = num::rounding_mode_name(rm);
            const RefResult want = ref_binary(t, op, a, b, rm);
            NumericFlags f = 0;
            const std::uint64_t got = exact_binary(op, t, a, b, rm, f);
            bad.check(got == want.bits && f == want.flags, op_name(op), t, a, b, want, got, f, rm_name);
            if (rm == RoundingMode::RNE) {  // the scalar API (table fast path) must agree bit for bit
              NumericFlags g = 0;
              const std::uint64_t fast = api_binary(op, t, a, b, g);
              bad.check(fast == got && g == f, op_name(op), t, a, b, {got, f}, fast, g, "fast-vs-exact");
            }
            ++cases;
          }
        }
      }
      report_cases(std::string(op_name(op)) + "/7rm", model::data_type_name(t), cases);
      INFO(bad.first);
      CHECK(bad.count == 0);
    }
  }
}

TEST_CASE("numeric: exhaustive MAX/MIN on 8-bit and 4-bit types", "[numeric]") {
  for (const DataType t : kSmallTypes) {
    const std::uint64_t n = std::uint64_t{1} << model::element_bits(t);
    for (const bool is_max : {true, false}) {
      Mismatches bad;
      for (std::uint64_t a = 0; a < n; ++a) {
        for (std::uint64_t b = 0; b < n; ++b) {
          const RefResult want = ref_min_max(t, a, b, is_max);
          NumericFlags f = 0;
          NumericFlags g = 0;
          const std::uint64_t got = is_max ? num::max(t, a, b, f) : num::min(t, a, b, f);
          const std::uint64_t slow = is_max ? num::exact::max(t, a, b, g) : num::exact::min(t, a, b, g);
          const char* name = is_max ? "MAX" : "MIN";
          bad.check(got == want.bits && f == want.flags, name, t, a, b, want, got, f);
          bad.check(slow == got && g == f, name, t, a, b, {got, f}, slow, g, "exact-vs-fast");
        }
      }
      report_cases(is_max ? "MAX" : "MIN", model::data_type_name(t), n * n);
      INFO(bad.first);
      CHECK(bad.count == 0);
    }
  }
}

}  // namespace
}  // namespace ptosim::test
