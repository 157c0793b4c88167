// SPDX-License-Identifier: BSD-3-Clause
// EXP: exhaustive for every type up to 16 bits (integers included) and for TF32/HF32, edge-biased
// samples for FP32/FP64, inputs that force each fallback stage, and the enclosures against a
// 400-bit MPFR value.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "model/numeric/exp_engine.h"
#include "model/numeric/float_format.h"
#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

void check_exp(Mismatches& bad, DataType t, std::uint64_t a, const RefResult& want) {
  NumericFlags f = 0;
  NumericFlags g = 0;
  const std::uint64_t got = num::exp(t, a, f);
  const std::uint64_t slow = num::exact::exp(t, a, g);
  bad.check(got == want.bits && f == want.flags, "EXP", t, a, 0, want, got, f, "fast");
  bad.check(slow == want.bits && g == want.flags, "EXP", t, a, 0, want, slow, g, "exact");
}

TEST_CASE("numeric: EXP exhaustive for every type up to 16 bits", "[numeric]") {
  for (const DataType t : {DataType::FP16, DataType::BF16}) {
    Mismatches bad;
    for (std::uint64_t a = 0; a < 0x10000; ++a) {
      const RefResult want = mpfr_exp(t, a);
      bad.check(ref_exp(t, a) == want, "EXP", t, a, 0, want, ref_exp(t, a).bits, ref_exp(t, a).flags,
                "candidate-vs-subnormalize reference");
      check_exp(bad, t, a, want);
    }
    report_cases("EXP", model::data_type_name(t), 0x10000);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
  for (const DataType t : {DataType::HiF8, DataType::E4M3, DataType::E5M2, DataType::E3M2, DataType::E2M3,
                           DataType::E8M0, DataType::E2M1X2, DataType::E1M2X2, DataType::HiF4X2}) {
    Mismatches bad;
    const std::uint64_t n = std::uint64_t{1} << model::element_bits(t);
    for (std::uint64_t a = 0; a < n; ++a) check_exp(bad, t, a, ref_exp(t, a));
    report_cases("EXP", model::data_type_name(t), n);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
  // TEXP is floating-only (Decision 073): an integer input is invalid and yields the indefinite
  // value of the conversion profile (signed minimum, unsigned maximum).
  for (const DataType t : {DataType::S16, DataType::U16, DataType::S8, DataType::U8, DataType::S4X2, DataType::U4X2}) {
    Mismatches bad;
    const unsigned w = model::element_bits(t);
    const std::uint64_t n = std::uint64_t{1} << w;
    const RefResult want = {model::is_signed_integer(t) ? n >> 1 : n - 1, model::kFlagNV};
    for (std::uint64_t a = 0; a < n; ++a) check_exp(bad, t, a, want);
    report_cases("EXP", model::data_type_name(t), n);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
}

void sample_exp(DataType t, std::uint64_t random_count, std::uint64_t per_exponent, std::uint64_t seed) {
  const BinarySpec& s = *binary_spec(t);
  EdgeGenerator gen(t, seed);
  Rng rng(seed + 1);
  Mismatches bad;
  std::uint64_t cases = 0;
  for (std::uint64_t i = 0; i < random_count; ++i, ++cases) {
    const std::uint64_t a = gen.next();
    check_exp(bad, t, a, mpfr_exp(t, a));
  }
  // Every binade up to 2^10 (beyond it e^x overflows or underflows), both signs.
  const int top = s.bias + 10;
  for (int e = 0; e <= top; ++e) {
    for (std::uint64_t i = 0; i < per_exponent; ++i, ++cases) {
      const std::uint64_t frac = rng() >> (64 - s.frac_bits);
      const std::uint64_t field = (static_cast<std::uint64_t>(e) << s.frac_bits) | frac;
      const std::uint64_t a = (field << s.frac_shift) | ((rng() & 1) ? std::uint64_t{1} << s.sign_bit : 0);
      check_exp(bad, t, a, mpfr_exp(t, a));
    }
  }
  report_cases("EXP", model::data_type_name(t), cases);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

// Every FP32 input with |x| < 128 whose binary64-stage enclosure (relative width 2^-47) cannot
// decide the rounding: e^x lies within about 2^-47 of a binary32 midpoint. Found by an offline
// scan of all 2.25e9 such inputs with exp_try_round(exp_enclosure_double(x)); the list is what
// remains for the double-double stage (and beyond) to decide.
constexpr std::uint32_t kFp32ExpHardCases[] = {
    0x337FFFFF, 0x33800000, 0x343FFFFF, 0x34DFFFFD, 0x356FFFF9, 0x35F7FFF1, 0x367BFFE1, 0x36FDFFC1,
    0x377EFF81, 0x383A3EF1, 0x38AD9E29, 0x38E69CC1, 0x39C6BE5B, 0x39E5BB1D, 0x3A7BCD08, 0x3C608A0E,
    0x3C971AAA, 0x3CAFFE2E, 0x3D1A274E, 0x3FE67199, 0x4001B249, 0x40315B33, 0x4034D02B, 0x40DD70CB,
    0x4178966E, 0x41CBF87B, 0x4288942B, 0xB2FFFFFF, 0xB3000000, 0xB3000001, 0xB3C00001, 0xB4200001,
    0xB4B00002, 0xB5D4000B, 0xB616000B, 0xB6B50020, 0xB7C9C09F, 0xB7F4C0EA, 0xBA7242A6, 0xBAE0E25C,
    0xBBB70EE8, 0xBBF0EDF1, 0xBC2A461A, 0xBCB8F40F, 0xBCE017BB, 0xBDB393EB, 0xBF76FD92, 0xBF81EADF,
    0xBFBFA14B, 0xC0382E72, 0xC0781533, 0xC13D6631, 0xC16912CD,
};

TEST_CASE("numeric: FP32 EXP, edge-biased sample, every binade and the halfway-prone inputs vs MPFR", "[numeric]") {
  sample_exp(DataType::FP32, 2'000'000, 8'000, 0xE32);
  const num::FloatFormat& f = *num::float_format(DataType::FP32);
  Mismatches bad;
  for (const std::uint32_t a : kFp32ExpHardCases) {
    float x;
    std::memcpy(&x, &a, sizeof x);
    std::uint64_t code = 0;
    NumericFlags f0 = 0;
    bad.check(!num::exp_try_round(f, num::exp_enclosure_double(x), code, f0), "EXP FP32 hard case decided early");
    check_exp(bad, DataType::FP32, a, mpfr_exp(DataType::FP32, a));
  }
  report_cases("EXP/hard", "FP32", sizeof kFp32ExpHardCases / sizeof kFp32ExpHardCases[0]);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("numeric: TF32 and HF32 EXP, every input vs MPFR", "[numeric]") {
  for (const DataType t : {DataType::TF32, DataType::HF32}) {  // 2^19 and 2^20 valid encodings
    const BinarySpec& s = *binary_spec(t);
    const std::uint64_t n = std::uint64_t{1} << (1 + s.exp_bits + s.frac_bits);
    Mismatches bad;
    for (std::uint64_t field = 0; field < n; ++field) {
      const std::uint64_t a = field << s.frac_shift;
      check_exp(bad, t, a, mpfr_exp(t, a));
    }
    report_cases("EXP", model::data_type_name(t), n);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
}

TEST_CASE("numeric: FP64 EXP, 10M edge-biased inputs vs MPFR", "[numeric]") {
  sample_exp(DataType::FP64, 5'000'000, 5'000, 0xE64);
}

// (lo, hi) * 2^exp must enclose e^x, within the stated relative width.
void check_enclosure(Mismatches& bad, double x, mpfr_srcptr truth, num::u128 lo, num::u128 hi, int exp,
                     double max_width, const char* stage) {
  Mp l(200);
  Mp h(200);
  auto set = [](Mp& m, num::u128 v, int e) {
    mpfr_set_uj(m.v, static_cast<std::uint64_t>(v >> 64), MPFR_RNDN);
    mpfr_mul_2ui(m.v, m.v, 64, MPFR_RNDN);
    mpfr_add_ui(m.v, m.v, 0, MPFR_RNDN);
    Mp low(64);
    mpfr_set_uj(low.v, static_cast<std::uint64_t>(v), MPFR_RNDN);
    mpfr_add(m.v, m.v, low.v, MPFR_RNDN);
    mpfr_mul_2si(m.v, m.v, e, MPFR_RNDN);
  };
  set(l, lo, exp);
  set(h, hi, exp);
  const double width = static_cast<double>(hi - lo) / static_cast<double>(lo);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s enclosure of exp(%a): width %g", stage, x, width);
  bad.check(mpfr_cmp(l.v, truth) < 0 && mpfr_cmp(truth, h.v) < 0 && width <= max_width, buf);
}

TEST_CASE("numeric: EXP enclosures contain e^x and fallbacks decide the hard cases", "[numeric]") {
  Rng rng(0xE2C);
  Mismatches bad;
  constexpr int kSamples = 100'000;
  Mp truth(400);
  Mp mx(64);
  for (int i = 0; i < kSamples; ++i) {
    // |x| spread over 2^-60 .. 2^10 and the tails of the reduction range
    const double x = std::ldexp(static_cast<double>(rng() >> 11), -53 - static_cast<int>(rng() % 61) + 10) *
                     ((rng() & 1) ? -1 : 1);
    if (std::fabs(x) > num::kExpEnclosureLimit || x == 0) continue;
    mpfr_set_d(mx.v, x, MPFR_RNDN);
    mpfr_exp(truth.v, mx.v, MPFR_RNDN);
    const num::ExpEnclosure d = num::exp_enclosure_double(x);
    check_enclosure(bad, x, truth.v, d.lo, d.hi, d.exp, 0x1p-46, "double");
    const num::ExpEnclosure dd = num::exp_enclosure_dd(x);
    check_enclosure(bad, x, truth.v, dd.lo, dd.hi, dd.exp, 0x1p-94, "double-double");
    if (i % 10 == 0) {
      const num::BigExpEnclosure mp = num::exp_enclosure_mp(x, 160);
      bool sl = false;
      bool sh = false;
      int shl = 0;
      int shh = 0;
      const num::u128 lo = mp.lo.top_bits(120, sl, shl);
      const num::u128 hi = mp.hi.top_bits(120, sh, shh) + 1;  // rounded up: still an upper bound
      check_enclosure(bad, x, truth.v, lo, hi << (shh - shl), mp.exp + shl, 0x1p-115, "fixed-point");
    }
  }
  report_cases("EXP/encl", "all", kSamples);
  INFO(bad.first);
  CHECK(bad.count == 0);

  // x = 2^-p puts e^x = 1 + 2^-p + 2^-(2p+1) + ... just above the midpoint between 1 and its
  // successor; x = -2^-(p+1) puts it just above the midpoint below 1. Deciding needs about 2p + 1
  // bits: beyond the binary64 stage (2^-47) for FP32 and FP64, beyond double-double for FP64.
  for (const DataType t : {DataType::FP16, DataType::BF16, DataType::TF32, DataType::HF32, DataType::FP32,
                           DataType::FP64}) {
    const num::FloatFormat& f = *num::float_format(t);
    const int p = static_cast<int>(f.frac_bits) + 1;
    for (const double x : {std::ldexp(1.0, -p), -std::ldexp(1.0, -p - 1)}) {
      std::uint64_t code = 0;
      NumericFlags f0 = 0;
      if (p >= 24) CHECK_FALSE(num::exp_try_round(f, num::exp_enclosure_double(x), code, f0));
      if (t == DataType::FP64) CHECK_FALSE(num::exp_try_round(f, num::exp_enclosure_dd(x), code, f0));
      const std::uint64_t a = ref_encode(t, x);
      const RefResult want = mpfr_exp(t, a);
      NumericFlags g = 0;
      CHECK(num::exp(t, a, g) == want.bits);
      CHECK(g == want.flags);
    }
  }
}

}  // namespace
}  // namespace ptosim::test
