// SPDX-License-Identifier: BSD-3-Clause
// Catch2 equivalents of pto-spec's AVS programs for the CUBE family:
//   tests/asl/tile/matrix-and-matrix-vector/** (28 files), tests/asl/block/execution/BSTART.T{MATMUL,
//   GEMV}*/** (35 files) and tests/asl/tile/model/execution/{cube,postprocess}/** (10 files).
// Each TEST_CASE names its AVS file. Inputs are the AVS encodings; integer, legality and geometry
// expectations are the AVS ones; floating expectations are re-derived under the IEEE hardware
// profile (the AVS values come from pto-v0's raw-carrier arithmetic). Where ptosim follows ADR
// 0079 against the ASL (power-of-two M/N/K, PE_MASK=1111, C/D aliasing) the test asserts the ptosim
// behaviour and says so; docs/isa-coverage.md lists every such case.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/bundle/disassembler.h"
#include "model/bundle/encoding.h"
#include "tests/model/cube/cube_core_harness.h"
#include "tests/model/cube/cube_test_util.h"

namespace ptosim::model::cube_test {
namespace {

// FP16 raw 2 and 3 are the subnormals 2 * 2^-24 and 3 * 2^-24: their exact product is 6 * 2^-48.
const std::uint32_t kSixTimes2m48 = f32(std::ldexp(6.0F, -48));

/// The 1x1 FP16 operand set the direct AVS tests use: A = 2, B = 3 (raw encodings).
void unit_fp16(Machine& mc) {
  mc.cube("T#1", Layout::CubeM16, DataType::FP16, 1, 1, fill(2));
  mc.cube("T#2", Layout::CubeN8, DataType::FP16, 1, 1, fill(3));
}

std::string block(const std::string& start, const std::string& body) {
  return "BSTART." + start + "\nB.FPATR\n" + body + "BSTOP\n";
}

/// The AVS static (catalog) facts of one operation: CUBE function code, mnemonic, engine, and
/// whether a Shared B source is accepted (TGEMV forms are Local-only).
void check_catalog(Operation op, unsigned function, const char* mnemonic, bool shared_allowed) {
  INFO(mnemonic);
  CHECK(cube_operation(function) == op);
  CHECK(operation_info(op).function == function);
  CHECK(std::string(operation_mnemonic(op)) == mnemonic);
  CHECK(operation_engine(op) == Engine::Cube);
  Machine mc;
  FormSpec f;
  f.op = op;
  f.shared_b = true;
  const std::string program = setup(mc, f);
  if (shared_allowed) CHECK(mc.run1(program).kind == BundleOutcome::Kind::Committed);
  else mc.reject(program, FaultCode::TileLegality, "Local-only");
}

// ---------------------------------------------------------------------------------------------
// tests/asl/tile/matrix-and-matrix-vector/matrix-matrix

TEST_CASE("AVS TMATMUL/tile-exec-tmatmul-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  const auto d = mc.commit(block("TMATMUL FP16", "B.IOT T#1, T#2, mask=1111, last, ->M<1>\n"));
  CHECK(mc.desc(d[0]).dtype == DataType::FP32);
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0 raw result: 6
}

TEST_CASE("AVS TMATMUL/tile-static-tmatmul-contract-001", "[cube][avs]") {
  check_catalog(Operation::TMATMUL, 0, "TMATMUL", true);
}

TEST_CASE("AVS TMATMUL_ACC/tile-exec-tmatmul-acc-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.cube("U#1", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
  const auto d = mc.commit(block("TMATMUL.ACC FP16", "B.IOT U#1, T#1, mask=1111\nB.IOT T#2, mask=1111, last, ->M<1>\n"));
  // pto-v0: 5 + 6 = 11. IEEE: C = 5 * 2^-149 is far below half an ulp of 6 * 2^-48.
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);
  CHECK(mc.at(reg_index("U#1"), 0, 0) == 5u);  // C is a source: unchanged
}

TEST_CASE("AVS TMATMUL_ACC/tile-fault-tmatmul-acc-index-002", "[cube][avs]") {
  // The ASL rejects one TileIndex for C and D. ADR 0079 Decision 053 lets C and D resolve to the
  // same tile with read-old/write-new behaviour; ptosim follows the seed. D is always a new
  // allocation, so C and D share a register only when the allocation policy recycles C's:
  // under the queue policy the fresh D of hand T takes the slot of the oldest T (here C = T#16).
  Machine mc(AllocationPolicy::Queue);
  for (int i = 1; i <= 15; ++i) mc.ordinary("T#" + std::to_string(i), DataType::U8, 128, 8, 1, 1, fill(0));
  mc.cube("T#16", Layout::CubeM16, DataType::FP32, 1, 1, fill(f32(5.0F)), 128);
  mc.cube("U#1", Layout::CubeM16, DataType::FP16, 1, 1, fill(0x4000));  // 2.0
  mc.cube("U#2", Layout::CubeN8, DataType::FP16, 1, 1, fill(0x4200));   // 3.0
  const unsigned c_slot = mc.m.state().physical_index(reg_index("T#16"));
  const auto d = mc.commit(block("TMATMUL.ACC FP16", "B.IOT T#16, U#1, mask=1111\nB.IOT U#2, mask=1111, last, ->T<1>\n"));
  CHECK(d[0] == reg_index("T#1"));
  CHECK(mc.m.state().physical_index(d[0]) == c_slot);  // D took C's physical register
  CHECK(mc.at(d[0], 0, 0) == f32(11.0F));               // read old C (5), write new D (5 + 2 * 3)
  // The ASL's selector clash (C = T#1 with D in hand T) is accepted too; C stays intact.
  Machine asl;
  asl.cube("T#1", Layout::CubeM16, DataType::FP32, 1, 1, fill(f32(5.0F)), 128);
  asl.cube("U#1", Layout::CubeM16, DataType::FP16, 1, 1, fill(0x4000));
  asl.cube("U#2", Layout::CubeN8, DataType::FP16, 1, 1, fill(0x4200));
  const auto d2 = asl.commit(block("TMATMUL.ACC FP16", "B.IOT T#1, U#1, mask=1111\nB.IOT U#2, mask=1111, last, ->T<1>\n"));
  CHECK(d2[0] == reg_index("T#2"));
  CHECK(asl.at(d2[0], 0, 0) == f32(11.0F));
  CHECK(asl.at(reg_index("T#1"), 0, 0) == f32(5.0F));
}

TEST_CASE("AVS TMATMUL_ACC/tile-static-tmatmul-acc-contract-001", "[cube][avs]") {
  check_catalog(Operation::TMATMUL_ACC, 2, "TMATMUL.ACC", true);
}

TEST_CASE("AVS TMATMUL_BIAS/tile-exec-tmatmul-bias-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.ordinary("U#1", DataType::FP32, 128, 1, 1, 1, fill(5), Location::Matrix);
  const auto d = mc.commit(block("TMATMUL.BIAS FP16", "B.IOT T#1, T#2, mask=1111\nB.IOT U#1, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11; the bias 5 * 2^-149 rounds away
}

TEST_CASE("AVS TMATMUL_BIAS/tile-static-tmatmul-bias-contract-001", "[cube][avs]") {
  check_catalog(Operation::TMATMUL_BIAS, 1, "TMATMUL.BIAS", true);
}

TEST_CASE("AVS TMATMUL_MX/tile-bound-tmatmul-mx-scale-001", "[cube][avs]") {
  // FP16 sides take no scale: binding one is a schema error.
  {
    Machine mc;
    mc.cube("T#1", Layout::CubeM16, DataType::FP16, 1, 2, fill(0));
    mc.cube("T#2", Layout::CubeN8, DataType::FP16, 2, 2, fill(0));
    mc.ordinary("T#3", DataType::E8M0, 128, 8, 1, 1, fill(0), Location::Matrix);
    const std::string dims = dim_lines(1, 2, 2);
    mc.commit(block("TMATMULMX FP16", dims + "B.IOT T#1, T#2, mask=1111, last, ->M<1>\n"));
    mc.reject(block("TMATMULMX FP16", dims + "B.IOT T#1, T#3, mask=1111\nB.IOT T#2, mask=1111, last, ->M<1>\n"),
              FaultCode::TileLegality, "expects 2 Local sources (A, B)");
  }
  // E4M3 sides need their E8M0 scales: SA M x ceil(K/32) = 1x1, SB ceil(K/32) x N = 1x2.
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::E4M3, 1, 2, fill(0));
  mc.cube("T#2", Layout::CubeN8, DataType::E4M3, 2, 2, fill(0));
  mc.ordinary("T#3", DataType::E8M0, 128, 8, 1, 1, fill(0), Location::Matrix);
  mc.ordinary("T#4", DataType::E8M0, 128, 8, 1, 2, fill(0), Location::Matrix);
  const std::string dims = dim_lines(1, 2, 2);
  mc.commit(block("TMATMULMX E4M3", dims + "B.IOT T#1, T#3, mask=1111\nB.IOT T#2, T#4, mask=1111, last, ->M<1>\n"));
  mc.reject(block("TMATMULMX E4M3", dims + "B.IOT T#1, T#2, mask=1111\nB.IOT T#4, mask=1111, last, ->M<1>\n"),
            FaultCode::TileLegality, "expects 4 Local sources (A, SA, B, SB)");
}

TEST_CASE("AVS TMATMUL_MX/tile-bound-tmatmul-mx-types-001", "[cube][avs]") {
  // The six side types; FP16/BF16 unscaled, the compact formats scaled; HiF4X2 rejected.
  for (DataType t : {DataType::FP16, DataType::BF16, DataType::E4M3, DataType::E5M2, DataType::E2M1X2, DataType::E1M2X2}) {
    Machine mc;
    FormSpec f;
    f.op = Operation::TMATMUL_MX;
    f.a = f.b = t;
    INFO(data_type_name(t));
    mc.commit(setup(mc, f));
  }
  Machine mc;
  mc.reject(block("TMATMULMX HiF4X2", "B.IOT T#1, T#2, mask=1111, last, ->M<1>\n"), FaultCode::TileLegality,
            "A type HiF4X2 is not an MX input type");
  mc.reject("BSTART.TMATMULMX E2M1X2\nB.DATR dtype=HiF4X2\nB.FPATR\nB.IOT T#1, T#2, mask=1111, last, ->M<1>\nBSTOP\n",
            FaultCode::TileLegality, "B type HiF4X2 is not an MX input type");
  // Mathematical source counts: (FP16, BF16) 2, (E4M3, BF16) 3, (FP16, E1M2X2) 3, ACC (E4M3, E1M2X2) 5.
  mc.reject("BSTART.TMATMULMX FP16\nB.DATR dtype=BF16\nB.FPATR\nB.IOT mask=1111, last, ->M<1>\nBSTOP\n",
            FaultCode::TileLegality, "expects 2 Local sources (A, B)");
  mc.reject("BSTART.TMATMULMX E4M3\nB.DATR dtype=BF16\nB.FPATR\nB.IOT mask=1111, last, ->M<1>\nBSTOP\n",
            FaultCode::TileLegality, "expects 3 Local sources (A, SA, B)");
  mc.reject("BSTART.TMATMULMX FP16\nB.DATR dtype=E1M2X2\nB.FPATR\nB.IOT mask=1111, last, ->M<1>\nBSTOP\n",
            FaultCode::TileLegality, "expects 3 Local sources (A, B, SB)");
  mc.reject("BSTART.TMATMULMX.ACC E4M3\nB.DATR dtype=E1M2X2\nB.FPATR\nB.IOT mask=1111, last, ->M<1>\nBSTOP\n",
            FaultCode::TileLegality, "expects 5 Local sources (C, A, SA, B, SB)");
}

TEST_CASE("AVS TMATMUL_MX/tile-exec-tmatmul-mx-unscaled-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  const auto d = mc.commit(block("TMATMULMX FP16", "B.IOT T#1, T#2, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 6
}

TEST_CASE("AVS TMATMUL_MX/tile-static-tmatmul-mx-contract-001", "[cube][avs]") {
  check_catalog(Operation::TMATMUL_MX, 4, "TMATMULMX", true);
}

TEST_CASE("AVS TMATMUL_MX_ACC/tile-exec-tmatmul-mx-acc-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.cube("U#1", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
  const auto d = mc.commit(block("TMATMULMX.ACC FP16", "B.IOT U#1, T#1, mask=1111\nB.IOT T#2, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS TMATMUL_MX_ACC/tile-fault-tmatmul-mx-acc-index-002", "[cube][avs]") {
  // As TMATMUL_ACC/...-index-002: C and D may be one tile (ADR 0079), read-old/write-new. E4M3
  // operands with E8M0 scales 0x01 (2^-126): A = 2 * 2^-9 * 2^-126, B = 3 * 2^-9 * 2^-126, so the
  // term 6 * 2^-270 vanishes against C = 5 * 2^-149 (pto-v0 rejects before computing anything).
  Machine mc(AllocationPolicy::Queue);
  for (int i = 1; i <= 15; ++i) mc.ordinary("T#" + std::to_string(i), DataType::U8, 128, 8, 1, 1, fill(0));
  mc.cube("T#16", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
  mc.cube("U#1", Layout::CubeM16, DataType::E4M3, 1, 1, fill(2));
  mc.ordinary("U#2", DataType::E8M0, 128, 128, 1, 1, fill(1));
  mc.cube("U#3", Layout::CubeN8, DataType::E4M3, 1, 1, fill(3));
  mc.ordinary("U#4", DataType::E8M0, 128, 128, 1, 1, fill(1));
  const unsigned c_slot = mc.m.state().physical_index(reg_index("T#16"));
  const auto d = mc.commit(
      block("TMATMULMX.ACC E4M3", "B.IOT T#16, U#1, mask=1111\nB.IOT U#2, U#3, mask=1111\nB.IOT U#4, mask=1111, last, ->T<1>\n"));
  CHECK(mc.m.state().physical_index(d[0]) == c_slot);
  CHECK(mc.at(d[0], 0, 0) == 5u);
}

TEST_CASE("AVS TMATMUL_MX_ACC/tile-static-tmatmul-mx-acc-contract-001", "[cube][avs]") {
  check_catalog(Operation::TMATMUL_MX_ACC, 6, "TMATMULMX.ACC", true);
}

TEST_CASE("AVS TMATMUL_MX_BIAS/tile-exec-tmatmul-mx-bias-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.ordinary("U#1", DataType::FP32, 128, 1, 1, 1, fill(5), Location::Matrix);
  const auto d = mc.commit(block("TMATMULMX.BIAS FP16", "B.IOT T#1, T#2, mask=1111\nB.IOT U#1, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS TMATMUL_MX_BIAS/tile-static-tmatmul-mx-bias-contract-001", "[cube][avs]") {
  check_catalog(Operation::TMATMUL_MX_BIAS, 5, "TMATMULMX.BIAS", true);
}

// ---------------------------------------------------------------------------------------------
// tests/asl/tile/matrix-and-matrix-vector/matrix-vector

TEST_CASE("AVS TGEMV/tile-exec-tgemv-row-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::U16, 1, 2, values({2, 3}, 2));
  mc.cube("T#2", Layout::CubeN8, DataType::U16, 2, 2, values({5, 7, 11, 13}, 2));
  const auto d = mc.commit(block("TGEMV U16", dim_lines(1, 2, 2) + "B.IOT T#1, T#2, mask=1111, last, ->M<1>\n"));
  CHECK(mc.desc(d[0]).dtype == DataType::U32);
  CHECK(mc.at(d[0], 0, 0) == 43u);
  CHECK(mc.at(d[0], 0, 1) == 53u);
}

TEST_CASE("AVS TGEMV/tile-static-tgemv-contract-001", "[cube][avs]") {
  check_catalog(Operation::TGEMV, 16, "TGEMV", false);
}

TEST_CASE("AVS TGEMV_ACC/tile-exec-tgemv-acc-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.cube("U#1", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
  const auto d = mc.commit(block("TGEMV.ACC FP16", "B.IOT U#1, T#1, mask=1111\nB.IOT T#2, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS TGEMV_ACC/tile-static-tgemv-acc-contract-001", "[cube][avs]") {
  check_catalog(Operation::TGEMV_ACC, 18, "TGEMV.ACC", false);
}

TEST_CASE("AVS TGEMV_BIAS/tile-exec-tgemv-bias-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.ordinary("U#1", DataType::FP32, 128, 1, 1, 1, fill(5), Location::Matrix);
  const auto d = mc.commit(block("TGEMV.BIAS FP16", "B.IOT T#1, T#2, mask=1111\nB.IOT U#1, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS TGEMV_BIAS/tile-static-tgemv-bias-contract-001", "[cube][avs]") {
  check_catalog(Operation::TGEMV_BIAS, 17, "TGEMV.BIAS", false);
}

TEST_CASE("AVS TGEMV_MX/tile-exec-tgemv-mx-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  const auto d = mc.commit(block("TGEMVMX FP16", "B.IOT T#1, T#2, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 6
}

TEST_CASE("AVS TGEMV_MX/tile-static-tgemv-mx-contract-001", "[cube][avs]") {
  check_catalog(Operation::TGEMV_MX, 20, "TGEMVMX", false);
}

TEST_CASE("AVS TGEMV_MX_ACC/tile-exec-tgemv-mx-acc-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.cube("U#1", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
  const auto d = mc.commit(block("TGEMVMX.ACC FP16", "B.IOT U#1, T#1, mask=1111\nB.IOT T#2, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS TGEMV_MX_ACC/tile-static-tgemv-mx-acc-contract-001", "[cube][avs]") {
  check_catalog(Operation::TGEMV_MX_ACC, 22, "TGEMVMX.ACC", false);
}

TEST_CASE("AVS TGEMV_MX_BIAS/tile-exec-tgemv-mx-bias-direct-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.ordinary("U#1", DataType::FP32, 128, 1, 1, 1, fill(5), Location::Matrix);
  const auto d = mc.commit(block("TGEMVMX.BIAS FP16", "B.IOT T#1, T#2, mask=1111\nB.IOT U#1, mask=1111, last, ->M<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS TGEMV_MX_BIAS/tile-static-tgemv-mx-bias-contract-001", "[cube][avs]") {
  check_catalog(Operation::TGEMV_MX_BIAS, 21, "TGEMVMX.BIAS", false);
}

// ---------------------------------------------------------------------------------------------
// tests/asl/block/execution/BSTART.T{MATMUL,GEMV}*

TEST_CASE("AVS BSTART.TMATMUL/block-bound-bstart-tmatmul-dimensions-001", "[cube][avs]") {
  Machine mc;
  mc.ordinary("T#1", DataType::FP16, 128, 8, 1, 1, fill(2), Location::Matrix);
  mc.ordinary("T#2", DataType::FP16, 128, 8, 1, 1, fill(3), Location::Matrix);
  mc.reject(block("TMATMUL FP16", "B.DIM zero, 0, ->LB0\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\n"),
            FaultCode::TileLegality, "LB0 (M) resolves to 0");
  mc.reject(block("TMATMUL FP16", "B.DIM zero, 3, ->LB2\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\n"),
            FaultCode::TileLegality, "LB2 (K) = 3 is not a power of two");
}

TEST_CASE("AVS BSTART.TMATMUL/block-bound-bstart-tmatmul-mask-001", "[cube][avs]") {
  Machine mc;
  // Zero participation: a strict no-op even though T#15 and T#16 hold nothing.
  const BundleOutcome noop = mc.run1(block("TMATMUL FP16", "B.IOT T#15, T#16, mask=0000, last, ->T<1>\n"));
  CHECK(noop.kind == BundleOutcome::Kind::Noop);
  CHECK(mc.m.state().capacity_in_use() == 0);
  // A non-zero partial mask: the ASL executes it; ADR 0079 Decision 051 makes it illegal and
  // ptosim follows the seed.
  unit_fp16(mc);
  // (The AVS's '0011' has no PEMode encoding; '1100' is the encodable two-PE mask.)
  mc.reject(block("TMATMUL FP16", "B.IOT T#1, T#2, mask=1100, last, ->T<1>\n"), FaultCode::TileLegality,
            "PE mask 1100: every executing CUBE binding must use 1111");
}

TEST_CASE("AVS BSTART.TMATMUL/block-bound-bstart-tmatmul-presence-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::FP32, 1, 1, fill(2));
  mc.cube("T#2", Layout::CubeN8, DataType::FP32, 1, 1, fill(3));
  // An explicit DataType 0 is FP64, not "absent".
  mc.reject("BSTART.TMATMUL FP32\nB.DATR dtype=FP64\nB.FPATR\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n",
            FaultCode::TileLegality, "B type FP64 is not a TMATMUL input type");
  // Omitted B.DATR inherits the FP32 A type.
  mc.commit(block("TMATMUL FP32", "B.IOT T#1, T#2, mask=1111, last, ->T<1>\n"));
}

TEST_CASE("AVS BSTART.TMATMUL/block-bound-bstart-tmatmul-types-001", "[cube][avs]") {
  struct Pair {
    DataType a, b, acc;
  };
  for (const Pair& p : {Pair{DataType::FP16, DataType::E4M3, DataType::FP32}, Pair{DataType::S16, DataType::S4X2, DataType::S32},
                        Pair{DataType::U16, DataType::U4X2, DataType::U32}}) {
    Machine mc;
    FormSpec f;
    f.a = p.a;
    f.b = p.b;
    f.a_fn = f.b_fn = fill(1);
    const auto d = mc.commit(setup(mc, f));
    CHECK(mc.desc(d[0]).dtype == p.acc);
  }
  for (DataType t : {DataType::FP64, DataType::E8M0, DataType::HiF4X2, DataType::S64, DataType::S32, DataType::U64, DataType::U32}) {
    Machine mc;
    mc.reject(block(std::string("TMATMUL ") + data_type_name(t), "B.IOT T#1, T#2, mask=1111, last, ->T<1>\n"),
              FaultCode::TileLegality, std::string("A type ") + data_type_name(t) + " is not a TMATMUL input type");
  }
  Machine mc;
  mc.reject("BSTART.TMATMUL FP16\nB.DATR dtype=S16\nB.FPATR\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n",
            FaultCode::TileLegality, "are not of one class");
}

TEST_CASE("AVS BSTART.T*/block-decode-bstart-*-canonical-001 (12 files)", "[cube][avs]") {
  struct Form {
    const char* mnemonic;
    Operation op;
    unsigned function;
  };
  for (const Form& f : {Form{"TMATMUL", Operation::TMATMUL, 0}, Form{"TMATMUL.BIAS", Operation::TMATMUL_BIAS, 1},
                        Form{"TMATMUL.ACC", Operation::TMATMUL_ACC, 2}, Form{"TMATMULMX", Operation::TMATMUL_MX, 4},
                        Form{"TMATMULMX.BIAS", Operation::TMATMUL_MX_BIAS, 5},
                        Form{"TMATMULMX.ACC", Operation::TMATMUL_MX_ACC, 6}, Form{"TGEMV", Operation::TGEMV, 16},
                        Form{"TGEMV.BIAS", Operation::TGEMV_BIAS, 17}, Form{"TGEMV.ACC", Operation::TGEMV_ACC, 18},
                        Form{"TGEMVMX", Operation::TGEMV_MX, 20}, Form{"TGEMVMX.BIAS", Operation::TGEMV_MX_BIAS, 21},
                        Form{"TGEMVMX.ACC", Operation::TGEMV_MX_ACC, 22}}) {
    INFO(f.mnemonic);
    // DataType[31:27] | 00 | Fn[24:20] | 0x31181 (the AVS words carry DataType 0 / FP16).
    const std::uint64_t word = (std::uint64_t{4} << 27) | (std::uint64_t{f.function} << 20) | 0x31181;
    const InstructionBody body = decode(word, 32);
    const auto* start = std::get_if<BStartCube>(&body);
    REQUIRE(start);
    CHECK(start->function == f.function);
    CHECK(cube_operation(start->function) == f.op);
    CHECK(disassemble(body) == std::string("BSTART.") + f.mnemonic + " FP16");
  }
}

TEST_CASE("AVS BSTART.TMATMUL/block-exec-bstart-tmatmul-defaults-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::FP16, 1, 1, fill(6));
  mc.cube("T#2", Layout::CubeN8, DataType::FP16, 1, 1, fill(7));
  const auto d = mc.commit(block("TMATMUL FP16", "B.IOT T#1, T#2, mask=1111, last, ->T<1>\n"));
  const TileDescriptor& dd = mc.desc(d[0]);
  CHECK(dd.dtype == DataType::FP32);
  CHECK(dd.valid_rows == 1);
  CHECK(dd.valid_cols == 1);
  CHECK(mc.at(d[0], 0, 0) == f32(std::ldexp(42.0F, -48)));  // pto-v0: 42
}

TEST_CASE("AVS BSTART.TMATMUL/block-exec-bstart-tmatmul-mixed-input-types-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::S16, 2, 2, values({1, 2, 3, 4}, 2));
  mc.cube("T#2", Layout::CubeN8, DataType::S8, 2, 2, values({5, 6, 7, 8}, 2));
  // B.DATR carries B = S8 with RMode=RNE and Sat=1, which ADR 0079 allows (no post-conversion here).
  const auto d = mc.commit("BSTART.TMATMUL S16\nB.DATR dtype=S8, rmode=rne, sat=1\nB.FPATR\n" + dim_lines(2, 2, 2) +
                           "B.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(mc.desc(d[0]).dtype == DataType::S32);
  CHECK(mc.desc(d[0]).valid_rows == 2);
  CHECK(mc.desc(d[0]).valid_cols == 2);
  CHECK(mc.at(d[0], 0, 0) == 19u);
  CHECK(mc.at(d[0], 0, 1) == 22u);
  CHECK(mc.at(d[0], 1, 0) == 43u);
  CHECK(mc.at(d[0], 1, 1) == 50u);
}

TEST_CASE("AVS BSTART.TMATMUL/block-exec-bstart-tmatmul-shared-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::U16, 1, 1, fill(6));
  mc.shared(9, DataType::U8, 128, 1, 1, 1, fill(7));
  const FragmentData shared_before = mc.m.read_shared(9);
  const auto d = mc.commit("BSTART.TMATMUL U16\nB.DATR dtype=U8\nB.FPATR\nB.IOS S9, mask=1111\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(mc.desc(d[0]).dtype == DataType::U32);
  CHECK(mc.at(d[0], 0, 0) == 42u);
  // The Shared source is read, never modified or released.
  CHECK(mc.m.read_shared(9) == shared_before);
  CHECK(mc.m.state().shared(9).published);
}

TEST_CASE("AVS BSTART.TMATMUL.BIAS/block-bound-bstart-tmatmul-bias-shape-001", "[cube][avs]") {
  // Scalar 1x1, column 2x1, full 2x2, ColumnMajor 1x2 and input-typed (S16) Bias all reject.
  struct Bad {
    std::uint32_t capacity, cols, rows, valid_cols;
    DataType t;
    Layout layout;
    const char* rule;
  };
  for (const Bad& b : {Bad{128, 8, 1, 1, DataType::S32, Layout::RowMajor, "has valid shape 1x1, expected 1x2"},
                       Bad{128, 8, 2, 1, DataType::S32, Layout::RowMajor, "has valid shape 2x1, expected 1x2"},
                       Bad{128, 8, 2, 2, DataType::S32, Layout::RowMajor, "has valid shape 2x2, expected 1x2"},
                       Bad{128, 8, 1, 2, DataType::S32, Layout::ColumnMajor, "must be RowMajor"},
                       Bad{128, 8, 1, 2, DataType::S16, Layout::RowMajor, "is S16, expected S32"}}) {
    Machine mc;
    mc.cube("T#1", Layout::CubeM16, DataType::S16, 2, 2, fill(1));
    mc.cube("T#2", Layout::CubeN8, DataType::S8, 2, 2, fill(1));
    if (b.layout == Layout::ColumnMajor) {
      TileDescriptor d = ordinary_desc(b.t, b.capacity, b.cols, b.rows, b.valid_cols);
      d.layout = Layout::ColumnMajor;
      mc.install("U#1", d, fill(1));
    } else {
      mc.ordinary("U#1", b.t, b.capacity, b.cols, b.rows, b.valid_cols, fill(1));
    }
    mc.reject("BSTART.TMATMUL.BIAS S16\nB.DATR dtype=S8\nB.FPATR\n" + dim_lines(2, 2, 2) +
                  "B.IOT T#1, T#2, mask=1111\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, b.rule);
  }
}

TEST_CASE("AVS BSTART.TMATMUL.BIAS/block-exec-bstart-tmatmul-bias-bias-add-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::S16, 2, 2, values({1, 2, 3, 4}, 2));
  mc.cube("T#2", Layout::CubeN8, DataType::S8, 2, 2, values({5, 6, 7, 8}, 2));
  mc.ordinary("T#3", DataType::S32, 128, 8, 1, 2, values({10, 20}, 2), Location::Matrix);
  const auto d = mc.commit("BSTART.TMATMUL.BIAS S16\nB.DATR dtype=S8\nB.FPATR\n" + dim_lines(2, 2, 2) +
                           "B.IOT T#1, T#2, mask=1111\nB.IOT T#3, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(mc.desc(d[0]).dtype == DataType::S32);
  CHECK(mc.at(d[0], 0, 0) == 29u);
  CHECK(mc.at(d[0], 0, 1) == 42u);
  CHECK(mc.at(d[0], 1, 0) == 53u);
  CHECK(mc.at(d[0], 1, 1) == 70u);
}

TEST_CASE("AVS BSTART.TMATMUL.BIAS/block-exec-bstart-tmatmul-bias-shared-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::U16, 1, 1, fill(6));
  mc.shared(10, DataType::U8, 128, 1, 1, 1, fill(7));
  mc.ordinary("T#3", DataType::U32, 128, 8, 1, 1, fill(5), Location::Matrix);
  const auto d = mc.commit(
      "BSTART.TMATMUL.BIAS U16\nB.DATR dtype=U8\nB.FPATR\nB.IOS S10, mask=1111\nB.IOT T#1, mask=1111\nB.IOT T#3, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(mc.at(d[0], 0, 0) == 47u);
}

TEST_CASE("AVS BSTART.TMATMUL.ACC/block-exec-bstart-tmatmul-acc-add-001", "[cube][avs]") {
  Machine mc;
  unit_fp16(mc);
  mc.cube("T#3", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
  const auto d = mc.commit(block("TMATMUL.ACC FP16", "B.IOT T#3, T#1, mask=1111\nB.IOT T#2, mask=1111, last, ->T<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS BSTART.TMATMULMX*/block-exec-bstart-tmatmulmx-{basic,bias-add,acc-add}-001", "[cube][avs]") {
  {
    Machine mc;
    unit_fp16(mc);
    const auto d = mc.commit(block("TMATMULMX FP16", "B.IOT T#1, T#2, mask=1111, last, ->T<1>\n"));
    CHECK(mc.desc(d[0]).dtype == DataType::FP32);
    CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 6
  }
  {
    Machine mc;
    unit_fp16(mc);
    mc.ordinary("T#3", DataType::FP32, 128, 1, 1, 1, fill(5), Location::Matrix);
    const auto d = mc.commit(block("TMATMULMX.BIAS FP16", "B.IOT T#1, T#2, mask=1111\nB.IOT T#3, mask=1111, last, ->T<1>\n"));
    CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
  }
  Machine mc;
  unit_fp16(mc);
  mc.cube("T#3", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
  const auto d = mc.commit(block("TMATMULMX.ACC FP16", "B.IOT T#3, T#1, mask=1111\nB.IOT T#2, mask=1111, last, ->T<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
}

TEST_CASE("AVS BSTART.TGEMV*/block-exec-bstart-tgemv{,mx}-{basic,bias-add,acc-add}-001 (6 files)", "[cube][avs]") {
  for (const char* op : {"TGEMV", "TGEMVMX"}) {
    INFO(op);
    {
      Machine mc;
      unit_fp16(mc);
      const auto d = mc.commit(block(std::string(op) + " FP16", "B.IOT T#1, T#2, mask=1111, last, ->T<1>\n"));
      CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 6
    }
    {
      Machine mc;
      unit_fp16(mc);
      mc.ordinary("T#3", DataType::FP32, 128, 1, 1, 1, fill(5), Location::Matrix);
      const auto d = mc.commit(block(std::string(op) + ".BIAS FP16", "B.IOT T#1, T#2, mask=1111\nB.IOT T#3, mask=1111, last, ->T<1>\n"));
      CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
    }
    Machine mc;
    unit_fp16(mc);
    mc.cube("T#3", Layout::CubeM16, DataType::FP32, 1, 1, fill(5), 128);
    const auto d = mc.commit(block(std::string(op) + ".ACC FP16", "B.IOT T#3, T#1, mask=1111\nB.IOT T#2, mask=1111, last, ->T<1>\n"));
    CHECK(mc.at(d[0], 0, 0) == kSixTimes2m48);  // pto-v0: 11
  }
}

TEST_CASE("AVS BSTART.TGEMV/block-exec-bstart-tgemv-cube-002", "[cube][avs]") {
  // The AVS uses K = 9, N = 10, which ADR 0079 Decisions 049/055 make illegal (powers of two).
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::FP16, 1, 9, fill(0x3C00), 384);
  mc.cube("T#2", Layout::CubeN8, DataType::FP16, 9, 10, fill(0x3C00), 512);
  mc.reject(block("TGEMV FP16", dim_lines(1, 10, 9) + "B.IOT T#1, T#2, mask=1111, last, ->T<4>\n"), FaultCode::TileLegality,
            "LB1 (N) = 10 is not a power of two");
  // The same multi-CELL N8 geometry at K = 16, N = 16 (2 x 2 CELLs of 8 x 8 FP16): every result 16.
  mc.cube("T#3", Layout::CubeM16, DataType::FP16, 1, 16, fill(0x3C00));
  mc.cube("T#4", Layout::CubeN8, DataType::FP16, 16, 16, fill(0x3C00));
  const auto d = mc.commit(block("TGEMV FP16", dim_lines(1, 16, 16) + "B.IOT T#3, T#4, mask=1111, last, ->U<4>\n"));
  const TileDescriptor& dd = mc.desc(d[0]);
  CHECK(dd.layout == Layout::CubeM16);
  CHECK(dd.valid_rows == 1);
  CHECK(dd.valid_cols == 16);
  for (std::uint32_t j = 0; j < 16; ++j) CHECK(mc.at(d[0], 0, j) == f32(16.0F));
}

TEST_CASE("AVS BSTART.TGEMV/block-fault-bstart-tgemv-cube-m-003", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::FP16, 2, 1, fill(0x3C00));
  mc.cube("T#2", Layout::CubeN8, DataType::FP16, 1, 1, fill(0x3C00));
  mc.m.state().set_status(kFlagNX);
  mc.reject(block("TGEMV FP16", "B.DIM zero, 2, ->LB0\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\n"), FaultCode::TileLegality,
            "TGEMV has M = 1, but LB0 resolves to 2");
  CHECK(mc.m.state().status() == kFlagNX);
}

TEST_CASE("AVS BSTART.TGEMV/block-fault-bstart-tgemv-shared-001", "[cube][avs]") {
  Machine mc;
  mc.shared(50, DataType::U8, 128, 1, 1, 1, fill(7));
  mc.reject("BSTART.TGEMV U16\nB.FPATR\nB.IOS S50, mask=1111\nBSTOP\n", FaultCode::TileLegality,
            "TGEMV is Local-only: no B.IOS binding is allowed");
}

// ---------------------------------------------------------------------------------------------
// tests/asl/tile/model/execution/cube

TEST_CASE("AVS cube/tile-bound-preflight-002", "[cube][avs]") {
  // Alias matrix: one tile as both A and B fails B's CUBE_N8 requirement.
  Machine mc;
  mc.cube("T#3", Layout::CubeM16, DataType::U16, 1, 1, fill(2));
  mc.reject(block("TMATMUL U16", "B.IOT T#3, T#3, mask=1111, last, ->T<1>\n"), FaultCode::TileLegality,
            "B T#3 must use CUBE_N8, not CUBE_M16");
  // Composite preflight: a RowMajor 2x1 U32 C for a 1x1 TMATMUL.ACC rejects before any effect.
  mc.cube("T#4", Layout::CubeN8, DataType::U16, 1, 1, fill(3));
  mc.ordinary("T#2", DataType::U32, 1024, 1, 2, 1, fill(5), Location::Matrix);
  mc.reject(block("TMATMUL.ACC U16", "B.IOT T#2, T#3, mask=1111\nB.IOT T#4, mask=1111, last, ->T<1>\n"),
            FaultCode::TileLegality, "C T#2 must use CUBE_M16 or CUBE_M32, not RowMajor");
  // The A2/A3 applicability rule rejects MX; ptosim implements the IEEE hardware profile, where
  // every MX selector executes (docs/isa-coverage.md).
  for (Operation op : {Operation::TMATMUL_MX, Operation::TMATMUL_MX_BIAS, Operation::TMATMUL_MX_ACC, Operation::TGEMV_MX,
                       Operation::TGEMV_MX_BIAS, Operation::TGEMV_MX_ACC}) {
    Machine mx;
    FormSpec f;
    f.op = op;
    f.a = f.b = DataType::E4M3;
    f.a_fn = fill(2);
    f.b_fn = fill(3);
    f.c_fn = fill(5);
    f.bias_fn = fill(7);
    f.sa_fn = f.sb_fn = fill(1);
    INFO(operation_mnemonic(op));
    mx.commit(setup(mx, f));
  }
}

TEST_CASE("AVS cube/tile-bound-totality-001", "[cube][avs]") {
  // Every assigned CUBE function executes with unit operands (A = 2, B = 3, C = 5, Bias = 7).
  for (unsigned fn : {0U, 1U, 2U, 4U, 5U, 6U, 16U, 17U, 18U, 20U, 21U, 22U}) {
    const Operation op = *cube_operation(fn);
    INFO(operation_mnemonic(op));
    Machine mc;
    FormSpec f;
    f.op = op;
    const bool mx = form_mx(op);
    f.a = f.b = mx ? DataType::E4M3 : DataType::U16;
    f.a_fn = fill(2);
    f.b_fn = fill(3);
    f.c_fn = fill(5);
    f.bias_fn = fill(7);
    f.sa_fn = f.sb_fn = fill(1);
    const auto d = mc.commit(setup(mc, f));
    if (!mx) {
      CHECK(mc.at(d[0], 0, 0) == (form_bias(op) ? 13u : form_acc(op) ? 11u : 6u));
    } else {
      // E4M3 raw 2 and 3 scaled by E8M0 0x01 (2^-126) give a term of 6 * 2^-270, far below FP32's
      // subnormals: the result is the initial +0, C (5 * 2^-149) or the bias (7 * 2^-149).
      CHECK(mc.at(d[0], 0, 0) == (form_bias(op) ? 7u : form_acc(op) ? 5u : 0u));
    }
  }
  // Removed / unassigned CUBE functions (e.g. 8) do not decode to an operation.
  CHECK_FALSE(cube_operation(8));
  // Raw carrier codes of every DataType round-trip.
  for (DataType t : kAllDataTypes) CHECK(data_type_from_code(data_type_code(t)) == t);
  // A primary outside the CUBE layouts (the AVS's implementation-defined layout) rejects.
  Machine mc;
  mc.ordinary("T#1", DataType::U16, 128, 8, 1, 1, fill(2), Location::Matrix);
  mc.cube("T#2", Layout::CubeN8, DataType::U16, 1, 1, fill(3));
  mc.reject(block("TMATMUL U16", "B.IOT T#1, T#2, mask=1111, last, ->T<1>\n"), FaultCode::TileLegality,
            "A T#1 must use CUBE_M16 or CUBE_M32, not RowMajor");
}

TEST_CASE("AVS cube/tile-exec-matmul-001", "[cube][avs]") {
  Machine mc;
  mc.cube("T#5", Layout::CubeM16, DataType::U16, 2, 2, values({1, 2, 3, 4}, 2));
  mc.cube("T#6", Layout::CubeN8, DataType::U16, 2, 2, values({5, 6, 7, 8}, 2));
  const std::string dims = dim_lines(2, 2, 2);
  const auto d = mc.commit(block("TMATMUL U16", dims + "B.IOT T#5, T#6, mask=1111, last, ->U<1>\n"));
  CHECK(mc.at(d[0], 0, 0) == 19u);
  CHECK(mc.at(d[0], 0, 1) == 22u);
  CHECK(mc.at(d[0], 1, 0) == 43u);
  CHECK(mc.at(d[0], 1, 1) == 50u);
  mc.ordinary("N#11", DataType::U32, 256, 2, 1, 2, values({1, 2}, 2));
  const auto b = mc.commit(block("TMATMUL.BIAS U16", dims + "B.IOT T#5, T#6, mask=1111\nB.IOT N#11, mask=1111, last, ->U<1>\n"));
  CHECK(mc.at(b[0], 0, 0) == 20u);
  CHECK(mc.at(b[0], 1, 1) == 52u);
  // ACC from the BIAS result (the AVS reuses its D as C): 20 + 19.
  const std::string c = TileRef::local(b[0]).name();
  const auto a = mc.commit(block("TMATMUL.ACC U16", dims + "B.IOT " + c + ", T#5, mask=1111\nB.IOT T#6, mask=1111, last, ->U<1>\n"));
  CHECK(mc.at(a[0], 0, 0) == 39u);
  // 3x3x3 is legal in the ASL's Local path; ADR 0079 requires powers of two.
  mc.cube("M#15", Layout::CubeM16, DataType::U16, 3, 3, fill(1));
  mc.cube("M#16", Layout::CubeN8, DataType::U16, 3, 3, fill(1));
  mc.reject(block("TMATMUL U16", dim_lines(3, 3, 3) + "B.IOT M#15, M#16, mask=1111, last, ->U<1>\n"),
            FaultCode::TileLegality, "LB0 (M) = 3 is not a power of two");
  // TGEMV: [1, 2] x [2; 3] = 8.
  mc.cube("M#12", Layout::CubeN8, DataType::U16, 2, 1, values({2, 3}, 1));
  mc.cube("M#14", Layout::CubeM16, DataType::U16, 1, 2, values({1, 2}, 2));
  const auto g = mc.commit(block("TGEMV U16", dim_lines(1, 1, 2) + "B.IOT M#14, M#12, mask=1111, last, ->U<1>\n"));
  CHECK(mc.at(g[0], 0, 0) == 8u);
}

TEST_CASE("AVS cube/tile-exec-tmatmul-cube-storage-003", "[cube][avs]") {
  // The AVS's 2x3 * 3x2 through the CELL mappings, at the core (K = 3 is below ADR 0079's
  // power-of-two rule for bundles). FP16 raw 1..6 are k * 2^-24; products are exact.
  CoreCase cc;
  cc.args.m = 2;
  cc.args.n = 2;
  cc.args.k = 3;
  cc.a = {1, 2, 3, 4, 5, 6};
  cc.b = {1, 2, 3, 4, 5, 6};
  const CoreResult r = run_core(cc);
  CHECK(r.d == std::vector<std::uint64_t>{f32(std::ldexp(22.0F, -48)), f32(std::ldexp(28.0F, -48)),
                                          f32(std::ldexp(49.0F, -48)), f32(std::ldexp(64.0F, -48))});
  // The bundle path with K = 4 (power of two): [[1..4], [5..8]] x [[1, 2], [3, 4], [5, 6], [7, 8]].
  const std::vector<std::uint64_t> fp16_1_to_8 = {0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800};
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::FP16, 2, 4, values(fp16_1_to_8, 4));
  mc.cube("T#2", Layout::CubeN8, DataType::FP16, 4, 2, values(fp16_1_to_8, 2));
  const auto d = mc.commit(block("TMATMUL FP16", dim_lines(2, 2, 4) + "B.IOT T#1, T#2, mask=1111, last, ->T<1>\n"));
  const TileDescriptor& dd = mc.desc(d[0]);
  CHECK(dd.layout == Layout::CubeM16);
  CHECK(dd.location == Location::Matrix);
  CHECK(mc.at(d[0], 0, 0) == f32(50.0F));
  CHECK(mc.at(d[0], 0, 1) == f32(60.0F));
  CHECK(mc.at(d[0], 1, 0) == f32(114.0F));
  CHECK(mc.at(d[0], 1, 1) == f32(140.0F));
  CHECK(mc.at(d[0], 2, 0) == std::nullopt);  // rows beyond M stay undefined
}

TEST_CASE("AVS cube/tile-static-cube-contract-001", "[cube][avs]") {
  // The unit compiles: the CUBE operations are the catalog's CUBE engine operations.
  int cube_ops = 0;
  for (int i = 0; i < kOperationCount; ++i)
    if (operation_engine(static_cast<Operation>(i)) == Engine::Cube) ++cube_ops;
  CHECK(cube_ops == 12);
}

// ---------------------------------------------------------------------------------------------
// tests/asl/tile/model/execution/postprocess

TEST_CASE("AVS postprocess/tile-atomic-postprocess-rollback-003", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::FP16, 1, 1, fill(0x3C00));
  mc.cube("T#2", Layout::CubeN8, DataType::FP16, 1, 512, fill(0x3C00), 16384);
  mc.m.state().set_status(kFlagNV);
  // As in the ASL, the 1x512 FP32 D (256 CELLs of CUBE_M16) does not fit its 2 KiB TSize.
  const std::string head = "BSTART.TMATMUL FP16\nB.FPATR groupncode=1, rowmaxen=1, groupmaxen=1\n" + dim_lines(1, 512, 1);
  mc.reject(head + "B.IOT T#1, T#2, mask=1111, ->T<5>\nB.IOT mask=1111, ->U<1>\nB.IOT mask=1111, last, ->M<1>\nBSTOP\n",
            FaultCode::TileAllocation, "D (1x512 FP32, 2048 B): CELL bytes exceed the capacity");
  // With a 32 KiB D the late GroupMaxOut (64 FP32 columns in 128 B) fails: still nothing publishes.
  mc.reject(head + "B.IOT T#1, T#2, mask=1111, ->T<9>\nB.IOT mask=1111, ->U<1>\nB.IOT mask=1111, last, ->M<1>\nBSTOP\n",
            FaultCode::TileAllocation, "GroupMaxOut: TSize 128 B cannot hold 1x64 FP32");
  CHECK(mc.m.state().status() == kFlagNV);
}

TEST_CASE("AVS postprocess/tile-exec-postprocess-aux-001", "[cube][avs]") {
  // U32 accumulator 1..9 with RowMaxIn 10, GroupN 8: D raw, RowMax 10, groups [8, 9]. N = 9 is
  // below the bundle power-of-two rule, so the core runs it directly (as the AVS runs
  // CommitMatrixResult directly).
  CoreCase cc;
  cc.args.a_dtype = cc.args.b_dtype = DataType::U16;
  cc.args.acc_dtype = cc.args.out_dtype = DataType::U32;
  cc.args.n = 9;
  cc.args.fpatr.row_max = cc.args.fpatr.row_max_init = cc.args.fpatr.group_max = true;
  cc.args.fpatr.group_n = 8;
  cc.a = {1};
  cc.b = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  cc.row_max_in = {10};
  const CoreResult r = run_core(cc);
  CHECK(r.d[8] == 9u);
  CHECK(r.row_max == std::vector<std::uint64_t>{10});
  CHECK(r.group_max == std::vector<std::uint64_t>{8, 9});
  // Through a bundle at N = 16 (two full groups), RowMaxIn 10 below the row maximum 16.
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::U16, 1, 1, fill(1));
  mc.cube("T#2", Layout::CubeN8, DataType::U16, 1, 16, [](std::uint32_t, std::uint32_t c) { return std::optional<std::uint64_t>(c + 1); });
  mc.ordinary("T#3", DataType::U32, 128, 1, 1, 1, fill(10));
  const auto d = mc.commit("BSTART.TMATMUL U16\nB.FPATR groupncode=1, rowmaxen=1, groupmaxen=1, rowmaxinit=1\n" +
                           dim_lines(1, 16, 1) +
                           "B.IOT T#1, T#2, mask=1111\nB.IOT T#3, mask=1111, ->M<4>\nB.IOT mask=1111, ->U<1>\n"
                           "B.IOT mask=1111, last, ->N<1>\nBSTOP\n");
  REQUIRE(d.size() == 3);
  CHECK(mc.at(d[0], 0, 15) == 16u);
  CHECK(mc.at(d[1], 0, 0) == 16u);
  CHECK(mc.at(d[2], 0, 0) == 8u);
  CHECK(mc.at(d[2], 0, 1) == 16u);
}

TEST_CASE("AVS postprocess/tile-exec-postprocess-group-large-004", "[cube][avs]") {
  CoreCase cc;
  cc.args.a_dtype = cc.args.b_dtype = DataType::U16;
  cc.args.acc_dtype = cc.args.out_dtype = DataType::U32;
  cc.args.n = 3;
  cc.args.fpatr.group_max = true;
  cc.args.fpatr.group_n = 8;
  cc.a = {1};
  cc.b = {2, 5, 4};
  const CoreResult r = run_core(cc);
  CHECK(r.d[2] == 4u);
  CHECK(r.group_max == std::vector<std::uint64_t>{5});
  // Bundle form at N = 4 < GroupN = 8: one partial group.
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::U16, 1, 1, fill(1));
  mc.cube("T#2", Layout::CubeN8, DataType::U16, 1, 4, values({2, 5, 4, 1}, 4));
  const auto d = mc.commit("BSTART.TMATMUL U16\nB.FPATR groupncode=1, groupmaxen=1\n" + dim_lines(1, 4, 1) +
                           "B.IOT T#1, T#2, mask=1111, ->M<2>\nB.IOT mask=1111, last, ->U<1>\nBSTOP\n");
  CHECK(mc.desc(d[1]).valid_cols == 1);
  CHECK(mc.at(d[1], 0, 0) == 5u);
}

TEST_CASE("AVS postprocess/tile-exec-postprocess-maxabs-single-002", "[cube][avs]") {
  Machine mc;
  mc.cube("T#1", Layout::CubeM16, DataType::S16, 1, 1, fill(0xFFFD));  // -3
  mc.cube("T#2", Layout::CubeN8, DataType::S16, 1, 1, fill(1));
  const auto d = mc.commit("BSTART.TMATMUL S16\nB.FPATR groupncode=1, rowmaxen=1, groupmaxen=1, maxabsen=1\n"
                           "B.IOT T#1, T#2, mask=1111, ->M<1>\nB.IOT mask=1111, ->U<1>\nB.IOT mask=1111, last, ->N<1>\nBSTOP\n");
  CHECK(mc.at(d[0], 0, 0) == 0xFFFFFFFDu);
  CHECK(mc.at(d[1], 0, 0) == 3u);
  CHECK(mc.at(d[2], 0, 0) == 3u);
}

TEST_CASE("AVS postprocess/tile-static-postprocess-contract-001", "[cube][avs]") {
  // The unit compiles: the all-zero B.FPATR word is the identity descriptor.
  const InstructionBody body = decode(0x00002023, 32);
  const auto* fpatr = std::get_if<BFpatr>(&body);
  REQUIRE(fpatr);
  CHECK(fpatr->fields.prequant_mode == 0);
  CHECK(fpatr->fields.relu_mode == 0);
  CHECK_FALSE(fpatr->fields.row_max_en);
}

}  // namespace
}  // namespace ptosim::model::cube_test
