// SPDX-License-Identifier: BSD-3-Clause
// ptosim compare STATS.json STATS.json...: the statistics of runs side by side, what differs
// between them with its ratio to the first run.
#include <iostream>
#include <string>
#include <vector>

#include "platforms/ptosim/commands.h"
#include "platforms/shown_text.h"
#include "platforms/stats_compare.h"

namespace ptosim::platforms {

int compare_command(const Args& args) {
  const char* const usage = "usage: ptosim compare [--all] [--] STATS.json STATS.json...\n";
  bool all = false, options = true;
  std::vector<std::string> paths;
  for (const std::string& a : args) {
    if (!options) {
      paths.push_back(a);
    } else if (a == "--") {
      options = false;  // a path may begin with '-' after it
    } else if (a == "--help" || a == "-h") {
      std::cout << usage
                << "Compares the statistics files of ptosim run --stats: the configuration keys and figures that differ,\n"
                   "each run's value and its ratio to the first run's; --all shows every key and figure.\n";
      return 0;
    } else if (a == "--all") {
      if (all) {
        std::cerr << "ptosim compare: --all given twice\n";
        return 2;
      }
      all = true;
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << "ptosim compare: unknown option '" << shown_text(a) << "'\n" << usage;
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (paths.size() < 2 || paths.size() > kMaxComparedRuns) {
    std::cerr << "ptosim compare: " << (paths.size() < 2 ? "at least two" : "at most " + std::to_string(kMaxComparedRuns))
              << " statistics files, " << paths.size() << " given\n"
              << usage;
    return 2;
  }
  std::vector<StatsRun> runs;
  bool failed = false;
  for (const std::string& path : paths) {
    std::vector<std::string> problems;
    auto stats = read_stats(path, problems);
    if (!stats) {
      report_errors("ptosim compare: ", problems);
      failed = true;
      continue;
    }
    runs.push_back({path, std::move(*stats)});
  }
  if (failed) return 2;
  std::cout << compare_stats(runs, all);
  return 0;
}

}  // namespace ptosim::platforms
