// SPDX-License-Identifier: BSD-3-Clause
// Equivalents of the pto-spec AVS tests of the row and column reductions and ARG
// (tests/asl/tile/reduce-and-expand/{row,column}-reduction, tests/asl/tile/model/execution/
// {reduction,minmax}), run as complete bundles through the assembler, BlockBuilder, preflight and
// the SFU core. Each TEST_CASE is named after its AVS file.
#include <catch2/catch.hpp>

#include <cstring>

#include "model/numeric/scalar_ops.h"
#include "tests/model/sfu/sfu_test_util.h"

namespace ptosim::model {
namespace {

using sfu_test::at;
using sfu_test::Machine;

std::uint32_t f32(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}

TEST_CASE("tile-exec-trowsum-u8-wrap-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 2, 1, 2, {250, 10});
  const unsigned d = m.commit("BSTART.SFU TROWSUM, U8\nB.DIM zero, 2, ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  for (int pe = 0; pe < kPeCount; ++pe) CHECK(m.read(d, pe)[0] == 4u);  // 260 wraps at U8 width
}

TEST_CASE("tile-exec-trowargmax-tie-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 4, 1, 3, {1, 9, 9});
  const unsigned d = m.commit("BSTART.SFU TROWARGMAX, U8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 4, ->LB2\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).dtype == DataType::U32);
  CHECK(m.read(d)[0] == 1u);  // the first of the equal maxima
}

TEST_CASE("tile-bound-trowargmin-shape-001", "[sfu][avs]") {
  // The decoded ARG destination is always U32; a one-column U32 result of the source's ValidRow is
  // legal, and no bundle field can select another index type (B.DATR DataType is not applicable).
  Machine m;
  m.tile("T#1", DataType::S8, 128, 4, 2, 3, {0, 0, 0, 0, 0, 0, 0, 0});
  const std::string head = "BSTART.SFU TROWARGMIN, S8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n";
  const unsigned d = m.commit(head + "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).dtype == DataType::U32);
  CHECK(m.desc(d).cols == 1);
  CHECK(m.desc(d).valid_rows == 2);
  CHECK(m.desc(d).valid_cols == 1);
  for (const char* t : {"S16", "S32"})
    m.reject(head + "B.DATR dtype=" + t + "\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n",
                FaultCode::TileLegality, "B.DATR DataType");
}

TEST_CASE("tile-exec-trowargmin-index-dtype-decoded-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 4, 2, 3, {4, 2, 2, 0, 7, 3, 6, 0});
  const std::string head = "BSTART.SFU TROWARGMIN, U8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n";
  // A B.DATR naming a non-U32 index type faults before any effect.
  const auto before = m.read(0);
  m.reject(head + "B.DATR dtype=S16\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileLegality,
              "DataType");
  CHECK_FALSE(m.allocated(1));
  CHECK(m.read(0) == before);
  const unsigned d = m.commit(head + "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).dtype == DataType::U32);
  const auto out = m.read(d);
  CHECK(at(out, m.desc(d), 0, 0) == 1u);
  CHECK(at(out, m.desc(d), 1, 0) == 1u);
  CHECK(m.read(0) == before);
}

TEST_CASE("ARG over a negative signed winner gives the lowest column of the typed extreme (the seeds)", "[sfu]") {
  // isa-coverage.md, Seeds vs ASL: the ASL compares its sign-extended step result with the element
  // read raw, so a negative winner would never move the index.
  const std::string dims = "B.DIM zero, 2, ->LB0\nB.DIM zero, 1, ->LB1\nB.DIM zero, 4, ->LB2\n";
  const struct {
    const char* op;
    std::vector<std::uint64_t> row;  // S8 encodings
    std::uint64_t index;
  } cases[] = {{"TROWARGMIN", {0x01, 0xff}, 1}, {"TROWARGMAX", {0xfe, 0xff}, 1}, {"TROWARGMIN", {0xff, 0xff}, 0}};
  for (const auto& c : cases) {
    INFO(c.op << " " << c.row[0] << " " << c.row[1]);
    Machine m;
    m.tile("T#1", DataType::S8, 128, 4, 1, 2, {c.row[0], c.row[1], 0, 0});
    const unsigned d = m.commit(std::string("BSTART.SFU ") + c.op + ", S8\n" + dims + "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
    CHECK(at(m.read(d), m.desc(d), 0, 0) == c.index);
  }
}

TEST_CASE("tile-exec-trowargmin-tie-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 4, 1, 3, {4, 2, 2});
  const unsigned d = m.commit("BSTART.SFU TROWARGMIN, U8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 4, ->LB2\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 1u);
}

TEST_CASE("tile-exec-trowmax-u16-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U16, 128, 2, 1, 2, {0xFFFF, 1});
  const unsigned d = m.commit("BSTART.SFU TROWMAX, U16\nB.DIM zero, 2, ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 0xFFFFu);  // unsigned order
}

TEST_CASE("tile-exec-trowmax-u16-decoded-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#2", DataType::U16, 128, 2, 1, 2, {4, 9});
  const unsigned d = m.commit("BSTART.SFU TROWMAX, U16\nB.DIM zero, 2, ->LB0\nB.DIM zero, 1, ->LB1\n"
                              "B.DIM zero, 2, ->LB2\nB.IOT T#2, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(d == 0);  // the lowest free register of hand T
  CHECK(m.desc(d).dtype == DataType::U16);
  CHECK(m.read(d)[0] == 9u);
}

TEST_CASE("tile-exec-trowmin-s8-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::S8, 128, 2, 1, 2, {0xFF, 1});
  const unsigned d = m.commit("BSTART.SFU TROWMIN, S8\nB.DIM zero, 2, ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 0xFFu);  // -1 < 1 in signed order
}

TEST_CASE("tile-exec-trowprod-one-001", "[sfu][avs]") {
  CHECK(numeric::one(DataType::FP16) == 0x3C00u);
  CHECK(numeric::one(DataType::U8) == 1u);
  Machine m;
  m.tile("T#1", DataType::U8, 128, 2, 1, 2, {20, 20});
  const unsigned d = m.commit("BSTART.SFU TROWPROD, U8\nB.DIM zero, 2, ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 144u);  // 400 mod 256
  // The FP16 fold starts from exact one: a one-element product is the element, exact, no flags.
  m.tile("T#3", DataType::FP16, 128, 1, 1, 1, {0x3555});
  const BundleOutcome o = m.run1("BSTART.SFU TROWPROD, FP16\nB.DIM zero, 1, ->LB0\nB.IOT T#3, mask=1111, last, ->T<1>\nBSTOP\n");
  REQUIRE(o.kind == BundleOutcome::Kind::Committed);
  CHECK(m.read(o.destinations[0].index)[0] == 0x3555u);
  CHECK(o.flags == 0);
}

TEST_CASE("tile-exec-tcolargmax-tie-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 2, 3, 2, {2, 7, 9, 7, 9, 3});
  const unsigned d = m.commit("BSTART.SFU TCOLARGMAX, U8\nB.DIM zero, 2, ->LB0\nB.DIM zero, 3, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).dtype == DataType::U32);
  CHECK(m.read(d)[0] == 1u);
  CHECK(m.read(d)[1] == 0u);
}

TEST_CASE("tile-exec-tcolargmin-tie-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 2, 3, 2, {2, 7, 2, 3, 4, 3});
  const unsigned d = m.commit("BSTART.SFU TCOLARGMIN, U8\nB.DIM zero, 2, ->LB0\nB.DIM zero, 3, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 0u);
  CHECK(m.read(d)[1] == 1u);
}

TEST_CASE("tile-exec-tcolmax-u16-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U16, 128, 2, 2, 2, {0xFFFF, 1, 2, 0xFFFF});
  const unsigned d = m.commit("BSTART.SFU TCOLMAX, U16\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 0xFFFFu);
  CHECK(m.read(d)[1] == 0xFFFFu);
}

TEST_CASE("tile-exec-tcolmin-s8-001", "[sfu][avs]") {
  // The scenario-format example program.
  Machine m;
  m.tile("T#1", DataType::S8, 128, 2, 2, 2, {0xFF, 0x05, 0x01, 0xFE});
  const unsigned d = m.commit("BSTART.SFU TCOLMIN, S8\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).valid_rows == 1);
  CHECK(m.desc(d).valid_cols == 2);
  CHECK(m.read(d)[0] == 0xFFu);
  CHECK(m.read(d)[1] == 0xFEu);
  CHECK_FALSE(m.read(d)[2]);  // no B.DATR: Null padding
}

TEST_CASE("tile-exec-tcolprod-columns-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 2, 2, 2, {2, 3, 4, 5});
  const unsigned d = m.commit("BSTART.SFU TCOLPROD, U8\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 8u);
  CHECK(m.read(d)[1] == 15u);
}

TEST_CASE("tile-exec-tcolsum-columns-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#1", DataType::U8, 128, 2, 2, 2, {1, 2, 3, 4});
  const unsigned d = m.commit("BSTART.SFU TCOLSUM, U8\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(d)[0] == 4u);
  CHECK(m.read(d)[1] == 6u);
}

TEST_CASE("tile-exec-reduction-operations-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#9", DataType::U32, 256, 2, 2, 2, {1, 2, 4, 3});
  const std::string dims = "B.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n";
  const unsigned sum = m.commit("BSTART.SFU TROWSUM, U32\n" + dims + "B.IOT T#9, mask=1111, last, ->T<2>\nBSTOP\n");
  CHECK(at(m.read(sum), m.desc(sum), 0, 0) == 3u);
  CHECK(at(m.read(sum), m.desc(sum), 1, 0) == 7u);
  const unsigned arg = m.commit("BSTART.SFU TCOLARGMAX, U32\n" + dims + "B.IOT T#9, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(arg)[0] == 1u);
  CHECK(m.read(arg)[1] == 1u);
}

TEST_CASE("tile-static-reduction-contract-001", "[sfu][avs]") {
  // The reduction unit's contract: one strictly sequential fold per lane with per-step rounding.
  // 2^24 + 1 + 1 is 2^24 in FP32 step by step (each +1 ties to even) but 2^24 + 2 reassociated.
  Machine m;
  const std::uint32_t big = f32(16777216.0f), one = f32(1.0f);
  m.tile("T#1", DataType::FP32, 128, 4, 1, 3, {big, one, one});
  m.tile("T#2", DataType::FP32, 128, 1, 3, 1, {big, one, one});
  const BundleOutcome row = m.run1("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 3, ->LB0\nB.DIM zero, 4, ->LB2\n"
                                   "B.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n");
  const BundleOutcome col = m.run1("BSTART.SFU TCOLSUM, FP32\nB.DIM zero, 1, ->LB0\nB.DIM zero, 3, ->LB1\n"
                                   "B.IOT T#2, mask=1111, last, ->U<1>\nBSTOP\n");
  for (const BundleOutcome* o : {&row, &col}) {
    REQUIRE(o->kind == BundleOutcome::Kind::Committed);
    CHECK(m.read(o->destinations[0].index)[0] == big);
    CHECK(o->flags == kFlagNX);
  }
}

TEST_CASE("tile-static-minmax-contract-001", "[sfu][avs]") {
  // TMAX/TMIN special values through the reductions (numerics.md §6): MAX/MIN never round.
  const std::uint32_t qnan = 0x7FC00001, snan = 0x7F800001, pz = 0, nz = 0x80000000, two = f32(2.0f);
  struct Case {
    const char* op;
    std::vector<std::uint32_t> in;
    std::uint32_t out;
    NumericFlags flags;
  };
  const Case cases[] = {
      {"TROWMAX", {qnan, two}, two, 0},               // one NaN: the number
      {"TROWMIN", {two, qnan}, two, 0},
      {"TROWMAX", {qnan, 0x7FC00002}, 0x7FC00000, 0},  // two NaNs: canonical NaN
      {"TROWMAX", {snan, two}, two, kFlagNV},          // signaling NaN: NV
      {"TROWMAX", {nz, pz}, pz, 0},                    // mixed zeros: +0 for MAX, -0 for MIN
      {"TROWMAX", {pz, nz}, pz, 0},
      {"TROWMIN", {pz, nz}, nz, 0},
      {"TROWMIN", {nz, pz}, nz, 0},
      {"TROWMAX", {snan}, snan, 0},  // one element: taken unevaluated
      {"TROWARGMAX", {nz, pz}, 1, 0},  // +0 is the preferred maximum: the index moves
      {"TROWARGMAX", {pz, nz}, 0, 0},
      {"TROWARGMIN", {pz, nz}, 1, 0},
      {"TROWARGMAX", {two, two}, 0, 0},  // bit-identical extremes: the first
      {"TROWARGMAX", {qnan, two}, 1, 0},
  };
  for (const Case& c : cases) {
    Machine m;
    const auto n = static_cast<std::uint32_t>(c.in.size());
    FragmentData data(c.in.begin(), c.in.end());
    m.tile("T#1", DataType::FP32, 128, n, 1, n, data);
    const std::string program = std::string("BSTART.SFU ") + c.op + ", FP32\nB.DIM zero, " + std::to_string(n) +
                                ", ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n";
    INFO(program);
    const BundleOutcome o = m.run1(program);
    REQUIRE(o.kind == BundleOutcome::Kind::Committed);
    CHECK(m.read(o.destinations[0].index)[0] == c.out);
    CHECK(o.flags == c.flags);
  }
}

}  // namespace
}  // namespace ptosim::model
