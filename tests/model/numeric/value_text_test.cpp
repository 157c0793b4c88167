// SPDX-License-Identifier: BSD-3-Clause
// format_value / parse_value: round trips for every encoding up to 16 bits and samples of the
// wide types, shortest digits (against std::to_chars), and correctly rounded parsing (against
// strtod/strtof and MPFR for the narrow formats).
#include <catch2/catch.hpp>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

std::uint64_t canonical(DataType t, std::uint64_t b) {
  NumericFlags f = 0;
  return num::convert(t, b, t, RoundingMode::RNE, false, f);
}

// Significant digits of a decimal string (leading zeros and the exponent excluded).
int significant_digits(const std::string& s) {
  int n = 0;
  int trailing_zeros = 0;
  bool started = false;
  for (const char c : s) {
    if (c == 'e' || c == 'E') break;
    if (!std::isdigit(static_cast<unsigned char>(c))) continue;
    if (c != '0') started = true;
    if (!started) continue;
    ++n;
    trailing_zeros = c == '0' ? trailing_zeros + 1 : 0;
  }
  return n - trailing_zeros;
}

TEST_CASE("numeric: format/parse round trip and shortest digits for every encoding up to 16 bits", "[numeric]") {
  Mismatches bad;
  std::uint64_t cases = 0;
  for (const DataType t : model::kAllDataTypes) {
    const unsigned w = model::element_bits(t);
    if (w > 16) continue;
    for (std::uint64_t b = 0; b < (std::uint64_t{1} << w); ++b, ++cases) {
      const std::string s = num::format_value(t, b);
      const auto back = num::parse_value(t, s);
      bool ok = back.has_value() && *back == canonical(t, b);
      // one digit fewer must not round-trip
      const int n = significant_digits(s);
      if (ok && model::is_float(t) && n > 1 && s != "nan" && s.find("inf") == std::string::npos) {
        char shorter[48];
        std::snprintf(shorter, sizeof shorter, "%.*e", n - 2, num::to_double(t, b));
        ok = num::parse_value(t, shorter) != canonical(t, b);
      }
      bad.check(ok, "TEXT " + std::string(model::data_type_name(t)) + " " + std::to_string(b) + " -> " + s);
    }
  }
  report_cases("FMT/PARSE", "<=16bit", cases);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("numeric: format/parse of FP32/FP64/TF32/HF32/32-64-bit integers vs to_chars, strtod, strtof", "[numeric]") {
  Mismatches bad;
  constexpr int kSamples = 100'000;
  for (const DataType t : {DataType::FP32, DataType::FP64, DataType::TF32, DataType::HF32}) {
    EdgeGenerator gen(t, 0x7E47 + static_cast<std::uint64_t>(t));
    for (int i = 0; i < kSamples; ++i) {
      const std::uint64_t b = gen.next();
      const std::string s = num::format_value(t, b);
      bool ok = num::parse_value(t, s) == canonical(t, b);
      const double v = num::to_double(t, b);
      if (std::isfinite(v) && v != 0 && (t == DataType::FP32 || t == DataType::FP64)) {
        char ref[64];
        const auto res = t == DataType::FP32
                             ? std::to_chars(ref, ref + sizeof ref, static_cast<float>(v), std::chars_format::scientific)
                             : std::to_chars(ref, ref + sizeof ref, v, std::chars_format::scientific);
        *res.ptr = 0;
        ok = ok && significant_digits(s) == significant_digits(ref);
      }
      bad.check(ok, "TEXT " + std::string(model::data_type_name(t)) + " " + s);
    }
  }
  Rng rng(0xD1);
  for (const DataType t : {DataType::S32, DataType::U32, DataType::S64, DataType::U64}) {
    for (int i = 0; i < kSamples; ++i) {
      const std::uint64_t b = rng() & model::element_mask(t);
      const std::string s = num::format_value(t, b);
      const bool is_signed = model::is_signed_integer(t);
      const std::string want = is_signed ? std::to_string(model::element_bits(t) == 32 ? static_cast<std::int64_t>(static_cast<std::int32_t>(b)) : static_cast<std::int64_t>(b))
                                         : std::to_string(b);
      bad.check(s == want && num::parse_value(t, s) == b, "TEXT " + std::string(model::data_type_name(t)) + " " + s);
    }
  }
  // Random decimal strings: correctly rounded parsing against glibc's strtod/strtof.
  for (int i = 0; i < 4 * kSamples; ++i) {
    std::string s = (rng() & 1) ? "-" : "";
    const int digits = 1 + static_cast<int>(rng() % 25);
    for (int d = 0; d < digits; ++d) s += static_cast<char>('0' + rng() % 10);
    if (rng() & 1) s.insert(s.size() - static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(digits)), ".");
    if (s.back() == '.' || s.front() == '.') s += "0";
    s += "e" + std::to_string(static_cast<int>(rng() % 700) - 350);
    const double d = std::strtod(s.c_str(), nullptr);
    const float f = std::strtof(s.c_str(), nullptr);
    std::uint64_t ud;
    std::uint32_t uf;
    std::memcpy(&ud, &d, sizeof ud);
    std::memcpy(&uf, &f, sizeof uf);
    bad.check(num::parse_value(DataType::FP64, s) == ud, "PARSE FP64 " + s);
    bad.check(num::parse_value(DataType::FP32, s) == uf, "PARSE FP32 " + s);
  }
  report_cases("FMT/PARSE", "wide", 8 * kSamples + 8 * kSamples);
  INFO(bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("numeric: parse of random decimals into the narrow formats vs MPFR, and the text forms", "[numeric]") {
  Mismatches bad;
  Rng rng(0xD2);
  constexpr int kSamples = 20'000;
  std::uint64_t cases = 0;
  Mp x(400);
  for (const DataType t : {DataType::FP16, DataType::BF16, DataType::HiF8, DataType::E4M3, DataType::E5M2,
                           DataType::E3M2, DataType::E2M3, DataType::E2M1X2, DataType::E1M2X2, DataType::E8M0}) {
    for (int i = 0; i < kSamples; ++i, ++cases) {
      std::string s = (t != DataType::E8M0 && (rng() & 1)) ? "-" : "";
      const int digits = 1 + static_cast<int>(rng() % 12);
      for (int d = 0; d < digits; ++d) s += static_cast<char>('1' + rng() % 9);
      s += "e" + std::to_string(static_cast<int>(rng() % 90) - 50);
      const int ternary = mpfr_set_str(x.v, s.c_str(), 10, MPFR_RNDN);
      const RefResult want = ref_round(t, x.v, ternary > 0 ? -1 : ternary < 0 ? 1 : 0, RoundingMode::RNE, false);
      const auto got = num::parse_value(t, s);
      bad.check(got == want.bits, "PARSE " + std::string(model::data_type_name(t)) + " " + s);
    }
  }
  report_cases("PARSE", "narrow", cases);
  INFO(bad.first);
  CHECK(bad.count == 0);

  CHECK(num::parse_value(DataType::FP16, "1.5") == 0x3E00);
  CHECK(num::parse_value(DataType::FP16, "-3") == 0xC200);
  CHECK(num::parse_value(DataType::FP16, "1e-3") == 0x1419);
  CHECK(num::parse_value(DataType::FP16, "inf") == 0x7C00);
  CHECK(num::parse_value(DataType::FP16, "-inf") == 0xFC00);
  CHECK(num::parse_value(DataType::FP16, "nan") == 0x7E00);
  CHECK(num::parse_value(DataType::FP16, "-0") == 0x8000);
  CHECK(num::parse_value(DataType::FP16, "0x3C00") == 0x3C00);
  CHECK(num::parse_value(DataType::FP16, "65520") == 0x7C00);  // rounds to nearest-even: overflow
  CHECK_FALSE(num::parse_value(DataType::FP16, "0x10000").has_value());
  CHECK_FALSE(num::parse_value(DataType::E4M3, "inf").has_value());
  CHECK_FALSE(num::parse_value(DataType::E3M2, "nan").has_value());
  CHECK_FALSE(num::parse_value(DataType::E8M0, "-2").has_value());
  CHECK_FALSE(num::parse_value(DataType::E8M0, "0").has_value());
  for (const char* bad_text : {"", "-", "1e", "e5", "1.2.3", "abc", "1x", "0x", "0xG"})
    CHECK_FALSE(num::parse_value(DataType::FP32, bad_text).has_value());
  CHECK(num::parse_value(DataType::S8, "-128") == 0x80);
  CHECK(num::parse_value(DataType::S8, "2.5") == 0x02);  // nearest-even
  CHECK_FALSE(num::parse_value(DataType::S8, "128").has_value());
  CHECK_FALSE(num::parse_value(DataType::U8, "-1").has_value());
  CHECK(num::parse_value(DataType::U64, "18446744073709551615") == ~std::uint64_t{0});
  CHECK(num::format_value(DataType::FP16, 0x7E00) == "nan");
  CHECK(num::format_value(DataType::FP16, 0xFC00) == "-inf");
  CHECK(num::format_value(DataType::FP32, 0x80000000) == "-0");
  CHECK(num::format_value(DataType::FP64, 0x3FB999999999999A) == "0.1");
  CHECK(num::format_value(DataType::S16, 0x8000) == "-32768");
  CHECK(num::format_value(DataType::E8M0, 0x7F) == "1");
  CHECK(num::format_value(DataType::FP32, 0x7F7FFFFF) == "3.4028235e+38");
}

}  // namespace
}  // namespace ptosim::test
