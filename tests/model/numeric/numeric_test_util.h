// SPDX-License-Identifier: BSD-3-Clause
// Shared helpers of the numeric test files: op dispatch onto the API under test and mismatch
// collection with readable failure messages.
#pragma once

#include <cstdio>
#include <string>

#include <catch2/catch.hpp>

#include "model/numeric/exact_ops.h"
#include "model/numeric/scalar_ops.h"
#include "tests/model/numeric/numeric_reference.h"

namespace ptosim::test {

namespace num = model::numeric;

constexpr BinOp kArith[] = {BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div};

inline const char* op_name(BinOp op) {
  switch (op) {
    case BinOp::Add: return "ADD";
    case BinOp::Sub: return "SUB";
    case BinOp::Mul: return "MUL";
    case BinOp::Div: return "DIV";
  }
  return "?";
}

/// The scalar API (fast paths, round-to-nearest-even).
inline std::uint64_t api_binary(BinOp op, DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& f) {
  switch (op) {
    case BinOp::Add: return num::add(t, a, b, f);
    case BinOp::Sub: return num::sub(t, a, b, f);
    case BinOp::Mul: return num::mul(t, a, b, f);
    case BinOp::Div: return num::div(t, a, b, f);
  }
  return 0;
}

/// The scalar API under a rounding mode.
inline std::uint64_t api_binary(BinOp op, DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm,
                                NumericFlags& f) {
  switch (op) {
    case BinOp::Add: return num::add(t, a, b, rm, f);
    case BinOp::Sub: return num::sub(t, a, b, rm, f);
    case BinOp::Mul: return num::mul(t, a, b, rm, f);
    case BinOp::Div: return num::div(t, a, b, rm, f);
  }
  return 0;
}

/// The exact path.
inline std::uint64_t exact_binary(BinOp op, DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm,
                                  NumericFlags& f) {
  switch (op) {
    case BinOp::Add: return num::exact::add(t, a, b, rm, f);
    case BinOp::Sub: return num::exact::sub(t, a, b, rm, f);
    case BinOp::Mul: return num::exact::mul(t, a, b, rm, f);
    case BinOp::Div: return num::exact::div(t, a, b, rm, f);
  }
  return 0;
}

/// Counts mismatches and keeps the first few descriptions for the failure message.
struct Mismatches {
  std::uint64_t count = 0;
  std::string first;
  void check(bool ok, const std::string& what) {
    if (ok) return;
    if (count++ < 5) first += what + "\n";
  }
  void check(bool ok, const char* op, DataType t, std::uint64_t a, std::uint64_t b, const RefResult& want,
             std::uint64_t got, NumericFlags got_flags, const char* extra = "") {
    if (ok) return;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s %s %s a=0x%llx b=0x%llx: want 0x%llx/%02x got 0x%llx/%02x", op,
                  model::data_type_name(t), extra, static_cast<unsigned long long>(a),
                  static_cast<unsigned long long>(b), static_cast<unsigned long long>(want.bits), want.flags,
                  static_cast<unsigned long long>(got), got_flags);
    check(false, std::string(buf));
  }
};

/// ADD, SUB, MUL and DIV of `t` under rounding mode `rm` through the scalar API, on `pairs`
/// edge-biased operand pairs per op, against `reference(op, a, b)`; reports the case counts.
template <typename Reference>
void check_binary_under_mode(DataType t, RoundingMode rm, std::uint64_t seed, std::uint64_t pairs,
                             const Reference& reference) {
  for (const BinOp op : kArith) {
    EdgeGenerator gen(t, seed + static_cast<std::uint64_t>(op) * 7 + static_cast<std::uint64_t>(rm));
    Mismatches bad;
    for (std::uint64_t i = 0; i < pairs; ++i) {
      const auto [a, b] = gen.pair(op, i);
      const RefResult want = reference(op, a, b);
      NumericFlags f = 0;
      const std::uint64_t got = api_binary(op, t, a, b, rm, f);
      bad.check(got == want.bits && f == want.flags, op_name(op), t, a, b, want, got, f, num::rounding_mode_name(rm));
    }
    report_cases(std::string(op_name(op)) + "/" + num::rounding_mode_name(rm), model::data_type_name(t), pairs);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
}

}  // namespace ptosim::test
