// SPDX-License-Identifier: BSD-3-Clause
// ProgramFrontEnd: walks an assembled program through the BlockBuilder and yields, in program
// order, each completed bundle with the instruction words it took, or the instruction-level fault
// that ends the program. Both the functional run and the platform's dispatcher consume it. A block
// whose instructions equal those of one of the last 16 decoded is replayed from that decode.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/bundle/block_builder.h"
#include "model/bundle/bundle.h"
#include "model/bundle/instruction.h"
#include "model/exec/preflight.h"

namespace ptosim::model {

struct FetchedBundle {
  const Bundle* bundle = nullptr;   ///< a completed block, the front end's until its next call; or
  std::optional<BlockFault> fault;  ///< an instruction-level fault (decode, block structure)
  unsigned instructions = 0;        ///< instruction words consumed since the previous item (decode cost)
  /// Where the bundle's preflight may keep what it found in the bundle alone, while the front end
  /// keeps the bundle for replay; null otherwise.
  PreflightMemo* memo = nullptr;

  /// The mnemonic the outcome is reported under.
  const std::string& op() const { return bundle ? bundle->mnemonic : fault->block_mnemonic; }
  /// The BSTART of the bundle, or the faulting instruction.
  const SourceLoc& loc() const { return bundle ? bundle->loc : fault->loc; }
};

class ProgramFrontEnd {
 public:
  explicit ProgramFrontEnd(std::vector<Instruction> program);

  /// The next item, or nullopt once the program is exhausted or after a fault. Its bundle is
  /// valid until the next call: a replayed block is lent, not copied.
  std::optional<FetchedBundle> next();

  /// How far the front end has read: the fraction of the program's instructions consumed.
  double fraction_read() const {
    return m_program.empty() ? 1.0 : static_cast<double>(m_pos) / static_cast<double>(m_program.size());
  }

  /// A front end feeds one reader (it is consumed as it runs): true unless another holds it.
  bool claim() { return !std::exchange(m_claimed, true); }
  /// Gives it up again (a reader that took another program before running this one).
  void release() { m_claimed = false; }

  /// How many recently decoded blocks are kept for replay: unrolled kernels cycle through a
  /// dozen or so distinct blocks (the attention example twelve), and a block that is not among
  /// them costs a comparison of its first instruction with each.
  static constexpr std::size_t kRecentBlocks = 16;

 private:
  /// A block decoded before, by the instructions it consumed (the program's own, which never
  /// change). Programs repeat blocks (loops arrive unrolled), and decoding (field validation,
  /// block assembly) is the front end's main cost; a block is a function of its instructions'
  /// bodies, so equal bodies give the same bundle, its location and index aside.
  struct DecodedBlock {
    std::size_t first = 0;         ///< its first instruction in the program
    std::size_t count = 0;         ///< the instructions it consumed
    std::size_t start_offset = 0;  ///< the BSTART's position among them
    Bundle bundle;                 ///< location and index those of its latest replay
    PreflightMemo memo;            ///< its preflight's, for every replay of it
  };

  /// Lends `item` a recent block whose instructions come next, its location and index set;
  /// false when none matches.
  bool replay(FetchedBundle& item);
  /// Keeps the block just decoded (m_decoded, moved) from instructions [first, m_pos); returns
  /// where it now is.
  DecodedBlock& remember(std::size_t first);

  std::vector<Instruction> m_program;
  std::size_t m_pos = 0;
  BlockBuilder m_builder;
  bool m_done = false;
  bool m_claimed = false;
  Bundle m_decoded;  ///< the block decoded last, lent by the item that completed it
  std::vector<DecodedBlock> m_recent;  ///< the last kRecentBlocks blocks decoded
  std::size_t m_oldest = 0;            ///< the slot the next one takes
};

/// The instruction-level fault (block structure, a reserved field) that a front end of `program`
/// meets first, if any: the run stops there, however far into the program it is, so a tool can
/// say so before running the bundles before it.
std::optional<BlockFault> first_instruction_fault(const std::vector<Instruction>& program);

}  // namespace ptosim::model
