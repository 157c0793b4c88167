// SPDX-License-Identifier: BSD-3-Clause
// Statistics compared run against run (ptosim compare): an exploration changes a parameter, reruns
// and wants to see what moved, without reading two 200-line JSON files side by side.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptosim::platforms {

/// A run's statistics (the --stats document) and the name it is shown by.
struct StatsRun {
  std::string name;
  nlohmann::ordered_json stats;
};

/// The most runs compared at once: each is shown by a letter.
constexpr std::size_t kMaxComparedRuns = 26;

/// Statistics file `path`'s document; nothing, with `problems` (each naming the file), when it
/// cannot be read, is not strict JSON (statistics never repeat a key), is not a statistics document
/// (an object with a number `simulated_cycles` and an object `configuration`), or has two values
/// of one dotted path (a key with a dot beside the nested keys it spells).
std::optional<nlohmann::ordered_json> read_stats(const std::string& path, std::vector<std::string>& problems);

/// The comparison as text: each run's name, program, mode, allocation and version, each lettered
/// (A, B, ...); then the configuration keys and the figures (every other value, by its dotted
/// path, "engines.sfu.busy_cycles", "memories.shared_memory.ports[0].bytes") that differ between
/// the runs, or with `all` every one, with each run's value and, for numbers, its ratio to the
/// first run's. Columns are at least two blanks apart. Two to kMaxComparedRuns runs
/// (std::invalid_argument otherwise).
std::string compare_stats(const std::vector<StatsRun>& runs, bool all);

}  // namespace ptosim::platforms
