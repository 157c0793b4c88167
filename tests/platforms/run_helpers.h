// SPDX-License-Identifier: BSD-3-Clause
// Test helpers: write a program, run the ptosim program on it in its own process (a SystemC
// simulation elaborates once per process), and read back its report, dumps and statistics.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

namespace ptosim::test {

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
  nlohmann::json stats;

  /// The statistics less the program's path, which differs between runs of one program saved
  /// under two names.
  nlohmann::json stats_without_program() const {
    nlohmann::json s = stats;
    s.erase("program");
    return s;
  }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Removes this process's scratch files as it exits, those of a failed test too, with what the
/// program wrote beside them (a trace's layout and filters) and the names tests start with '-'.
struct ScratchCleanup {
  static std::string prefix() { return "ptosim_" + std::to_string(getpid()) + "_"; }
  ~ScratchCleanup() {
    const std::string mine = prefix();
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(".", ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(mine, 0) == 0 || name.rfind("-" + mine, 0) == 0) std::filesystem::remove_all(entry.path(), ec);
    }
  }
};

/// A per-process file name: ctest runs test cases in parallel in one directory.
inline std::string scratch(const std::string& name) {
  static const ScratchCleanup cleanup;
  return ScratchCleanup::prefix() + name;
}

inline std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

/// Runs `ptosim run <program file> <args> --stats <file>` and collects everything.
inline RunResult run_program(const std::string& name, const std::string& program, const std::string& args = "") {
  const std::string prog = write_file(name + ".pto", program);
  const std::string stats = scratch(name + ".stats.json"), out = scratch(name + ".out"), err = scratch(name + ".err");
  const std::string cmd = std::string(PTOSIM_EXE) + " run " + prog + " --stats " + stats + " " + args + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  RunResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  const std::string s = slurp(stats);
  if (!s.empty()) r.stats = nlohmann::json::parse(s);
  return r;
}

/// Rows of encodings of a tile dumped with --hex ("    row r:  value (0xhex) ...").
inline std::vector<std::vector<std::uint32_t>> dumped_encodings(const std::string& out, const std::string& tile) {
  std::vector<std::vector<std::uint32_t>> rows;
  std::istringstream in(out);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind(tile + " ", 0) == 0) {
      inside = true;
    } else if (inside && line.rfind("    row", 0) == 0) {
      std::vector<std::uint32_t> row;
      for (auto pos = line.find("(0x"); pos != std::string::npos; pos = line.find("(0x", pos + 1))
        row.push_back(static_cast<std::uint32_t>(std::stoul(line.substr(pos + 3), nullptr, 16)));
      rows.push_back(row);
    } else if (inside && !line.empty() && line[0] != ' ') {
      break;
    }
  }
  return rows;
}

/// The dump section of a report: from the first line after the title that is not an indented
/// summary line.
inline std::string dumps_of(const std::string& out) {
  std::size_t pos = out.find('\n');
  while (pos != std::string::npos && pos + 1 < out.size() && out[pos + 1] == ' ') pos = out.find('\n', pos + 1);
  return pos == std::string::npos ? "" : out.substr(pos + 1);
}

}  // namespace ptosim::test
