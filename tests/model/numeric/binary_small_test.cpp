// SPDX-License-Identifier: BSD-3-Clause
// Every operand pair of every 8-bit and 4-bit floating/scale type, every binary op, checked
// against the independent MPFR-based reference (values and all five flags).
#include <catch2/catch.hpp>

#include "model/numeric/exact_ops.h"
#include "model/numeric/scalar_ops.h"
#include "tests/model/numeric/numeric_reference.h"

namespace ptosim::test {
namespace {

namespace num = model::numeric;

constexpr DataType kSmallTypes[] = {DataType::HiF8,   DataType::E4M3,   DataType::E5M2,
                                    DataType::E3M2,   DataType::E2M3,   DataType::E8M0,
                                    DataType::E2M1X2, DataType::E1M2X2, DataType::HiF4X2};

struct Op {
  const char* name;
  BinOp op;
};
constexpr Op kArith[] = {{"ADD", BinOp::Add}, {"SUB", BinOp::Sub}, {"MUL", BinOp::Mul}, {"DIV", BinOp::Div}};

std::uint64_t model_binary(BinOp op, DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& f) {
  switch (op) {
    case BinOp::Add: return num::add(t, a, b, f);
    case BinOp::Sub: return num::sub(t, a, b, f);
    case BinOp::Mul: return num::mul(t, a, b, f);
    case BinOp::Div: return num::div(t, a, b, f);
  }
  return 0;
}

std::uint64_t exact_binary(BinOp op, DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm,
                           NumericFlags& f) {
  switch (op) {
    case BinOp::Add: return num::exact::add(t, a, b, rm, f);
    case BinOp::Sub: return num::exact::sub(t, a, b, rm, f);
    case BinOp::Mul: return num::exact::mul(t, a, b, rm, f);
    case BinOp::Div: return num::exact::div(t, a, b, rm, f);
  }
  return 0;
}

// Counts mismatches and keeps the first few for the failure message.
struct Mismatches {
  std::uint64_t count = 0;
  std::string first;
  void check(bool ok, const std::string& what) {
    if (ok) return;
    if (count++ < 5) first += what + "\n";
  }
};

std::string describe(const char* op, DataType t, RoundingMode rm, std::uint64_t a, std::uint64_t b,
                     RefResult want, std::uint64_t got, NumericFlags got_flags) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s %s %s a=0x%llx b=0x%llx: want 0x%llx/%02x got 0x%llx/%02x", op,
                model::data_type_name(t), num::rounding_mode_name(rm), static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b), static_cast<unsigned long long>(want.bits), want.flags,
                static_cast<unsigned long long>(got), got_flags);
  return buf;
}

TEST_CASE("numeric: exhaustive binary arithmetic on 8-bit and 4-bit types, all rounding modes", "[numeric]") {
  for (const DataType t : kSmallTypes) {
    const std::uint64_t n = std::uint64_t{1} << model::element_bits(t);
    for (const Op& op : kArith) {
      Mismatches bad;
      std::uint64_t cases = 0;
      for (std::uint64_t a = 0; a < n; ++a) {
        for (std::uint64_t b = 0; b < n; ++b) {
          for (const RoundingMode rm : num::kAllRoundingModes) {
            const RefResult want = ref_binary(t, op.op, a, b, rm);
            NumericFlags f = 0;
            const std::uint64_t got = exact_binary(op.op, t, a, b, rm, f);
            bad.check(got == want.bits && f == want.flags, describe(op.name, t, rm, a, b, want, got, f));
            if (rm == RoundingMode::RNE) {  // the scalar API (table fast path) must agree bit for bit
              NumericFlags g = 0;
              const std::uint64_t fast = model_binary(op.op, t, a, b, g);
              bad.check(fast == got && g == f, describe(op.name, t, rm, a, b, {got, f}, fast, g));
            }
            ++cases;
          }
        }
      }
      report_cases(std::string(op.name) + "/7rm", model::data_type_name(t), cases);
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
          bad.check(got == want.bits && f == want.flags, describe(name, t, RoundingMode::RNE, a, b, want, got, f));
          bad.check(slow == got && g == f, describe(name, t, RoundingMode::RNE, a, b, {got, f}, slow, g));
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
