// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/config/config_loader.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "platforms/files.h"
#include "platforms/strict_json.h"

namespace ptosim::platforms {

namespace {

using Json = nlohmann::json;

bool is_key(const std::string& path, const std::vector<model::ParamInfo>& table) {
  for (const auto& p : table)
    if (p.key == path) return true;
  return false;
}

/// A path some keys lie below ("sfu", "sfu.class.row_reduce").
bool is_group(const std::string& path, const std::vector<model::ParamInfo>& table) {
  for (const auto& p : table)
    if (p.key.size() > path.size() && p.key.compare(0, path.size(), path) == 0 && p.key[path.size()] == '.')
      return true;
  return false;
}

/// The (dotted key, value) pairs of `j`. Objects are descended into except where the path is a key
/// (its value is then checked, and rejected, as a number); an empty object is accepted only as a
/// group of keys ({"sfu": {}}), otherwise it is an entry, so {"foo": {}} is an unknown key.
void flatten(const Json& j, const std::string& prefix, const std::vector<model::ParamInfo>& table,
             std::vector<std::pair<std::string, Json>>& out) {
  if (j.is_object() && !is_key(prefix, table) && (!j.empty() || prefix.empty() || is_group(prefix, table))) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), table, out);
    return;
  }
  out.emplace_back(prefix, j);
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

/// Whether `path` ends with the dotted component(s) `tail` ("a.b.c" with "b.c", not "xb.c").
bool ends_with_components(const std::string& path, const std::string& tail) {
  return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0 &&
         path[path.size() - tail.size() - 1] == '.';
}

/// The key an unknown `key` was probably meant to be: a known key it ends with (after a '.'), else
/// the nearest by edit distance on the whole dotted key when within a quarter of its length (at
/// least 2), else the shortest it begins ("cube.fill" for cube.fill_cycles), else one with the
/// same last component (a typo in the path); empty when nothing is close.
std::string closest_key(const std::string& key, const std::vector<model::ParamInfo>& table) {
  // A known key under a prefix ("configuration.sfu.bytes_per_cycle", from a statistics file).
  std::string best;
  for (const auto& p : table)
    if (ends_with_components(key, p.key) && p.key.size() > best.size()) best = p.key;
  if (!best.empty()) return best;
  std::size_t best_distance = std::max<std::size_t>(2, key.size() / 4) + 1;
  for (const auto& p : table)
    if (const std::size_t d = edit_distance(key, p.key); d < best_distance) {
      best = p.key;
      best_distance = d;
    }
  if (!best.empty()) return best;
  for (const auto& p : table)
    if (p.key.size() > key.size() + 1 && p.key.compare(0, key.size(), key) == 0 && p.key[key.size()] == '_' &&
        (best.empty() || p.key.size() < best.size()))
      best = p.key;
  if (!best.empty()) return best;
  const std::string last = key.substr(key.rfind('.') + 1);
  for (const auto& p : table)
    if (ends_with_components(p.key, last)) return p.key;
  return {};
}

/// A file nests its keys ("a.b" is how --set spells them) and never deeply.
const JsonRules kConfigRules{"the configuration", 16, "no configuration key is that deep", false};

/// Stores a number the range check accepts; the check comes first, as a value beyond the field's
/// type (say 1e20 into an integer) cannot be stored faithfully to be checked afterwards. `shown` is
/// the value as errors show it: a --set's text as typed, a file's value as JSON reads it.
void set_in_range(const std::string& origin, const std::string& key, const Json& value, const std::string& shown,
                  const model::ParamInfo& p, std::vector<std::string>& errors) {
  const double v = value.get<double>();
  if (const auto problem = p.range_problem(v, shown)) {
    errors.push_back(origin + ": " + key + ": " + *problem);
    return;
  }
  p.set(v);
}

/// Sets `key` to `value`, read from `shown` (a --set's text, a file's JSON value); `whole` is false
/// for a number written with a fraction though it reads as a whole number (0.99999999999999999).
void apply(const std::string& origin, const std::string& key, const Json& value, const std::string& shown, bool whole,
           std::vector<model::ParamInfo>& table, std::vector<std::string>& errors) {
  for (const model::ParamInfo& p : table) {
    if (p.key != key) continue;
    switch (p.kind) {
      case model::ParamInfo::Kind::Integer:
        if (!value.is_number() || !whole ||
            (value.is_number_float() && std::floor(value.get<double>()) != value.get<double>())) {
          errors.push_back(origin + ": " + key + ": expected a whole number in " + p.range_text() + " (" + p.unit +
                           "), got " + shown);
          return;
        }
        set_in_range(origin, key, value, shown, p, errors);
        return;
      case model::ParamInfo::Kind::Real:
        if (!value.is_number()) {
          errors.push_back(origin + ": " + key + ": expected a number (" + p.unit + "), got " + shown);
          return;
        }
        set_in_range(origin, key, value, shown, p, errors);
        return;
    }
  }
  // A group's name given a value of its own (`"sfu": 5`): a wrong type, not an unknown key.
  for (const model::ParamInfo& p : table)
    if (p.key.size() > key.size() && p.key.compare(0, key.size(), key) == 0 && p.key[key.size()] == '.') {
      errors.push_back(origin + ": " + key + ": a group of keys (such as '" + p.key + "'), not a value: got " + shown);
      return;
    }
  std::string msg = origin + ": unknown key '" + key + "'";
  const std::string hint = closest_key(key, table);
  if (!hint.empty()) msg += " (did you mean '" + hint + "'?)";
  errors.push_back(msg);
}

