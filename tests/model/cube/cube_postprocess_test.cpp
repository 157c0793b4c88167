// SPDX-License-Identifier: BSD-3-Clause
// B.FPATR post-processing: the mode table, parameter-word legality, the RMode/Sat rule, the HWP
// matrix_postprocess vectors, and every assigned PreQuantMode x ReluMode x RMode x Sat against the
// literal MPFR transliteration of the ASL on thousands of random accumulators each.
#include <catch2/catch.hpp>

#include <random>

#include "model/cube/cube_postprocess.h"
#include "tests/model/cube/cube_random_util.h"
#include "tests/model/cube/cube_reference.h"
#include "tests/model/cube/cube_test_util.h"

namespace ptosim::model::cube_test {
namespace {

using cube::PostProcess;
using numeric::RoundingMode;

const std::vector<unsigned> kModes = {0,  1,  2,  3,  4,  5,  12, 13, 16, 17, 18, 19, 20, 23,
                                      24, 25, 26, 27, 28, 32, 33, 34, 35, 36, 37, 38, 39};

TEST_CASE("CUBE PreQuantMode table", "[cube]") {
  for (unsigned m = 0; m < 64; ++m) {
    const bool assigned = std::find(kModes.begin(), kModes.end(), m) != kModes.end();
    CHECK(cube::prequant_mode_assigned(m) == assigned);
  }
  // Output types and accumulator classes (B.FPATR.asl BundleFPATROutputType, ...S32Accumulator).
  struct Row {
    unsigned mode;
    DataType acc, out;
  };
  for (const Row& r : {Row{1, DataType::FP32, DataType::FP16}, Row{2, DataType::S32, DataType::S8},
                       Row{3, DataType::S32, DataType::S8}, Row{4, DataType::S32, DataType::FP16},
                       Row{5, DataType::S32, DataType::FP16}, Row{12, DataType::S32, DataType::S16},
                       Row{13, DataType::S32, DataType::S16}, Row{16, DataType::FP32, DataType::BF16},
                       Row{17, DataType::S32, DataType::S4X2}, Row{18, DataType::S32, DataType::S4X2},
                       Row{19, DataType::S32, DataType::S16}, Row{20, DataType::S32, DataType::S16},
                       Row{23, DataType::FP32, DataType::S8}, Row{24, DataType::FP32, DataType::S8},
                       Row{25, DataType::FP32, DataType::HiF8}, Row{26, DataType::FP32, DataType::E4M3},
                       Row{27, DataType::FP32, DataType::FP32}, Row{28, DataType::FP32, DataType::HiF8},
                       Row{32, DataType::FP32, DataType::FP16}, Row{33, DataType::FP32, DataType::FP16},
                       Row{34, DataType::FP32, DataType::BF16}, Row{35, DataType::S32, DataType::BF16},
                       Row{36, DataType::FP32, DataType::BF16}, Row{37, DataType::FP32, DataType::E4M3},
                       Row{38, DataType::FP32, DataType::FP32}, Row{39, DataType::S32, DataType::BF16}}) {
    INFO("mode " << r.mode);
    CHECK(cube::mode_output_type(r.mode, r.acc) == r.out);
    CHECK(cube::mode_accepts_accumulator(r.mode, r.acc));
    for (DataType other : {DataType::FP32, DataType::S32, DataType::U32})
      if (other != r.acc) CHECK_FALSE(cube::mode_accepts_accumulator(r.mode, other));
  }
  for (DataType acc : {DataType::FP32, DataType::S32, DataType::U32}) {
    CHECK(cube::mode_accepts_accumulator(0, acc));
    CHECK(cube::mode_output_type(0, acc) == acc);
  }
  CHECK(std::string(cube::prequant_mode_name(24)) == "QF322B8_PRE");
  for (unsigned code = 0; code < 10; ++code)
    CHECK(cube::group_n_columns(code) == std::vector<unsigned>{0, 8, 16, 32, 48, 64, 80, 96, 112, 128}[code]);
}

TEST_CASE("CUBE B.DATR RMode/Sat rule by PreQuantMode", "[cube]") {
  for (unsigned m : kModes)
    for (unsigned rmode = 0; rmode < 8; ++rmode)
      for (bool sat : {false, true}) {
        INFO("mode " << m << " rmode " << rmode << " sat " << sat);
        bool legal = true;  // mode 0 and the programmable modes take both controls
        if (m == 12 || m == 13) legal = rmode == 0 && !sat;
        else if (m == 1 || m == 16 || m == 25 || m == 26 || m == 28 || m == 32 || m == 33 || m == 34 || m == 36 || m == 37)
          legal = rmode == 0;
        CHECK(cube::datr_controls_legal(m, rmode, sat) == legal);
      }
  CHECK(cube::effective_rounding(25, 0) == RoundingMode::RHB);
  CHECK(cube::effective_rounding(28, 0) == RoundingMode::RHB);
  CHECK(cube::effective_rounding(1, 0) == RoundingMode::RNE);
  CHECK(cube::effective_rounding(3, 0) == RoundingMode::RNE);
  CHECK(cube::effective_rounding(3, 2) == RoundingMode::RTZ);
  CHECK(cube::effective_rounding(24, 7) == RoundingMode::RHB);
  CHECK(cube::effective_rounding(0, 5) == RoundingMode::RNA);
}

TEST_CASE("CUBE parameter words", "[cube]") {
  const std::uint64_t two = fp19(1024, 1);
  CHECK(cube::quant_param_word_legal(3, quant_word(3, two, -256)));
  CHECK(cube::quant_param_word_legal(3, quant_word(3, two, 255)));
  CHECK_FALSE(cube::quant_param_word_legal(3, quant_word(3, two, 0) | (std::uint64_t{1} << 46)));  // beyond S9
  CHECK_FALSE(cube::quant_param_word_legal(3, quant_word(3, two, 0) | 1));                        // bits 12:0
  CHECK_FALSE(cube::quant_param_word_legal(3, quant_word(3, two, 0) | (std::uint64_t{1} << 32)));  // bits 36:32
  CHECK_FALSE(cube::quant_param_word_legal(3, 0));                                                // scale +0
  CHECK_FALSE(cube::quant_param_word_legal(3, quant_word(3, two | (1U << 18), 0)));                // negative
  CHECK_FALSE(cube::quant_param_word_legal(3, quant_word(3, 0x3FF, 0)));                           // subnormal
  CHECK_FALSE(cube::quant_param_word_legal(3, quant_word(3, 0xFF << 10, 0)));                      // infinity
  CHECK(cube::quant_param_word_legal(17, quant_word(17, two, -16)));
  CHECK_FALSE(cube::quant_param_word_legal(17, quant_word(17, two, 0) | (std::uint64_t{1} << 42)));
  CHECK(cube::quant_param_word_legal(19, quant_word(19, two, -65536)));
  CHECK_FALSE(cube::quant_param_word_legal(19, quant_word(19, two, 0) | (std::uint64_t{1} << 54)));
  CHECK(cube::quant_param_word_legal(5, two << 13));
  CHECK_FALSE(cube::quant_param_word_legal(5, (two << 13) | (std::uint64_t{1} << 37)));  // no offset field
  CHECK(cube::quant_param_word_legal(13, std::uint64_t{15} << 32));
  CHECK_FALSE(cube::quant_param_word_legal(13, (std::uint64_t{15} << 32) | 1));
  CHECK_FALSE(cube::quant_param_word_legal(13, std::uint64_t{1} << 36));
  CHECK_FALSE(cube::quant_param_word_legal(1, two << 13));  // F322F16 takes no parameter
  CHECK(cube::relu_param_word_legal(0));
  CHECK(cube::relu_param_word_legal(fp19(1024, -1)));
  CHECK_FALSE(cube::relu_param_word_legal(fp19(1024, -1) | (1U << 18)));  // negative
  CHECK_FALSE(cube::relu_param_word_legal(1));                            // subnormal
  CHECK_FALSE(cube::relu_param_word_legal(std::uint64_t{1} << 19));
}

PostProcess make(unsigned mode, unsigned relu, DataType acc, unsigned rmode, bool sat) {
  return PostProcess{mode, relu, acc, cube::mode_output_type(mode, acc), cube::effective_rounding(mode, rmode), sat};
}

TEST_CASE("CUBE HWP matrix_postprocess vectors", "[cube]") {
  // pto-isa-0583-hardware-numeric-vectors.json, group matrix_postprocess.
  const std::uint64_t two = fp19(1024, 1), one = fp19(1024, 0), half = fp19(1024, -1);
  struct Vector {
    const char* id;
    unsigned mode, relu;
    DataType acc;
    bool sat;
    std::uint64_t input, quant, alpha, expected;
    NumericFlags flags;
  };
  for (const Vector& v : {
           Vector{"req8-scalar-affine", 3, 0, DataType::S32, false, 3, quant_word(3, two, -1), 0, 0x05, 0},
           Vector{"req8-wrap", 3, 0, DataType::S32, false, 70, quant_word(3, two, 0), 0, 0x8C, kFlagOF | kFlagNX},
           Vector{"req8-saturate", 3, 0, DataType::S32, true, 70, quant_word(3, two, 0), 0, 0x7F, kFlagOF | kFlagNX},
           Vector{"f32-e4m3-exact", 26, 0, DataType::FP32, false, 0x3FC00000, quant_word(26, one, 0), 0, 0x3C, 0},
           Vector{"f32-hif8-exact", 25, 0, DataType::FP32, false, 0x3FC00000, quant_word(25, one, 0), 0, 0x0C, 0},
           Vector{"post-conversion-lrelu", 24, 2, DataType::FP32, false, 0xC0800000, quant_word(24, one, 0), half, 0xFE, 0},
           Vector{"nan-indefinite", 24, 0, DataType::FP32, false, 0x7FC00000, quant_word(24, one, 0), 0, 0x80, kFlagNV},
           Vector{"nan-saturating-zero", 24, 0, DataType::FP32, true, 0x7FC00000, quant_word(24, one, 0), 0, 0x00, kFlagNV},
       }) {
    INFO(v.id);
    NumericFlags flags = 0;
    CHECK(make(v.mode, v.relu, v.acc, 0, v.sat).apply(v.input, v.quant, v.alpha, flags) == v.expected);
    CHECK(flags == v.flags);
  }
}

TEST_CASE("CUBE post-processing special cases", "[cube]") {
  const std::uint64_t one = fp19(1024, 0);
  NumericFlags f = 0;
  // -inf under ReLU is an ordinary zero (MatrixPostQuantBaseWithFlags special-value exception).
  CHECK(make(1, 1, DataType::FP32, 0, false).apply(0xFF800000, 0, 0, f) == 0);
  CHECK(f == 0);
  // -0 keeps its sign through a non-zero multiplier into floating outputs; HiF8 has no -0.
  CHECK(make(1, 0, DataType::FP32, 0, false).apply(0x80000000, 0, 0, f) == 0x8000);
  CHECK(make(25, 0, DataType::FP32, 0, false).apply(0x80000000, quant_word(25, one, 0), 0, f) == 0);
  CHECK(make(1, 1, DataType::FP32, 0, false).apply(0x80000000, 0, 0, f) == 0);  // ReLU multiplier 0
  // E4M3 overflow without Sat is its NaN; infinity input likewise, both with OF|NX.
  f = 0;
  CHECK(make(26, 0, DataType::FP32, 0, false).apply(0x43E10000 /*450*/, quant_word(26, one, 0), 0, f) == 0x7F);
  CHECK(f == (kFlagOF | kFlagNX));
  f = 0;
  CHECK(make(26, 0, DataType::FP32, 0, false).apply(0xFF800000, quant_word(26, one, 0), 0, f) == 0x7F);
  CHECK(f == (kFlagOF | kFlagNX));
  // Shift modes: arithmetic right shift then S16 clamp; ReLU does not apply.
  f = 0;
  CHECK(make(13, 1, DataType::S32, 0, false).apply(0xFFFFFF00, std::uint64_t{3} << 32, 0, f) == 0xFFF0);
  CHECK(make(13, 0, DataType::S32, 0, false).apply(0x7FFFFFFF, 0, 0, f) == 0x7FFF);
  CHECK(f == (kFlagOF | kFlagNX));
  // Mode 0 with ReLU keeps the accumulator type; U32 is never negative.
  f = 0;
  CHECK(make(0, 1, DataType::S32, 0, false).apply(0xFFFFFFF0, 0, 0, f) == 0);
  CHECK(make(0, 1, DataType::U32, 0, false).apply(0xFFFFFFF0, 0, 0, f) == 0xFFFFFFF0);
  CHECK(make(0, 2, DataType::S32, 0, false).apply(0xFFFFFFF3 /*-13*/, 0, fp19(1024, -1), f) == 0xFFFFFFFA);  // -6.5 RNE
  CHECK(f == kFlagNX);
}

// ---------------------------------------------------------------------------------------------


/// A raw accumulator of the mode's source class, biased toward boundaries and exact ties.
std::uint64_t random_value(DataType acc, Rng& rng) {
  const std::uint64_t r = rng();
  if (acc == DataType::FP32) {
    switch (r % 8) {
      case 0: return r >> 32;  // any encoding: NaN, infinities, subnormals included
      case 1: {                // few significant bits: exact midpoints of narrower formats
        const std::uint64_t e = 100 + (r >> 8) % 60;
        return ((r >> 63) << 31) | (e << 23) | (((r >> 16) & 0xF) << 19);
      }
      case 2: return ((r >> 63) << 31) | ((r >> 8) & 0x7FFFFF);  // subnormal or zero
      default: {
        const std::uint64_t e = 112 + (r >> 8) % 40;
        return ((r >> 63) << 31) | (e << 23) | ((r >> 16) & 0x7FFFFF);
      }
    }
  }
  switch (r % 4) {
    case 0: return r >> 32;
    case 1: return static_cast<std::uint32_t>(static_cast<std::int32_t>((r >> 8) % 1024) - 512);
    case 2: return (r >> 8) & 1 ? 0x80000000U : 0x7FFFFFFFU;
    default: return static_cast<std::uint32_t>(static_cast<std::int32_t>((r >> 8) % 200000) - 100000);
  }
}

TEST_CASE("CUBE post-processing equals the ASL transliteration on random accumulators", "[cube]") {
  Rng rng(0xC0BE0010);
  for (unsigned mode : kModes) {
    const std::vector<DataType> accs = mode == 0 ? std::vector<DataType>{DataType::FP32, DataType::S32, DataType::U32}
                                                 : std::vector<DataType>{cube::mode_accepts_accumulator(mode, DataType::S32)
                                                                             ? DataType::S32
                                                                             : DataType::FP32};
    const bool fp8 = mode == 25 || mode == 26 || mode == 28 || mode == 37;
    const int cases = fp8 ? 2000 : 4000;
    for (int i = 0; i < cases; ++i) {
      const DataType acc = accs[rng() % accs.size()];
      const unsigned relu = static_cast<unsigned>(rng() % 4);
      unsigned rmode = static_cast<unsigned>(rng() % 8);
      bool sat = rng() % 2 == 0;
      if (!cube::datr_controls_legal(mode, rmode, sat)) rmode = 0, sat = cube::datr_controls_legal(mode, 0, sat) && sat;
      const std::uint64_t value = random_value(acc, rng), quant = random_quant(mode, rng);
      const std::uint64_t alpha = rng() % 8 == 0 ? 0 : random_fp19(rng);
      NumericFlags want_flags = 0, got_flags = 0;
      const std::uint64_t want = reference_postprocess(mode, relu, acc, rmode, sat, value, quant, alpha, want_flags);
      const std::uint64_t got = make(mode, relu, acc, rmode, sat).apply(value, quant, alpha, got_flags);
      if (got != want || got_flags != want_flags) {
        INFO("mode " << mode << " relu " << relu << " acc " << data_type_name(acc) << " rmode " << rmode << " sat " << sat
                     << " value 0x" << std::hex << value << " quant 0x" << quant << " alpha 0x" << alpha);
        CHECK(got == want);
        CHECK(got_flags == want_flags);
        return;
      }
    }
  }
}

TEST_CASE("CUBE reductions equal the ASL steps", "[cube]") {
  Rng rng(0xC0BE0011);
  for (DataType t : {DataType::FP32, DataType::S32, DataType::U32})
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t a = random_value(t == DataType::FP32 ? t : DataType::S32, rng) & 0xFFFFFFFFU;
      const std::uint64_t b = random_value(t == DataType::FP32 ? t : DataType::S32, rng) & 0xFFFFFFFFU;
      const bool abs = rng() % 2 == 0;
      NumericFlags f1 = 0, f2 = 0;
      CHECK(cube::reduction_step(t, a, b, abs, f1) == reference_reduction_step(t, a, b, abs, f2));
      CHECK(f1 == f2);
    }
  NumericFlags f = 0;
  CHECK(cube::reduction_step(DataType::S32, 0x80000000U, 0x80000000U, true, f) == 0x7FFFFFFFU);
  CHECK(f == kFlagOF);
}

}  // namespace
}  // namespace ptosim::model::cube_test
