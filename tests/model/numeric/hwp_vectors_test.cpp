// SPDX-License-Identifier: BSD-3-Clause
// Every numeric vector of spec/evidence/pto-isa-0583-hardware-numeric-vectors.json (unchanged copy
// in data/), evaluated with the numeric primitives. Matrix and post-process vectors are checked
// at the level these primitives own: the exact products/accumulation and the final conversion.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>

#include "model/numeric/matrix_ops.h"
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

TEST_CASE("numeric: HWP vectors - encodings, canonical NaNs, packed lanes", "[numeric]") {
  std::uint64_t count = 0;
  for (const auto& v : group("canonical_nan")) {
    const DataType t = type_of(v.at("data_type"));
    CHECK(num::canonical_nan(t) == hex(v.at("expected")));
    NumericFlags f = 0;  // and every produced NaN is that encoding, from any NaN source
    CHECK(num::convert(DataType::FP64, 0xFFF0000000000001, t, RoundingMode::RNE, false, f) == hex(v.at("expected")));
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
  for (const auto& v : group("packed_lane_order")) {
    const DataType t = type_of(v.at("data_type"));
    const std::uint64_t byte = hex(v.at("raw_byte"));
    CHECK(num::to_double(t, byte & 0xF) == real(v.at("expected_logical_lanes")[0].get<std::string>()));
    CHECK(num::to_double(t, byte >> 4) == real(v.at("expected_logical_lanes")[1].get<std::string>()));
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
    const auto got = num::convert(DataType::FP64, fp64(v.at("input")), DataType::S32, mode(v.at("mode")), false, f);
    INFO(v.dump());
    CHECK(got == (static_cast<std::uint64_t>(std::atoll(v.at("expected").get<std::string>().c_str())) & 0xFFFFFFFF));
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
    // Widen exactly, then FP32 SUB and FP32 EXP (the accepted pipeline).
    const std::uint64_t wa = num::convert(t, a, f32, RoundingMode::RNE, false, f);
    const std::uint64_t wb = num::convert(t, b, f32, RoundingMode::RNE, false, f);
    const std::uint64_t d = num::sub(f32, wa, wb, f);
    CHECK(d == hex(v.at("widen_first_sub")));
    CHECK(num::exp(f32, d, f) == hex(v.at("widen_first_exp")));
    // The rejected source-precision pipeline gives the other documented values.
    const std::uint64_t ds = num::convert(t, num::sub(t, a, b, f), f32, RoundingMode::RNE, false, f);
    CHECK(ds == hex(v.at("source_precision_sub_then_widen")));
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
