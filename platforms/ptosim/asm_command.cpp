// SPDX-License-Identifier: BSD-3-Clause
// ptosim asm / ptosim disasm (owned by the bundle front end work; placeholder until it lands).
#include <iostream>

#include "platforms/ptosim/commands.h"

namespace ptosim::platforms {

int asm_command(const Args&) {
  std::cerr << "ptosim asm: not available in this build yet\n";
  return 2;
}

int disasm_command(const Args&) {
  std::cerr << "ptosim disasm: not available in this build yet\n";
  return 2;
}

}  // namespace ptosim::platforms
