// SPDX-License-Identifier: BSD-3-Clause
// Equivalents of the pto-spec AVS tests of the expansions and broadcast arithmetic
// (tests/asl/tile/reduce-and-expand/{row,column}-expansion, tests/asl/tile/model/execution/
// expansion). Floating expectations come from MPFR (mpfr_ref), not from the pto-v0 placeholder
// arithmetic of the AVS. Each TEST_CASE is named after its AVS file.
#include <catch2/catch.hpp>

#include "tests/model/sfu/mpfr_ref.h"
#include "tests/model/sfu/sfu_test_util.h"

namespace ptosim::model {
namespace {

using sfu_test::at;
using sfu_test::fill;
using sfu_test::Machine;

/// The 2x3 (Col 4) full-shape source of the row/column AVS cases and its broadcast: row form a
/// one-column 2x1 tile, column form a one-row 1x3 tile with Col 4.
struct Broadcast {
  bool row;
  const char* op;
  DataType t;
  std::uint64_t source;
  std::uint64_t bcast;
};

/// Runs op on full-shape elements `source` and broadcast elements `bcast`; returns the committed
/// destination element [1,2] and checks that the broadcast source persisted.
std::uint64_t run_broadcast(const Broadcast& c) {
  Machine m;
  m.tile("T#1", c.t, 128, 4, 2, 3, {c.source, c.source, c.source, 0, c.source, c.source, c.source});
  if (c.row) m.tile("T#2", c.t, 128, 1, 2, 1, {c.bcast, c.bcast});
  else m.tile("T#2", c.t, 128, 4, 1, 3, {c.bcast, c.bcast, c.bcast});
  const std::string program = std::string("BSTART.SFU ") + c.op + ", " + data_type_name(c.t) +
                              "\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n"
                              "B.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n";
  const unsigned d = m.commit(program);
  CHECK(m.desc(d).dtype == c.t);
  CHECK(m.read(1)[c.row ? 1 : 2] == c.bcast);  // the broadcast source persists
  return *at(m.read(d), m.desc(d), 1, 2);
}

TEST_CASE("tile-exec-trowexpand-copy-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#2", DataType::U8, 128, 1, 2, 1, {7, 7});
  const unsigned d = m.commit("BSTART.SFU TROWEXPAND, U8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.DIM zero, 4, ->LB2\nB.IOT T#2, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(*at(m.read(d), m.desc(d), 1, 2) == 7u);
  CHECK(m.read(1)[1] == 7u);
}

TEST_CASE("tile-exec-tcolexpand-copy-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#2", DataType::U8, 128, 4, 1, 3, {7, 7, 7});
  const unsigned d = m.commit("BSTART.SFU TCOLEXPAND, U8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.DIM zero, 4, ->LB2\nB.IOT T#2, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(*at(m.read(d), m.desc(d), 1, 2) == 7u);
  CHECK(m.read(1)[2] == 7u);
}

TEST_CASE("tile-exec-trowexpandadd-typed-001", "[sfu][avs]") {
  CHECK(run_broadcast({true, "TROWEXPANDADD", DataType::U8, 250, 10}) == 4u);
}
TEST_CASE("tile-exec-tcolexpandadd-typed-001", "[sfu][avs]") {
  CHECK(run_broadcast({false, "TCOLEXPANDADD", DataType::U8, 250, 10}) == 4u);
}
TEST_CASE("tile-exec-trowexpanddiv-signed-001", "[sfu][avs]") {
  CHECK(run_broadcast({true, "TROWEXPANDDIV", DataType::S8, 248, 2}) == 0xFCu);  // -8 / 2
}
TEST_CASE("tile-exec-tcolexpanddiv-signed-001", "[sfu][avs]") {
  CHECK(run_broadcast({false, "TCOLEXPANDDIV", DataType::S8, 248, 2}) == 0xFCu);
}
TEST_CASE("tile-exec-trowexpandmax-unsigned-001", "[sfu][avs]") {
  CHECK(run_broadcast({true, "TROWEXPANDMAX", DataType::U64, 0x8000000000000000, 1}) == 0x8000000000000000u);
}
TEST_CASE("tile-exec-tcolexpandmax-unsigned-001", "[sfu][avs]") {
  CHECK(run_broadcast({false, "TCOLEXPANDMAX", DataType::U64, 0x8000000000000000, 1}) == 0x8000000000000000u);
}
TEST_CASE("tile-exec-trowexpandmin-signed-001", "[sfu][avs]") {
  CHECK(run_broadcast({true, "TROWEXPANDMIN", DataType::S8, 255, 1}) == 0xFFu);
}
TEST_CASE("tile-exec-tcolexpandmin-signed-001", "[sfu][avs]") {
  CHECK(run_broadcast({false, "TCOLEXPANDMIN", DataType::S8, 255, 1}) == 0xFFu);
}
TEST_CASE("tile-exec-trowexpandmul-typed-001", "[sfu][avs]") {
  CHECK(run_broadcast({true, "TROWEXPANDMUL", DataType::U16, 400, 200}) == 14464u);  // 80000 mod 2^16
}
TEST_CASE("tile-exec-tcolexpandmul-typed-001", "[sfu][avs]") {
  CHECK(run_broadcast({false, "TCOLEXPANDMUL", DataType::U16, 400, 200}) == 14464u);
}
TEST_CASE("tile-exec-trowexpandsub-typed-001", "[sfu][avs]") {
  CHECK(run_broadcast({true, "TROWEXPANDSUB", DataType::S8, 2, 253}) == 5u);  // 2 - (-3)
}
TEST_CASE("tile-exec-tcolexpandsub-typed-001", "[sfu][avs]") {
  CHECK(run_broadcast({false, "TCOLEXPANDSUB", DataType::S8, 2, 253}) == 5u);
}

/// exp(a - b) in type t: typed SUB then typed EXP, both rounded (MPFR).
std::uint64_t expdif_reference(DataType t, std::uint64_t a, std::uint64_t b) {
  NumericFlags f = 0;
  return mpfr_ref::exp(t, mpfr_ref::sub(t, a, b, f), f);
}

TEST_CASE("tile-exec-trowexpandexpdif-compose-001", "[sfu][avs]") {
  const std::uint64_t expected = expdif_reference(DataType::FP32, 0x40000000, 0x3F800000);
  CHECK(expected == 0x402DF854u);  // e rounded to FP32
  CHECK(run_broadcast({true, "TROWEXPANDEXPDIF", DataType::FP32, 0x40000000, 0x3F800000}) == expected);
}
TEST_CASE("tile-exec-tcolexpandexpdif-compose-001", "[sfu][avs]") {
  CHECK(run_broadcast({false, "TCOLEXPANDEXPDIF", DataType::FP32, 0x40000000, 0x3F800000}) ==
        expdif_reference(DataType::FP32, 0x40000000, 0x3F800000));
}

// The decoded stage-3 cases: both selectors, every type pair, DTYPE_NONE with PadValue, the FP32
// discriminator inputs, and rejected pairs faulting before allocation.
struct Stage3 {
  bool row;
  DataType src;
  DataType dst;
  std::string datr;  ///< B.DATR line or ""
  std::uint64_t a;
  std::uint64_t b;
};

/// Installs the stage-3 inputs and returns the bundle.
std::string stage3_program(Machine& m, const Stage3& c) {
  const std::uint32_t rows = c.dst == DataType::FP32 ? 32 : 64;
  const std::uint32_t src_capacity = rows * 2 * element_bits(c.src) / 8;
  m.tile("T#2", c.src, src_capacity, 2, 2, 2, sfu_test::fill(4, c.a));
  if (c.row) m.tile("T#3", c.src, 256, 1, 2, 1, {c.b, c.b});
  else m.tile("T#3", c.src, 256, 2, 1, 2, {c.b, c.b});
  return std::string("BSTART.SFU ") + (c.row ? "TROWEXPANDEXPDIF, " : "TCOLEXPANDEXPDIF, ") + data_type_name(c.src) +
         "\n" + c.datr +
         "B.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 2, ->LB2\n"
         "B.IOT T#2, T#3, mask=1111, last, ->T<2>\nBSTOP\n";
}

TEST_CASE("tile-exec-trowexpandexpdif-stage3-decoded-001", "[sfu][avs]") {
  const std::uint64_t fp16_a = 0x2000, fp16_b = 0x0001, bf16_a = 0x3F80, bf16_b = 0x3B00;
  const Stage3 positive[] = {
      {true, DataType::FP16, DataType::FP16, "", fp16_a, fp16_b},
      {true, DataType::BF16, DataType::BF16, "B.DATR dtype=none, pad=max\n", bf16_a, bf16_b},
      {true, DataType::FP32, DataType::FP32, "", 0x40000000, 0x3F800000},
      {true, DataType::FP16, DataType::FP32, "B.DATR dtype=FP32\n", fp16_a, fp16_b},
      {true, DataType::BF16, DataType::FP32, "B.DATR dtype=FP32\n", bf16_a, bf16_b},
      {false, DataType::FP16, DataType::FP16, "B.DATR dtype=FP16\n", fp16_a, fp16_b},
      {false, DataType::BF16, DataType::BF16, "B.DATR dtype=BF16\n", bf16_a, bf16_b},
      {false, DataType::FP32, DataType::FP32, "", 0x40000000, 0x3F800000},
      {false, DataType::FP16, DataType::FP32, "B.DATR dtype=FP32\n", fp16_a, fp16_b},
      {false, DataType::BF16, DataType::FP32, "B.DATR dtype=FP32\n", bf16_a, bf16_b},
      {true, DataType::FP32, DataType::FP32, "", 0x3C000000, 0x33800000},   // the widened FP16 inputs
      {false, DataType::FP32, DataType::FP32, "", 0x3F800000, 0x3B000000},  // the widened BF16 inputs
  };
  for (const Stage3& c : positive) {
    Machine m;
    const unsigned d = m.commit(stage3_program(m, c));
    const TileDescriptor& dd = m.desc(d);
    CHECK(dd.dtype == c.dst);
    CHECK(dd.capacity_bytes == 256);
    CHECK(dd.layout == Layout::RowMajor);
    CHECK(dd.rows == m.desc(1).rows);  // logical shape of the full-shape source
    const std::uint64_t actual = *m.read(d)[0];
    if (c.src == c.dst) {
      CHECK(actual == expdif_reference(c.dst, c.a, c.b));
    } else if (c.src == DataType::FP16) {
      // Exact widening to FP32 first: 2^-11 - 2^-24, then exp.
      CHECK(actual == 0x3F810100u);
      CHECK(actual == expdif_reference(DataType::FP32, 0x3C000000, 0x33800000));
      CHECK(actual != 0x3F810101u);  // the source-precision subtraction path
    } else {
      CHECK(actual == 0x402DA16Eu);
      CHECK(actual == expdif_reference(DataType::FP32, 0x3F800000, 0x3B000000));
      CHECK(actual != 0x402DF854u);
    }
    // Under IEEE the FP32 path on the widened inputs is the mixed computation itself (the AVS's
    // inequalities hold only for the pto-v0 placeholder arithmetic).
    if (c.src == DataType::FP32 && c.a == 0x3C000000) CHECK(actual == 0x3F810100u);
    if (c.src == DataType::FP32 && c.a == 0x3F800000) CHECK(actual == 0x402DA16Eu);
    // Padding: Null without B.DATR, else its PadValue (Zero unless named).
    const auto pad = at(m.read(d), dd, 2, 0);
    if (c.datr.empty()) CHECK_FALSE(pad);
    else CHECK(pad == (c.datr.find("pad=max") != std::string::npos ? 0x7F7Fu : 0u));
    CHECK(m.read(1)[0] == c.a);
    CHECK(m.read(2)[0] == c.b);
  }
  const Stage3 rejected[] = {
      {true, DataType::FP16, DataType::BF16, "B.DATR dtype=BF16\n", fp16_a, fp16_b},
      {false, DataType::BF16, DataType::FP16, "B.DATR dtype=FP16\n", bf16_a, bf16_b},
      {false, DataType::FP32, DataType::FP16, "B.DATR dtype=FP16\n", 0x40000000, 0x3F800000},
      // Encoded DataType 0 is FP64, whether named or left unnamed beside a PadValue.
      {true, DataType::FP16, DataType::FP64, "B.DATR dtype=FP64\n", fp16_a, fp16_b},
      {true, DataType::FP16, DataType::FP64, "B.DATR pad=max\n", fp16_a, fp16_b},
  };
  for (const Stage3& c : rejected) {
    Machine m;
    m.reject(stage3_program(m, c), FaultCode::TileLegality, "type pair");
  }
}

TEST_CASE("tile-exec-expansion-operations-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#12", DataType::U64, 256, 2, 2, 2, {1, 2, 3, 4});
  m.tile("T#13", DataType::U64, 256, 1, 2, 1, {10, 20});
  const std::string dims = "B.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n";
  const unsigned sum = m.commit("BSTART.SFU TROWEXPANDADD, U64\n" + dims + "B.IOT T#12, T#13, mask=1111, last, ->U<2>\nBSTOP\n");
  const auto s = m.read(sum);
  CHECK(s[0] == 11u);
  CHECK(s[1] == 12u);
  CHECK(s[2] == 23u);
  CHECK(s[3] == 24u);
  m.tile("T#13", DataType::U64, 256, 1, 2, 1, {2, 4});
  const unsigned quotient =
      m.commit("BSTART.SFU TROWEXPANDDIV, U64\n" + dims + "B.IOT T#12, T#13, mask=1111, last, ->U<2>\nBSTOP\n");
  const auto q = m.read(quotient);
  CHECK(q[0] == 0u);
  CHECK(q[1] == 1u);
  CHECK(q[2] == 0u);
  CHECK(q[3] == 1u);
}

TEST_CASE("tile-exec-stage4-copy-001", "[sfu][avs]") {
  // Copy forms move raw carriers: valid TF32 encodings are copied bit for bit. The decoded path
  // (closed expansion schema) rejects an internally invalid TF32 broadcast element that the
  // tile-level ASL helper would copy; ExecuteTileFillScalar (TEXPANDS) is not an SFU operation.
  Machine m;
  m.tile("T#1", DataType::TF32, 128, 1, 2, 1, {0x3F802000, 0xC0004000});
  const std::string program = "BSTART.SFU TROWEXPAND, TF32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n";
  const BundleOutcome o = m.run1(program);
  REQUIRE(o.kind == BundleOutcome::Kind::Committed);
  CHECK(o.flags == 0);
  const unsigned d = o.destinations[0].index;
  CHECK(m.desc(d).dtype == DataType::TF32);
  const auto out = m.read(d);
  FragmentData expected(m.desc(d).element_count());
  expected[0] = expected[1] = 0x3F802000;
  expected[2] = expected[3] = 0xC0004000;
  CHECK(out == expected);
  Machine bad;
  bad.tile("T#1", DataType::TF32, 128, 1, 2, 1, {0x3F800001, 0x3F800002});
  bad.reject(program, FaultCode::TileLegality, "invalid TF32 encoding");
}

TEST_CASE("Mixed EXPDIF: a signaling NaN raises NV whether it widens from FP16 or BF16, a quiet one nothing",
          "[sfu]") {
  // The hardware profile's signaling-input rule for the widening (the ASL canonicalises an FP16
  // NaN without a flag; docs/isa-coverage.md). Either way the result is the canonical FP32 NaN.
  struct Case {
    DataType src;
    std::uint64_t nan;
    NumericFlags flags;
  };
  const Case cases[] = {{DataType::FP16, 0x7D00, kFlagNV}, {DataType::FP16, 0x7E00, 0},
                        {DataType::BF16, 0x7F81, kFlagNV}, {DataType::BF16, 0x7FC1, 0}};
  for (const Case& c : cases)
    for (const bool in_broadcast : {false, true}) {
      INFO(data_type_name(c.src) << " NaN 0x" << std::hex << c.nan << (in_broadcast ? " in the broadcast" : " in the source"));
      Machine m;
      const std::uint64_t one = c.src == DataType::FP16 ? 0x3C00 : 0x3F80;
      m.tile("T#1", c.src, 128, 2, 1, 2, {in_broadcast ? one : c.nan, one});
      m.tile("T#2", c.src, 128, 1, 1, 1, {in_broadcast ? c.nan : one});
      const BundleOutcome o = m.run1(std::string("BSTART.SFU TROWEXPANDEXPDIF, ") + data_type_name(c.src) +
                                     "\nB.DATR dtype=FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 1, ->LB1\n"
                                     "B.IOT T#1, T#2, mask=1111, last, ->T<2>\nBSTOP\n");
      INFO((o.fault ? o.fault->rule : std::string()));
      REQUIRE(o.kind == BundleOutcome::Kind::Committed);
      const auto q = m.read(o.destinations[0].index);
      CHECK(q[0] == 0x7FC00000u);
      CHECK(q[1] == (in_broadcast ? 0x7FC00000u : 0x3F800000u));  // exp(1 - 1) = 1
      CHECK(o.flags == c.flags);
    }
}

TEST_CASE("tile-static-expansion-contract-001", "[sfu][avs]") {
  // The expansion unit's contract: elements are independent, flags OR across them, a floating
  // zero divisor goes to the profile while an integer one faults before any effect.
  Machine m;
  m.tile("T#1", DataType::FP32, 128, 2, 2, 2, {0x3F800000, 0, 0x3F800000, 0x40000000});
  m.tile("T#2", DataType::FP32, 128, 1, 2, 1, {0x80000000, 0x40000000});
  const BundleOutcome o = m.run1("BSTART.SFU TROWEXPANDDIV, FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n"
                                 "B.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n");
  REQUIRE(o.kind == BundleOutcome::Kind::Committed);
  const auto q = m.read(o.destinations[0].index);
  CHECK(q[0] == 0xFF800000u);  // 1 / -0 = -inf (DZ)
  CHECK(q[1] == 0x7FC00000u);  // 0 / -0 = canonical NaN (NV)
  CHECK(q[2] == 0x3F000000u);  // 1 / 2
  CHECK(q[3] == 0x3F800000u);  // 2 / 2
  CHECK(o.flags == (kFlagDZ | kFlagNV));
  Machine ints;
  ints.tile("T#1", DataType::S32, 128, 2, 3, 2, fill(6, 7));
  ints.tile("T#2", DataType::S32, 128, 1, 3, 1, {1, 1, 0});
  ints.reject("BSTART.SFU TROWEXPANDDIV, S32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 3, ->LB1\n"
                        "B.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "integer zero divisor in broadcast row 2");
  CHECK_FALSE(ints.allocated(2));
}

}  // namespace
}  // namespace ptosim::model
