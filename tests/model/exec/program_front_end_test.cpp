// SPDX-License-Identifier: BSD-3-Clause
// ProgramFrontEnd: what it yields for a program, block by block, whether it decodes a block or
// replays one decoded before from the same words, is what the BlockBuilder alone builds.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "model/bundle/assembler.h"
#include "model/bundle/block_builder.h"
#include "model/exec/program_front_end.h"

namespace ptosim::model {
namespace {

/// Every field of a bundle, as text.
std::string describe(const Bundle& b) {
  std::ostringstream s;
  s << int(b.kind) << ' ' << int(b.dtype_code) << ' ' << int(b.mode) << ' ' << int(b.function) << ' ' << b.mnemonic
    << ' ' << (b.op ? int(*b.op) : -1) << " lb";
  for (const DimField& d : b.lb) s << ' ' << d.present << ':' << int(d.reg) << ':' << d.imm;
  if (b.datr)
    s << " datr " << int(b.datr->cmode) << int(b.datr->pad_or_byte_id) << b.datr->sat << b.datr->canonicalize
      << int(b.datr->dtype_code) << int(b.datr->rmode) << int(b.datr->layout);
  if (b.fpatr)
    s << " fpatr " << int(b.fpatr->prequant_mode) << int(b.fpatr->relu_mode) << int(b.fpatr->group_n_code)
      << b.fpatr->row_max_en << b.fpatr->group_max_en << b.fpatr->row_max_init << b.fpatr->max_abs_en << b.fpatr->trans_b
      << b.fpatr->trans_a;
  s << " fpatrs " << b.fpatr_count;
  if (b.ior) s << " ior " << int(b.ior->src[0]) << int(b.ior->src[1]) << int(b.ior->src[2]) << int(b.ior->dst);
  for (const IotBinding& io : b.iot)
    s << " iot " << int(io.source_count) << ':' << int(io.sources[0]) << ':' << int(io.sources[1]) << ':'
      << io.has_destination << ':' << int(io.destination_hand) << ':' << int(io.size_code) << ':' << int(io.mask.bits())
      << ':' << io.last;
  for (const IosBinding& io : b.ios) s << " ios " << int(io.shared_id) << ':' << int(io.size_code) << ':' << int(io.mask.bits());
  s << " zero " << b.zero_mask_binding_seen << " term " << b.terminated << " at " << b.loc.file << ':' << b.loc.line
    << ':' << b.loc.column << " index " << b.index;
  return s.str();
}

/// Blocks repeated, interleaved, left open and ended in every way the front end tells apart, then a
/// BSTOP outside a block.
std::string repeat_program() {
  const std::string a = "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\n"
                        "B.IOT T#1, mask=1111, last, ->U<3>\nBSTOP\n";
  const std::string b = "BSTART.SFU TCOLSUM, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\n"
                        "B.IOT T#1, mask=1111, last, ->U<3>\nBSTOP\n";
  const std::string c = "BSTART.SFU TCOLSUM, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 64, ->LB1\n"
                        "B.IOT T#1, mask=1111, last, ->U<3>\nBSTOP\n";
  // As a, but its binding list left open: only the B.IOT's L bit differs.
  const std::string unclosed = "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\n"
                               "B.IOT T#1, mask=1111, ->U<3>\nBSTOP\n";
  // A zero-mask binding between blocks is a no-op its next block's decode pays for (twice); a
  // block ended by the next BSTART instead of BSTOP (twice); six different blocks (more than the
  // front end keeps); a block that differs from a recent one in one bit; then a BSTOP outside a
  // block.
  const std::string zero = "B.IOT T#1, mask=0000, last, ->U<3>\n";
  const std::string open = "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\n"
                           "B.IOT T#1, mask=1111, last, ->U<3>\n";
  std::string d;
  for (int i = 1; i <= 6; ++i)
    d += "BSTART.SFU TROWSUM, FP32\nB.DIM zero, " + std::to_string(i) + ", ->LB0\nB.DIM zero, 128, ->LB1\n"
         "B.IOT T#1, mask=1111, last, ->U<3>\nBSTOP\n";
  return a + b + a + b + zero + a + c + zero + a + open + a + open + a + a + d + a + b + unclosed + "BSTOP\n";
}

TEST_CASE("ProgramFrontEnd: repeated blocks come out as the block builder builds them, then the fault", "[exec]") {
  const std::string text = repeat_program();
  const Assembly assembly = assemble(text, "repeat.s");
  REQUIRE(assembly.errors.empty());

  const ProgramBlocks expected = build_blocks(assembly.instructions);
  REQUIRE(expected.fault);
  ProgramFrontEnd front_end(assembly.instructions);
  std::vector<unsigned> instructions;
  std::size_t n = 0;
  while (auto item = front_end.next()) {
    if (item->fault) {
      CHECK(n == expected.bundles.size());
      CHECK(item->fault->fault.rule == expected.fault->fault.rule);
      CHECK(item->loc().line == expected.fault->loc.line);
      CHECK(item->op() == expected.fault->block_mnemonic);
      CHECK(item->instructions == 1);
      break;
    }
    REQUIRE(item->bundle);
    REQUIRE(n < expected.bundles.size());
    CHECK(describe(*item->bundle) == describe(expected.bundles[n]));
    CHECK(item->op() == expected.bundles[n].mnemonic);
    CHECK(item->loc().line == expected.bundles[n].loc.line);
    instructions.push_back(item->instructions);
    ++n;
  }
  CHECK(n == expected.bundles.size());
  // Every instruction is charged to exactly one item: the no-op to the block after it, the BSTART
  // that ends the open block to that block, whose successor then takes the rest of its own.
  const std::vector<unsigned> counts = {5, 5, 5, 5, 6, 5, 6, 5, 4, 5, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
  CHECK(instructions == counts);
}

TEST_CASE("ProgramFrontEnd: a kept block lends its preflight memo to every replay, a new block starts with none",
          "[exec]") {
  const auto block = [](int rows) {
    return "BSTART.SFU TROWSUM, FP32\nB.DIM zero, " + std::to_string(rows) +
           ", ->LB0\nB.DIM zero, 128, ->LB1\nB.IOT T#1, mask=1111, last, ->U<3>\n";
  };
  const std::string a = block(128) + "BSTOP\n", b = block(64) + "BSTOP\n";
  std::string others;  // more blocks than the front end keeps: a is evicted
  for (std::size_t i = 1; i <= ProgramFrontEnd::kRecentBlocks; ++i) others += block(static_cast<int>(i)) + "BSTOP\n";
  // a, b, a again, a block ended by the next BSTART, the others, then a decoded anew.
  const Assembly assembly = assemble(a + b + a + block(32) + b + others + a, "memo.s");
  REQUIRE(assembly.errors.empty());
  ProgramFrontEnd front_end(assembly.instructions);
  std::vector<FetchedBundle> items;
  while (auto item = front_end.next()) {
    REQUIRE(item->bundle);
    // What a preflight would leave: facts of this bundle.
    if (item->memo && !item->memo->cube) item->memo->cube.emplace().scalar_slots = static_cast<unsigned>(items.size());
    items.push_back(*item);
  }
  REQUIRE(items.size() == 6 + ProgramFrontEnd::kRecentBlocks);
  CHECK(items[0].memo != nullptr);
  CHECK(items[1].memo != items[0].memo);
  CHECK(items[2].memo == items[0].memo);  // the replay of a finds what a's preflight left
  CHECK(items[3].memo == nullptr);        // not kept: the next BSTART ended it
  CHECK(items[4].memo == nullptr);        // b, whose BSTART ended the block before: not kept either
  // The last a was decoded again after eviction: its memo, wherever it lies, was empty when lent
  // (the loop above filled it with its own index).
  const FetchedBundle& last = items.back();
  REQUIRE(last.memo);
  REQUIRE(last.memo->cube);
  CHECK(last.memo->cube->scalar_slots == items.size() - 1);
}

TEST_CASE("A program front end feeds one reader: a claim succeeds while no other holds it", "[exec]") {
  ProgramFrontEnd front_end({});
  CHECK(front_end.claim());
  CHECK_FALSE(front_end.claim());
  front_end.release();
  CHECK(front_end.claim());
}

}  // namespace
}  // namespace ptosim::model

namespace ptosim::model {

TEST_CASE("first_instruction_fault finds, before anything runs, the fault the front end meets", "[exec]") {
  const std::string good = "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 4, ->LB0\nB.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n";
  // Outside a block, a reserved GPR, a block the program's end leaves open (the next BSTART would
  // have ended it).
  for (const std::string& bad : {"B.DIM zero, 4, ->LB0\n" + good, "BSTART.SFU TROWSUM, FP32\nB.DIM r24, 4, ->LB0\nBSTOP\n" + good,
                                 std::string("BSTART.SFU TROWSUM, FP32\n")}) {
    const Assembly assembly = assemble(good + good + bad, "f.s");
    REQUIRE(assembly.errors.empty());
    const auto early = first_instruction_fault(assembly.instructions);
    ProgramFrontEnd front_end(assembly.instructions);
    std::optional<BlockFault> met;
    while (auto item = front_end.next())
      if (item->fault) met = item->fault;
    INFO(bad);
    REQUIRE(early);
    REQUIRE(met);
    CHECK(early->fault.code == met->fault.code);
    CHECK(early->fault.rule == met->fault.rule);
    CHECK(format_location(early->loc) == format_location(met->loc));
  }
  const Assembly clean = assemble(good + good, "f.s");
  CHECK_FALSE(first_instruction_fault(clean.instructions));
  // It skips a block that repeats the one before, as the front end replays it: through repeats,
  // open blocks and no-ops it still finds the fault the front end meets, and none in a repeat.
  const Assembly repeated = assemble(repeat_program(), "repeat.s");
  REQUIRE(repeated.errors.empty());
  const auto early = first_instruction_fault(repeated.instructions);
  const ProgramBlocks built = build_blocks(repeated.instructions);
  REQUIRE(early);
  REQUIRE(built.fault);
  CHECK(early->fault.rule == built.fault->fault.rule);
  CHECK(format_location(early->loc) == format_location(built.fault->loc));
  const Assembly repeats_only = assemble(good + good + good + good, "f.s");
  CHECK_FALSE(first_instruction_fault(repeats_only.instructions));
}

}  // namespace ptosim::model
