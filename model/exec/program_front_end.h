// SPDX-License-Identifier: BSD-3-Clause
// ProgramFrontEnd: walks an assembled program through the BlockBuilder and yields, in program
// order, each completed bundle with the instruction words it took, or the instruction-level fault
// that ends the program. Both the functional run and the platform's dispatcher consume it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/bundle/block_builder.h"
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
  std::vector<Instruction> m_program;
  std::size_t m_pos = 0;
  BlockBuilder m_builder;
  bool m_done = false;
};

}  // namespace ptosim::model
