// SPDX-License-Identifier: BSD-3-Clause
// The core against the separately written reference, bit for bit, on random problems: every legal
// ordinary and MX type pair, K of any length (also not a multiple of 32), NaN/Inf/subnormal/extreme
// inputs and scales, accumulator overflow, ACC/BIAS folds, Shared placements with transposes.
#include <catch2/catch.hpp>

#include <random>

#include "model/numeric/scalar_ops.h"
#include "model/cube/cube_tile_view.h"
#include "tests/model/cube/cube_core_harness.h"
#include "tests/model/cube/cube_random_util.h"
#include "tests/model/cube/cube_reference.h"
#include "tests/model/cube/cube_test_util.h"

namespace ptosim::model::cube_test {
namespace {

/// One random problem of the given pair: shape, form (plain / ACC / BIAS), placement.
CoreCase random_case(DataType ta, DataType tb, bool mx, Rng& rng) {
  CoreCase cc;
  CubeArgs& a = cc.args;
  a.mx = mx;
  a.a_dtype = ta;
  a.b_dtype = tb;
  a.acc_dtype = mx || is_float(ta) ? DataType::FP32 : is_signed_integer(ta) ? DataType::S32 : DataType::U32;
  a.out_dtype = a.acc_dtype;
  a.m = 1 + static_cast<std::uint32_t>(rng() % 3);
  a.n = 1 + static_cast<std::uint32_t>(rng() % 3);
  // Mostly short folds, sometimes across one or two 32-element scale blocks (33, 47, 70, ...).
  a.k = rng() % 4 == 0 ? 33 + static_cast<std::uint32_t>(rng() % 48) : 1 + static_cast<std::uint32_t>(rng() % 20);
  const unsigned form = rng() % 3;
  a.accumulate = form == 1;
  a.bias = form == 2;
  if (rng() % 4 == 0) {
    cc.row_major_a = true;
    a.trans_a = rng() % 2 == 0;
  }
  if (rng() % 4 == 0) {
    cc.row_major_b = true;
    a.trans_b = rng() % 2 == 0;
  }
  cc.m_layout = rng() % 2 ? Layout::CubeM16 : Layout::CubeM32;
  cc.a = random_vector(std::size_t{a.m} * a.k, [&] { return random_input(ta, rng); });
  cc.b = random_vector(std::size_t{a.k} * a.n, [&] { return random_input(tb, rng); });
  const std::uint32_t blocks = (a.k + 31) / 32;
  if (mx && ta != DataType::FP16 && ta != DataType::BF16)
    cc.sa = random_vector(std::size_t{a.m} * blocks, [&] { return random_scale(rng); });
  if (mx && tb != DataType::FP16 && tb != DataType::BF16)
    cc.sb = random_vector(std::size_t{blocks} * a.n, [&] { return random_scale(rng); });
  if (a.accumulate) cc.c = random_vector(std::size_t{a.m} * a.n, [&] { return random_accumulator(a.acc_dtype, rng); });
  if (a.bias) cc.bias = random_vector(a.n, [&] { return random_accumulator(a.acc_dtype, rng); });
  return cc;
}

RefProblem to_reference(const CoreCase& cc) {
  const CubeArgs& a = cc.args;
  RefProblem p;
  p.m = a.m;
  p.n = a.n;
  p.k = a.k;
  p.a_type = a.a_dtype;
  p.b_type = a.b_dtype;
  p.acc_type = a.acc_dtype;
  p.mx = a.mx;
  p.a = cc.a;
  p.b = cc.b;
  if (!cc.c.empty()) p.c = cc.c;
  if (!cc.sa.empty()) p.sa = cc.sa;
  if (!cc.sb.empty()) p.sb = cc.sb;
  if (!cc.bias.empty()) p.bias = cc.bias;
  return p;
}

std::string describe(const CoreCase& cc) {
  const CubeArgs& a = cc.args;
  return std::string(data_type_name(a.a_dtype)) + " x " + data_type_name(a.b_dtype) + (a.mx ? " MX" : "") + " M" +
         std::to_string(a.m) + " N" + std::to_string(a.n) + " K" + std::to_string(a.k) + (a.accumulate ? " ACC" : "") +
         (a.bias ? " BIAS" : "") + (cc.row_major_a ? (a.trans_a ? " A^T" : " A-rm") : "") +
         (cc.row_major_b ? (a.trans_b ? " B^T" : " B-rm") : "");
}

/// `cases` random problems of one pair; every accumulator must match the reference.
void check_pair(DataType ta, DataType tb, bool mx, int cases, Rng& rng) {
  for (int i = 0; i < cases; ++i) {
    const CoreCase cc = random_case(ta, tb, mx, rng);
    const std::vector<std::uint32_t> want = reference_accumulator(to_reference(cc));
    const CoreResult got = run_core(cc);
    CHECK(got.flags == 0);
    for (std::size_t e = 0; e < want.size(); ++e)
      if (got.d[e] != want[e]) {
        INFO(describe(cc) << " element " << e);
        CHECK(got.d[e] == want[e]);
        return;
      }
  }
}

TEST_CASE("CUBE core equals the reference on random floating pairs", "[cube]") {
  Rng rng(0xC0BE0001);
  for (DataType ta : kFloatInputs)
    for (DataType tb : kFloatInputs) check_pair(ta, tb, false, 1000, rng);
}

TEST_CASE("CUBE core equals the reference on random integer pairs", "[cube]") {
  Rng rng(0xC0BE0002);
  for (const auto* set : {&kSignedInputs, &kUnsignedInputs})
    for (DataType ta : *set)
      for (DataType tb : *set) check_pair(ta, tb, false, 2000, rng);
}

TEST_CASE("CUBE core equals the reference on random MX pairs", "[cube]") {
  Rng rng(0xC0BE0003);
  for (DataType ta : kMxInputs)
    for (DataType tb : kMxInputs) check_pair(ta, tb, true, 1500, rng);
}

TEST_CASE("CUBE tile views: every layout's storage index separates into row and column parts", "[cube]") {
  // cube::TileView relies on storage_index(d, r, c) == storage_index(d, r, 0) + storage_index(d, 0, c).
  for (DataType t : {DataType::FP32, DataType::FP16, DataType::E4M3, DataType::E2M1X2, DataType::S4X2, DataType::U64}) {
    for (Layout l : {Layout::RowMajor, Layout::CubeM16, Layout::CubeM32, Layout::CubeN8}) {
      if (l != Layout::RowMajor && element_bits(t) == 64) continue;
      for (std::uint32_t rows : {1U, 3U, 16U, 32U, 40U})
        for (std::uint32_t cols : {1U, 5U, 8U, 33U, 64U}) {
          TileDescriptor d;
          d.dtype = t;
          d.layout = l;
          d.valid_rows = rows;
          d.valid_cols = cols;
          if (l == Layout::RowMajor) {
            d.rows = rows;
            d.cols = 64;  // a physical row at least as wide as the window
          } else {
            const auto s = cube_storage_shape(l, t, rows, cols);
            if (!s) continue;
            d.rows = s->rows;
            d.cols = s->cols;
          }
          const cube::TileView view(d, rows, cols), transposed(d, cols, rows, true);
          for (std::uint32_t r = 0; r < rows; ++r)
            for (std::uint32_t c = 0; c < cols; ++c) {
              INFO(data_type_name(t) << " " << layout_name(l) << " " << rows << "x" << cols << " [" << r << "," << c << "]");
              REQUIRE(view.index(r, c) == storage_index(d, r, c));
              REQUIRE(transposed.index(c, r) == storage_index(d, r, c));
            }
        }
    }
  }
}

TEST_CASE("CUBE integer accumulators wrap modulo 2^32", "[cube]") {
  // S16 extremes: 64 products of 2^30 overflow S32 many times over.
  CoreCase cc;
  cc.args.a_dtype = cc.args.b_dtype = DataType::S16;
  cc.args.acc_dtype = cc.args.out_dtype = DataType::S32;
  cc.args.k = 64;
  cc.a.assign(64, 0x8000);
  cc.b.assign(64, 0x8000);
  CHECK(run_core(cc).d[0] == ((64ULL << 30) & 0xFFFFFFFFU));
  cc.args.a_dtype = cc.args.b_dtype = DataType::U16;
  cc.args.acc_dtype = cc.args.out_dtype = DataType::U32;
  cc.a.assign(64, 0xFFFF);
  cc.b.assign(64, 0xFFFF);
  CHECK(run_core(cc).d[0] == ((64ULL * 0xFFFF * 0xFFFF) & 0xFFFFFFFFU));
}

}  // namespace
}  // namespace ptosim::model::cube_test
