// SPDX-License-Identifier: BSD-3-Clause
// Integer element arithmetic (numerics.md §7, ADR 0080 Decision 060): exhaustive pairs for the
// 8-bit and 4-bit types, 10M edge-biased pairs per op for the 16-bit types, samples for 32/64.
#include <catch2/catch.hpp>

#include "model/numeric/typed_ops.h"
#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

enum class IntOp { Add, Sub, Mul, Div, Max, Min };
constexpr IntOp kIntOps[] = {IntOp::Add, IntOp::Sub, IntOp::Mul, IntOp::Div, IntOp::Max, IntOp::Min};
const char* int_op_name(IntOp op) {
  constexpr const char* kNames[] = {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN"};
  return kNames[static_cast<int>(op)];
}

__extension__ typedef __int128 i128;

// Reference written from the spec text: operands sign- or zero-extended, exact result,
// truncated to the width; division truncates toward zero; a zero divisor gives all ones + DZ.
RefResult ref_int(IntOp op, DataType t, std::uint64_t a, std::uint64_t b) {
  const int w = static_cast<int>(model::element_bits(t));
  const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  a &= mask;
  b &= mask;
  const bool is_signed = model::is_signed_integer(t);
  auto value = [&](std::uint64_t v) -> i128 {
    if (is_signed && ((v >> (w - 1)) & 1)) return static_cast<i128>(v) - (static_cast<i128>(1) << w);
    return static_cast<i128>(v);
  };
  const i128 x = value(a);
  const i128 y = value(b);
  i128 r = 0;
  switch (op) {
    case IntOp::Add: r = x + y; break;
    case IntOp::Sub: r = x - y; break;
    case IntOp::Mul: r = x * y; break;
    case IntOp::Div:
      if (y == 0) return {mask, model::kFlagDZ};
      r = x / y;  // C++ truncates toward zero; 2^(w-1) wraps below
      break;
    case IntOp::Max: return {x >= y ? a : b, 0};
    case IntOp::Min: return {x <= y ? a : b, 0};
  }
  return {static_cast<std::uint64_t>(r) & mask, 0};
}

std::uint64_t api_int(IntOp op, DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& f) {
  switch (op) {
    case IntOp::Add: return num::add(t, a, b, f);
    case IntOp::Sub: return num::sub(t, a, b, f);
    case IntOp::Mul: return num::mul(t, a, b, f);
    case IntOp::Div: return num::div(t, a, b, f);
    case IntOp::Max: return num::max(t, a, b, f);
    case IntOp::Min: return num::min(t, a, b, f);
  }
  return 0;
}

std::uint64_t exact_int(IntOp op, DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& f) {
  switch (op) {
    case IntOp::Add: return num::exact::add(t, a, b, RoundingMode::RNE, f);
    case IntOp::Sub: return num::exact::sub(t, a, b, RoundingMode::RNE, f);
    case IntOp::Mul: return num::exact::mul(t, a, b, RoundingMode::RNE, f);
    case IntOp::Div: return num::exact::div(t, a, b, RoundingMode::RNE, f);
    case IntOp::Max: return num::exact::max(t, a, b, f);
    case IntOp::Min: return num::exact::min(t, a, b, f);
  }
  return 0;
}

void check_pair(Mismatches& bad, IntOp op, DataType t, std::uint64_t a, std::uint64_t b) {
  const RefResult want = ref_int(op, t, a, b);
  NumericFlags f = 0;
  NumericFlags g = 0;
  const std::uint64_t got = api_int(op, t, a, b, f);
  const std::uint64_t slow = exact_int(op, t, a, b, g);
  bad.check(got == want.bits && f == want.flags, int_op_name(op), t, a, b, want, got, f, "fast");
  bad.check(slow == want.bits && g == want.flags, int_op_name(op), t, a, b, want, slow, g, "exact");
}

// Edge-biased integers: 0, +-1, extremes and their neighbours, small values, random bits.
std::uint64_t edge_int(Rng& rng, int w) {
  const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  const std::uint64_t top = std::uint64_t{1} << (w - 1);
  switch (rng() % 6) {
    case 0: {
      const std::uint64_t picks[] = {0, 1, mask, top, top - 1, top + 1, mask - 1, 2};
      return picks[rng() % 8];
    }
    case 1: return (rng() % 9) - 4 & mask;
    case 2: return (rng() >> (64 - w / 2)) & mask;
    default: return rng() & mask;
  }
}

TEST_CASE("numeric: exhaustive integer ops on S8, U8, S4X2, U4X2", "[numeric]") {
  for (const DataType t : {DataType::S8, DataType::U8, DataType::S4X2, DataType::U4X2}) {
    const std::uint64_t n = std::uint64_t{1} << model::element_bits(t);
    for (const IntOp op : kIntOps) {
      Mismatches bad;
      for (std::uint64_t a = 0; a < n; ++a)
        for (std::uint64_t b = 0; b < n; ++b) check_pair(bad, op, t, a, b);
      report_cases(int_op_name(op), model::data_type_name(t), n * n);
      INFO(bad.first);
      CHECK(bad.count == 0);
    }
  }
}

TEST_CASE("numeric: integer ops, 10M pairs per op for S16/U16, 1M for 32/64-bit", "[numeric]") {
  const std::pair<DataType, std::uint64_t> kRuns[] = {
      {DataType::S16, 10'000'000}, {DataType::U16, 10'000'000}, {DataType::S32, 1'000'000},
      {DataType::U32, 1'000'000},  {DataType::S64, 1'000'000},  {DataType::U64, 1'000'000}};
  for (const auto& [t, pairs] : kRuns) {
    const int w = static_cast<int>(model::element_bits(t));
    for (const IntOp op : kIntOps) {
      Rng rng(0x1E7 + static_cast<std::uint64_t>(op) * 31 + static_cast<std::uint64_t>(t));
      Mismatches bad;
      for (std::uint64_t i = 0; i < pairs; ++i) check_pair(bad, op, t, edge_int(rng, w), edge_int(rng, w));
      report_cases(int_op_name(op), model::data_type_name(t), pairs);
      INFO(bad.first);
      CHECK(bad.count == 0);
    }
  }
}

TEST_CASE("numeric: integer corner rules of Decision 060", "[numeric]") {
  NumericFlags f = 0;
  CHECK(num::div(DataType::S8, 0x80, 0xFF, f) == 0x80);  // S_min / -1 wraps
  CHECK(num::div(DataType::S64, 0x8000000000000000, ~std::uint64_t{0}, f) == 0x8000000000000000);
  CHECK(num::div(DataType::S32, static_cast<std::uint32_t>(-7), 2, f) == static_cast<std::uint32_t>(-3));
  CHECK(num::div(DataType::U32, 7, 2, f) == 3);
  CHECK(f == 0);
  CHECK(num::div(DataType::S16, 5, 0, f) == 0xFFFF);
  CHECK(f == model::kFlagDZ);
  f = 0;
  CHECK(num::add(DataType::U8, 250, 10, f) == 4);  // numerics.md: U8 250 + 10 -> 4
  CHECK(num::mul(DataType::S4X2, 0x7, 0x7, f) == 0x1);
  CHECK(num::max(DataType::S32, 0xFFFFFFFF, 1, f) == 1);
  CHECK(num::max(DataType::U32, 0xFFFFFFFF, 1, f) == 0xFFFFFFFF);
  CHECK(f == 0);
  // Inputs are read at the element width only; results never carry higher bits.
  CHECK(num::add(DataType::U4X2, 0xF5, 0x03, f) == 0x8);
  CHECK(num::sub(DataType::S8, 0x1234500, 1, f) == 0xFF);
  // EXP has no integer form: NV and the indefinite value.
  for (const DataType t : {DataType::S8, DataType::S32, DataType::U16, DataType::U64, DataType::S4X2}) {
    NumericFlags g = 0;
    const std::uint64_t r = num::exp(t, 1, g);
    CHECK(g == model::kFlagNV);
    CHECK(r == (model::is_signed_integer(t) ? std::uint64_t{1} << (model::element_bits(t) - 1)
                                            : model::element_mask(t)));
  }
}

}  // namespace
}  // namespace ptosim::test
