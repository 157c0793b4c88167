// SPDX-License-Identifier: BSD-3-Clause
// Equivalents of the pto-spec static contract tests of the SFU operations (tile-static-*-contract-
// 001: selector, engine and the canonical block form decode to the operation) and of
// tests/asl/block/execution/BSTART.{SFU,TEPL}. Each TEST_CASE is named after its AVS file.
#include <catch2/catch.hpp>

#include <string>

#include "model/bundle/assembler.h"
#include "model/bundle/block_builder.h"
#include "model/bundle/encoding.h"
#include "model/sfu/sfu_types.h"

namespace ptosim::model {
namespace {

// The selector decodes to the operation on the SFU engine, its catalog entry is assigned to the
// SFU, and the canonical bundle form built through the assembler and BlockBuilder selects it.
void check_static_contract(Operation op, unsigned selector) {
  const unsigned mode = selector >> 5, function = selector & 31;
  const OperationInfo& info = operation_info(op);
  CHECK(tepl_operation(mode, function) == op);
  CHECK(info.engine == Engine::Sfu);
  CHECK(info.mode == mode);
  CHECK(info.function == function);
  const TeplSelectorInfo* sel = tepl_selector(mode, function);
  REQUIRE(sel);
  CHECK(sel->sfu);
  CHECK(std::string(sel->name) == info.mnemonic);
  for (DataType t : kAllDataTypes) {
    if (!sfu::accepts_type(op, t)) continue;
    const Assembly a = assemble(std::string("BSTART.SFU ") + info.mnemonic + ", " + data_type_name(t) + "\nBSTOP\n", "s");
    REQUIRE(a.ok());
    const auto* start = std::get_if<BStartTepl>(&a.instructions[0].body);
    REQUIRE(start);
    CHECK(start->mode == mode);
    CHECK(start->function == function);
    CHECK(start->dtype == data_type_code(t));
    const ProgramBlocks blocks = build_blocks(a.instructions);
    REQUIRE_FALSE(blocks.fault);
    REQUIRE(blocks.bundles.size() == 1);
    CHECK(blocks.bundles[0].op == op);
    CHECK(blocks.bundles[0].mnemonic == info.mnemonic);
  }
}

#define SFU_STATIC_CONTRACT(file, op, selector) \
  TEST_CASE(file, "[sfu][avs]") { check_static_contract(Operation::op, selector); }

SFU_STATIC_CONTRACT("tile-static-trowsum-contract-001", TROWSUM, 0x040)
SFU_STATIC_CONTRACT("tile-static-trowmax-contract-001", TROWMAX, 0x041)
SFU_STATIC_CONTRACT("tile-static-trowmin-contract-001", TROWMIN, 0x042)
SFU_STATIC_CONTRACT("tile-static-trowprod-contract-001", TROWPROD, 0x043)
SFU_STATIC_CONTRACT("tile-static-trowexpand-contract-001", TROWEXPAND, 0x044)
SFU_STATIC_CONTRACT("tile-static-trowexpandadd-contract-001", TROWEXPANDADD, 0x045)
SFU_STATIC_CONTRACT("tile-static-trowexpandsub-contract-001", TROWEXPANDSUB, 0x046)
SFU_STATIC_CONTRACT("tile-static-trowexpandmul-contract-001", TROWEXPANDMUL, 0x047)
SFU_STATIC_CONTRACT("tile-static-trowexpanddiv-contract-001", TROWEXPANDDIV, 0x048)
SFU_STATIC_CONTRACT("tile-static-trowexpandmax-contract-001", TROWEXPANDMAX, 0x049)
SFU_STATIC_CONTRACT("tile-static-trowexpandmin-contract-001", TROWEXPANDMIN, 0x04A)
SFU_STATIC_CONTRACT("tile-static-trowexpandexpdif-contract-001", TROWEXPANDEXPDIF, 0x04B)
SFU_STATIC_CONTRACT("tile-static-trowargmax-contract-001", TROWARGMAX, 0x04C)
SFU_STATIC_CONTRACT("tile-static-trowargmin-contract-001", TROWARGMIN, 0x04D)
SFU_STATIC_CONTRACT("tile-static-tcolsum-contract-001", TCOLSUM, 0x050)
SFU_STATIC_CONTRACT("tile-static-tcolmax-contract-001", TCOLMAX, 0x051)
SFU_STATIC_CONTRACT("tile-static-tcolmin-contract-001", TCOLMIN, 0x052)
SFU_STATIC_CONTRACT("tile-static-tcolprod-contract-001", TCOLPROD, 0x053)
SFU_STATIC_CONTRACT("tile-static-tcolexpand-contract-001", TCOLEXPAND, 0x054)
SFU_STATIC_CONTRACT("tile-static-tcolexpandadd-contract-001", TCOLEXPANDADD, 0x055)
SFU_STATIC_CONTRACT("tile-static-tcolexpandsub-contract-001", TCOLEXPANDSUB, 0x056)
SFU_STATIC_CONTRACT("tile-static-tcolexpandmul-contract-001", TCOLEXPANDMUL, 0x057)
SFU_STATIC_CONTRACT("tile-static-tcolexpanddiv-contract-001", TCOLEXPANDDIV, 0x058)
SFU_STATIC_CONTRACT("tile-static-tcolexpandmax-contract-001", TCOLEXPANDMAX, 0x059)
SFU_STATIC_CONTRACT("tile-static-tcolexpandmin-contract-001", TCOLEXPANDMIN, 0x05A)
SFU_STATIC_CONTRACT("tile-static-tcolexpandexpdif-contract-001", TCOLEXPANDEXPDIF, 0x05B)
SFU_STATIC_CONTRACT("tile-static-tcolargmax-contract-001", TCOLARGMAX, 0x05C)
SFU_STATIC_CONTRACT("tile-static-tcolargmin-contract-001", TCOLARGMIN, 0x05D)
SFU_STATIC_CONTRACT("tile-static-tconcat-contract-001", TCONCAT, 0x060)
SFU_STATIC_CONTRACT("tile-static-tfillpad-contract-001", TFILLPAD, 0x065)
SFU_STATIC_CONTRACT("tile-static-tci-contract-001", TCI, 0x066)
SFU_STATIC_CONTRACT("tile-static-ttri-contract-001", TTRI, 0x067)
SFU_STATIC_CONTRACT("tile-static-thistogram-contract-001", THISTOGRAM, 0x068)

bool assembles(const std::string& line) { return assemble(line, "s").ok(); }

TEST_CASE("block-bound-bstart-sfu-engine-001", "[sfu][avs]") {
  // BSTART.SFU accepts exactly the assigned operations of the SFU engine, among them all 33 here.
  unsigned sfu = 0;
  for (unsigned mode = 0; mode < 4; ++mode)
    for (unsigned function = 0; function < 32; ++function) {
      const TeplSelectorInfo* sel = tepl_selector(mode, function);
      if (!sel) continue;
      INFO(sel->name);
      CHECK(assembles(std::string("BSTART.SFU ") + sel->name + ", U16") == sel->sfu);
      sfu += sel->sfu ? 1 : 0;
    }
  unsigned modelled = 0;
  for (int i = 0; i < kOperationCount; ++i)
    if (operation_engine(static_cast<Operation>(i)) == Engine::Sfu) {
      ++modelled;
      CHECK(tepl_selector_by_name(operation_mnemonic(static_cast<Operation>(i)))->sfu);
    }
  CHECK(modelled == 33);
  CHECK(sfu > modelled);  // TDIV, TEXP, TSORT, ... are SFU selectors this model does not execute
}

// The BSTART.TEPL carrier form with every variable field zero (Mode 0, Function 0, FP64).
void check_canonical_carrier() {
  const InstructionBody body = decode(0x00019181, 32);
  const auto* start = std::get_if<BStartTepl>(&body);
  REQUIRE(start);
  CHECK(start->dtype == 0);
  CHECK(start->mode == 0);
  CHECK(start->function == 0);
  CHECK(encode(body)->bits == 0x00019181u);
}

TEST_CASE("block-decode-bstart-sfu-canonical-001", "[sfu][avs]") {
  check_canonical_carrier();
  // The SFU alias is the same carrier: an SFU operation assembled with it encodes the TEPL word.
  const Assembly a = assemble("BSTART.SFU TROWSUM, FP64", "s");
  REQUIRE(a.ok());
  CHECK(encode(a.instructions[0].body)->bits == 0x04019181u);
}

TEST_CASE("block-decode-bstart-tepl-canonical-001", "[sfu][avs]") {
  check_canonical_carrier();
  const Assembly a = assemble("BSTART.TEPL TROWSUM, FP64", "s");
  REQUIRE(a.ok());
  CHECK(encode(a.instructions[0].body)->bits == 0x04019181u);
}

TEST_CASE("block-fault-bstart-tepl-reserved-001", "[sfu][avs]") {
  // An unassigned Mode:Function hole and the reserved DataType codes 15 and 31 reject before a
  // block opens.
  for (std::uint64_t word : {0x00519181ULL, 0x78019181ULL, 0xF8019181ULL}) {
    INFO(word);
    const InstructionBody body = decode(word, 32);
    const Status f = validate(body);
    REQUIRE(f);
    CHECK(f->code == FaultCode::IllegalInstruction);
    BlockBuilder builder;
    const FeedResult r = builder.feed(Instruction{body, {}});
    CHECK(r.fault);
    CHECK_FALSE(r.completed);
    CHECK_FALSE(builder.active());
  }
}

TEST_CASE("block-static-bstart-tepl-aliases-001", "[sfu][avs]") {
  // TADD belongs to the VEC engine, TEXP to the SFU: each alias accepts only its engine's
  // operations, the TEPL carrier accepts both.
  CHECK(assembles("BSTART.TEPL TADD, FP32"));
  CHECK(assembles("BSTART.VEC TADD, FP32"));
  CHECK_FALSE(assembles("BSTART.SFU TADD, FP32"));
  CHECK(assembles("BSTART.TEPL TEXP, FP32"));
  CHECK_FALSE(assembles("BSTART.VEC TEXP, FP32"));
  CHECK(assembles("BSTART.SFU TEXP, FP32"));
}

}  // namespace
}  // namespace ptosim::model
