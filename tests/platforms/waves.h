// SPDX-License-Identifier: BSD-3-Clause
// Test helper: a VCD read back as each signal's value changes, to compare traces (also through a
// round trip to FST) and to integrate signals over time.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ptosim::test {

/// A VCD's value changes by signal ("top.sfu.busy"), as (time, value), and its last time; an
/// unknown value (x, in any of its bits) reads as kUnknown. Variables that share a code (one
/// signal under several names) each have its changes.
struct Waves {
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> changes;
  std::uint64_t end = 0;

  explicit Waves(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> scopes;
    std::map<std::string, std::vector<std::string>> names_of;  // by code: a code may name several variables
    std::uint64_t time = 0;
    bool body = false;  // value changes only after the definitions (a "$timescale 1ps" is none)
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string w;
      words >> w;
      if (w == "$enddefinitions") {
        body = true;
      } else if (!body) {
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
          names_of[code].push_back(path + name);
        }
      } else if (!w.empty() && w[0] == '#') {
        time = std::stoull(w.substr(1));
        end = time;
      } else if (!w.empty() && w[0] == 'b') {
        std::string code;
        words >> code;
        const std::uint64_t value = w.find_first_of("xX") != std::string::npos ? kUnknown : std::stoull(w.substr(1), nullptr, 2);
        for (const std::string& name : names_of.at(code)) changes[name].emplace_back(time, value);
      } else if (w.size() > 1 && (w[0] == '0' || w[0] == '1' || w[0] == 'x' || w[0] == 'X')) {
        const std::uint64_t value = w[0] == 'x' || w[0] == 'X' ? kUnknown : std::uint64_t(w[0] - '0');
        for (const std::string& name : names_of.at(w.substr(1))) changes[name].emplace_back(time, value);
      }
    }
  }
  /// Each signal as a step function: a change that keeps the value is dropped, and of several
  /// changes at one time the last is kept, so two writers' renderings of one trace compare equal.
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> steps() const {
    std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> out;
    for (const auto& [signal, c] : changes) {
      auto& s = out[signal];
      for (const auto& [time, value] : c) {
        if (!s.empty() && s.back().first == time) s.pop_back();
        if (s.empty() || s.back().second != value) s.emplace_back(time, value);
      }
    }
    return out;
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

/// Converts `vcd` to FST with vcd2fst and back with fst2vcd, and compares the waves read back with
/// those written (vcd2fst exits 0 on text that is no VCD, so its status alone proves little).
/// Returns "" when they agree, else what differs.
inline std::string fst_round_trip_problem(const std::string& vcd) {
  const std::string fst = vcd + ".roundtrip.fst", back = vcd + ".roundtrip.vcd";
  if (std::system(("vcd2fst " + vcd + " " + fst + " >/dev/null 2>&1").c_str()) != 0) return "vcd2fst failed";
  if (std::system(("fst2vcd " + fst + " > " + back + " 2>/dev/null").c_str()) != 0) return "fst2vcd failed";
  const Waves written(vcd), read(back);
  if (written.changes.empty()) return "the VCD has no value changes";
  const auto want = written.steps(), got = read.steps();
  for (const auto& [signal, steps] : want) {
    const auto it = got.find(signal);
    if (it == got.end()) return signal + " is missing from the FST";
    if (it->second != steps) return signal + " changes differently in the FST";
  }
  if (got.size() != want.size()) return "the FST has signals the VCD does not";
  if (read.end != written.end)
    return "the FST ends at " + std::to_string(read.end) + ", the VCD at " + std::to_string(written.end);
  return "";
}

}  // namespace ptosim::test
