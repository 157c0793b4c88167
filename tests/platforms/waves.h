// SPDX-License-Identifier: BSD-3-Clause
// Test helper: a VCD read back as each signal's value changes, to compare traces and to integrate
// signals over time.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ptosim::test {

/// A VCD's value changes by signal ("top.sfu.busy"), as (time, value), and its last time.
struct Waves {
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> changes;
  std::uint64_t end = 0;

  explicit Waves(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> scopes;
    std::map<std::string, std::string> name_of;  // by code
    std::uint64_t time = 0;
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string w;
      words >> w;
      if (w == "$scope") {
        std::string kind, name;
        words >> kind >> name;
        scopes.push_back(name);
      } else if (w == "$upscope") {
        scopes.pop_back();
      } else if (w == "$var") {
        std::string kind, width, code, name, path;
        words >> kind >> width >> code >> name;
        for (const std::string& s : scopes) path += s + ".";
        name_of[code] = path + name;
      } else if (!w.empty() && w[0] == '#') {
        time = std::stoull(w.substr(1));
        end = time;
      } else if (!w.empty() && w[0] == 'b') {
        std::string code;
        words >> code;
        changes[name_of.at(code)].emplace_back(time, std::stoull(w.substr(1), nullptr, 2));
      } else if (w.size() > 1 && (w[0] == '0' || w[0] == '1')) {
        changes[name_of.at(w.substr(1))].emplace_back(time, w[0] - '0');
      }
    }
  }
  /// The integral of a signal's value over time (value x picoseconds), to the end of the trace.
  std::uint64_t integral(const std::string& signal, std::uint64_t only_value = ~std::uint64_t{0}) const {
    const auto& c = changes.at(signal);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      const std::uint64_t until = i + 1 < c.size() ? c[i + 1].first : end;
      const std::uint64_t weight = only_value == ~std::uint64_t{0} ? c[i].second : c[i].second == only_value ? 1 : 0;
      sum += weight * (until - c[i].first);
    }
    return sum;
  }
};

}  // namespace ptosim::test
