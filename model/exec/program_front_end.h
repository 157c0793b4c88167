// SPDX-License-Identifier: BSD-3-Clause
// ProgramFrontEnd: walks an assembled program through the BlockBuilder and yields, in program
// order, each completed bundle with the instruction words it took, or the instruction-level fault
// that ends the program. Both the functional run and the platform's dispatcher consume it. A block
// whose instruction words match one of the last few decoded is replayed from that decode.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/bundle/block_builder.h"
#include "model/bundle/encoding.h"
#include "model/bundle/bundle.h"
#include "model/bundle/instruction.h"

namespace ptosim::model {

struct FetchedBundle {
  std::optional<Bundle> bundle;  ///< a completed block, or
  std::optional<Fault> fault;    ///< an instruction-level fault (decode, block structure)
  std::string op;                ///< mnemonic the outcome is reported under
  unsigned instructions = 0;     ///< instruction words consumed since the previous item (decode cost)
  SourceLoc loc;                 ///< the BSTART of the bundle, or the faulting instruction
};

class ProgramFrontEnd {
 public:
  explicit ProgramFrontEnd(std::vector<Instruction> program);

  /// The next item, or nullopt once the program is exhausted or after a fault.
  std::optional<FetchedBundle> next();

 private:
  /// A block decoded before, by the encodings of the instructions it consumed. Programs repeat
  /// blocks (loops arrive unrolled), and decoding (field validation, block assembly) is the front
  /// end's main cost; a block is a function of its instruction words, so the same words give the
  /// same bundle, its location and index aside.
  struct DecodedBlock {
    std::vector<Encoding> words;
    std::size_t start_offset = 0;  ///< the BSTART's position among them
    Bundle bundle;
  };
  static constexpr std::size_t kRecentBlocks = 4;

  /// The item of a recent block whose words come next, or nothing.
  std::optional<FetchedBundle> replay();
  /// Keeps the block just decoded from instructions [first, m_pos).
  void remember(std::size_t first, const Bundle& bundle);

  std::vector<Instruction> m_program;
  std::size_t m_pos = 0;
  BlockBuilder m_builder;
  bool m_done = false;
  std::vector<DecodedBlock> m_recent;  ///< the last kRecentBlocks blocks decoded
  std::size_t m_oldest = 0;            ///< the slot the next one takes
  std::vector<Encoding> m_upcoming;  ///< replay()'s scratch: the words from m_pos on
};

}  // namespace ptosim::model
