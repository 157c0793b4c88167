// SPDX-License-Identifier: BSD-3-Clause
// SFU preflight: the DataType domain of every operation, the fault class and order of every rule
// (ASL ExecuteBundleTileOperationLocallyWithAcceptedApplicabilityRules), the seeds-vs-ASL
// decisions of docs/isa-coverage.md, padding and definedness, and the timing-only mode.
#include <catch2/catch.hpp>

#include <string>

#include "model/bundle/assembler.h"
#include "model/bundle/block_builder.h"
#include "model/numeric/scalar_ops.h"
#include "model/sfu/sfu_preflight.h"
#include "model/sfu/sfu_types.h"
#include "tests/model/sfu/sfu_test_util.h"

namespace ptosim::model {
namespace {

using sfu_test::at;
using sfu_test::fill;
using sfu_test::Machine;
using sfu_test::minimal_bundle;

std::string type_name(DataType t) { return data_type_name(t); }

/// A zero of every type that is a valid encoding (E8M0 has no zero; 0 is 2^-127 there, valid).
FragmentData zeros(std::size_t n) { return fill(n, 0); }

TEST_CASE("SFU DataType domains: every operation accepts exactly its types", "[sfu]") {
  for (int i = 0; i < kOperationCount; ++i) {
    const auto op = static_cast<Operation>(i);
    if (operation_engine(op) != Engine::Sfu) continue;
    unsigned accepted = 0;
    for (DataType t : kAllDataTypes) {
      Machine m;
      const std::string program = minimal_bundle(m, op, t);
      if (sfu::accepts_type(op, t)) {
        ++accepted;
        m.commit(program);
      } else {
        m.reject(program, FaultCode::TileLegality, "is not a legal");
      }
    }
    const unsigned expected = op == Operation::TCONCAT        ? 24
                              : op == Operation::TFILLPAD     ? 13
                              : op == Operation::TCI          ? 4
                              : op == Operation::TTRI         ? 6
                              : op == Operation::THISTOGRAM   ? 2
                              : op == Operation::TROWEXPANDEXPDIF || op == Operation::TCOLEXPANDEXPDIF ? 8
                                                              : 16;
    CHECK(accepted == expected);
  }
}

TEST_CASE("SFU TCONCAT concatenates packed 4-bit lanes", "[sfu]") {
  Machine m;
  m.tile("U#1", DataType::S4X2, 128, 4, 2, 3, {1, 2, 3, 0, 4, 5, 6});
  m.tile("U#2", DataType::S4X2, 128, 2, 2, 1, {0xF, 0, 0xE});
  const unsigned d = m.commit("BSTART.SFU TCONCAT, S4X2\nB.DIM zero, 4, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n");
  const auto out = m.read(d);
  CHECK(out[0] == 1u);
  CHECK(out[2] == 3u);
  CHECK(out[3] == 0xFu);
  CHECK(out[4] == 4u);
  CHECK(out[7] == 0xEu);
  CHECK_FALSE(out[8]);
}

const char* const kRowSum = "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n";

Machine row_sum_machine() {
  Machine m;
  m.tile("U#1", DataType::FP32, 128, 2, 2, 2, zeros(4));
  return m;
}

TEST_CASE("SFU schema faults: binding counts and B.IOR slots are BundleControl", "[sfu]") {
  Machine m = row_sum_machine();
  m.tile("U#2", DataType::FP32, 128, 2, 2, 2, zeros(4));
  m.gpr(1, 7);
  const std::string h = kRowSum;
  m.reject(h + "B.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::BundleControl,
              "the block binds 1 and 2");
  m.reject(h + "B.IOT U#1, mask=1111, last\nBSTOP\n", FaultCode::BundleControl, "the block binds 0 and 1");
  m.reject(h + "B.IOT U#1, mask=1111, ->T<1>\nBSTOP\n", FaultCode::BundleControl, "not closed by 'last'");
  m.reject(h + "B.IOR r1, zero, zero, ->zero\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::BundleControl, "B.IOR RegSrc0 must be zero");
  // An all-zero B.IOR is schema-complete, but the closed reduction schema rejects it.
  m.reject(h + "B.IOR zero, zero, zero, ->zero\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "takes no B.IOR");
  // Counts match but two bindings: the closed schema wants exactly one B.IOT.
  m.reject(h + "B.IOT U#1, mask=1111\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileLegality,
              "exactly one B.IOT");
  // B.IOS: no SFU operation consumes a Shared register.
  m.reject(h + "B.IOS S3, mask=1111\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileLegality,
              "consumes no Shared register");
  // TFILLPAD consumes RegSrc0 only; RegDst is never written.
  m.reject("BSTART.SFU TFILLPAD, FP32\nB.IOR r1, r1, zero, ->zero\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::BundleControl, "B.IOR RegSrc1 must be zero");
  m.reject("BSTART.SFU TFILLPAD, FP32\nB.IOR r1, zero, zero, ->r1\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::BundleControl, "RegDst must be zero");
  // A strict no-op names nothing that must exist.
  CHECK(m.run1(h + "B.IOT N#9, mask=0000, last, ->T<1>\nBSTOP\n").kind == BundleOutcome::Kind::Noop);
}

TEST_CASE("SFU fault order: the first rule the ASL checks decides", "[sfu]") {
  Machine m = row_sum_machine();
  m.gpr(1, 2);
  // BundleControl (B.IOR slot) before TileLegality (DataType S4X2 and B.DATR CMode).
  m.reject("BSTART.SFU TROWSUM, S4X2\nB.DATR cmode=lt\nB.DIM zero, 2, ->LB0\n"
                     "B.IOR r1, zero, zero, ->zero\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::BundleControl, "RegSrc0");
  // GPR values before B.DATR applicability before the closed schema.
  const std::string tci = "BSTART.SFU TCI, U8\nB.DATR pad=max\nB.DIM zero, 2, ->LB0\n";
  m.reject(tci + "B.IOR zero, r1, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "direction) is 2");
  m.reject(tci + "B.IOT mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileLegality, "PadValueOrByteId");
  // The closed schema (TileLegality) precedes allocation (TileAllocation) ...
  for (unsigned k = 1; k <= 16; ++k) m.tile("T#" + std::to_string(k), DataType::U8, 128, 1, 1, 1, {0});
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 3, ->LB0\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "the LBs give");
  m.reject(std::string(kRowSum) + "B.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileAllocation,
              "no free register in hand T");
  // ... which precedes the operand checks of the operations without a closed schema.
  m.reject("BSTART.SFU TFILLPAD, FP64\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileAllocation,
              "no free register in hand T");
  m.reject("BSTART.SFU TFILLPAD, FP64\nB.IOT U#1, mask=1111, last, ->M<1>\nBSTOP\n", FaultCode::TileLegality,
              "FP64 is not a legal TFILLPAD DataType");
}

TEST_CASE("SFU B.DATR applicability and the ignored zero DataType", "[sfu]") {
  Machine m = row_sum_machine();
  const std::string h = kRowSum;
  const std::string tail = "B.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n";
  for (const char* field : {"cmode=ne", "sat=1", "canon=1", "rmode=rtz", "layout=ND2DN", "dtype=FP32", "dtype=none"}) {
    INFO(field);
    m.reject(h + "B.DATR " + field + "\n" + tail, FaultCode::TileLegality, "is not applicable to TROWSUM");
  }
  // PadValue applies; the encoded zero DataType is ignored and the destination stays FP32.
  const unsigned d = m.commit(h + "B.DATR pad=min\n" + tail);
  CHECK(m.desc(d).dtype == DataType::FP32);
  CHECK(at(m.read(d), m.desc(d), 2, 0) == 0xFF7FFFFFu);
  // TFILLPAD / TCONCAT take Layout but no PadValue and no CUBE transport code.
  m.reject("BSTART.SFU TFILLPAD, FP32\nB.DATR pad=max\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "PadValueOrByteId 1");
  m.reject("BSTART.SFU TFILLPAD, FP32\nB.DATR layout=ND2M32\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "CUBE transport");
}

TEST_CASE("SFU dimensions and source geometry rules", "[sfu]") {
  Machine m = row_sum_machine();
  const std::string tail = "B.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n";
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB1\n" + tail, FaultCode::TileLegality,
              "LB0 (source ValidCol) is required");
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 0, ->LB0\n" + tail, FaultCode::TileLegality,
              "LB0 (source ValidCol) must be non-zero");
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 0, ->LB2\n" + tail,
              FaultCode::TileLegality, "LB2 (source Col) must be non-zero");
  m.reject("BSTART.SFU TCOLEXPANDADD, FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 0, ->LB1\n"
                     "B.IOT U#1, U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "LB1 (destination ValidRow) must be non-zero");
  // LBs read per PE must agree.
  m.m.state().set_gpr(2, 4, 1);
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM r4, 2, ->LB0\n" + tail, FaultCode::TileLegality,
              "different values");
  // The source must be allocated, held by every participating PE, generic, row-major and defined.
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.IOT N#2, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "N#2 is not allocated");
  m.tile("U#3", DataType::FP32, 128, 2, 1, 2, zeros(2), Layout::RowMajor, PeMask(0b1100));
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.IOT U#3, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "no payload fragment on PE2");
  m.tile("U#4", DataType::FP32, 128, 2, 1, 2, zeros(2), Layout::ColumnMajor);
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.IOT U#4, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "RowMajor is required");
  std::array<FragmentData, kPeCount> holes{zeros(2), zeros(2), {0, std::nullopt}, zeros(2)};
  m.tile_per_pe("U#5", DataType::FP32, 128, 2, 1, 2, holes);
  m.reject("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.IOT U#5, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "element [0,1] on PE2 is undefined");
  // Only the participating PEs matter.
  CHECK(m.run1("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.IOT U#5, mask=1000, last, ->T<1>\nBSTOP\n").kind ==
        BundleOutcome::Kind::Committed);
  m.tile("U#6", DataType::TF32, 128, 2, 1, 2, {0x3F800000, 0x3F800010});
  m.reject("BSTART.SFU TROWMAX, TF32\nB.DIM zero, 2, ->LB0\nB.IOT U#6, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "element [0,1] on PE0 is an invalid TF32 encoding");
}

TEST_CASE("SFU allocation faults: register, capacity and TSize", "[sfu]") {
  Machine m;
  m.tile("U#1", DataType::FP32, 2048, 1, 300, 1, zeros(300));
  const std::string head = "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 1, ->LB0\nB.DIM zero, 300, ->LB1\n";
  m.reject(head + "B.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileAllocation,
              "gives 32 rows; too small");
  CHECK(m.run1(head + "B.IOT U#1, mask=1111, last, ->T<5>\nBSTOP\n").kind == BundleOutcome::Kind::Committed);
  m.m.state().set_tile_capacity(m.m.state().capacity_in_use() + 1024);
  m.reject(head + "B.IOT U#1, mask=1111, last, ->T<5>\nBSTOP\n", FaultCode::TileAllocation,
              "tile capacity exhausted");
  m.reject("BSTART.SFU TCI, U16\nB.DIM zero, 3, ->LB0\nB.IOT mask=1000, last, ->T<1>\nBSTOP\n",
              FaultCode::TileAllocation, "Col must be a power of two");
}

TEST_CASE("SFU broadcast division: integer zero divisors fault, float ones go to the profile", "[sfu]") {
  Machine m;
  m.tile("U#1", DataType::U16, 128, 4, 2, 3, fill(8, 9));
  std::array<FragmentData, kPeCount> divisors{FragmentData{1, 2, 3}, FragmentData{1, 2, 3}, FragmentData{1, 0, 3},
                                              FragmentData{1, 2, 3}};
  m.tile_per_pe("U#2", DataType::U16, 128, 4, 1, 3, divisors);
  const std::string program = "BSTART.SFU TCOLEXPANDDIV, U16\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\n"
                              "B.DIM zero, 4, ->LB2\nB.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n";
  m.reject(program, FaultCode::TileLegality, "integer zero divisor in broadcast column 1 (element [0,1] of U#2) on PE2");
  CHECK_FALSE(m.allocated(0));
  CHECK(m.m.state().status() == 0);
  // The divisor is read only where the valid region uses it: PE2 left out, the bundle commits.
  const BundleOutcome o = m.run1("BSTART.SFU TCOLEXPANDDIV, U16\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\n"
                                 "B.DIM zero, 4, ->LB2\nB.IOT U#1, U#2, mask=1100, last, ->T<1>\nBSTOP\n");
  CHECK(o.kind == BundleOutcome::Kind::Committed);
  // Timing-only preflight (no payload access) skips and reports the value check.
  const Assembly a = assemble(program, "t.s");
  const ProgramBlocks blocks = build_blocks(a.instructions);
  REQUIRE(blocks.bundles.size() == 1);
  ExecPlan plan;
  REQUIRE_FALSE(sfu_preflight(blocks.bundles[0], m.m.state(), nullptr, plan));
  REQUIRE(plan.skipped_checks.size() == 1);
  CHECK(plan.skipped_checks[0] == "integer zero divisor in broadcast source U#2");
}

TEST_CASE("SFU expansion: the full-shape source and the destination share their physical rows", "[sfu]") {
  Machine m;
  m.tile("U#1", DataType::FP32, 256, 2, 2, 2, zeros(4));  // 32 rows
  m.tile("U#2", DataType::FP32, 128, 1, 2, 1, zeros(2));
  const std::string head = "BSTART.SFU TROWEXPANDMUL, FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n";
  m.reject(head + "B.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileLegality,
              "has 32 physical rows; the destination's TSize gives 16");
  CHECK(m.run1(head + "B.IOT U#1, U#2, mask=1111, last, ->T<2>\nBSTOP\n").kind == BundleOutcome::Kind::Committed);
  // A broadcast of the wrong shape.
  m.tile("U#3", DataType::FP32, 128, 2, 2, 1, zeros(4));
  m.reject(head + "B.IOT U#1, U#3, mask=1111, last, ->T<2>\nBSTOP\n", FaultCode::TileLegality,
              "a row broadcast needs ValidRow 2, ValidCol 1, Col 1");
}

TEST_CASE("SFU EXPDIF type pairs: the union of the seeds and the ASL", "[sfu]") {
  struct Pair {
    DataType src;
    const char* datr;
    std::optional<DataType> dst;
  };
  const Pair pairs[] = {
      {DataType::FP64, "", DataType::FP64},
      {DataType::FP64, "B.DATR dtype=FP64\n", DataType::FP64},
      {DataType::TF32, "B.DATR dtype=none\n", DataType::TF32},
      {DataType::HF32, "B.DATR dtype=HF32\n", DataType::HF32},
      {DataType::E4M3, "B.DATR dtype=E4M3, pad=max\n", DataType::E4M3},
      {DataType::E4M3, "B.DATR pad=max\n", std::nullopt},  // encoded DataType 0 is FP64
      {DataType::FP64, "B.DATR pad=max\n", DataType::FP64},
      {DataType::E5M2, "", DataType::E5M2},
      {DataType::FP16, "B.DATR dtype=FP32\n", DataType::FP32},
      {DataType::BF16, "B.DATR dtype=FP32\n", DataType::FP32},
      {DataType::TF32, "B.DATR dtype=FP32\n", std::nullopt},
      {DataType::E4M3, "B.DATR dtype=FP32\n", std::nullopt},
      {DataType::FP32, "B.DATR dtype=FP64\n", std::nullopt},
      {DataType::FP32, "B.DATR dtype=BF16\n", std::nullopt},
      {DataType::FP16, "B.DATR dtype=U32\n", std::nullopt},
  };
  for (const Pair& p : pairs) {
    Machine m;
    const unsigned bits = element_bits(p.src);
    m.tile("U#1", p.src, 128, 2, 1, 2, zeros(2));
    m.tile("U#2", p.src, 128, 1, 1, 1, zeros(1));
    const unsigned size_code = p.dst && element_bits(*p.dst) != bits ? 2 : 1;
    const std::string program = std::string("BSTART.SFU TROWEXPANDEXPDIF, ") + type_name(p.src) + "\n" + p.datr +
                                "B.DIM zero, 2, ->LB0\nB.IOT U#1, U#2, mask=1111, last, ->T<" +
                                std::to_string(size_code) + ">\nBSTOP\n";
    if (!p.dst) {
      m.reject(program, FaultCode::TileLegality, "type pair");
      continue;
    }
    const unsigned d = m.commit(program);
    CHECK(m.desc(d).dtype == *p.dst);
    CHECK(m.read(d)[0] == numeric::one(*p.dst));  // exp(0 - 0) = 1
  }
}

TEST_CASE("SFU padding: PadValue Zero/Max/Min define, Null and omission leave undefined", "[sfu]") {
  struct Case {
    const char* datr;
    std::optional<std::uint64_t> pad;
  };
  const Case cases[] = {{"", std::nullopt},
                        {"B.DATR pad=null\n", std::nullopt},
                        {"B.DATR pad=zero\n", 0},
                        {"B.DATR pad=max\n", 0x7FFF},
                        {"B.DATR pad=min\n", 0x8000}};
  for (const Case& c : cases) {
    Machine m;
    m.tile("U#1", DataType::S16, 128, 4, 2, 3, fill(8, 5));
    m.tile("U#2", DataType::S16, 128, 1, 2, 1, {1, 2});
    const unsigned d = m.commit(std::string("BSTART.SFU TROWEXPANDSUB, S16\n") + c.datr +
                                "B.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n"
                                "B.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n");
    const TileDescriptor& dd = m.desc(d);
    const auto out = m.read(d);
    CHECK(at(out, dd, 1, 2) == 3u);
    CHECK(at(out, dd, 0, 3) == c.pad);
    CHECK(at(out, dd, 15, 0) == c.pad);
    // The argmin index destination pads with the U32 values.
    const unsigned a = m.commit(std::string("BSTART.SFU TROWARGMIN, S16\n") + c.datr +
                                "B.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n"
                                "B.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n");
    const std::optional<std::uint64_t> u32_pad =
        !c.pad ? std::nullopt : std::optional<std::uint64_t>(*c.pad == 0x7FFF ? 0xFFFFFFFF : 0);
    CHECK(at(m.read(a), m.desc(a), 5, 0) == u32_pad);
  }
}

TEST_CASE("SFU PE masks: each participating PE computes its own fragment", "[sfu]") {
  Machine m;
  std::array<FragmentData, kPeCount> data{FragmentData{1, 2}, FragmentData{3, 4}, FragmentData{5, 6},
                                          FragmentData{7, 8}};
  m.tile_per_pe("U#1", DataType::S32, 128, 2, 1, 2, data);
  for (int pe = 0; pe < kPeCount; ++pe) m.m.state().set_gpr(pe, 3, 100 * pe);
  const unsigned d = m.commit("BSTART.SFU TROWSUM, S32\nB.DIM zero, 2, ->LB0\nB.IOT U#1, mask=1100, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).pe_mask == PeMask(0b1100));
  CHECK(m.read(d, 0)[0] == 3u);
  CHECK(m.read(d, 1)[0] == 7u);
  // Each PE reads its own GPR: TCI starts differ per PE.
  const unsigned s = m.commit("BSTART.SFU TCI, S32\nB.DIM zero, 2, ->LB0\nB.IOR r3, zero, zero, ->zero\n"
                              "B.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  for (int pe = 0; pe < kPeCount; ++pe) CHECK(m.read(s, pe)[1] == 100u * pe + 1);
}

TEST_CASE("SFU TTRI diagonal range and TCI/TTRI shape rules", "[sfu]") {
  Machine m;
  const std::string head = "BSTART.SFU TTRI, S32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n";
  m.gpr(1, 65535);
  m.gpr(2, static_cast<std::uint64_t>(-65536));
  CHECK(m.run1(head + "B.IOR r1, zero, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n").kind ==
        BundleOutcome::Kind::Committed);
  m.reject(head + "B.IOR r2, zero, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "diagonal) is -65536");
  m.reject("BSTART.SFU TTRI, S32\nB.DIM zero, 4, ->LB0\nB.DIM zero, 2, ->LB2\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "LB2 (destination Col) 2 is smaller than LB0 (ValidCol) 4");
  m.reject("BSTART.SFU TTRI, S32\nB.DIM zero, 4, ->LB0\nB.DIM zero, 0, ->LB1\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "LB1 (destination ValidRow) must be non-zero");
  m.reject("BSTART.SFU TCI, S32\nB.DIM zero, 2, ->LB1\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "LB0 (destination ValidCol) is required");
  // Diagonal +1 upper: ones strictly above the main diagonal plus one.
  m.gpr(3, 1);
  const unsigned d = m.commit(head + "B.IOR r3, r3, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  FragmentData expected(m.desc(d).element_count());
  expected[0] = 0;
  expected[1] = 1;  // row 0: c >= 1
  expected[2] = expected[3] = 0;
  CHECK(m.read(d) == expected);
}

TEST_CASE("SFU TFILLPAD forms: in-place, expand, layouts", "[sfu]") {
  Machine m;
  m.tile("U#1", DataType::BF16, 128, 4, 2, 3, {1, 2, 3, std::nullopt, 4, 5, 6});
  m.gpr(1, 0xABCD1234);
  // In-place form: no LBs, the destination takes the source's shape; everything is defined.
  const unsigned same = m.commit("BSTART.SFU TFILLPAD, BF16\nB.IOR r1, zero, zero, ->zero\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n");
  const TileDescriptor& sd = m.desc(same);
  CHECK(sd.valid_rows == 2);
  CHECK(sd.valid_cols == 3);
  CHECK(sd.cols == 4);
  const auto a = m.read(same);
  CHECK(at(a, sd, 1, 2) == 6u);
  CHECK(at(a, sd, 0, 3) == 0x1234u);
  CHECK(at(a, sd, 15, 3) == 0x1234u);
  // LB0 = 0 reads as absent (ASL BundleDestinationValidColumns).
  CHECK(m.run1("BSTART.SFU TFILLPAD, BF16\nB.DIM zero, 0, ->LB0\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n").kind ==
        BundleOutcome::Kind::Committed);
  // A smaller destination is illegal.
  m.reject("BSTART.SFU TFILLPAD, BF16\nB.DIM zero, 2, ->LB0\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "smaller than source");
  // Layout ND2DN: a column-major destination, same logical content.
  const unsigned cm = m.commit("BSTART.SFU TFILLPAD, BF16\nB.DATR layout=ND2DN\nB.IOR r1, zero, zero, ->zero\n"
                               "B.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(cm).layout == Layout::ColumnMajor);
  CHECK(m.read(cm) == a);
  // A ZN destination needs whole fractals: 16 rows x 16 BF16 columns.
  m.reject("BSTART.SFU TFILLPAD, BF16\nB.DATR layout=ND2ZN\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "ZN needs rows % 16 == 0 and Col % 16 == 0");
  const unsigned zn = m.commit("BSTART.SFU TFILLPAD, BF16\nB.DATR layout=ND2ZN\nB.DIM zero, 16, ->LB2\n"
                               "B.IOR r1, zero, zero, ->zero\nB.IOT U#1, mask=1111, last, ->T<3>\nBSTOP\n");
  CHECK(m.desc(zn).layout == Layout::ZN);
  CHECK(at(m.read(zn), m.desc(zn), 1, 1) == 5u);
  CHECK(at(m.read(zn), m.desc(zn), 1, 3) == 0x1234u);
}

TEST_CASE("SFU TCONCAT follows the seeds: row-major sources and destination", "[sfu]") {
  Machine m;
  m.tile("U#1", DataType::FP16, 128, 2, 2, 2, zeros(4));
  m.tile("U#2", DataType::FP16, 128, 2, 2, 2, zeros(4), Layout::ColumnMajor);
  m.tile("U#3", DataType::FP16, 128, 2, 3, 2, zeros(6));
  const std::string head = "BSTART.SFU TCONCAT, FP16\nB.DIM zero, 4, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n";
  m.reject(head + "B.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileLegality,
              "TCONCAT sources are RowMajor");
  m.reject(head + "B.DATR layout=ND2DN\nB.IOT U#1, U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "TCONCAT writes RowMajor");
  m.reject(head + "B.IOT U#1, U#3, mask=1111, last, ->T<1>\nBSTOP\n", FaultCode::TileLegality,
              "they must match");
  m.reject("BSTART.SFU TCONCAT, FP16\nB.DIM zero, 2, ->LB1\nB.IOT U#1, U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "set LB0");
  // LB2 omitted: Col defaults to the left source's 2, narrower than ValidCol 4; the fault says so.
  m.reject("BSTART.SFU TCONCAT, FP16\nB.DIM zero, 4, ->LB0\nB.DIM zero, 2, ->LB1\nB.IOT U#1, U#1, mask=1111, last, ->T<1>\nBSTOP\n",
           FaultCode::TileAllocation, "destination ValidCol 4 exceeds its Col 2");
  CHECK(m.run1(head + "B.IOT U#1, U#1, mask=1111, last, ->T<1>\nBSTOP\n").kind == BundleOutcome::Kind::Committed);
}

TEST_CASE("SFU THISTOGRAM schema and filter rules", "[sfu]") {
  Machine m;
  m.tile("U#1", DataType::U32, 128, 2, 2, 2, {0x01020304, 0x01020305, 0x01FF0304, 0x01020304});
  m.tile("U#2", DataType::U8, 128, 1, 2, 1, {0x01, std::nullopt});
  auto program = [](const std::string& datr, const char* type = "U32", const char* extra = "") {
    return std::string("BSTART.SFU THISTOGRAM, ") + type + "\n" + datr + extra +
           "B.IOT U#1, U#2, mask=1111, last, ->T<5>\nBSTOP\n";
  };
  m.reject(program(""), FaultCode::TileLegality, "requires B.DATR");
  m.reject(program("B.DATR dtype=none, byteid=3\n"), FaultCode::TileLegality, "must be U32 (25)");
  m.reject(program("B.DATR dtype=U32, byteid=3\n", "U32", "B.DIM zero, 2, ->LB0\n"), FaultCode::TileLegality,
              "takes no B.DIM");
  m.reject(program("B.DATR dtype=U32, byteid=1\n", "U16"), FaultCode::TileLegality, "BSTART selects U16");
  // ByteId 3 and 2 need 0 and 1 filter rows; ByteId 1 needs row 1, which is undefined.
  CHECK(m.run1(program("B.DATR dtype=U32, byteid=3\n")).kind == BundleOutcome::Kind::Committed);
  const BundleOutcome b2 = m.run1(program("B.DATR dtype=U32, byteid=2\n"));
  REQUIRE(b2.kind == BundleOutcome::Kind::Committed);
  const auto h = m.read(b2.destinations[0].index);
  const TileDescriptor& hd = m.desc(b2.destinations[0].index);
  CHECK(at(h, hd, 0, 1) == 0u);
  CHECK(at(h, hd, 0, 2) == 2u);    // row 0: two elements with byte 3 == 0x01, byte 2 == 0x02
  CHECK(at(h, hd, 1, 2) == 1u);    // row 1: 0x01FF0304 has byte 2 == 0xFF
  CHECK(at(h, hd, 1, 255) == 2u);
  m.reject(program("B.DATR dtype=U32, byteid=1\n"), FaultCode::TileLegality, "element [1,0] on PE0 is undefined");
  m.reject(program("B.DATR dtype=U32, byteid=0\n"), FaultCode::TileLegality, "consumes column 0 of 3 valid row(s)");
}

}  // namespace
}  // namespace ptosim::model
