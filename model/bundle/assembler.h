// SPDX-License-Identifier: BSD-3-Clause
// Assembler: bundle assembly text (docs/assembly.md; every form of the scenario format) to
// Instructions with their source locations, or errors with file:line:column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/bundle/instruction.h"

namespace ptosim::model {

/// One assembly error: where, and what was expected.
struct AsmError {
  SourceLoc loc;
  std::string message;
};

/// "file:line:column: error: message".
std::string format_error(const AsmError& e);

/// The result of assembling a text: every instruction of every line that parsed, and one error per
/// line that did not. A program is usable only when ok().
struct Assembly {
  std::vector<Instruction> instructions;
  std::vector<AsmError> errors;
  bool ok() const { return errors.empty(); }
};

/// Assembles `text` (one instruction per line, ';' starts a comment). Every instruction returned
/// has an encoding; reserved field values (r24, SizeCode 11, BSTART.TEPL 2, 14, ...) are accepted
/// so programs can express them, and validate() / the BlockBuilder reject them.
Assembly assemble(std::string_view text, const std::string& file_name);

}  // namespace ptosim::model
