// SPDX-License-Identifier: BSD-3-Clause
// convert(): every source type to every destination type under all seven rounding modes, with and
// without saturation, against a reference written from the HWP profile and the post-process ASL.
#include <catch2/catch.hpp>

#include <gmp.h>

#include <cmath>
#include <memory>

#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

using model::kAllDataTypes;

struct IntRange {
  int width;
  bool is_signed;
};

IntRange int_range(DataType t) { return {static_cast<int>(model::element_bits(t)), model::is_signed_integer(t)}; }

std::uint64_t int_mask(int w) { return w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1; }

// The destination encoding of an exact integer z: in range, clamped (Sat) or wrapped, OF|NX
// outside (asl/arch/profile/matrix-quantization.asl ReferenceMatrixIntegerEncoding).
RefResult int_result(DataType to, const mpz_t z, bool inexact, bool saturate) {
  const IntRange r = int_range(to);
  mpz_t lo;
  mpz_t hi;
  mpz_t wrapped;
  mpz_inits(lo, hi, wrapped, nullptr);
  if (r.is_signed) {
    mpz_set_ui(hi, 1);
    mpz_mul_2exp(hi, hi, static_cast<mp_bitcnt_t>(r.width - 1));
    mpz_neg(lo, hi);
    mpz_sub_ui(hi, hi, 1);
  } else {
    mpz_set_ui(lo, 0);
    mpz_set_ui(hi, 1);
    mpz_mul_2exp(hi, hi, static_cast<mp_bitcnt_t>(r.width));
    mpz_sub_ui(hi, hi, 1);
  }
  NumericFlags flags = inexact ? model::kFlagNX : NumericFlags{0};
  const bool below = mpz_cmp(z, lo) < 0;
  const bool above = mpz_cmp(z, hi) > 0;
  if (below || above) {
    flags = model::kFlagOF | model::kFlagNX;
    mpz_set(wrapped, saturate ? (below ? lo : hi) : z);
  } else {
    mpz_set(wrapped, z);
  }
  mpz_fdiv_r_2exp(wrapped, wrapped, static_cast<mp_bitcnt_t>(r.width));  // two's complement bits
  std::uint64_t bits = 0;
  mpz_export(&bits, nullptr, -1, sizeof bits, 0, 0, wrapped);
  mpz_clears(lo, hi, wrapped, nullptr);
  return {bits & int_mask(r.width), flags};
}

// x rounded to an integer under rm, written from ADR 0047's definitions.
void round_integer(mpz_t z, mpfr_srcptr x, RoundingMode rm) {
  Mp r(mpfr_get_prec(x) + 2);
  switch (rm) {
    case RoundingMode::RNE: mpfr_rint(r.v, x, MPFR_RNDN); break;
    case RoundingMode::RTZ: mpfr_rint(r.v, x, MPFR_RNDZ); break;
    case RoundingMode::RTM: mpfr_rint(r.v, x, MPFR_RNDD); break;
    case RoundingMode::RTP: mpfr_rint(r.v, x, MPFR_RNDU); break;
    case RoundingMode::RNA: mpfr_round(r.v, x); break;
    case RoundingMode::RHB:  // nearest, exact ties toward +inf: floor(x + 1/2)
      mpfr_set(r.v, x, MPFR_RNDN);
      mpfr_add_d(r.v, r.v, 0.5, MPFR_RNDN);
      mpfr_floor(r.v, r.v);
      break;
    case RoundingMode::RTO: {  // truncate; an inexact even result moves one away from zero
      mpfr_trunc(r.v, x);
      mpfr_get_z(z, r.v, MPFR_RNDN);
      if (mpfr_cmp(r.v, x) != 0 && mpz_even_p(z)) {
        if (mpfr_sgn(x) > 0) mpz_add_ui(z, z, 1);
        else mpz_sub_ui(z, z, 1);
      }
      return;
    }
  }
  mpfr_get_z(z, r.v, MPFR_RNDN);
}

