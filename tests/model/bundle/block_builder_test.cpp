// SPDX-License-Identifier: BSD-3-Clause
// The block state machine: every rule with an accepted and a rejected case (fault class, rule
// text, the rejected instruction and the block it belongs to).
#include <catch2/catch.hpp>

#include "tests/model/bundle/bundle_test_util.h"

namespace ptosim::model {
namespace {

using test::Run;
using test::run_program;

/// The single fault of a program run, which must reject exactly its `line`-th line.
BlockFault only_fault(const Run& r, int line) {
  const std::vector<BlockFault> faults = r.faults();
  REQUIRE(faults.size() == 1);
  CHECK(faults[0].loc.line == line);
  CHECK(!faults[0].fault.rule.empty());
  return faults[0];
}

void check_clean(const Run& r) {
  for (const BlockFault& f : r.faults()) FAIL(format_block_fault(f));
  CHECK(!r.end);
}

TEST_CASE("BSTART opens a block, BSTOP completes it with every header field", "[bundle]") {
  const Run r = run_program(
      "BSTART.SFU TROWEXPANDEXPDIF, FP16\n"  // 1
      "B.DATR dtype=FP32, pad=max\n"         // 2
      "B.DIM r3, 16, ->LB0\n"                // 3
      "C.B.DIMI 4, ->LB1\n"                  // 4
      "B.IOT T#1, T#2, mask=1100, last, ->U<2>\n"
      "BSTOP\n");
  check_clean(r);
  const std::vector<Bundle> b = r.bundles();
  REQUIRE(b.size() == 1);
  const Bundle& x = b[0];
  CHECK(x.kind == StartKind::Tepl);
  CHECK(x.dtype_code == 4);
  CHECK(x.mode == 2);
  CHECK(x.function == 11);
  CHECK(x.mnemonic == "TROWEXPANDEXPDIF");
  CHECK(x.op == Operation::TROWEXPANDEXPDIF);
  CHECK(x.lb[0].present);
  CHECK(x.lb[0].reg == 3);
  CHECK(x.lb[0].imm == 16);
  CHECK(x.lb[1].present);
  CHECK(x.lb[1].reg == 0);
  CHECK(x.lb[1].imm == 4);
  CHECK(!x.lb[2].present);
  REQUIRE(x.datr);
  CHECK(x.datr->dtype_code == 1);
  CHECK(x.datr->pad_or_byte_id == 1);
  CHECK(!x.fpatr);
  CHECK(x.fpatr_count == 0);
  CHECK(!x.ior);
  REQUIRE(x.iot.size() == 1);
  CHECK(x.iot[0].source_count == 2);
  CHECK(x.iot[0].sources[0] == 0);
  CHECK(x.iot[0].sources[1] == 1);
  CHECK(x.iot[0].has_destination);
  CHECK(x.iot[0].destination_hand == 1);
  CHECK(x.iot[0].size_code == 2);
  CHECK(x.iot[0].mask == PeMask(0xC));
  CHECK(x.iot[0].last);
  CHECK(x.ios.empty());
  CHECK(x.terminated);
  CHECK(!x.zero_mask_binding_seen);
  CHECK(x.loc.line == 1);
  CHECK(x.index == 0);
  CHECK(x.mask() == PeMask(0xC));
}

TEST_CASE("a CUBE block carries B.FPATR, B.IOR, B.IOS and several B.IOTs", "[bundle]") {
  const Run r = run_program(
      "BSTART.TMATMUL.ACC FP16\n"
      "B.FPATR prequantmode=3, relumode=2\n"
      "B.IOR r4, r5, zero, ->zero\n"
      "B.IOS S9, mask=1111\n"
      "B.IOT M#1, mask=1111\n"
      "B.IOT M#2, mask=1111, last, ->M<3>\n"
      "L.BSTOP\n");
  check_clean(r);
  const Bundle x = r.bundles().at(0);
  CHECK(x.kind == StartKind::Cube);
  CHECK(x.function == 2);
  CHECK(x.mnemonic == "TMATMUL.ACC");
  CHECK(x.op == Operation::TMATMUL_ACC);
  REQUIRE(x.fpatr);
  CHECK(x.fpatr->prequant_mode == 3);
  CHECK(x.fpatr->relu_mode == 2);
  CHECK(x.fpatr_count == 1);
  REQUIRE(x.ior);
  CHECK(x.ior->src[0] == 4);
  CHECK(x.ior->src[1] == 5);
  REQUIRE(x.ios.size() == 1);
  CHECK(x.ios[0].shared_id == 9);
  CHECK(x.ios[0].size_code == 0);
  REQUIRE(x.iot.size() == 2);
  CHECK(!x.iot[0].has_destination);
  CHECK(!x.iot[0].last);
  CHECK(x.iot[1].last);
  CHECK(x.terminated);
}

TEST_CASE("a BSTART while a block is active completes the predecessor first", "[bundle]") {
  const Run r = run_program(
      "BSTART.SFU TROWSUM, FP32\nB.IOT T#1, mask=1111, last, ->T<1>\n"
      "BSTART.VEC TADD, S32\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\nC.BSTOP\n");
  check_clean(r);
  REQUIRE(r.steps.size() == 5);
  REQUIRE(r.steps[2].completed);  // the second BSTART yields the TROWSUM block
  CHECK(r.steps[2].completed->mnemonic == "TROWSUM");
  CHECK(r.steps[2].completed->index == 0);
  REQUIRE(r.steps[4].completed);
  CHECK(r.steps[4].completed->mnemonic == "TADD");
  CHECK(!r.steps[4].completed->op);  // a TEPL op ptosim does not model still forms a bundle
  CHECK(r.steps[4].completed->index == 1);
  CHECK(r.steps[4].completed->iot.size() == 1);  // header state does not leak between blocks
}

TEST_CASE("header commands outside an active block raise BundleControl", "[bundle]") {
  const char* headers[] = {"B.DIM zero, 1, ->LB0", "C.B.DIMI 1, ->LB0",      "B.DATR pad=max",
                           "B.FPATR",              "B.IOR r1",               "B.IOT T#1, mask=1111, last",
                           "B.IOS S1, mask=1111"};
  for (const char* h : headers) {
    INFO(h);
    // Accepted inside a block (B.FPATR needs a CUBE block) ...
    const std::string start = std::string(h) == "B.FPATR" ? "BSTART.TMATMUL FP16\n" : "BSTART.SFU TROWSUM, FP32\n";
    check_clean(run_program(start + h + "\nBSTOP\n"));
    // ... rejected before any BSTART and after BSTOP.
    for (const std::string& program : {std::string(h) + "\n", start + "BSTOP\n" + h + "\n"}) {
      const Run r = run_program(program);
      const BlockFault f = only_fault(r, program.rfind("BSTART", 0) == 0 ? 3 : 1);
      CHECK(f.fault.code == FaultCode::BundleControl);
      CHECK(f.fault.rule.find("outside an active block") != std::string::npos);
      CHECK(f.block_index == -1);
      CHECK(f.block_mnemonic == f.instruction);
    }
  }
}

TEST_CASE("BSTOP, C.BSTOP and L.BSTOP with no active block raise BundleControl", "[bundle]") {
  for (const char* stop : {"BSTOP", "C.BSTOP", "L.BSTOP"}) {
    INFO(stop);
    const BlockFault f = only_fault(run_program(std::string(stop) + "\n"), 1);
    CHECK(f.fault.code == FaultCode::BundleControl);
    CHECK(f.instruction == stop);
    CHECK(f.fault.rule == std::string(stop) + " with no active block");
    // A second stop after a completed block is rejected too.
    const Run twice = run_program(std::string("BSTART.SFU TROWSUM, FP32\n") + stop + "\n" + stop + "\n");
    CHECK(twice.bundles().size() == 1);
    CHECK(only_fault(twice, 3).fault.code == FaultCode::BundleControl);
  }
}

TEST_CASE("duplicate B.DATR, B.IOR and B.FPATR raise BundleControl and keep the first", "[bundle]") {
  const Run datr = run_program("BSTART.SFU TROWSUM, FP32\nB.DATR pad=max\nB.DATR pad=min\nBSTOP\n");
  const BlockFault f = only_fault(datr, 3);
  CHECK(f.fault.code == FaultCode::BundleControl);
  CHECK(f.fault.rule == "duplicate B.DATR in one block");
  CHECK(f.instruction == "B.DATR");
  CHECK(f.block_index == 0);
  CHECK(f.block_mnemonic == "TROWSUM");
  CHECK(datr.bundles().at(0).datr->pad_or_byte_id == 1);  // the rejected instruction changed nothing

  const Run ior = run_program("BSTART.SFU TFILLPAD, FP32\nB.IOR r1\nB.IOR r2\nBSTOP\n");
  CHECK(only_fault(ior, 3).fault.rule == "duplicate B.IOR in one block");
  CHECK(ior.bundles().at(0).ior->src[0] == 1);

  const Run fpatr = run_program("BSTART.TMATMUL FP16\nB.FPATR\nB.FPATR prequantmode=1\nBSTOP\n");
  CHECK(only_fault(fpatr, 3).fault.rule == "duplicate B.FPATR in one block");
  CHECK(fpatr.bundles().at(0).fpatr->prequant_mode == 0);
  CHECK(fpatr.bundles().at(0).fpatr_count == 1);
}

TEST_CASE("B.FPATR: CUBE blocks only, before every binding, consistent fields", "[bundle]") {
  const BlockFault sfu = only_fault(run_program("BSTART.SFU TROWSUM, FP32\nB.FPATR\nBSTOP\n"), 2);
  CHECK(sfu.fault.code == FaultCode::BundleControl);
  CHECK(sfu.fault.rule == "B.FPATR in a non-CUBE block (TROWSUM)");

  for (const char* binding : {"B.IOR zero", "B.IOT M#1, mask=1111", "B.IOS S1, mask=1111"}) {
    INFO(binding);
    const BlockFault after =
        only_fault(run_program(std::string("BSTART.TMATMUL FP16\n") + binding + "\nB.FPATR\nBSTOP\n"), 3);
    CHECK(after.fault.code == FaultCode::BundleControl);
    CHECK(after.fault.rule.find("must precede") != std::string::npos);
    check_clean(run_program(std::string("BSTART.TMATMUL FP16\nB.FPATR\n") + binding + "\nBSTOP\n"));
  }
  // A zero-mask binding adds nothing, so B.FPATR may still follow it.
  check_clean(run_program("BSTART.TMATMUL FP16\nB.IOT M#1, mask=0000\nB.FPATR\nBSTOP\n"));

  const struct {
    const char* fields;
    const char* rule;
  } inconsistent[] = {
      {"rowmaxinit=1", "RowMaxInit=1 requires RowMaxEn=1"},
      {"groupncode=2", "GroupNCode 2 requires GroupMaxEn=1"},
      {"groupmaxen=1", "GroupMaxEn=1 requires a non-zero GroupNCode"},
      {"maxabsen=1", "MaxAbsEn=1 requires RowMaxEn or GroupMaxEn"},
  };
  for (const auto& c : inconsistent) {
    INFO(c.fields);
    const Run r = run_program(std::string("BSTART.TMATMUL FP16\nB.FPATR ") + c.fields + "\nBSTOP\n");
    const BlockFault f = only_fault(r, 2);
    CHECK(f.fault.code == FaultCode::TileLegality);
    CHECK(f.fault.rule.find(c.rule) != std::string::npos);
    CHECK(!r.bundles().at(0).fpatr);
  }
  check_clean(run_program(
      "BSTART.TMATMUL FP16\nB.FPATR rowmaxen=1, rowmaxinit=1, groupmaxen=1, groupncode=3, maxabsen=1\nBSTOP\n"));
}

TEST_CASE("each LB is written once per block across B.DIM and C.B.DIMI", "[bundle]") {
  check_clean(run_program("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 1, ->LB0\nC.B.DIMI 2, ->LB1\nB.DIM r1, 3, ->LB2\nBSTOP\n"));
  const char* pairs[][2] = {{"B.DIM zero, 1, ->LB0", "B.DIM zero, 1, ->LB0"},
                            {"B.DIM zero, 1, ->LB1", "C.B.DIMI 1, ->LB1"},
                            {"C.B.DIMI 1, ->LB2", "B.DIM r2, 0, ->LB2"},
                            {"C.B.DIMI 1, ->LB0", "C.B.DIMI 9, ->LB0"}};
  for (const auto& p : pairs) {
    const Run r = run_program(std::string("BSTART.SFU TROWSUM, FP32\n") + p[0] + "\n" + p[1] + "\nBSTOP\n");
    const BlockFault f = only_fault(r, 3);
    CHECK(f.fault.code == FaultCode::BundleControl);
    CHECK(f.fault.rule.find("written twice") != std::string::npos);
    CHECK(r.bundles().at(0).lb[0].imm + r.bundles().at(0).lb[1].imm + r.bundles().at(0).lb[2].imm <= 1);
  }
}

TEST_CASE("an effective B.IOT after the L-terminated one raises BundleControl", "[bundle]") {
  const Run r = run_program("BSTART.SFU TROWSUM, FP32\nB.IOT T#1, mask=1111, last\nB.IOT mask=1111, ->T<1>\nBSTOP\n");
  const BlockFault f = only_fault(r, 3);
  CHECK(f.fault.code == FaultCode::BundleControl);
  CHECK(f.fault.rule == "B.IOT after the binding list was closed by 'last'");
  CHECK(r.bundles().at(0).iot.size() == 1);
  // Zero-mask B.IOT after L: strict no-op; non-terminated bindings may continue.
  check_clean(run_program("BSTART.SFU TROWSUM, FP32\nB.IOT T#1, mask=1111, last\nB.IOT T#2, mask=0000, last\nBSTOP\n"));
  check_clean(run_program("BSTART.SFU TROWSUM, FP32\nB.IOT T#1, mask=1111\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n"));
}

TEST_CASE("a binding whose mask differs from an earlier effective binding raises TileLegality", "[bundle]") {
  const char* cases[][2] = {
      {"B.IOT T#1, mask=1111", "B.IOT mask=1000, last, ->T<1>"},
      {"B.IOS S1, mask=1100", "B.IOT M#1, mask=1111, last"},
      {"B.IOT M#1, mask=0010", "B.IOS S1, mask=1111"},
      {"B.IOS S1, mask=0100", "B.IOS S2, mask=0001"},
  };
  for (const auto& c : cases) {
    INFO(c[1]);
    const Run r = run_program(std::string("BSTART.TMATMUL FP16\nB.FPATR\n") + c[0] + "\n" + c[1] + "\nBSTOP\n");
    const BlockFault f = only_fault(r, 4);
    CHECK(f.fault.code == FaultCode::TileLegality);
    CHECK(f.fault.rule.find("differs from the block's mask") != std::string::npos);
    CHECK(f.block_mnemonic == "TMATMUL");
  }
  check_clean(run_program("BSTART.TMATMUL FP16\nB.FPATR\nB.IOS S1, mask=1110\nB.IOT M#1, mask=1110\n"
                          "B.IOS S2, mask=1110\nB.IOT mask=1110, last, ->M<1>\nBSTOP\n"));
}

TEST_CASE("at most four B.IOS with distinct Shared tiles", "[bundle]") {
  const std::string four = "BSTART.TMATMUL FP16\nB.IOS S0, mask=1111\nB.IOS S1, mask=1111\nB.IOS S2, mask=1111\nB.IOS S3, mask=1111\n";
  check_clean(run_program(four + "BSTOP\n"));
  const Run fifth = run_program(four + "B.IOS S4, mask=1111\nBSTOP\n");
  CHECK(only_fault(fifth, 6).fault.code == FaultCode::BundleControl);
  CHECK(only_fault(fifth, 6).fault.rule.find("fifth effective B.IOS") != std::string::npos);
  CHECK(fifth.bundles().at(0).ios.size() == 4);
  const Run dup = run_program("BSTART.TMATMUL FP16\nB.IOS S7, mask=1111\nB.IOS mask=1111, ->S7<1>\nBSTOP\n");
  CHECK(only_fault(dup, 3).fault.code == FaultCode::BundleControl);
  CHECK(only_fault(dup, 3).fault.rule == "S7 bound twice by B.IOS in one block");
  // Zero-mask B.IOS neither counts nor collides.
  check_clean(run_program(four + "B.IOS S3, mask=0000\nB.IOS S9, mask=0000\nBSTOP\n"));
}

TEST_CASE("at most sixteen effective B.IOT bindings (PTO_BUNDLE_TILE_BINDING_COUNT)", "[bundle]") {
  std::string program = "BSTART.TMATMUL FP16\n";
  for (int i = 0; i < 16; ++i) program += "B.IOT T#1, mask=1111\n";
  check_clean(run_program(program + "BSTOP\n"));
  const Run r = run_program(program + "B.IOT T#1, mask=1111\nBSTOP\n");
  const BlockFault f = only_fault(r, 18);
  CHECK(f.fault.code == FaultCode::TileLegality);
  CHECK(f.fault.rule == "more than 16 effective B.IOT bindings in one block");
  CHECK(r.bundles().at(0).iot.size() == 16);
}

TEST_CASE("PEMode 000 bindings add nothing but mark a zero-mask binding", "[bundle]") {
  const Run r = run_program("BSTART.SFU TROWSUM, FP32\nB.IOT N#16, mask=0000, last, ->N<1>\nB.IOS S1, mask=0000\nBSTOP\n");
  check_clean(r);
  const Bundle b = r.bundles().at(0);
  CHECK(b.iot.empty());
  CHECK(b.ios.empty());
  CHECK(!b.terminated);
  CHECK(b.zero_mask_binding_seen);
  CHECK(b.is_strict_noop());
  // Outside any block a zero-mask binding is a no-op too (ASL: placement is checked after the mask).
  check_clean(run_program("B.IOT T#1, mask=0000\nB.IOS mask=0000, ->S1<1>\n"));
  const Run effective = run_program("BSTART.SFU TROWSUM, FP32\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(!effective.bundles().at(0).zero_mask_binding_seen);
  CHECK(!effective.bundles().at(0).is_strict_noop());
}

TEST_CASE("reserved field values raise IllegalInstruction before any placement rule", "[bundle]") {
  // Inside a block: the fault belongs to the active block.
  const Run in = run_program("BSTART.SFU TROWSUM, FP32\nB.DIM r24, 1, ->LB0\nBSTOP\n");
  const BlockFault f = only_fault(in, 2);
  CHECK(f.fault.code == FaultCode::IllegalInstruction);
  CHECK(f.fault.rule.find("RegSrc 24") != std::string::npos);
  CHECK(f.instruction == "B.DIM");
  CHECK(f.block_index == 0);
  CHECK(f.block_mnemonic == "TROWSUM");
  CHECK(!in.bundles().at(0).lb[0].present);
  // Outside a block: IllegalInstruction wins over BundleControl; the instruction's own mnemonic.
  const BlockFault out = only_fault(run_program("B.IOS mask=1111, ->S1<13>\n"), 1);
  CHECK(out.fault.code == FaultCode::IllegalInstruction);
  CHECK(out.block_index == -1);
  CHECK(out.block_mnemonic == "B.IOS");
  const BlockFault raw = only_fault(run_program(".word 0x00007013\n"), 1);
  CHECK(raw.fault.code == FaultCode::IllegalInstruction);
  CHECK(raw.instruction == ".word");
  // A zero-mask binding with a reserved SizeCode is still illegal (decode precedes the mask).
  CHECK(only_fault(run_program("B.IOT mask=0000, ->T<12>\n"), 1).fault.code == FaultCode::IllegalInstruction);
}

TEST_CASE("a rejected BSTART does not complete its predecessor", "[bundle]") {
  const Run r = run_program(
      "BSTART.SFU TROWSUM, FP32\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTART.SFU TCOLSUM, 15\nBSTOP\n");
  const BlockFault f = only_fault(r, 3);
  CHECK(f.fault.code == FaultCode::IllegalInstruction);
  CHECK(f.fault.rule.find("DataType 15") != std::string::npos);
  CHECK(f.instruction == "BSTART.SFU");
  CHECK(f.block_index == 0);  // the block still active
  CHECK(f.block_mnemonic == "TROWSUM");
  REQUIRE(r.bundles().size() == 1);  // completed by the BSTOP, not by the rejected BSTART
  CHECK(r.steps[2].completed == std::nullopt);
  // With no block active, a rejected BSTART names the operation it selects.
  const BlockFault alone = only_fault(run_program("BSTART.TMATMUL none\n"), 1);
  CHECK(alone.block_index == -1);
  CHECK(alone.block_mnemonic == "TMATMUL");
  CHECK(alone.fault.rule.find("DataType 31") != std::string::npos);
  const BlockFault hole = only_fault(run_program("BSTART.TEPL 3, 9, FP32\n"), 1);
  CHECK(hole.block_mnemonic == "BSTART.TEPL");
  CHECK(hole.fault.rule.find("unassigned") != std::string::npos);
}

TEST_CASE("the builder exposes the block being collected", "[bundle]") {
  const Assembly a = assemble("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 4, ->LB0\nBSTART.SFU TCOLSUM, 30\nBSTOP\n", "p.s");
  REQUIRE(a.ok());
  BlockBuilder builder;
  CHECK(!builder.active());
  CHECK(builder.blocks_started() == 0);
  builder.feed(a.instructions[0]);
  builder.feed(a.instructions[1]);
  CHECK(builder.active());
  CHECK(builder.blocks_started() == 1);
  CHECK(builder.current().mnemonic == "TROWSUM");
  CHECK(builder.current().lb[0].imm == 4);
  CHECK(builder.feed(a.instructions[2]).fault);  // reserved DataType: the TROWSUM block stays open
  CHECK(builder.current().mnemonic == "TROWSUM");
  CHECK(builder.blocks_started() == 1);
  CHECK(builder.feed(a.instructions[3]).completed);
  CHECK(!builder.active());
  CHECK(!builder.finish());
}

TEST_CASE("a block still open at the end of the program is BundleControl", "[bundle]") {
  const Run r = run_program("BSTART.SFU TROWSUM, FP32\nBSTOP\nBSTART.TGEMV BF16\nB.FPATR\n");
  CHECK(r.faults().empty());
  REQUIRE(r.end);
  CHECK(r.end->fault.code == FaultCode::BundleControl);
  CHECK(r.end->fault.rule == "block not closed by BSTOP before the end of the program");
  CHECK(r.end->block_index == 1);
  CHECK(r.end->block_mnemonic == "TGEMV");
  CHECK(r.end->loc.line == 3);
  CHECK(format_block_fault(*r.end) ==
        "p.s:3:1: Fault_BundleControl in block 1 (TGEMV) at end of program: block not closed by BSTOP before the "
        "end of the program");
  CHECK(!run_program("BSTART.SFU TROWSUM, FP32\nBSTOP\n").end);
}

TEST_CASE("build_blocks stops at the first fault and keeps the blocks before it", "[bundle]") {
  const Assembly a = assemble(
      "BSTART.SFU TROWSUM, FP32\nBSTOP\nBSTART.SFU TCOLSUM, FP32\nBSTART.SFU TCOLMAX, FP32\nB.DATR\nB.DATR\n"
      "BSTOP\nBSTART.SFU TCOLMIN, FP32\nBSTOP\n",
      "p.s");
  REQUIRE(a.ok());
  const ProgramBlocks p = build_blocks(a.instructions);
  REQUIRE(p.bundles.size() == 2);
  CHECK(p.bundles[0].mnemonic == "TROWSUM");
  CHECK(p.bundles[1].mnemonic == "TCOLSUM");
  REQUIRE(p.fault);
  CHECK(p.fault->loc.line == 6);
  CHECK(p.fault->block_index == 2);
  CHECK(format_block_fault(*p.fault) ==
        "p.s:6:1: Fault_BundleControl in block 2 (TCOLMAX) at B.DATR: duplicate B.DATR in one block");
  const ProgramBlocks open = build_blocks(assemble("BSTART.SFU TROWSUM, FP32\n", "p.s").instructions);
  CHECK(open.bundles.empty());
  REQUIRE(open.fault);
  CHECK(open.fault->instruction == "end of program");
}

}  // namespace
}  // namespace ptosim::model
