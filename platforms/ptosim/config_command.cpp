// SPDX-License-Identifier: BSD-3-Clause
// ptosim config: prints the effective platform configuration (embedded defaults, then --config
// FILE, then --set overrides) as JSON, or with --list as a table of every key.
#include <algorithm>
#include <array>
#include <iomanip>
#include <iostream>
#include <vector>

#include "platforms/config/config_loader.h"
#include "platforms/ptosim/commands.h"

namespace ptosim::platforms {

int config_command(const Args& args) {
  std::string file;
  std::vector<std::string> sets;
  bool list = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const OptionWord word = option_word(args[i]);
    const std::string& a = word.name;
    if (a == "--config" || a == "--set") {
      // A value is never one of the options (`--config --set` misses the file).
      const bool next = !word.value;
      const bool missing = next ? i + 1 == args.size() || args[i + 1].empty() || args[i + 1] == "--config" ||
                                      args[i + 1] == "--set" || args[i + 1] == "--list" || args[i + 1] == "--help" ||
                                      args[i + 1] == "-h"
                                : word.value->empty();
      if (missing || (a == "--config" && !file.empty())) {
        std::cerr << "ptosim config: " << a << (missing ? " needs a value" : " given twice") << "\n";
        return 2;
      }
      (a == "--config" ? file : sets.emplace_back()) = next ? args[++i] : *word.value;
    } else if (word.value && (a == "--list" || a == "--help")) {
      std::cerr << "ptosim config: " << a << " takes no value\n";
      return 2;
    } else if (a == "--list") {
      if (list) {
        std::cerr << "ptosim config: --list given twice\n";
        return 2;
      }
      list = true;
    } else if (a == "--help" || a == "-h") {
      std::cout << "usage: ptosim config [--config FILE] [--set KEY=VALUE]... [--list]\n"
                   "Prints the effective configuration as JSON; --list prints every key with unit, range and meaning.\n";
      return 0;
    } else {
      std::cerr << "ptosim config: unexpected argument '" << args[i] << "'\n";
      return 2;
    }
  }
  ConfigResult config = load_config(file, sets);
  if (!config.errors.empty()) {
    report_errors("ptosim config: ", config.errors);
    return 2;
  }
  if (!list) {
    std::cout << config_to_json(config.params).dump(2) << "\n";
    return 0;
  }
  // Columns as wide as their widest cell and two blanks apart, so a script can split on the gaps.
  std::vector<std::array<std::string, 5>> rows;
  std::array<std::size_t, 4> width{};
  for (const model::ParamInfo& p : model::param_table(config.params)) {
    rows.push_back({p.key, p.value_text(), p.unit, p.range_text(), p.description});
    for (std::size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], rows.back()[c].size());
  }
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < width.size(); ++c) std::cout << std::left << std::setw(static_cast<int>(width[c] + 2)) << row[c];
    std::cout << row[4] << "\n";
  }
  return 0;
}

}  // namespace ptosim::platforms
