// SPDX-License-Identifier: BSD-3-Clause
// The ptosim subcommands. Each takes the arguments after its name and returns the exit status.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/bundle/assembler.h"

namespace ptosim::platforms {

using Args = std::vector<std::string>;

/// A command-line word read as an option: "--name=value" is the option "--name" with its value
/// joined to it, as GNU tools take it (the command says whether the option takes one); any other
/// word is itself.
struct OptionWord {
  std::string name;
  std::optional<std::string> value;
};
inline OptionWord option_word(const std::string& word) {
  const auto eq = word.find('=');
  if (word.rfind("--", 0) != 0 || eq == std::string::npos) return {word, std::nullopt};
  return {word.substr(0, eq), word.substr(eq + 1)};
}

/// Writes error messages to stderr, each after `prefix`: the first kShownErrors, then how many more
/// (a mistake repeated through a large program, or a wrong file given as a configuration, would
/// print a line per repetition).
constexpr std::size_t kShownErrors = 20;
void report_errors(const std::string& prefix, const std::vector<std::string>& errors);
/// report_errors of an assembly's errors, file:line:column each.
void report_asm_errors(const std::string& prefix, const std::vector<model::AsmError>& errors);

/// The project's version, with the commit it was built from in a git checkout
/// ("0.1.0 (commit 0123456789ab)", "+dirty" with uncommitted changes).
const char* ptosim_version();

int run_command(const Args& args);     ///< ptosim run PROGRAM [options]: the SystemC platform
int exec_command(const Args& args);    ///< ptosim exec SCENARIO.json: functional model, JSON out
int asm_command(const Args& args);     ///< ptosim asm FILE.s (-o FILE.bin | --hex)
int disasm_command(const Args& args);  ///< ptosim disasm FILE.bin
int config_command(const Args& args);  ///< ptosim config [--config FILE] [--set k=v]...
int compare_command(const Args& args);  ///< ptosim compare [--all] STATS.json STATS.json...

}  // namespace ptosim::platforms
