// SPDX-License-Identifier: BSD-3-Clause
// ptosim exec SCENARIO.json: runs a scenario on the functional model and prints the result JSON
// (shared/scenario-format.md). Exit 0 whenever the scenario ran, faults included.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "model/bundle/assembler.h"
#include "model/exec/program_front_end.h"
#include "platforms/files.h"
#include "platforms/ptosim/commands.h"
#include "platforms/ptosim/scenario.h"
#include "platforms/strict_json.h"

namespace ptosim::platforms {

namespace {

/// A scenario's fields nest a few levels (tiles[i].data[j]).
const JsonRules kScenarioRules{"the scenario", 16, "no scenario field is that deep"};

}  // namespace

int exec_command(const Args& args) {
  if (std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; })) {
    std::cout << "usage: ptosim exec SCENARIO.json\n"
                 "Runs the scenario on the functional model; prints the outcome JSON on stdout.\n";
    return 0;
  }
  const auto usage_error = [](const std::string& what) {
    std::cerr << "ptosim exec: " << what << "\nusage: ptosim exec SCENARIO.json\n";
    return 2;
  };
  for (const std::string& a : args)
    if (a.size() > 1 && a[0] == '-') return usage_error("unknown option '" + a + "'");
  if (args.empty()) return usage_error("no scenario file given");
  if (args.size() > 1) return usage_error("more than one input file ('" + args[0] + "', '" + args[1] + "')");
  const std::string& path = args[0];
  std::string error;
  const auto text = read_file(path, error);
  if (!text) {
    std::cerr << "ptosim exec: " << error << "\n";
    return 2;
  }
  std::vector<std::string> problems;
  const auto doc = parse_strict_json(*text, kScenarioRules, problems);
  if (!doc || !problems.empty()) {
    report_errors("ptosim exec: " + path + ": ", problems);
    return 2;
  }
  Scenario scenario;
  if (const std::string error = parse_scenario(*doc, scenario); !error.empty()) {
    report_errors("ptosim exec: " + path + ": ", {error});
    return 2;
  }
  const model::Assembly program = model::assemble(scenario.program, "program");
  if (!program.ok()) {
    report_asm_errors("ptosim exec: " + path + ": ", program.errors);
    return 2;
  }

  model::FunctionalMachine machine(scenario.allocation.policy, scenario.allocation.queue_depth);
  for (const ScenarioTile& t : scenario.tiles) {
    if (t.ref.is_shared())
      machine.load_shared(t.ref.index, t.desc, t.desc.pe_mask, t.data[0]);
    else
      machine.load_local(t.ref.index, t.desc, t.data);
  }
  for (int pe = 0; pe < model::kPeCount; ++pe)
    for (unsigned sel = 1; sel < model::kGprCount; ++sel) machine.state().set_gpr(pe, sel, scenario.gprs[pe][sel]);
  machine.state().set_status(scenario.status);

  std::vector<ScenarioBundle> bundles;
  model::ProgramFrontEnd front_end(program.instructions);
  while (auto item = front_end.next()) {
    if (item->fault) {
      bundles.push_back({item->op(), model::BundleOutcome::Kind::Faulted, item->fault->fault});
      break;
    }
    const model::BundleOutcome outcome = machine.execute(*item->bundle);
    bundles.push_back({item->op(), outcome.kind, outcome.fault});
    if (outcome.kind == model::BundleOutcome::Kind::Faulted) break;
  }
  std::cout << scenario_output(bundles, machine).dump() << "\n";
  return 0;
}

}  // namespace ptosim::platforms
