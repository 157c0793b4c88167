// SPDX-License-Identifier: BSD-3-Clause
// FP32 and FP64 binary ops: 10M edge-biased pairs per op against the host's IEEE arithmetic and
// its exception status (x86 SSE detects tininess after rounding), which is itself checked
// against MPFR on a sample and on constructed tininess-boundary cases.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

template <typename F, typename U>
RefResult host_binary(BinOp op, std::uint64_t a, std::uint64_t b, std::uint64_t canonical_nan) {
  F x;
  F y;
  const auto ua = static_cast<U>(a);
  const auto ub = static_cast<U>(b);
  std::memcpy(&x, &ua, sizeof x);
  std::memcpy(&y, &ub, sizeof y);
  HostStatus status;
  status.clear();
  // volatile keeps the operation between clearing and reading the status.
  volatile F vx = x;
  volatile F vy = y;
  volatile F vr = 0;
  switch (op) {
    case BinOp::Add: vr = vx + vy; break;
    case BinOp::Sub: vr = vx - vy; break;
    case BinOp::Mul: vr = vx * vy; break;
    case BinOp::Div: vr = vx / vy; break;
  }
  const NumericFlags flags = status.read();
  const F r = vr;
  U ur;
  std::memcpy(&ur, &r, sizeof ur);
  return {std::isnan(r) ? canonical_nan : ur, flags};
}

RefResult host_ref(DataType t, BinOp op, std::uint64_t a, std::uint64_t b) {
  if (t == DataType::FP32) return host_binary<float, std::uint32_t>(op, a, b, 0x7FC00000);
  return host_binary<double, std::uint64_t>(op, a, b, 0x7FF8000000000000);
}

void run_host(DataType t, std::uint64_t pairs, std::uint64_t seed) {
  const std::string type = model::data_type_name(t);
  for (const BinOp op : kArith) {
    EdgeGenerator gen(t, seed + static_cast<std::uint64_t>(op));
    Mismatches bad;
    for (std::uint64_t i = 0; i < pairs; ++i) {
      const auto [a, b] = gen.pair(op, i);
      const RefResult want = host_ref(t, op, a, b);
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
    EdgeGenerator gen(t, seed + 9 + is_max);
    Mismatches bad;
    for (std::uint64_t i = 0; i < pairs; ++i) {
      const auto [a, b] = gen.pair(BinOp::Sub, i);
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

TEST_CASE("numeric: the host IEEE reference agrees with MPFR (FP32/FP64 sample, tininess boundary)", "[numeric]") {
  for (const DataType t : {DataType::FP32, DataType::FP64}) {
    for (const BinOp op : kArith) {
      EdgeGenerator gen(t, 0x5EED + static_cast<std::uint64_t>(op));
      Mismatches bad;
      constexpr std::uint64_t kSample = 200'000;
      for (std::uint64_t i = 0; i < kSample; ++i) {
        const auto [a, b] = gen.pair(op, i);
        const RefResult host = host_ref(t, op, a, b);
        const RefResult mp = mpfr_binary(t, op, a, b);
        bad.check(host == mp, op_name(op), t, a, b, mp, host.bits, host.flags, "host-vs-mpfr");
      }
      report_cases(std::string(op_name(op)) + "/mpfr", model::data_type_name(t), kSample);
      INFO(bad.first);
      CHECK(bad.count == 0);
    }
  }
  // 2^-126 * (1 - 2^-25) = (55831 * 2^-80) * (601 * 2^-71): an exact tie that rounds to 2^-126 on
  // the subnormal grid, while the unbounded 24-bit rounding also gives 2^-126: not tiny, no UF.
  // One unit lower the unbounded rounding stays below 2^-126: tiny and inexact, UF.
  const std::uint64_t a = 0x1F5A1700;  // 55831 * 2^-80
  const std::uint64_t b = 0x20964000;  // 601 * 2^-71
  REQUIRE(std::ldexp(55831.0, -80) == ref_decode(DataType::FP32, a).value);
  REQUIRE(std::ldexp(601.0, -71) == ref_decode(DataType::FP32, b).value);
  const RefResult tie = mpfr_binary(DataType::FP32, BinOp::Mul, a, b);
  CHECK(tie == RefResult{0x00800000, model::kFlagNX});
  CHECK(host_ref(DataType::FP32, BinOp::Mul, a, b) == tie);
  NumericFlags f = 0;
  CHECK(num::mul(DataType::FP32, a, b, f) == 0x00800000);
  CHECK(f == model::kFlagNX);
  const RefResult below = mpfr_binary(DataType::FP32, BinOp::Mul, a - 1, b);
  CHECK(below.flags == (model::kFlagNX | model::kFlagUF));
  CHECK(host_ref(DataType::FP32, BinOp::Mul, a - 1, b) == below);
  f = 0;
  CHECK(num::mul(DataType::FP32, a - 1, b, f) == below.bits);
  CHECK(f == below.flags);
}

TEST_CASE("numeric: FP32 and FP64 ADD/SUB/MUL/DIV under RTZ, RTM and RTP vs host IEEE", "[numeric]") {
  // The exact path with a directed mode (the scalar API's RoundingMode overloads) against the host
  // in the same mode: overflow to the largest finite value or to the infinity of the direction.
  for (const DataType t : {DataType::FP32, DataType::FP64}) {
    for (const RoundingMode rm : {RoundingMode::RTZ, RoundingMode::RTM, RoundingMode::RTP}) {
      check_binary_under_mode(t, rm, 0xD12, 500'000, [&](BinOp op, std::uint64_t a, std::uint64_t b) {
        const HostRounding host(rm);
        return host_ref(t, op, a, b);
      });
    }
  }
}

TEST_CASE("numeric: FP32 binary ops, 10M edge-biased pairs per op vs host IEEE", "[numeric]") {
  run_host(DataType::FP32, 10'000'000, 0xF32);
}

TEST_CASE("numeric: FP64 binary ops, 10M edge-biased pairs per op vs host IEEE", "[numeric]") {
  run_host(DataType::FP64, 10'000'000, 0xF64);
}

}  // namespace
}  // namespace ptosim::test