bool is_float_type(DataType t) { return !model::is_integer(t); }
bool dest_has_nan(DataType t) { return ref_canonical_nan(t).has_value(); }
bool dest_has_inf(DataType t) {
  return t == DataType::HiF8 || (binary_spec(t) != nullptr && binary_spec(t)->has_inf);
}
std::uint64_t max_code(DataType t, bool negative) {
  if (t == DataType::HiF8) return negative ? 0xEE : 0x6E;
  if (t == DataType::E8M0) return 0xFE;
  const BinarySpec& s = *binary_spec(t);
  return s.max_finite | (negative ? std::uint64_t{1} << s.sign_bit : 0);
}
std::uint64_t signed_zero(DataType t, bool negative) {
  if (t == DataType::HiF8 || !negative) return 0;
  return std::uint64_t{1} << binary_spec(t)->sign_bit;
}

RefResult ref_convert(DataType from, std::uint64_t bits, DataType to, RoundingMode rm, bool sat) {
  Mp x(256);
  if (is_float_type(from)) {
    const RefValue v = ref_decode(from, bits);
    const bool nan = v.kind == Kind::QNaN || v.kind == Kind::SNaN;
    if (nan) {
      if (to == DataType::E8M0) return {0xFF, model::kFlagNV};
      if (!is_float_type(to)) {
        const IntRange r = int_range(to);
        const std::uint64_t indefinite = r.is_signed ? std::uint64_t{1} << (r.width - 1) : int_mask(r.width);
        return {sat ? 0 : indefinite, model::kFlagNV};
      }
      const bool nv = v.kind == Kind::SNaN || !dest_has_nan(to);
      const NumericFlags f = nv ? model::kFlagNV : NumericFlags{0};
      return {sat || !dest_has_nan(to) ? 0 : *ref_canonical_nan(to), f};
    }
    if (v.kind == Kind::Inf) {
      if (to == DataType::E8M0) {
        if (v.negative) return {0xFF, model::kFlagNV};
        return {sat ? 0xFEu : 0xFFu, model::kFlagOF | model::kFlagNX};
      }
      if (!is_float_type(to)) {
        const IntRange r = int_range(to);
        const std::uint64_t min = r.is_signed ? std::uint64_t{1} << (r.width - 1) : 0;
        const std::uint64_t max = r.is_signed ? int_mask(r.width) >> 1 : int_mask(r.width);
        if (sat) return {v.negative ? min : max, model::kFlagOF | model::kFlagNX};
        return {r.is_signed ? min : int_mask(r.width), model::kFlagNV};
      }
      if (!sat && dest_has_inf(to)) return {ref_infinity(to, v.negative), 0};
      const NumericFlags f = model::kFlagOF | model::kFlagNX;
      if (sat || !dest_has_nan(to)) return {max_code(to, v.negative), f};
      return {*ref_canonical_nan(to), f};
    }
    if (v.kind == Kind::Zero) {
      if (to == DataType::E8M0) return {0xFF, model::kFlagNV};
      return {is_float_type(to) ? signed_zero(to, v.negative) : 0, 0};
    }
    mpfr_set_d(x.v, v.value, MPFR_RNDN);
  } else {
    const IntRange r = int_range(from);
    std::uint64_t u = bits & int_mask(r.width);
    if (r.is_signed && ((u >> (r.width - 1)) & 1)) {
      mpfr_set_uj(x.v, (~u + 1) & int_mask(r.width), MPFR_RNDN);
      mpfr_neg(x.v, x.v, MPFR_RNDN);
    } else {
      mpfr_set_uj(x.v, u, MPFR_RNDN);
    }
    if (mpfr_zero_p(x.v)) {
      if (to == DataType::E8M0) return {0xFF, model::kFlagNV};
      return {0, 0};
    }
  }
  if (is_float_type(to)) return ref_round(to, x.v, 0, rm, sat);
  mpz_t z;
  mpz_init(z);
  round_integer(z, x.v, rm);
  Mp back(256);
  mpfr_set_z(back.v, z, MPFR_RNDN);
  const RefResult r = int_result(to, z, mpfr_cmp(back.v, x.v) != 0, sat);
  mpz_clear(z);
  return r;
}

