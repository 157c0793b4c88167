// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/config/config_loader.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace ptosim::platforms {

namespace {

using Json = nlohmann::json;

void flatten(const Json& j, const std::string& prefix, std::vector<std::pair<std::string, Json>>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  out.emplace_back(prefix, j);
}

std::string closest_key(const std::string& key, const std::vector<model::ParamInfo>& table) {
  // Suggest a key with the same last component, the usual typo being in the path.
  const std::string last = key.substr(key.rfind('.') + 1);
  for (const auto& p : table)
    if (p.key.size() >= last.size() && p.key.compare(p.key.size() - last.size(), last.size(), last) == 0) return p.key;
  return {};
}

/// Stores a number the range check accepts; the check comes first, as a value beyond the field's
/// type (say 1e20 into an integer) cannot be stored faithfully to be checked afterwards.
void set_in_range(const std::string& origin, const std::string& key, const Json& value, const model::ParamInfo& p,
                  std::vector<std::string>& errors) {
  const double v = value.get<double>();
  if (const auto problem = p.range_problem(v)) {
    errors.push_back("out of range: " + origin + ": " + key + ": " + *problem);
    return;
  }
  p.set(v);
}

void apply(const std::string& origin, const std::string& key, const Json& value, std::vector<model::ParamInfo>& table,
           std::vector<std::string>& errors) {
  for (const model::ParamInfo& p : table) {
    if (p.key != key) continue;
    switch (p.kind) {
      case model::ParamInfo::Kind::Integer:
        if (!value.is_number() || (value.is_number_float() && std::floor(value.get<double>()) != value.get<double>()) ||
            value.get<double>() < 0) {
          errors.push_back(origin + ": " + key + ": expected a non-negative integer (" + p.unit + "), got " + value.dump());
          return;
        }
        set_in_range(origin, key, value, p, errors);
        return;
      case model::ParamInfo::Kind::Real:
        if (!value.is_number()) {
          errors.push_back(origin + ": " + key + ": expected a number (" + p.unit + "), got " + value.dump());
          return;
        }
        set_in_range(origin, key, value, p, errors);
        return;
    }
  }
  std::string msg = origin + ": unknown key '" + key + "'";
  const std::string hint = closest_key(key, table);
  if (!hint.empty()) msg += " (did you mean '" + hint + "'?)";
  errors.push_back(msg);
}

}  // namespace

ConfigResult load_config(const std::string& file, const std::vector<std::string>& sets) {
  ConfigResult result;
  auto table = model::param_table(result.params);
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) {
      result.errors.push_back(file + ": cannot open configuration file");
      return result;
    }
    Json j;
    try {
      j = Json::parse(in);
    } catch (const Json::parse_error& e) {
      result.errors.push_back(file + ": invalid JSON: " + e.what());
      return result;
    }
    if (!j.is_object()) {
      result.errors.push_back(file + ": the configuration must be a JSON object");
      return result;
    }
    std::vector<std::pair<std::string, Json>> entries;
    flatten(j, "", entries);
    for (const auto& [key, value] : entries) apply(file, key, value, table, result.errors);
  }
  for (const std::string& set : sets) {
    const auto eq = set.find('=');
    if (eq == std::string::npos || eq == 0) {
      result.errors.push_back("--set " + set + ": expected key=value");
      continue;
    }
    const std::string key = set.substr(0, eq), text = set.substr(eq + 1);
    Json value;
    try {
      value = Json::parse(text);
    } catch (const Json::parse_error&) {
      result.errors.push_back("--set " + key + ": '" + text + "' is not a number or true/false");
      continue;
    }
    apply("--set", key, value, table, result.errors);
  }
  for (const std::string& e : result.params.validate()) result.errors.push_back("out of range: " + e);
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
