// SPDX-License-Identifier: BSD-3-Clause
// Every numeric vector of spec/evidence/pto-isa-0583-hardware-numeric-vectors.json and the DataType
// table of spec/hardware-conformance-profile.json (unchanged copies in data/), evaluated with the
// numeric primitives. Matrix and post-process vectors are checked at the level these primitives
// own: the exact products/accumulation and the final conversion.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <utility>

#include "model/numeric/float_format.h"
#include "model/numeric/matrix_ops.h"
#include "model/state/element_access.h"
#include "tests/model/numeric/numeric_test_util.h"

namespace ptosim::test {
namespace {

using nlohmann::json;

const json& vectors() {
  static const json j = [] {
    std::ifstream in(PTOSIM_HWP_VECTORS);
    REQUIRE(in.good());
    return json::parse(in);
  }();
  return j;
}

const json& group(const char* name) { return vectors().at("vector_groups").at(name); }

DataType type_of(const json& v) {
  const auto t = model::data_type_from_name(v.get<std::string>());
  REQUIRE(t.has_value());
  return *t;
}

std::uint64_t hex(const json& v) { return std::stoull(v.get<std::string>(), nullptr, 16); }

// "2^-22", "+0", "-0", "448", "-1.9", "+infinity", "NaN"/"qNaN"/"canonical-qNaN"/"qNaN#1".
double real(const std::string& s) {
  if (s.find("NaN") != std::string::npos) return NAN;
  if (s == "+infinity") return HUGE_VAL;
  if (s == "-infinity") return -HUGE_VAL;
  const auto caret = s.find('^');
  if (caret != std::string::npos) return std::pow(std::strtod(s.substr(0, caret).c_str(), nullptr),
                                                  std::atoi(s.c_str() + caret + 1));
  return std::strtod(s.c_str(), nullptr);
}

NumericFlags flags_of(const json& list) {
  NumericFlags f = 0;
  for (const auto& name : list) f |= *model::flag_from_name(name.get<std::string>());
  return f;
}

// The binary64 encoding of a vector value (every vector input is exact in FP64).
std::uint64_t fp64(double d) {
  if (std::isnan(d)) return 0x7FF8000000000000;
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
std::uint64_t fp64(const json& v) { return fp64(real(v.get<std::string>())); }

std::uint64_t fp32(double d) {
  NumericFlags f = 0;
  return num::convert(DataType::FP64, fp64(d), DataType::FP32, RoundingMode::RNE, false, f);
}

RoundingMode mode(const std::string& s) {
  const std::pair<const char*, RoundingMode> kModes[] = {
      {"RNE", RoundingMode::RNE}, {"RTZ", RoundingMode::RTZ}, {"RDN", RoundingMode::RTM}, {"RTM", RoundingMode::RTM},
      {"RUP", RoundingMode::RTP}, {"RTP", RoundingMode::RTP}, {"RNA", RoundingMode::RNA}, {"RTO", RoundingMode::RTO},
      {"RHB", RoundingMode::RHB}};
  for (const auto& [name, rm] : kModes)
    if (s == name) return rm;
  FAIL("unknown mode " << s);
  return RoundingMode::RNE;
}

// "6:3" -> {6, 3}; "7" -> {7, 7}.
std::pair<unsigned, unsigned> bit_range(const json& v) {
  const std::string s = v.get<std::string>();
  const auto colon = s.find(':');
  const auto hi = static_cast<unsigned>(std::stoul(s.substr(0, colon)));
  return {hi, colon == std::string::npos ? hi : static_cast<unsigned>(std::stoul(s.substr(colon + 1)))};
}

TEST_CASE("numeric: the 25 DataTypes match the hardware-conformance profile's data_types table", "[numeric]") {
  std::ifstream in(PTOSIM_HWP_PROFILE);
  REQUIRE(in.good());
  const json profile = json::parse(in);
  std::uint64_t count = 0;
  for (const auto& d : profile.at("data_types")) {
    const std::string name = d.at("name");
    INFO(name);
    const auto t = model::data_type_from_code(d.at("code").get<unsigned>());
    REQUIRE(t.has_value());
    CHECK(model::data_type_name(*t) == name);
    const std::string cls = d.at("class");
    const model::TypeClass want_cls = cls == "scale"                             ? model::TypeClass::Scale
                                      : cls.find("floating") != std::string::npos ? model::TypeClass::Float
                                      : cls.find("unsigned") != std::string::npos ? model::TypeClass::Unsigned
                                                                                  : model::TypeClass::Signed;
    CHECK(model::type_class(*t) == want_cls);
    // Packed types hold two logical lanes per storage byte; E3M2/E2M3 keep their 8-bit carrier.
    const unsigned lanes = d.at("lanes_per_storage");
    CHECK(model::element_bits(*t) * lanes == d.at("storage_bits").get<unsigned>());
    CHECK(model::is_packed4(*t) == (lanes == 2));
    if (d.contains("canonical_qnan")) {
      CHECK(num::canonical_nan(*t) == hex(d.at("canonical_qnan")));
      CHECK(num::is_nan(*t, hex(d.at("canonical_qnan"))));
      CHECK_FALSE(num::is_signaling_nan(*t, hex(d.at("canonical_qnan"))));
    } else {
      CHECK_FALSE(num::canonical_nan(*t).has_value());
    }
    if (d.contains("maximum")) {  // integers: range endpoints as the saturation values
      const bool is_signed = want_cls == model::TypeClass::Signed;
      const std::uint64_t mask = model::element_mask(*t);
      CHECK(num::max_finite(*t) == (std::stoull(d.at("maximum").get<std::string>()) & mask));
      CHECK(num::lowest_finite(*t) ==
            (is_signed ? static_cast<std::uint64_t>(std::stoll(d.at("minimum").get<std::string>())) & mask : 0));
    }
    if (d.contains("encoding")) {
      const json& e = d.at("encoding");
      const num::FloatFormat* f = num::float_format(*t);
      REQUIRE(f != nullptr);
      const char* fields = e.contains("bit_fields")        ? "bit_fields"
                           : e.contains("lane_bit_fields") ? "lane_bit_fields"
                                                           : nullptr;
      if (fields != nullptr) {
        const auto [s_hi, s_lo] = bit_range(e.at(fields).at("sign"));
        const auto [e_hi, e_lo] = bit_range(e.at(fields).at("exponent"));
        const auto [m_hi, m_lo] = bit_range(e.at(fields).at("mantissa"));
        CHECK(f->sign_bit == s_lo);
        CHECK(f->exp_bits == e_hi - e_lo + 1);
        CHECK(f->frac_bits == m_hi - m_lo + 1);
        CHECK(f->frac_shift == m_lo);
        CHECK(e_lo == m_hi + 1);
        CHECK(s_hi == e_hi + 1);
      }
      if (e.contains("bias")) CHECK(f->bias == e.at("bias").get<int>());
      if (e.contains("finite_only")) {
        CHECK_FALSE(f->has_inf);
        CHECK(f->nan == num::NanStyle::None);
      }
      if (e.contains("infinity")) CHECK(f->has_inf == (e.at("infinity") != "none"));
      if (e.contains("maximum_finite"))
        CHECK(num::to_double(*t, num::max_finite(*t)) == real(e.at("maximum_finite").get<std::string>()));
      if (e.contains("minimum_positive_subnormal"))
        CHECK(num::to_double(*t, 1) == real(e.at("minimum_positive_subnormal").get<std::string>()));
      if (e.contains("storage_constraint")) {  // "bits 7:6 MUST be zero"
        CHECK_FALSE(num::is_valid_encoding(*t, 0x40));
        CHECK_FALSE(num::is_valid_encoding(*t, 0x80));
      }
      if (e.contains("lane_raw_values")) {
        for (const auto& [raw, value] : e.at("lane_raw_values").items()) {
          const double want = real(value.get<std::string>());
          const double got = num::to_double(*t, std::stoull(raw, nullptr, 16));
          CHECK(got == want);
          CHECK(std::signbit(got) == std::signbit(want));
        }
      }
      if (e.contains("special_raw")) {  // HiF8
        const json& s = e.at("special_raw");
        CHECK(num::decode(*t, hex(s.at("zero"))).cls == num::ValueClass::Zero);
        CHECK(num::is_nan(*t, hex(s.at("nan"))));
        CHECK(num::to_double(*t, hex(s.at("positive_infinity"))) == HUGE_VAL);
        CHECK(num::to_double(*t, hex(s.at("negative_infinity"))) == -HUGE_VAL);
      }
    }
    ++count;
  }
  CHECK(count == static_cast<std::uint64_t>(model::kDataTypeCount));
  // Packed invalid conversions: each lane gets the lane indefinite value independently.
  for (const auto& [name, rule] : profile.at("conversion").at("float_to_integer_invalid").at("sat_disabled").items()) {
    if (!rule.is_object()) continue;
    const DataType t = *model::data_type_from_name(name);
    std::uint8_t packed[8] = {};
    for (std::uint64_t lane = 0; lane < 2; ++lane) {
      NumericFlags f = 0;
      const std::uint64_t indefinite = num::convert(DataType::FP64, 0x7FF8000000000000, t, RoundingMode::RNE, false, f);
      model::store_lane(packed, model::element_bits(t), lane, indefinite);
      CHECK(f == model::kFlagNV);
    }
    CHECK(packed[0] == hex(rule.at("packed_all_lanes_raw")));
    ++count;
  }
  for (const auto& code : profile.at("reserved_data_type_codes")) {
    CHECK_FALSE(model::data_type_from_code(code.get<unsigned>()).has_value());
    ++count;
  }
  // E8M0: raw 0x00..0xFE = 2^(raw - 127), 0xFF NaN, no zero, no sign.
  for (std::uint64_t raw = 0; raw < 0xFF; ++raw)
    CHECK(num::to_double(DataType::E8M0, raw) == std::ldexp(1.0, static_cast<int>(raw) - 127));
  report_cases("profile", "types", count);
}

TEST_CASE("numeric: HWP vectors - encodings, canonical NaNs, packed lanes", "[numeric]") {
  std::uint64_t count = 0;
  for (const auto& v : group("canonical_nan")) {
    const DataType t = type_of(v.at("data_type"));
    CHECK(num::canonical_nan(t) == hex(v.at("expected")));
    NumericFlags f = 0;  // and every produced NaN is that encoding, from any NaN source
    CHECK(num::convert(DataType::FP64, 0xFFF0000000000001, t, RoundingMode::RNE, false, f) == hex(v.at("expected")));
    CHECK(f == model::kFlagNV);  // a signaling source
    f = 0;
    CHECK(num::convert(DataType::FP64, 0xFFFFFFFFFFFFFFFF, t, RoundingMode::RNE, false, f) == hex(v.at("expected")));
    // A quiet source with another payload and sign: no flag, except that every NaN is an invalid
    // E8M0 conversion source (profile tcvt_e8m0.invalid).
    CHECK(f == (t == DataType::E8M0 ? model::kFlagNV : NumericFlags{0}));
    ++count;
  }
  for (const auto& v : group("low_precision_encoding")) {
    const DataType t = type_of(v.at("data_type"));
    const std::uint64_t raw = hex(v.at("raw"));
    const double want = real(v.at("expected").get<std::string>());
    INFO(v.dump());
    if (std::isnan(want)) {
      CHECK(num::is_nan(t, raw));
    } else {
      CHECK(num::to_double(t, raw) == want);
      CHECK(std::signbit(num::to_double(t, raw)) == std::signbit(want));
    }
    ++count;
  }
  for (const auto& v : group("packed_lane_order")) {  // through the tile storage accessors
    const DataType t = type_of(v.at("data_type"));
    // Buffers of a full word: the accessors serve every width.
    const std::uint8_t bytes[8] = {static_cast<std::uint8_t>(hex(v.at("raw_byte")))};
    std::uint8_t stored[8] = {};
    for (std::uint64_t lane = 0; lane < 2; ++lane) {
      const std::uint64_t bits = model::load_lane(bytes, model::element_bits(t), lane);
      CHECK(num::to_double(t, bits) == real(v.at("expected_logical_lanes")[lane].get<std::string>()));
      model::store_lane(stored, model::element_bits(t), lane, bits);
    }
    CHECK(stored[0] == bytes[0]);
    ++count;
  }
  for (const auto& v : group("subnormal_policy")) {
    if (!v.contains("raw")) continue;  // FTZ/DAZ configuration requests: no such switch exists in the model
    const std::uint64_t raw = hex(v.at("raw"));
    const std::string cls = v.at("expected_class");
    CHECK(num::is_subnormal(DataType::FP32, raw) == (cls == "positive-subnormal"));
    CHECK(num::to_double(DataType::FP32, raw) == std::ldexp(static_cast<double>(raw & 0x7FFFFF), -149) +
                                                     ((raw >> 23) ? std::ldexp(1.0, -126) : 0.0));
    ++count;
  }
  report_cases("HWP-vect", "encoding", count);
}

TEST_CASE("numeric: HWP vectors - rounding, saturation, invalid conversions, E8M0", "[numeric]") {
  std::uint64_t count = 0;
  for (const auto& v : group("rounding")) {
    NumericFlags f = 0;
    const double in = real(v.at("input"));
    const auto got = num::convert(DataType::FP64, fp64(in), DataType::S32, mode(v.at("mode")), false, f);
    INFO(v.dump());
    CHECK(got == (static_cast<std::uint64_t>(std::atoll(v.at("expected").get<std::string>().c_str())) & 0xFFFFFFFF));
    CHECK(f == (std::trunc(in) == in ? NumericFlags{0} : model::kFlagNX));  // the vectors state no flags: IEEE NX
    ++count;
  }
  for (const auto& v : group("rounding_before_saturation")) {
    NumericFlags f = 0;
    const DataType to = type_of(v.at("destination"));
    const auto got = num::convert(DataType::FP64, fp64(v.at("input")), to, mode(v.at("mode")), v.at("sat"), f);
    INFO(v.dump());
    CHECK(got == (static_cast<std::uint64_t>(std::atoll(v.at("expected").get<std::string>().c_str())) & 0xFF));
    CHECK(f == (model::kFlagOF | model::kFlagNX));
    ++count;
  }
  for (const auto& v : group("saturation")) {
    NumericFlags f = 0;
    const DataType to = type_of(v.at("destination"));
    const auto got = num::convert(DataType::FP64, fp64(v.at("input")), to, RoundingMode::RNE, v.at("sat"), f);
    const std::string want = v.at("expected");
    INFO(v.dump());
    if (want.rfind("0x", 0) == 0) CHECK(got == hex(v.at("expected")));
    else CHECK(got == (static_cast<std::uint64_t>(std::atoll(want.c_str())) & model::element_mask(to)));
    // Every vector clamps: OF|NX (profile b_datr.saturation.enabled); NaN -> 0 is invalid (NV).
    CHECK(f == (std::isnan(real(v.at("input"))) ? model::kFlagNV : model::kFlagOF | model::kFlagNX));
    ++count;
  }
  for (const auto& v : group("invalid_float_to_integer")) {
    NumericFlags f = 0;
    const DataType to = type_of(v.at("destination"));
    const auto got = num::convert(DataType::FP64, fp64(v.at("input")), to, RoundingMode::RNE, v.at("sat"), f);
    INFO(v.dump());
    CHECK(got == hex(v.contains("expected_raw") ? v.at("expected_raw") : v.at("expected_lane_raw")));
    CHECK(f == model::kFlagNV);
    ++count;
  }
  for (const auto& v : group("rounding_selection")) {
    const std::string ns = v.at("namespace");
    const unsigned raw = v.at("raw");
    INFO(v.dump());
    if (ns == "scalar-core-state-frm") {
      CHECK(num::rounding_mode_from_core_state(raw) == mode(v.at("expected_mode")));
    } else if (ns == "bundle-rmode") {
      CHECK(num::resolve_bdatr_rounding(raw, true) == mode(v.at("expected_mode")));
    } else if (v.contains("bundle_rmode")) {
      CHECK(num::bdatr_rmode_from_public_cast(raw) == v.at("bundle_rmode").get<unsigned>());
    } else {
      CHECK_FALSE(num::bdatr_rmode_from_public_cast(raw).has_value());
    }
    ++count;
  }
  for (const auto& v : group("tcvt_e8m0").at("vectors")) {
    NumericFlags f = 0;
    const auto got = num::convert(type_of(v.at("source_type")), hex(v.at("input")), DataType::E8M0,
                                  mode(v.at("rmode")), v.at("sat"), f);
    INFO(v.dump());
    CHECK(got == hex(v.at("expected")));
    CHECK(f == flags_of(v.at("flags")));
    ++count;
  }
  report_cases("HWP-vect", "rounding", count);
}

TEST_CASE("numeric: HWP vectors - signed zero, comparisons, reductions, sort order", "[numeric]") {
  std::uint64_t count = 0;
  for (const auto& v : group("signed_zero")) {
    const std::uint64_t a = fp32(real(v.at("inputs")[0].get<std::string>()));
    const std::uint64_t b = fp32(real(v.at("inputs")[1].get<std::string>()));
    const std::string op = v.at("operation");
    NumericFlags f = 0;
    const std::uint64_t got = op == "multiply" ? num::mul(DataType::FP32, a, b, f)
                              : op == "add"    ? num::add(DataType::FP32, a, b, f)
                              : op == "minimum" ? num::min(DataType::FP32, a, b, f)
                                                : num::max(DataType::FP32, a, b, f);
    INFO(v.dump());
    CHECK(got == hex(v.at("expected")));
    CHECK(f == 0);
    ++count;
  }
  const std::pair<const char*, num::CompareMode> kCmp[] = {{"EQ", num::CompareMode::EQ}, {"NE", num::CompareMode::NE},
                                                          {"LT", num::CompareMode::LT}, {"GT", num::CompareMode::GT},
                                                          {"LE", num::CompareMode::LE}, {"GE", num::CompareMode::GE}};
  for (const auto& v : group("comparison")) {
    const std::uint64_t a = fp32(real(v.at("inputs")[0].get<std::string>()));
    const std::uint64_t b = fp32(real(v.at("inputs")[1].get<std::string>()));
    num::CompareMode m = num::CompareMode::EQ;
    for (const auto& [name, cm] : kCmp)
      if (v.at("mode") == name) m = cm;
    NumericFlags f = 0;
    INFO(v.dump());
    CHECK(num::compare(DataType::FP32, a, b, m, f) == (v.at("expected") == 1));
    CHECK(f == 0);  // quiet NaNs and zeros: no flag
    // The same comparison with a signaling NaN in place of a quiet one reports invalid.
    if (num::is_nan(DataType::FP32, a)) {
      CHECK(num::compare(DataType::FP32, 0x7F800001, b, m, f) == (v.at("expected") == 1));
      CHECK(f == model::kFlagNV);
    }
    ++count;
  }
  // Reductions fold the typed ops in index order (SUM from +0, MIN/MAX from element 0); ARGMAX
  // moves its index when the step result is the new element and differs from the accumulator.
  for (const auto& v : group("reduction")) {
    std::vector<std::uint64_t> in;
    for (const auto& s : v.at("inputs")) in.push_back(fp32(real(s.get<std::string>())));
    const std::string op = v.at("operation");
    NumericFlags f = 0;
    INFO(v.dump());
    if (op == "SUM") {
      std::uint64_t acc = num::zero(DataType::FP32);
      for (const auto x : in) acc = num::add(DataType::FP32, acc, x, f);
      CHECK(acc == *num::canonical_nan(DataType::FP32));
    } else if (op == "ARGMAX") {
      std::uint64_t acc = in[0];
      std::size_t index = 0;
      for (std::size_t i = 1; i < in.size(); ++i) {
        const std::uint64_t next = num::max(DataType::FP32, acc, in[i], f);
        if (next == in[i] && next != acc) index = i;
        acc = next;
      }
      CHECK(index == v.at("expected_index").get<std::size_t>());
    } else {
      std::uint64_t acc = in[0];
      for (std::size_t i = 1; i < in.size(); ++i)
        acc = op == "MIN" ? num::min(DataType::FP32, acc, in[i], f) : num::max(DataType::FP32, acc, in[i], f);
      CHECK(acc == fp32(real(v.at("expected").get<std::string>())));
    }
    CHECK(f == 0);  // exact steps, quiet NaNs
    ++count;
  }
  for (const auto& v : group("sort")) {
    std::vector<std::uint64_t> in;
    for (const auto& s : v.at("input_values")) in.push_back(fp32(real(s.get<std::string>())));
    std::vector<std::size_t> order(in.size());
    for (const bool descending : {false, true}) {
      std::iota(order.begin(), order.end(), 0);
      // NaNs after every number in both directions; equal values (+0, -0) keep index order.
      std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
        const bool ni = num::is_nan(DataType::FP32, in[i]);
        const bool nj = num::is_nan(DataType::FP32, in[j]);
        if (ni || nj) return !ni && nj;
        NumericFlags f = 0;
        return num::compare(DataType::FP32, in[i], in[j], descending ? num::CompareMode::GT : num::CompareMode::LT, f);
      });
      const auto& want = v.at(descending ? "descending_expected_original_indices" : "ascending_expected_original_indices");
      CHECK(order == want.get<std::vector<std::size_t>>());
      ++count;
    }
  }
  report_cases("HWP-vect", "order", count);
}

TEST_CASE("numeric: HWP vectors - mixed EXPDIF, matrix and post-process primitives", "[numeric]") {
  std::uint64_t count = 0;
  const DataType f32 = DataType::FP32;
  for (const auto& v : group("mixed_expdif").at("discriminator_vectors")) {
    const DataType t = type_of(v.at("source_type"));
    const std::uint64_t a = hex(v.at("a"));
    const std::uint64_t b = hex(v.at("b"));
    NumericFlags f = 0;
    // Widen exactly, then FP32 SUB and FP32 EXP (the accepted pipeline): only the exponential
    // is inexact (the widened difference fits FP32).
    const std::uint64_t wa = num::convert(t, a, f32, RoundingMode::RNE, false, f);
    const std::uint64_t wb = num::convert(t, b, f32, RoundingMode::RNE, false, f);
    const std::uint64_t d = num::sub(f32, wa, wb, f);
    CHECK(d == hex(v.at("widen_first_sub")));
    CHECK(f == 0);
    CHECK(num::exp(f32, d, f) == hex(v.at("widen_first_exp")));
    CHECK(f == model::kFlagNX);
    // The rejected source-precision pipeline gives the other documented values; its subtraction
    // rounds in the 16-bit source type.
    f = 0;
    const std::uint64_t ds = num::convert(t, num::sub(t, a, b, f), f32, RoundingMode::RNE, false, f);
    CHECK(ds == hex(v.at("source_precision_sub_then_widen")));
    CHECK(f == model::kFlagNX);
    CHECK(num::exp(f32, ds, f) == hex(v.at("source_precision_exp")));
    ++count;
  }
  for (const auto& v : group("matrix")) {
    const std::string id = v.at("id");
    INFO(id);
    NumericFlags f = 0;
    auto dot = [&](std::uint64_t acc, const std::vector<std::pair<double, double>>& terms) {
      for (const auto& [x, y] : terms) acc = num::fma_fp32(static_cast<std::uint32_t>(acc), f32, fp32(x), f32, fp32(y), f);
      return acc;
    };
    if (id == "fp32-matmul-2x2") {
      for (int m = 0; m < 2; ++m)
        for (int n = 0; n < 2; ++n) {
          std::vector<std::pair<double, double>> terms;
          for (int k = 0; k < 2; ++k)
            terms.push_back({real(v.at("left")[m][k]), real(v.at("right")[k][n])});
          CHECK(dot(0, terms) == fp32(real(v.at("expected")[m][n])));
        }
    } else if (id == "fp32-matmul-bias" || id == "fp32-matmul-acc") {
      for (int n = 0; n < 2; ++n) {
        const double dp = real(v.at("dot_products")[n]);
        const std::uint64_t want = fp32(real(v.at("expected_acc")[n]));
        if (id == "fp32-matmul-bias")  // bias added after the dot product, RNE
          CHECK(num::add(f32, fp32(dp), fp32(real(v.at("bias")[n])), f) == want);
        else  // .ACC starts the dot product from the prior accumulator
          CHECK(dot(fp32(real(v.at("prior_acc")[n])), {{dp, 1.0}}) == want);
      }
    } else if (id == "mx-e8m0-scale") {
      CHECK(num::apply_scale(f32, fp32(real(v.at("base"))), static_cast<std::uint8_t>(hex(v.at("e8m0"))), f32, f) ==
            fp32(real(v.at("expected"))));
    } else if (id == "mx-k-block-33") {
      const DataType lt = type_of(v.at("left_type"));
      const DataType rt = type_of(v.at("right_type"));
      const std::uint64_t one_l = num::one(lt);
      const std::uint64_t one_r = num::one(rt);
      const int k_total = v.at("logical_shape").at("K");
      auto run = [&](std::uint32_t acc) {
        for (int k = 0; k < k_total; ++k)
          acc = num::fma_fp32_scaled(acc, lt, one_l, static_cast<std::uint8_t>(hex(v.at("scale_a")[k / 32])), rt, one_r,
                                     static_cast<std::uint8_t>(hex(v.at("scale_b")[k / 32])), f);
        return acc;
      };
      CHECK(run(0) == fp32(real(v.at("expected_acc"))));
      CHECK(num::add(f32, run(0), fp32(2), f) == fp32(real(v.at("expected_acc_with_bias_2"))));
      CHECK(run(static_cast<std::uint32_t>(fp32(3))) == fp32(real(v.at("expected_acc_with_prior_3"))));
    } else {
      FAIL("unhandled matrix vector " << id);
    }
    CHECK(f == 0);
    ++count;
  }
  // Post-process: the value reaching the destination conversion is input * scale (or alpha for
  // a negative input under LReLU) + offset, exact in FP64; modes 25/28 round RHB, the others RNE.
  for (const auto& v : group("matrix_postprocess")) {
    const std::string id = v.at("id");
    INFO(id);
    double value = v.contains("input_raw") ? num::to_double(f32, hex(v.at("input_raw"))) : real(v.at("input"));
    if (!std::isnan(value)) {
      const bool lrelu = v.contains("relu_mode") && v.at("relu_mode") == 2 && value < 0;
      value = value * real(lrelu ? v.at("fp19_alpha") : v.at("fp19_scale"));
      if (v.contains("signed_offset")) value += real(v.at("signed_offset"));
    }
    const int mode_code = v.at("mode");
    const RoundingMode rm = (mode_code == 25 || mode_code == 28) ? RoundingMode::RHB : RoundingMode::RNE;
    const bool sat = v.value("sat", false);
    const DataType to = type_of(v.at("destination"));
    NumericFlags f = 0;
    const std::uint64_t got = num::convert(DataType::FP64, fp64(value), to, rm, sat, f);
    CHECK(got == hex(v.at("expected_raw")));
    CHECK(f == (v.contains("expected_flags") ? flags_of(v.at("expected_flags")) : NumericFlags{0}));
    ++count;
  }
  report_cases("HWP-vect", "matrix", count);
}

}  // namespace
}  // namespace ptosim::test
