// SPDX-License-Identifier: BSD-3-Clause
// End-to-end CUBE execution through the functional machine (assembly -> BlockBuilder -> preflight
// -> allocation -> core -> atomic publication): the HWP matrix vectors, every form with every
// input type, Shared right-only and both-sides forms with transposes, B.FPATR post-processing with
// scalar and vector parameters and the auxiliary outputs, flags, and per-PE independence; all
// checked against the separately written reference.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/cube/cube_kernel.h"
#include "model/numeric/matrix_ops.h"
#include "tests/model/cube/cube_core_harness.h"
#include "tests/model/cube/cube_random_util.h"
#include "tests/model/cube/cube_reference.h"
#include "tests/model/cube/cube_test_util.h"

namespace ptosim::model::cube_test {
namespace {

const std::vector<Operation> kForms = {Operation::TMATMUL,         Operation::TMATMUL_BIAS, Operation::TMATMUL_ACC,
                                       Operation::TMATMUL_MX,      Operation::TMATMUL_MX_BIAS,
                                       Operation::TMATMUL_MX_ACC,  Operation::TGEMV,        Operation::TGEMV_BIAS,
                                       Operation::TGEMV_ACC,       Operation::TGEMV_MX,     Operation::TGEMV_MX_BIAS,
                                       Operation::TGEMV_MX_ACC};

std::vector<std::uint64_t> fp32s(std::initializer_list<float> v) {
  std::vector<std::uint64_t> out;
  for (float f : v) out.push_back(f32(f));
  return out;
}

// ---------------------------------------------------------------------------------------------
// HWP vectors (pto-isa-0583-hardware-numeric-vectors.json, group "matrix").

TEST_CASE("CUBE HWP matrix vectors", "[cube]") {
  SECTION("fp32-matmul-2x2, fp32-matmul-bias, fp32-matmul-acc") {
    Machine mc;
    mc.cube("T#1", Layout::CubeM16, DataType::FP32, 2, 2, values(fp32s({1, 2, 3, 4}), 2));
    mc.cube("T#2", Layout::CubeN8, DataType::FP32, 2, 2, values(fp32s({5, 6, 7, 8}), 2));
    const auto d = mc.commit("BSTART.TMATMUL FP32\nB.FPATR\n" + dim_lines(2, 2, 2) + "B.IOT T#1, T#2, mask=1111, last, ->U<1>\nBSTOP\n");
    CHECK(mc.at(d[0], 0, 0) == f32(19));
    CHECK(mc.at(d[0], 0, 1) == f32(22));
    CHECK(mc.at(d[0], 1, 0) == f32(43));
    CHECK(mc.at(d[0], 1, 1) == f32(50));
    // Row 0 ([19, 22]) plus bias [1, -2], and plus prior accumulator [10, 20].
    mc.cube("T#3", Layout::CubeM16, DataType::FP32, 1, 2, values(fp32s({1, 2}), 2));
    mc.ordinary("T#4", DataType::FP32, 128, 2, 1, 2, values(fp32s({1, -2}), 2));
    mc.cube("T#5", Layout::CubeM16, DataType::FP32, 1, 2, values(fp32s({10, 20}), 2));
    const std::string dims = dim_lines(1, 2, 2);
    const auto b = mc.commit("BSTART.TMATMUL.BIAS FP32\nB.FPATR\n" + dims + "B.IOT T#3, T#2, mask=1111\nB.IOT T#4, mask=1111, last, ->U<1>\nBSTOP\n");
    CHECK(mc.at(b[0], 0, 0) == f32(20));
    CHECK(mc.at(b[0], 0, 1) == f32(20));
    const auto a = mc.commit("BSTART.TMATMUL.ACC FP32\nB.FPATR\n" + dims + "B.IOT T#5, T#3, mask=1111\nB.IOT T#2, mask=1111, last, ->U<1>\nBSTOP\n");
    CHECK(mc.at(a[0], 0, 0) == f32(29));
    CHECK(mc.at(a[0], 0, 1) == f32(42));
  }
  SECTION("mx-e8m0-scale") {
    // 1.5 (E4M3 0x3C) scaled by E8M0 0x80 (2^1), times an unscaled FP16 1.0: 3.0.
    Machine mc;
    FormSpec f;
    f.op = Operation::TMATMUL_MX;
    f.a = DataType::E4M3;
    f.b = DataType::FP16;
    f.a_fn = fill(0x3C);
    f.sa_fn = fill(0x80);
    f.b_fn = fill(0x3C00);
    const auto d = mc.commit(setup(mc, f));
    CHECK(mc.at(d[0], 0, 0) == f32(3.0F));
    NumericFlags flags = 0;
    CHECK(numeric::apply_scale(DataType::E4M3, 0x3C, 0x80, DataType::FP32, flags) == f32(3.0F));
  }
  SECTION("mx-k-block-33") {
    // K = 33 (a partial second scale block) is below ADR 0079's power-of-two rule for bundles, so
    // the vector runs on the core: 32 * 1 * 1 + 1 * 2 * 1 * 4 = 40; with bias 2: 42; prior 3: 43.
    CoreCase cc;
    cc.args.mx = true;
    cc.args.a_dtype = DataType::E4M3;
    cc.args.b_dtype = DataType::E5M2;
    cc.args.k = 33;
    cc.a.assign(33, 0x38);  // E4M3 1.0
    cc.b.assign(33, 0x3C);  // E5M2 1.0
    cc.sa = {0x7F, 0x80};
    cc.sb = {0x7F, 0x81};
    CHECK(run_core(cc).d[0] == f32(40));
    CoreCase bias = cc;
    bias.args.bias = true;
    bias.bias = {f32(2)};
    CHECK(run_core(bias).d[0] == f32(42));
    CoreCase prior = cc;
    prior.args.accumulate = true;
    prior.c = {f32(3)};
    CHECK(run_core(prior).d[0] == f32(43));
    // The bundle analogue at K = 64: 32 + 32 * 2 * 4 = 288 (+2 = 290, +3 = 291).
    for (Operation op : {Operation::TMATMUL_MX, Operation::TMATMUL_MX_BIAS, Operation::TMATMUL_MX_ACC}) {
      Machine mc;
      FormSpec f;
      f.op = op;
      f.a = DataType::E4M3;
      f.b = DataType::E5M2;
      f.k = 64;
      f.a_fn = fill(0x38);
      f.b_fn = fill(0x3C);
      f.sa_fn = values({0x7F, 0x80}, 2);
      f.sb_fn = values({0x7F, 0x81}, 1);
      f.bias_fn = fill(f32(2));
      f.c_fn = fill(f32(3));
      const auto d = mc.commit(setup(mc, f));
      CHECK(mc.at(d[0], 0, 0) == f32(op == Operation::TMATMUL_MX ? 288 : op == Operation::TMATMUL_MX_BIAS ? 290 : 291));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The kernel's single rounding.

TEST_CASE("CUBE kernel: one rounding per term", "[cube]") {
  const float one_up = std::nextafter(1.0F, 2.0F);  // 1 + 2^-23, an odd significand
  // (2^47 - 1) * 2^-71 = 2^-24 - 2^-71 is a product of two FP32 values (10610063 * 13264529).
  const double below_half = static_cast<double>(10610063.0F) * static_cast<double>(13264529.0F) * std::ldexp(1.0, -71);
  CHECK(below_half == std::ldexp(1.0, -24) - std::ldexp(1.0, -71));
  // Just below the midpoint of [1 + 2^-23, 1 + 2^-22]: stays (binary64 rounding would make a tie).
  CHECK(f32(cube::fused_add(one_up, below_half)) == f32(one_up));
  CHECK(f32(cube::fused_add(one_up, std::ldexp(1.0, -24) + std::ldexp(1.0, -71))) == f32(std::nextafter(one_up, 2.0F)));
  CHECK(f32(cube::fused_add(one_up, std::ldexp(1.0, -24))) == f32(std::nextafter(one_up, 2.0F)));  // tie to even
  // Gradual underflow: 1.5 * 2^-149 ties to the even 2 * 2^-149; a sum of opposite zeros is +0.
  CHECK(f32(cube::fused_add(0.0F, 1.5 * std::ldexp(1.0, -149))) == 2u);
  CHECK(f32(cube::fused_add(-0.0F, 0.0)) == 0u);
  CHECK(f32(cube::fused_add(-0.0F, -0.0)) == 0x80000000u);
  // Overflow threshold: FLT_MAX + half an ulp rounds to +inf, anything below it to FLT_MAX.
  const float max = std::numeric_limits<float>::max();
  CHECK(std::isinf(cube::fused_add(max, std::ldexp(1.0, 103))));
  CHECK(cube::fused_add(max, std::ldexp(1.0, 103) - std::ldexp(1.0, 60)) == max);
  CHECK(std::isnan(cube::fused_add(std::numeric_limits<float>::infinity(), -HUGE_VAL)));
  // Against the numerics library on random FP32 products.
  Rng rng(0xC0BE0020);
  for (int i = 0; i < 200000; ++i) {
    const auto acc = static_cast<std::uint32_t>(random_input(DataType::FP32, rng));
    const auto a = static_cast<std::uint32_t>(random_input(DataType::FP32, rng));
    const auto b = static_cast<std::uint32_t>(random_input(DataType::FP32, rng));
    NumericFlags ignored = 0;
    const std::uint32_t want = numeric::fma_fp32(acc, DataType::FP32, a, DataType::FP32, b, ignored);
    const float got = cube::fused_add(as_f32(acc), static_cast<double>(as_f32(a)) * as_f32(b));
    if (std::isnan(got) ? want != 0x7FC00000u : f32(got) != want) {
      INFO(std::hex << acc << " + " << a << " * " << b);
      CHECK(f32(got) == want);
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random problems through the whole machine.

struct Problem {
  FormSpec f;
  RefProblem p;
};

Problem random_problem(Operation op, DataType ta, DataType tb, Rng& rng) {
  Problem pr;
  FormSpec& f = pr.f;
  RefProblem& p = pr.p;
  f.op = op;
  f.a = ta;
  f.b = tb;
  f.m = op >= Operation::TGEMV ? 1 : 1U << (rng() % 3);
  f.n = 1U << (rng() % 4);
  f.k = 1U << (rng() % 7);
  p.m = f.m;
  p.n = f.n;
  p.k = f.k;
  p.a_type = ta;
  p.b_type = tb;
  p.acc_type = form_accumulator(f);
  p.mx = form_mx(op);
  p.a = random_vector(std::size_t{f.m} * f.k, [&] { return random_input(ta, rng); });
  p.b = random_vector(std::size_t{f.k} * f.n, [&] { return random_input(tb, rng); });
  f.a_fn = values(p.a, f.k);
  f.b_fn = values(p.b, f.n);
  const std::uint32_t blocks = (f.k + 31) / 32;
  if (p.mx && scaled_type(ta)) {
    p.sa = random_vector(std::size_t{f.m} * blocks, [&] { return random_scale(rng); });
    f.sa_fn = values(*p.sa, blocks);
  }
  if (p.mx && scaled_type(tb)) {
    p.sb = random_vector(std::size_t{blocks} * f.n, [&] { return random_scale(rng); });
    f.sb_fn = values(*p.sb, f.n);
  }
  if (form_acc(op)) {
    p.c = random_vector(std::size_t{f.m} * f.n, [&] { return random_accumulator(p.acc_type, rng); });
    f.c_fn = values(*p.c, f.n);
  }
  if (form_bias(op)) {
    p.bias = random_vector(f.n, [&] { return random_accumulator(p.acc_type, rng); });
    f.bias_fn = values(*p.bias, f.n);
  }
  return pr;
}

/// Commits the problem and compares D with the reference accumulator.
void check_problem(const Problem& pr) {
  Machine mc;
  const auto d = mc.commit(setup(mc, pr.f));
  const std::vector<std::uint32_t> want = reference_accumulator(pr.p);
  for (std::uint32_t i = 0; i < pr.p.m; ++i)
    for (std::uint32_t j = 0; j < pr.p.n; ++j) {
      const auto got = mc.at(d[0], i, j, static_cast<int>((i + j) % kPeCount));
      if (got != std::uint64_t{want[std::size_t{i} * pr.p.n + j]}) {
        INFO(operation_mnemonic(pr.f.op) << " " << data_type_name(pr.f.a) << " x " << data_type_name(pr.f.b) << " M"
                                         << pr.p.m << " N" << pr.p.n << " K" << pr.p.k << " [" << i << "," << j << "]");
        CHECK(got == std::uint64_t{want[std::size_t{i} * pr.p.n + j]});
        return;
      }
    }
}

TEST_CASE("CUBE every form with every input type equals the reference", "[cube]") {
  Rng rng(0xC0BE0030);
  for (Operation op : kForms) {
    const bool mx = form_mx(op);
    std::vector<std::pair<DataType, DataType>> pairs;
    if (mx) {
      for (DataType a : kMxInputs)
        for (DataType b : kMxInputs) pairs.emplace_back(a, b);
    } else {
      for (const auto* set : {&kFloatInputs, &kSignedInputs, &kUnsignedInputs})
        for (DataType a : *set) pairs.emplace_back(a, (*set)[(rng() % set->size())]), pairs.emplace_back((*set)[rng() % set->size()], a);
    }
    for (const auto& [a, b] : pairs)
      for (int rep = 0; rep < 3; ++rep) check_problem(random_problem(op, a, b, rng));
  }
}

TEST_CASE("CUBE Shared forms: right-only and both-sides, with transposes", "[cube]") {
  Rng rng(0xC0BE0031);
  for (Operation op : {Operation::TMATMUL, Operation::TMATMUL_BIAS, Operation::TMATMUL_ACC, Operation::TMATMUL_MX,
                       Operation::TMATMUL_MX_BIAS, Operation::TMATMUL_MX_ACC})
    for (int rep = 0; rep < 24; ++rep) {
      const std::vector<DataType>& set = form_mx(op) ? kMxInputs : kFloatInputs;
      Problem pr = random_problem(op, set[rng() % set.size()], set[rng() % set.size()], rng);
      pr.f.shared_b = true;
      pr.f.trans_b = rng() % 2 == 0;
      if (rep % 2 == 0) {
        pr.f.shared_a = true;
        pr.f.trans_a = rng() % 2 == 0;
      }
      INFO("shared A " << pr.f.shared_a << " trans A " << pr.f.trans_a << " trans B " << pr.f.trans_b);
      check_problem(pr);
    }
  // A Shared A and an ACC C: D takes C's CUBE layout (CUBE_M32 even at M = 2).
  Machine mc;
  FormSpec f;
  f.op = Operation::TMATMUL_ACC;
  f.m = 2;
  f.shared_a = f.shared_b = true;
  const std::string text = setup(mc, f);
  mc.cube("U#1", Layout::CubeM32, DataType::FP32, 2, 1, fill(f32(1.0F)), 128);
  const auto d = mc.commit(text);
  CHECK(mc.desc(d[0]).layout == Layout::CubeM32);
  CHECK(mc.at(d[0], 1, 0) == f32(2.0F));
  // Without a Local A or C, D is CUBE_M16 for M <= 16 and CUBE_M32 above.
  for (std::uint32_t m : {16U, 32U}) {
    Machine sh;
    FormSpec g;
    g.m = m;
    g.shared_a = g.shared_b = true;
    const auto dd = sh.commit(setup(sh, g));
    CHECK(sh.desc(dd[0]).layout == (m == 16 ? Layout::CubeM16 : Layout::CubeM32));
  }
}

TEST_CASE("CUBE every PE computes its own fragment, Shared operands are common", "[cube]") {
  Machine mc;
  const TileDescriptor a = cube_desc(Layout::CubeM16, DataType::S8, 1, 2, 128);
  std::array<FragmentData, kPeCount> per_pe;
  for (int pe = 0; pe < kPeCount; ++pe) per_pe[pe] = fragment(a, values({static_cast<std::uint64_t>(pe + 1), 1}, 2));
  mc.m.load_local(reg_index("T#1"), a, per_pe);
  mc.shared(7, DataType::S8, 128, 1, 2, 1, values({10, 0xFF}, 1));  // B = [10; -1]
  const auto d = mc.commit("BSTART.TMATMUL S8\nB.FPATR\n" + dim_lines(1, 1, 2) + "B.IOS S7, mask=1111\nB.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n");
  for (int pe = 0; pe < kPeCount; ++pe) CHECK(mc.at(d[0], 0, 0, pe) == static_cast<std::uint64_t>(10 * (pe + 1) - 1));
}

// ---------------------------------------------------------------------------------------------
// B.FPATR through bundles.

const char* const kRmodeNames[] = {"none", "rne", "rtz", "rdn", "rup", "rna", "rto", "rhb"};

TEST_CASE("CUBE post-processing through bundles equals the reference", "[cube]") {
  Rng rng(0xC0BE0032);
  const std::vector<unsigned> modes = {0, 1, 2, 3, 4, 5, 12, 13, 16, 17, 18, 19, 20, 23, 24, 25, 26, 27, 28, 32, 33, 34, 35, 36, 37, 38, 39};
  for (unsigned mode : modes)
    for (int rep = 0; rep < 12; ++rep) {
      const bool s32 = cube::mode_accepts_accumulator(mode, DataType::S32) && (mode != 0 || rep % 3 == 1);
      const bool u32 = mode == 0 && rep % 3 == 2;
      const DataType in = s32 ? DataType::S16 : u32 ? DataType::U16 : DataType::FP16;
      Problem pr = random_problem(rep % 2 ? Operation::TMATMUL_BIAS : Operation::TMATMUL, in, in, rng);
      FormSpec& f = pr.f;
      f.prequant = mode;
      const unsigned relu = static_cast<unsigned>(rng() % 4);
      unsigned rmode = static_cast<unsigned>(rng() % 8);
      bool sat = rng() % 2 == 0;
      if (!cube::datr_controls_legal(mode, rmode, sat)) rmode = 0, sat = sat && cube::datr_controls_legal(mode, 0, true);
      const bool row_max = rng() % 2 == 0, row_init = row_max && rng() % 2 == 0, group_max = rng() % 2 == 0;
      const bool max_abs = (row_max || group_max) && rng() % 2 == 0;
      const unsigned group_code = group_max ? 1 + static_cast<unsigned>(rng() % 9) : 0;
      std::string fields = "relumode=" + std::to_string(relu);
      if (row_max) fields += ", rowmaxen=1";
      if (row_init) fields += ", rowmaxinit=1";
      if (group_max) fields += ", groupmaxen=1, groupncode=" + std::to_string(group_code);
      if (max_abs) fields += ", maxabsen=1";
      f.fpatr_fields = fields;
      if (rmode != 0 || sat) f.datr_fields = std::string("rmode=") + kRmodeNames[rmode] + ", sat=" + (sat ? "1" : "0");
      const std::uint32_t group_n = cube::group_n_columns(group_code);
      const std::uint32_t groups = group_max ? (f.n + group_n - 1) / group_n : 0;
      if (group_max && (groups & (groups - 1)) != 0) continue;  // GroupMaxOut columns must be a power of two

      Machine mc;
      const DataType acc = pr.p.acc_type;
      // Parameters: scalar words on every PE's r5/r6, vector tiles U#6/U#7; RowMaxIn U#5.
      const std::uint64_t quant_scalar = random_quant(mode, rng), alpha_scalar = rng() % 4 ? random_fp19(rng) : 0;
      std::vector<std::uint64_t> quant_vec(f.n), relu_vec(f.n), row_in(f.m);
      for (auto& q : quant_vec) q = random_quant(mode, rng);
      for (auto& r : relu_vec) r = rng() % 4 ? random_fp19(rng) : 0;
      for (auto& r : row_in) r = random_accumulator(acc, rng);
      std::string ior;
      if (cube::mode_uses_scalar_param(mode)) ior += "r5";
      if (relu == 2) ior += ior.empty() ? "r6" : ", r6";
      if (!ior.empty()) f.extra_lines = "B.IOR " + ior + (relu == 2 && cube::mode_uses_scalar_param(mode) ? ", zero" : ", zero, zero") + ", ->zero\n";
      mc.gpr(5, quant_scalar);
      mc.gpr(6, alpha_scalar);
      if (row_init) {
        mc.ordinary("U#5", acc, 128, 1, f.m, 1, values(row_in, 1));
        f.extra_sources.push_back("U#5");
      }
      if (cube::mode_uses_vector_param(mode)) {
        mc.ordinary("U#6", DataType::U64, std::max<std::uint32_t>(128, f.n * 8), f.n, 1, f.n, values(quant_vec, f.n));
        f.extra_sources.push_back("U#6");
      }
      if (relu == 3) {
        mc.ordinary("U#7", DataType::U64, std::max<std::uint32_t>(128, f.n * 8), f.n, 1, f.n, values(relu_vec, f.n));
        f.extra_sources.push_back("U#7");
      }
      if (row_max) f.extra_dests.push_back("N<1>");
      if (group_max) f.extra_dests.push_back("N<" + std::to_string(size_code_for(std::uint64_t{groups} * 4 * pow2_at_least(f.m))) + ">");
      const std::string text = setup(mc, f);
      INFO(text);
      const BundleOutcome o = mc.run1(text);
      INFO((o.fault ? o.fault->rule : std::string("no fault")));
      REQUIRE(o.kind == BundleOutcome::Kind::Committed);

      // The reference: raw P, reductions on P, then the per-element transform.
      const std::vector<std::uint32_t> p = reference_accumulator(pr.p);
      NumericFlags flags = 0;
      for (std::uint32_t i = 0; i < f.m; ++i) {
        for (std::uint32_t j = 0; j < f.n; ++j) {
          const std::uint64_t q = cube::mode_uses_vector_param(mode) ? quant_vec[j] : quant_scalar;
          const std::uint64_t r = relu == 3 ? relu_vec[j] : alpha_scalar;
          const std::uint64_t want = reference_postprocess(mode, relu, acc, rmode, sat, p[std::size_t{i} * f.n + j], q, r, flags);
          CHECK(mc.at(o.destinations[0].index, i, j) == want);
        }
        std::size_t dest = 1;
        if (row_max) {
          std::uint64_t v = p[std::size_t{i} * f.n];
          if (max_abs) v = reference_reduction_step(acc, v, v, true, flags);
          for (std::uint32_t j = 1; j < f.n; ++j) v = reference_reduction_step(acc, v, p[std::size_t{i} * f.n + j], max_abs, flags);
          if (row_init) v = reference_reduction_step(acc, row_in[i], v, max_abs, flags);
          CHECK(mc.at(o.destinations[dest++].index, i, 0) == v);
        }
        if (group_max)
          for (std::uint32_t g = 0; g < groups; ++g) {
            std::uint64_t v = p[std::size_t{i} * f.n + g * group_n];
            if (max_abs) v = reference_reduction_step(acc, v, v, true, flags);
            for (std::uint32_t j = g * group_n + 1; j < std::min(f.n, (g + 1) * group_n); ++j)
              v = reference_reduction_step(acc, v, p[std::size_t{i} * f.n + j], max_abs, flags);
            CHECK(mc.at(o.destinations[dest].index, i, g) == v);
          }
      }
      CHECK(o.flags == flags);
      CHECK(mc.m.state().status() == flags);
      const TileDescriptor& dd = mc.desc(o.destinations[0].index);
      CHECK(dd.dtype == cube::mode_output_type(mode, acc));
      CHECK(dd.location == Location::Matrix);
    }
}

TEST_CASE("CUBE accumulation raises no flags, specials become the canonical NaN", "[cube]") {
  Machine mc;
  // inf * 0 (invalid), an overflowing sum and an inexact sum: D is NaN, +inf, rounded; no flags.
  mc.cube("T#1", Layout::CubeM16, DataType::FP32, 1, 2, values(fp32s({INFINITY, 3e38F}), 2));
  mc.cube("T#2", Layout::CubeN8, DataType::FP32, 2, 4, values(fp32s({0, 1, 1, 0, 1, 3e38F, 1e-30F, 0}), 4));
  const auto d = mc.commit("BSTART.TMATMUL FP32\nB.FPATR\n" + dim_lines(1, 4, 2) + "B.IOT T#1, T#2, mask=1111, last, ->U<2>\nBSTOP\n");
  CHECK(mc.at(d[0], 0, 0) == 0x7FC00000u);  // inf * 0 + 3e38 * 1
  CHECK(mc.at(d[0], 0, 1) == 0x7F800000u);  // inf * 1 + 3e38 * 3e38
  CHECK(mc.at(d[0], 0, 2) == 0x7F800000u);
  CHECK(mc.at(d[0], 0, 3) == 0x7FC00000u);
  CHECK(mc.m.state().status() == 0);
  // Finite overflow and a non-canonical NaN input.
  Machine m2;
  m2.cube("T#1", Layout::CubeM16, DataType::FP32, 1, 2, values(fp32s({3e38F, 3e38F}), 2));
  m2.cube("T#2", Layout::CubeN8, DataType::FP32, 2, 2, values({f32(3e38F), 0xFFC01234, f32(1.5F), f32(1)}, 2));
  const auto d2 = m2.commit("BSTART.TMATMUL FP32\nB.FPATR\n" + dim_lines(1, 2, 2) + "B.IOT T#1, T#2, mask=1111, last, ->U<1>\nBSTOP\n");
  CHECK(m2.at(d2[0], 0, 0) == 0x7F800000u);
  CHECK(m2.at(d2[0], 0, 1) == 0x7FC00000u);
  CHECK(m2.m.state().status() == 0);
}

TEST_CASE("CUBE MX scaled inputs are exact, an E8M0 NaN scale poisons the lane", "[cube]") {
  CoreCase cc;
  cc.args.mx = true;
  cc.args.a_dtype = cc.args.b_dtype = DataType::E4M3;
  cc.args.k = 2;
  cc.a = {0x7E, 0x38};   // 448, 1
  cc.b = {0x38, 0x38};   // 1, 1
  cc.sa = {254};         // 2^127: 448 * 2^127 lies beyond FP32 ...
  cc.sb = {0};           // ... 2^-127 brings the term back: exactly 448, plus 1 * 2^127 * 2^-127
  CHECK(run_core(cc).d[0] == f32(449.0F));
  cc.sb = {0xFF};
  CHECK(run_core(cc).d[0] == 0x7FC00000u);
}

TEST_CASE("CUBE flags publish with the outputs, sticky, and only on commit", "[cube]") {
  Machine mc;
  FormSpec f;
  f.prequant = 1;              // F322F16
  f.a_fn = fill(0x7BFF);       // 65504
  f.b_fn = fill(0x4000);       // 2: the FP32 result 131008 overflows FP16
  const std::string text = setup(mc, f);
  const auto d = mc.commit(text);
  CHECK(mc.at(d[0], 0, 0) == 0x7C00u);
  CHECK(mc.m.state().status() == (kFlagOF | kFlagNX));
  // The same bundle faulting (D's hand full) raises nothing.
  Machine full;
  const std::string t2 = setup(full, f);
  for (int i = 1; i <= 16; ++i) full.ordinary("M#" + std::to_string(i), DataType::U8, 128, 8, 1, 1, fill(0));
  full.reject(t2, FaultCode::TileAllocation, "no free register");
  CHECK(full.m.state().status() == 0);
}

TEST_CASE("CUBE destinations: descriptors and definedness", "[cube]") {
  Machine mc;
  FormSpec f;
  f.m = 4;
  f.n = 8;
  f.k = 2;
  f.fpatr_fields = "rowmaxen=1, groupmaxen=1, groupncode=1";
  f.extra_dests = {"N<1>", "N<2>"};
  const auto d = mc.commit(setup(mc, f));
  REQUIRE(d.size() == 3);
  const TileDescriptor& dd = mc.desc(d[0]);
  CHECK(dd.layout == Layout::CubeM16);
  CHECK(dd.location == Location::Matrix);
  CHECK(dd.rows == 16);
  CHECK(dd.cols == 8);
  CHECK(dd.valid_rows == 4);
  CHECK(dd.valid_cols == 8);
  CHECK(mc.at(d[0], 3, 7) == f32(2.0F));
  CHECK(mc.at(d[0], 4, 0) == std::nullopt);  // outside the valid rectangle: undefined (no padding)
  const TileDescriptor& rm = mc.desc(d[1]);
  CHECK(rm.layout == Layout::RowMajor);
  CHECK(rm.location == Location::Any);
  CHECK(rm.dtype == DataType::FP32);
  CHECK(rm.cols == 1);
  CHECK(rm.valid_rows == 4);
  CHECK(mc.at(d[1], 3, 0) == f32(2.0F));
  const TileDescriptor& gm = mc.desc(d[2]);
  CHECK(gm.cols == 1);
  CHECK(gm.capacity_bytes == 256);
  CHECK(mc.at(d[2], 0, 0) == f32(2.0F));
}

}  // namespace
}  // namespace ptosim::model::cube_test
