// SPDX-License-Identifier: BSD-3-Clause
// Platform configuration: embedded defaults, files, --set overrides and precise errors.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "platforms/config/config_loader.h"
#include "tests/platforms/run_helpers.h"

using ptosim::platforms::config_to_json;
using ptosim::platforms::load_config;

namespace {

std::string write(const std::string& text) { return ptosim::test::write_file("config_test.json", text); }

bool has_error(const std::vector<std::string>& errors, const std::string& needle) {
  for (const auto& e : errors)
    if (e.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("The embedded default configuration is valid and round-trips through JSON", "[config]") {
  const auto def = load_config("", {});
  REQUIRE(def.errors.empty());
  CHECK(def.params.clock.period_ps == 541);
  const auto again = load_config(write(config_to_json(def.params).dump()), {});
  REQUIRE(again.errors.empty());
  CHECK(config_to_json(again.params) == config_to_json(def.params));
}

TEST_CASE("Files and --set override parameters in order", "[config]") {
  const auto r = load_config(write(R"({ "sfu": { "bytes_per_cycle": 256, "class": { "row_reduce": { "startup_cycles": 3.5 } } } })"),
                             {"sfu.bytes_per_cycle=64", "cube.fill_cycles=9", "sfu.class.expand_div.lane_cycles_per_repeat=6"});
  REQUIRE(r.errors.empty());
  CHECK(r.params.sfu.bytes_per_cycle == 64);
  CHECK(r.params.sfu.of(ptosim::model::SfuOpClass::RowReduce).startup_cycles == 3.5);
  CHECK(r.params.cube.fill_cycles == 9);
  CHECK(r.params.sfu.of(ptosim::model::SfuOpClass::ExpandDiv).lane_cycles_per_repeat == 6);
}

TEST_CASE("Unknown keys, wrong types and out-of-range values are errors naming the key", "[config]") {
  const auto unknown = load_config(write(R"({ "sfu": { "byte_per_cycle": 2 } })"), {});
  CHECK(has_error(unknown.errors, "unknown key 'sfu.byte_per_cycle'"));
  const auto typo = load_config("", {"local_memory.bankz=4"});
  CHECK(has_error(typo.errors, "unknown key 'local_memory.bankz'"));
  const auto type = load_config(write(R"({ "clock": { "period_ps": "fast" } })"), {});
  CHECK(has_error(type.errors, "clock.period_ps: expected a non-negative integer"));
  const auto fraction = load_config("", {"cube.fill_cycles=2.5"});
  CHECK(has_error(fraction.errors, "cube.fill_cycles"));
  const auto range = load_config("", {"local_memory.ports=0"});
  CHECK(has_error(range.errors, "local_memory.ports: 0 is outside [1, 64]"));
  // Checked before storing: 1e20 does not fit the integer field (it would wrap to an in-range 0).
  const auto huge = load_config("", {"dispatch.decode_cycles=1e20"});
  CHECK(has_error(huge.errors, "dispatch.decode_cycles: 1e+20 is outside"));
  const auto boolean = load_config("", {"sfu.class.generate.cycles_per_repeat=true"});
  CHECK(has_error(boolean.errors, "sfu.class.generate.cycles_per_repeat: expected a number (cycles), got true"));
  const auto bad_json = load_config(write("{ \"clock\": "), {});
  CHECK(has_error(bad_json.errors, "invalid JSON"));
  const auto missing = load_config("/nonexistent/config.json", {});
  CHECK(has_error(missing.errors, "cannot open"));
  const auto malformed = load_config("", {"sfu.bytes_per_cycle"});
  CHECK(has_error(malformed.errors, "expected key=value"));
}

TEST_CASE("Every shipped configuration loads, default.json is the embedded default", "[config]") {
  const std::string dir = std::string(PTOSIM_SOURCE_DIR) + "/platforms/configs/";
  const auto def = load_config(dir + "default.json", {});
  REQUIRE(def.errors.empty());
  CHECK(config_to_json(def.params) == config_to_json(load_config("", {}).params));
  const auto a5 = load_config(dir + "a5-like.json", {});
  REQUIRE(a5.errors.empty());
  CHECK(a5.params.clock.period_ps == 606);
}

TEST_CASE("docs/config.md documents every configuration key", "[config]") {
  std::ifstream in(std::string(PTOSIM_SOURCE_DIR) + "/docs/config.md");
  std::stringstream doc;
  doc << in.rdbuf();
  ptosim::model::PlatformParams p;
  for (const auto& info : ptosim::model::param_table(p)) {
    INFO(info.key);
    CHECK(doc.str().find("| `" + info.key + "` |") != std::string::npos);
  }
}
