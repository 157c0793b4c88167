// SPDX-License-Identifier: BSD-3-Clause
// The ptosim subcommands. Each takes the arguments after its name and returns the exit status.
#pragma once

#include <string>
#include <vector>

#include "model/bundle/assembler.h"

namespace ptosim::platforms {

using Args = std::vector<std::string>;

/// Writes an assembly's errors to stderr, file:line:column each: the first kShownAsmErrors, then
/// how many more (a mistake repeated through a large program would print a line per bundle).
constexpr std::size_t kShownAsmErrors = 20;
void report_asm_errors(const std::vector<model::AsmError>& errors);

int run_command(const Args& args);     ///< ptosim run PROGRAM [options]: the SystemC platform
int exec_command(const Args& args);    ///< ptosim exec SCENARIO.json: functional model, JSON out
int asm_command(const Args& args);     ///< ptosim asm FILE.s (-o FILE.bin | --hex)
int disasm_command(const Args& args);  ///< ptosim disasm FILE.bin
int config_command(const Args& args);  ///< ptosim config [--config FILE] [--set k=v]...

}  // namespace ptosim::platforms