std::uint64_t edge_value(DataType t, Rng& rng, EdgeGenerator* gen) {
  if (gen != nullptr) return gen->next();
  const int w = static_cast<int>(model::element_bits(t));
  const std::uint64_t m = int_mask(w);
  switch (rng() % 4) {
    case 0: return (rng() % 7 - 3) & m;
    case 1: return (std::uint64_t{1} << (w - 1)) + (rng() % 3) - 1;
    case 2: return (rng() >> (64 - 1 - static_cast<int>(rng() % static_cast<std::uint64_t>(w)))) & m;
    default: return rng() & m;
  }
}

struct Combo {
  RoundingMode rm;
  bool sat;
};

void check_convert(Mismatches& bad, DataType from, std::uint64_t a, DataType to, RoundingMode rm, bool sat) {
  const RefResult want = ref_convert(from, a, to, rm, sat);
  NumericFlags f = 0;
  const std::uint64_t got = num::convert(from, a, to, rm, sat, f);
  if (got == want.bits && f == want.flags) return;
  char extra[64];
  std::snprintf(extra, sizeof extra, "->%s %s sat=%d", model::data_type_name(to), num::rounding_mode_name(rm), sat);
  bad.check(false, "CVT", from, a, 0, want, got, f, extra);
}

TEST_CASE("numeric: convert every 8-bit and 4-bit source to every type, all modes, Sat on/off", "[numeric]") {
  for (const DataType from : kAllDataTypes) {
    if (model::element_bits(from) > 8) continue;
    const std::uint64_t n = std::uint64_t{1} << model::element_bits(from);
    Mismatches bad;
    std::uint64_t cases = 0;
    for (const DataType to : kAllDataTypes)
      for (const RoundingMode rm : num::kAllRoundingModes)
        for (const bool sat : {false, true})
          for (std::uint64_t a = 0; a < n; ++a, ++cases) check_convert(bad, from, a, to, rm, sat);
    report_cases("CVT-from", model::data_type_name(from), cases);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
}

TEST_CASE("numeric: convert every 16-bit source value to every type (RNE and RTZ+Sat), sampled modes", "[numeric]") {
  for (const DataType from : {DataType::FP16, DataType::BF16, DataType::S16, DataType::U16}) {
    Mismatches bad;
    std::uint64_t cases = 0;
    for (const DataType to : kAllDataTypes) {
      for (const Combo c : {Combo{RoundingMode::RNE, false}, Combo{RoundingMode::RTZ, true}})
        for (std::uint64_t a = 0; a < 0x10000; ++a, ++cases) check_convert(bad, from, a, to, c.rm, c.sat);
      Rng rng(0xC16 + static_cast<std::uint64_t>(to));
      for (int i = 0; i < 2000; ++i, ++cases) {
        const RoundingMode rm = num::kAllRoundingModes[rng() % 7];
        check_convert(bad, from, rng() & 0xFFFF, to, rm, (rng() & 1) != 0);
      }
    }
    report_cases("CVT-from", model::data_type_name(from), cases);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
}

TEST_CASE("numeric: convert 32/64-bit sources (edge-biased) to every type, all modes, Sat on/off", "[numeric]") {
  for (const DataType from : {DataType::FP64, DataType::FP32, DataType::TF32, DataType::HF32, DataType::S64,
                              DataType::S32, DataType::U64, DataType::U32}) {
    Rng rng(0xC32 + static_cast<std::uint64_t>(from));
    std::unique_ptr<EdgeGenerator> gen;
    if (is_float_type(from)) gen = std::make_unique<EdgeGenerator>(from, 0xC33 + static_cast<std::uint64_t>(from));
    Mismatches bad;
    std::uint64_t cases = 0;
    for (int i = 0; i < 1500; ++i) {
      const std::uint64_t a = edge_value(from, rng, gen.get());
      for (const DataType to : kAllDataTypes)
        for (const RoundingMode rm : num::kAllRoundingModes)
          for (const bool sat : {false, true}) {
            check_convert(bad, from, a, to, rm, sat);
            ++cases;
          }
    }
    report_cases("CVT-from", model::data_type_name(from), cases);
    INFO(bad.first);
    CHECK(bad.count == 0);
  }
}

}  // namespace
}  // namespace ptosim::test
