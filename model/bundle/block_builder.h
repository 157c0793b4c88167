// SPDX-License-Identifier: BSD-3-Clause
// BlockBuilder: the block state machine of the ASL (BSTART opens a block, header commands fill it,
// BSTOP / C.BSTOP / L.BSTOP or the next BSTART completes it) turning an instruction stream into
// Bundles, with the instruction-level faults the ASL raises while a block is collected.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/bundle/bundle.h"
#include "model/bundle/instruction.h"

namespace ptosim::model {

/// An instruction the block state machine rejected.
struct BlockFault {
  Fault fault;
  SourceLoc loc;            ///< the rejected instruction (for end of program: the open block's BSTART)
  std::string instruction;  ///< its mnemonic ("B.DATR", "BSTART.SFU", ".word"; "end of program")
  /// The block the instruction belongs to: the block active when it was rejected, or -1 when no
  /// block was active.
  int block_index = -1;
  /// That block's operation mnemonic as BSTART spells it ("TROWSUM", "TMATMUL.ACC"). Outside any
  /// block: the instruction's own mnemonic, except that a rejected BSTART names the operation it
  /// selects when that selector is assigned.
  std::string block_mnemonic;
};

/// "file:line:column: Fault_<Code> in block <i> (<op>) at <instruction>: <rule>".
std::string format_block_fault(const BlockFault& f);

/// What one instruction did: completed a block (BSTOP, or a BSTART that first completes its
/// predecessor), was rejected, or neither (a header command was recorded). Never both.
struct FeedResult {
  // User-provided, so `FeedResult{}` does not zero-fill the Bundle's storage on every instruction.
  FeedResult() {}  // NOLINT(modernize-use-equals-default)
  std::optional<Bundle> completed;
  std::optional<BlockFault> fault;
};

/// Contract: feed the program's instructions in order; each completed Bundle comes out as soon as
/// its completion boundary is fed, then call finish() at the end of the program. A rejected
/// instruction changes nothing (as in the ASL, where a faulting instruction has no effect), so
/// feeding may continue after a fault, but a program's execution stops at its first fault.
/// Only generic instruction-time rules live here; per-operation schema checks (binding counts,
/// B.DATR applicability, B.IOR use, LB requirements, missing B.FPATR) belong to operation
/// preflight, which runs on the completed Bundle. No body instructions are modelled, so a block's
/// header stays open until its completion boundary.
class BlockBuilder {
 public:
  /// Processes one instruction.
  FeedResult feed(const Instruction& inst);
  /// End of program: a block still open is Fault_BundleControl ("block not closed by BSTOP").
  std::optional<BlockFault> finish() const;

  bool active() const { return m_active; }
  /// The block being collected (meaningful while active()).
  const Bundle& current() const { return *m_bundle; }
  /// Number of BSTARTs accepted so far (the index the next block will get).
  int blocks_started() const { return m_started; }
  /// Counts a block its caller replayed from an earlier decode of the same words instead of
  /// feeding it (ProgramFrontEnd); returns the block's index. Only between blocks.
  int count_replayed_block() { return m_started++; }

 private:
  FeedResult start(const Instruction& inst);
  FeedResult stop(const Instruction& inst);
  FeedResult reject(const Instruction& inst, FaultCode code, std::string rule) const;

  bool m_active = false;
  int m_started = 0;
  /// Always engaged: an optional only so start() can rebuild it in place, which costs a fraction
  /// of assigning it a new Bundle.
  std::optional<Bundle> m_bundle{std::in_place};
};

/// Every block of a whole program up to its first instruction-level fault (or the end-of-program
/// fault), in program order.
struct ProgramBlocks {
  std::vector<Bundle> bundles;
  std::optional<BlockFault> fault;
};
ProgramBlocks build_blocks(const std::vector<Instruction>& program);

}  // namespace ptosim::model
