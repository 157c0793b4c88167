// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/stats_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <list>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "platforms/files.h"
#include "platforms/shown_text.h"
#include "platforms/strict_json.h"

namespace ptosim::platforms {

namespace {

using Json = nlohmann::ordered_json;

const JsonRules kStatsRules{"the statistics", 16, "no statistic is that deep"};

/// What each run's legend line says, and not the figures' table.
const char* const kDescription[] = {"program", "timing_only", "allocation", "ptosim_version"};

/// A document's values by dotted path, in the document's order: a number, string, boolean or null,
/// or an array of them (the status flags), is one value; an object's members and the elements of
/// an array of objects are values in their own right; an empty object is none.
using Values = std::vector<std::pair<std::string, const Json*>>;
void collect(const Json& v, const std::string& path, Values& out) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) collect(*it, path.empty() ? it.key() : path + "." + it.key(), out);
  } else if (v.is_array() && std::any_of(v.begin(), v.end(), [](const Json& e) { return e.is_structured(); })) {
    for (std::size_t i = 0; i < v.size(); ++i) collect(v[i], path + "[" + std::to_string(i) + "]", out);
  } else {
    out.emplace_back(path, &v);
  }
}

/// A value's runs: each run's value, null where a run has none.
struct Row {
  std::string key;
  std::vector<const Json*> values;
  bool differs() const {
    return std::any_of(values.begin() + 1, values.end(), [&](const Json* v) { return !v || !values[0] || *v != *values[0]; });
  }
};

/// The runs' values side by side. A value only later runs have goes after the one its run has
/// before it, so a section stays together (the CUBE's operations, when only the second run has any).
std::vector<Row> side_by_side(const std::vector<Values>& runs) {
  std::list<Row> rows;
  std::unordered_map<std::string, std::list<Row>::iterator> row_of;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    auto next = rows.begin();  // where a value new to the rows goes
    for (const auto& [key, value] : runs[r]) {
      auto [at, added] = row_of.try_emplace(key);
      if (added) at->second = rows.insert(next, Row{key, std::vector<const Json*>(runs.size())});
      at->second->values[r] = value;
      next = std::next(at->second);
    }
  }
  return {rows.begin(), rows.end()};
}

/// A value as shown: a fraction to six significant digits, or `exact`ly (as JSON writes it).
std::string cell(const Json* v, bool exact = false) {
  if (!v) return "-";
  if (v->is_number_float() && !exact) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v->get<double>());
    return text;
  }
  return shown_text(v->is_string() ? v->get<std::string>() : v->dump());
}

/// `v` over `first`, for numbers with a first that is not zero: three decimals, or three
/// significant digits for a ratio too large or too small for them.
std::string ratio(const Json* first, const Json* v) {
  if (!first || !v || !first->is_number() || !v->is_number() || first->get<double>() == 0) return "-";
  const double r = v->get<double>() / first->get<double>();
  char text[40];
  std::snprintf(text, sizeof text, std::fabs(r) >= 1e6 || (r != 0 && std::fabs(r) < 1e-3) ? "%.3g" : "%.3f", r);
  return text;
}

std::string letter(std::size_t run) { return std::string(1, static_cast<char>('A' + run)); }

/// A run's description value `key` as its legend line says it.
std::string describe(const std::string& key, const Json& v) {
  if (key == "timing_only" && v.is_boolean()) return v.get<bool>() ? "timing-only run" : "full run";
  if (key == "program") return cell(&v);
  return (key == "ptosim_version" ? std::string("ptosim") : key) + " " + cell(&v);
}

