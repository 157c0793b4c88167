// SPDX-License-Identifier: BSD-3-Clause
// A user's sc_main against the installed package: it runs the rowsum example on TileTop and checks
// the row sums. Exit status 0 when they are right.
#include <cstdio>
#include <systemc>

#include "model/bundle/assembler.h"
#include "model/exec/program_front_end.h"
#include "platforms/config/config_loader.h"
#include "platforms/ptosim/program_file.h"
#include "platforms/tile_top.h"

int sc_main(int argc, char* argv[]) {
  using namespace ptosim;
  if (argc != 2) {
    std::fprintf(stderr, "usage: my_vp rowsum.pto\n");
    return 2;
  }
  platforms::ProgramFile program;
  std::string error;
  if (!platforms::parse_program_file(argv[1], program, error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  const model::Assembly assembly = model::assemble(program.assembly, argv[1]);
  const platforms::ConfigResult config = platforms::load_config("", {});
  if (!assembly.ok() || !config.errors.empty()) return 2;
  platforms::TileTop top("accelerator", config.params, model::AllocationSpec{}, false);
  for (const platforms::ProgramTile& t : program.tiles) top.load_local(t.ref.index, t.desc, t.data);
  model::ProgramFrontEnd front_end(assembly.instructions);
  top.dispatcher.set_program(&front_end);
  sc_core::sc_start();
  const model::FragmentData sums = top.read_local(program.dumps.at(1).index, 3);
  const std::uint64_t expected[] = {0x42100000, 0x3f7f0000, 0x3f800000, 0x40400000};  // 36, 0.99609375, 1, 3
  bool right = top.dispatcher.finished() && sums.size() >= 4;
  for (unsigned r = 0; right && r < 4; ++r) right = sums[r] == expected[r];
  std::printf("row sums %s after %llu cycles\n", right ? "right" : "WRONG",
              static_cast<unsigned long long>(top.dispatcher.finish_cycle()));
  return right ? 0 : 1;
}
