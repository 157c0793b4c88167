// SPDX-License-Identifier: BSD-3-Clause
// ptosim: command-line entry point; dispatches to the subcommands of commands.h.
#include <iostream>
#include <string>

#include "platforms/ptosim/commands.h"

namespace {

void usage(std::ostream& os) {
  os << "usage: ptosim <command> [arguments]\n"
        "  run PROGRAM [options]     simulate a program on the SystemC platform\n"
        "  exec SCENARIO.json        run a scenario on the functional model, print JSON\n"
        "  asm FILE.s (-o FILE.bin | --hex)   assemble\n"
        "  disasm FILE.bin           disassemble\n"
        "  config [options]          print the effective platform configuration\n"
        "  compare STATS.json...     compare the statistics of runs (--stats files)\n"
        "run 'ptosim <command> --help' for a command's options, 'ptosim --version' for the version\n";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ptosim::platforms;
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string command = argv[1];
  const Args args(argv + 2, argv + argc);
  if (command == "run") return run_command(args);
  if (command == "exec") return exec_command(args);
  if (command == "config") return config_command(args);
  if (command == "compare") return compare_command(args);
  if (command == "asm") return asm_command(args);
  if (command == "disasm") return disasm_command(args);
  if (command == "--version") {
    if (argc > 2) {
      std::cerr << "ptosim --version takes no arguments\n";
      return 2;
    }
    std::cout << "ptosim " << ptosim_version() << "\n";
    return 0;
  }
  if (command == "-h" || command == "--help" || command == "help") {
    usage(std::cout);
    return 0;
  }
  std::cerr << "ptosim: unknown command '" << command << "'\n";
  usage(std::cerr);
  return 2;
}