/// A section: its heading, then (the rows that differ, or all) a table of the key, each run's
/// value and each later run's ratio to the first's.
void write_section(std::ostringstream& os, const char* what, const char* unit, const std::vector<Row>& rows, bool all) {
  const auto differing = static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.differs(); }));
  os << "\n" << what << ": ";
  if (differing == 0)
    os << "the same in every run (" << rows.size() << " " << unit << ")\n";
  else
    os << differing << " of " << rows.size() << " " << unit << " differ" << (differing == 1 ? "s" : "") << "\n";
  if (differing == 0 && !all) return;
  const std::size_t runs = rows.empty() ? 0 : rows.front().values.size();
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> heading{"key"};
  for (std::size_t r = 0; r < runs; ++r) heading.push_back(letter(r));
  for (std::size_t r = 1; r < runs; ++r) heading.push_back(letter(r) + "/A");
  table.push_back(heading);
  for (const Row& row : rows) {
    if (!all && !row.differs()) continue;
    std::vector<std::string> line{shown_text(row.key)};
    for (const Json* v : row.values) line.push_back(cell(v));
    // Values that differ past the digits shown are shown exactly.
    if (row.differs() && std::all_of(line.begin() + 2, line.end(), [&](const std::string& c) { return c == line[1]; })) {
      line.resize(1);
      for (const Json* v : row.values) line.push_back(cell(v, true));
    }
    for (std::size_t r = 1; r < runs; ++r) line.push_back(ratio(row.values[0], row.values[r]));
    table.push_back(std::move(line));
  }
  std::vector<std::size_t> width(heading.size());
  for (const auto& line : table)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  // The key to the left, the values to the right of their columns.
  for (const auto& line : table) {
    os << "  " << line[0] << std::string(width[0] - line[0].size(), ' ');
    for (std::size_t c = 1; c < line.size(); ++c) os << std::string(2 + width[c] - line[c].size(), ' ') << line[c];
    os << "\n";
  }
}

}  // namespace

std::optional<Json> read_stats(const std::string& path, std::vector<std::string>& problems) {
  std::string error;
  const auto text = read_file(path, error);
  if (!text) {
    problems.push_back(error);
    return std::nullopt;
  }
  std::vector<std::string> found;
  auto doc = parse_strict_json<Json>(*text, kStatsRules, found);
  for (const std::string& problem : found) problems.push_back(path + ": " + problem);
  if (!doc || !found.empty()) return std::nullopt;
  if (!doc->is_object() || !doc->contains("simulated_cycles") || !(*doc)["simulated_cycles"].is_number() ||
      !doc->contains("configuration") || !(*doc)["configuration"].is_object()) {
    problems.push_back(path + ": not a statistics file of ptosim run --stats (it needs a number simulated_cycles and an object configuration)");
    return std::nullopt;
  }
  // A key with a dot (an operation such as TMATMUL.ACC) must not name the path of another value.
  Values values;
  collect(*doc, "", values);
  std::unordered_set<std::string> paths;
  for (const auto& [key, value] : values)
    if (!paths.insert(key).second) problems.push_back(path + ": two values have the path '" + key + "'");
  if (!problems.empty()) return std::nullopt;
  return doc;
}

std::string compare_stats(const std::vector<StatsRun>& runs, bool all) {
  if (runs.size() < 2 || runs.size() > kMaxComparedRuns)
    throw std::invalid_argument("compare_stats: compares 2 to " + std::to_string(kMaxComparedRuns) + " runs");
  std::ostringstream os;
  std::vector<Values> configuration(runs.size()), figures(runs.size());
  std::vector<std::string> differ_in;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const Json& stats = runs[r].stats;
    std::string description;
    for (const char* key : kDescription) {
      const Json& first = runs[0].stats;
      const bool differs = stats.contains(key) ? !first.contains(key) || first[key] != stats[key] : first.contains(key);
      if (differs && std::find(differ_in.begin(), differ_in.end(), key) == differ_in.end()) differ_in.push_back(key);
      if (!stats.contains(key)) continue;
      description += (description.empty() ? "" : ", ") + describe(key, stats[key]);
    }
    os << letter(r) << "  " << shown_text(runs[r].name) << (description.empty() ? "" : ": " + description) << "\n";
    for (auto it = stats.begin(); it != stats.end(); ++it) {
      if (it.key() == "configuration")
        collect(it.value(), "", configuration[r]);
      else if (std::none_of(std::begin(kDescription), std::end(kDescription), [&](const char* d) { return it.key() == d; }))
        collect(it.value(), it.key(), figures[r]);
    }
  }
  if (!differ_in.empty()) {
    os << "note: the runs differ in";
    for (std::size_t i = 0; i < differ_in.size(); ++i) os << (i == 0 ? " " : ", ") << differ_in[i];
    os << "\n";
  }
  write_section(os, "configuration", "keys", side_by_side(configuration), all);
  write_section(os, "figures", "values", side_by_side(figures), all);
  return os.str();
}

}  // namespace ptosim::platforms