/// Applies configuration file `file`; nothing of it when it cannot be read or parsed.
void apply_file(const std::string& file, std::vector<model::ParamInfo>& table, std::vector<std::string>& errors) {
  std::string error;
  const auto text = read_file(file, error);
  if (!text) {
    errors.push_back(error);
    return;
  }
  std::vector<std::string> problems;
  JsonNotes notes;
  const auto parsed = parse_strict_json(*text, kConfigRules, problems, &notes);
  for (const std::string& problem : problems) errors.push_back(file + ": " + problem);
  if (!parsed) return;
  const Json& j = *parsed;
  if (!j.is_object()) {
    errors.push_back(file + ": the configuration must be a JSON object");
    return;
  }
  // A value the parse refused (a key given twice) is reported; every other is checked, so one
  // reading lists every problem. Nothing is set unless the whole file is right. An entry holds a
  // refused value, or lies within one, when one path begins the other up to a '.' or '['.
  const auto within = [](const std::string& inner, const std::string& outer) {
    return inner.compare(0, outer.size(), outer) == 0 &&
           (inner.size() == outer.size() || inner[outer.size()] == '.' || inner[outer.size()] == '[');
  };
  const auto refused = [&](const std::string& key) {
    return std::any_of(notes.refused.begin(), notes.refused.end(),
                       [&](const std::string& r) { return within(key, r) || within(r, key); });
  };
  std::vector<std::pair<std::string, Json>> entries;
  flatten(j, "", table, entries);
  for (const auto& [key, value] : entries) {
    if (refused(key)) continue;
    try {
      // A number that reads as whole though written with a fraction is shown as written.
      const auto rounded = notes.rounded_to_whole.find(key);
      const bool whole = rounded == notes.rounded_to_whole.end();
      apply(file, key, value, whole ? value.dump() : rounded->second, whole, table, errors);
    } catch (const Json::exception& e) {
      errors.push_back(file + ": " + key + ": " + e.what());
    }
  }
}

}  // namespace

ConfigResult load_config(const std::string& file, const std::vector<std::string>& sets) {
  ConfigResult result;
  auto table = model::param_table(result.params);
  try {
    if (!file.empty()) apply_file(file, table, result.errors);
    for (const std::string& set : sets) {
      const auto eq = set.find('=');
      if (eq == std::string::npos || eq == 0) {
        result.errors.push_back("--set: '" + set + "': expected key=value");
        continue;
      }
      const std::string key = set.substr(0, eq), text = set.substr(eq + 1);
      Json value;
      try {
        value = Json::parse(text);
      } catch (const Json::out_of_range&) {  // 1e400
        result.errors.push_back("--set: " + key + ": '" + text + "' is beyond any value's range");
        continue;
      } catch (const Json::exception&) {
        result.errors.push_back("--set: " + key + ": '" + text + "' is not a number");
        continue;
      }
      // A number too small for a double reads as 0: say so rather than set 0.
      if (value.is_number_float() && reads_as_zero(text, value.get<double>())) {
        result.errors.push_back("--set: " + key + ": '" + text + "' is too small to hold (it would read as 0)");
        continue;
      }
      const auto first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
      apply("--set", key, value, text.substr(first, last - first + 1), !value.is_number() || number_text_is_whole(text),
            table, result.errors);
    }
    for (const std::string& e : result.params.validate()) result.errors.push_back("out of range: " + e);
  } catch (const std::exception& e) {  // a defect here must not escape as an abort
    result.errors.push_back(std::string("internal error while loading the configuration: ") + e.what());
  }
  return result;
}

nlohmann::ordered_json config_to_json(const model::PlatformParams& params) {
  model::PlatformParams copy = params;
  nlohmann::ordered_json root = nlohmann::ordered_json::object();
  for (const model::ParamInfo& p : model::param_table(copy)) {
    nlohmann::ordered_json* node = &root;
    std::stringstream path(p.key);
    std::string part, next;
    std::getline(path, part, '.');
    while (std::getline(path, next, '.')) {
      node = &(*node)[part];
      part = next;
    }
    switch (p.kind) {
      case model::ParamInfo::Kind::Integer: (*node)[part] = static_cast<std::uint64_t>(p.get()); break;
      case model::ParamInfo::Kind::Real: (*node)[part] = p.get(); break;
    }
  }
  return root;
}

}  // namespace ptosim::platforms
