// SPDX-License-Identifier: BSD-3-Clause
// Platform configuration: embedded defaults, files, --set overrides and precise errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "platforms/config/config_loader.h"
#include "tests/platforms/run_helpers.h"

using ptosim::platforms::config_to_json;
using ptosim::platforms::ConfigResult;
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
  CHECK(has_error(type.errors, "clock.period_ps: expected a whole number in [1, 1000000] (ps), got \"fast\""));
  CHECK(has_error(load_config("", {"clock.period_ps=1.5"}).errors,
                  "--set: clock.period_ps: expected a whole number in [1, 1000000] (ps), got 1.5"));
  const auto fraction = load_config("", {"cube.fill_cycles=2.5"});
  CHECK(has_error(fraction.errors, "cube.fill_cycles"));
  // A fraction too fine for a double reads as a whole number: its text tells, in a file or --set.
  CHECK(has_error(load_config("", {"local_memory.ports=1.99999999999999999"}).errors,
                  "--set: local_memory.ports: expected a whole number in [1, 64] (ports), got 1.99999999999999999"));
  CHECK(has_error(load_config(write(R"({ "local_memory": { "ports": 1.99999999999999999 } })"), {}).errors,
                  "local_memory.ports: expected a whole number in [1, 64] (ports), got 1.99999999999999999"));
  const auto written_whole = load_config(write(R"({ "local_memory": { "ports": 3.0 } })"), {"cube.fill_cycles=1.2e1"});
  REQUIRE(written_whole.errors.empty());
  CHECK(written_whole.params.local_memory.ports == 3);
  CHECK(written_whole.params.cube.fill_cycles == 12);
  // A real-valued key takes the nearest double, as ever.
  const auto real = load_config("", {"sfu.class.row_reduce.startup_cycles=2.99999999999999999"});
  REQUIRE(real.errors.empty());
  CHECK(real.params.sfu.of(ptosim::model::SfuOpClass::RowReduce).startup_cycles == 3);
  const auto range = load_config("", {"local_memory.ports=0"});
  CHECK(has_error(range.errors, "local_memory.ports: 0 is outside [1, 64]"));
  // Checked before storing: 1e20 does not fit the integer field (it would wrap to an in-range 0).
  const auto huge = load_config("", {"dispatch.decode_cycles=1e20"});
  CHECK(has_error(huge.errors, "dispatch.decode_cycles: 1e20 is outside [0, 1000000]"));
  // Shown as typed, not as the double it reads as (2^64 + 1 is not 2^64).
  CHECK(has_error(load_config("", {"clock.period_ps=18446744073709551617"}).errors,
                  "clock.period_ps: 18446744073709551617 is outside [1, 1000000]"));
  // A value just outside is shown as given, never rounded into the range it is outside of.
  const auto just_over = load_config("", {"clock.period_ps=1000001"});
  CHECK(has_error(just_over.errors, "clock.period_ps: 1000001 is outside [1, 1000000]"));
  const auto tiny = load_config("", {"sfu.class.row_reduce.startup_cycles=-1e300"});
  CHECK(has_error(tiny.errors, "sfu.class.row_reduce.startup_cycles: -1e300 is outside [-1000000, 1000000]"));
  const auto boolean = load_config("", {"sfu.class.generate.cycles_per_repeat=true"});
  CHECK(has_error(boolean.errors, "sfu.class.generate.cycles_per_repeat: expected a number (cycles), got true"));
  const auto bad_json = load_config(write("{ \"clock\": "), {});
  CHECK(has_error(bad_json.errors, "invalid JSON"));
  const auto missing = load_config("/nonexistent/config.json", {});
  CHECK(has_error(missing.errors, "cannot read '/nonexistent/config.json': No such file or directory"));
  const auto malformed = load_config("", {"sfu.bytes_per_cycle"});
  CHECK(has_error(malformed.errors, "expected key=value"));
  // A group given a value: a wrong type, not an unknown key.
  const auto group = load_config(write(R"({ "sfu": { "class": { "row_reduce": 5 } } })"), {});
  CHECK(has_error(group.errors, "sfu.class.row_reduce: a group of keys (such as 'sfu.class.row_reduce.startup_cycles'), not a value: got 5"));
  CHECK(has_error(load_config("", {"sfu=5"}).errors, "sfu: a group of keys (such as 'sfu.repeat_bytes'), not a value"));
}

TEST_CASE("A directory as the configuration file is an error naming it", "[config]") {
  const std::string dir = ptosim::test::scratch("config_dir");
  std::filesystem::create_directories(dir);
  ConfigResult r;
  REQUIRE_NOTHROW(r = load_config(dir, {}));
  CHECK(has_error(r.errors, "cannot read '" + dir + "': is a directory"));
}

TEST_CASE("A number beyond a double is an error naming the file and key, not an exception", "[config]") {
  ConfigResult r;
  const std::string huge = write(R"({ "sfu": { "bytes_per_cycle": 1e400 } })");
  REQUIRE_NOTHROW(r = load_config(huge, {}));
  CHECK(has_error(r.errors, huge + ": sfu.bytes_per_cycle: invalid JSON"));
  CHECK(has_error(r.errors, "number overflow parsing '1e400'"));
  REQUIRE_NOTHROW(r = load_config("", {"sfu.bytes_per_cycle=1e400"}));
  CHECK(has_error(r.errors, "--set: sfu.bytes_per_cycle: '1e400' is beyond any value's range"));
  // A value too small for a double would read as 0: an error, not a silent 0, given by --set or in
  // a file.
  REQUIRE_NOTHROW(r = load_config("", {"sfu.class.generate.cycles_per_repeat=1e-400"}));
  CHECK(has_error(r.errors, "--set: sfu.class.generate.cycles_per_repeat: '1e-400' is too small to hold (it would read as 0)"));
  for (const char* zero : {"0e-400", "0.0", "-0", "1e-300", " 0.0", "0.0 "})
    CHECK(load_config("", {std::string("sfu.class.generate.cycles_per_repeat=") + zero}).errors.empty());
  const std::string tiny = write("{ \"sfu\": { \"class\": {\n \"generate\": { \"cycles_per_repeat\": 1e-400 } } } }");
  CHECK(load_config(tiny, {}).errors ==
        std::vector<std::string>{tiny + ": sfu.class.generate.cycles_per_repeat: '1e-400' is too small to hold (it would read as 0)"});
  // Digits in strings are no numbers.
  CHECK(has_error(load_config(write(R"({ "x1e-400": { "y\"1e-400": 0 } })"), {}).errors, "unknown key"));
}

TEST_CASE("Nesting deeper than any key is an error at once, however deep the file goes", "[config]") {
  // 200000 levels used to take minutes and overflow the stack.
  const auto nested = [](int levels) {
    std::string text;
    for (int i = 0; i < levels; ++i) text += "{ \"a\": ";
    return text + "1" + std::string(static_cast<std::size_t>(levels), '}');
  };
  ConfigResult r;
  const std::string deep = write(nested(200000));
  REQUIRE_NOTHROW(r = load_config(deep, {}));
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0] == deep + ": 'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a' nests deeper than 16 levels; no configuration key is that deep");
  // Arrays count too; sixteen levels are still parsed, and fail only as an unknown key.
  CHECK(has_error(load_config(write(R"({ "sfu": )" + std::string(20, '[') + std::string(20, ']') + "}"), {}).errors,
                  "'sfu[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]' nests deeper than 16 levels"));
  CHECK(has_error(load_config(write(nested(16)), {}).errors, "unknown key 'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a'"));
  // Arrays from the top: the configuration itself is what nests.
  const std::string arrays = write(std::string(100, '['));
  CHECK(load_config(arrays, {}).errors ==
        std::vector<std::string>{arrays + ": the configuration nests deeper than 16 levels; no configuration key is that deep"});
}

TEST_CASE("A key given twice in one object is an error naming its path", "[config]") {
  ConfigResult r;
  const std::string twice = write(R"({ "clock": { "period_ps": 1, "period_ps": 2 } })");
  r = load_config(twice, {});
  CHECK(r.errors == std::vector<std::string>{twice + ": key 'clock.period_ps' given twice"});
  r = load_config(write(R"({ "sfu": { "class": { "row_reduce": {} } }, "sfu": {} })"), {});
  CHECK(has_error(r.errors, "key 'sfu' given twice"));
  r = load_config(write(R"({ "sfu": { "class": { "row_reduce": { "startup_cycles": 1, "startup_cycles": 1 } } } })"),
                  {});
  CHECK(has_error(r.errors, "key 'sfu.class.row_reduce.startup_cycles' given twice"));
  // The same name in different objects is no repetition.
  r = load_config(
      write(
          R"({ "sfu": { "class": { "row_reduce": { "startup_cycles": 1 }, "row_minmax": { "startup_cycles": 1 } } } })"),
      {});
  CHECK(r.errors.empty());
  // The file's other problems are listed with it; the value given twice is reported once.
  const std::string more = write(
      R"({ "clock": { "period_ps": 0, "period_ps": 0 }, "sfu": { "bogus": 1, "read_bytes_per_cycle": "x" }, "cube": { "fill_cycles": 1e-400 } })");
  CHECK(load_config(more, {}).errors ==
        std::vector<std::string>{more + ": key 'clock.period_ps' given twice",
                                 more + ": cube.fill_cycles: '1e-400' is too small to hold (it would read as 0)",
                                 more + ": unknown key 'sfu.bogus'",
                                 more + ": sfu.read_bytes_per_cycle: expected a whole number in [1, 65536] (bytes/cycle), got \"x\""});
  // A dotted key's path is the nested key's: its value is checked too, and hides no error of the
  // nested one.
  const std::string dotted_too = write(R"({ "sfu.read_bytes_per_cycle": 64, "sfu": { "read_bytes_per_cycle": "x" } })");
  CHECK(load_config(dotted_too, {}).errors ==
        std::vector<std::string>{dotted_too + ": key 'sfu.read_bytes_per_cycle' has a dot: nest it ({\"a\": {\"b\": ...}} for a.b)",
                                 dotted_too + ": sfu.read_bytes_per_cycle: expected a whole number in [1, 65536] (bytes/cycle), got \"x\""});
  // A value holding a refused number is not checked further (it would show the number as 0).
  const std::string inner = write(R"({ "sfu": { "read_bytes_per_cycle": [1e-400, 3] } })");
  CHECK(load_config(inner, {}).errors ==
        std::vector<std::string>{inner + ": sfu.read_bytes_per_cycle[0]: '1e-400' is too small to hold (it would read as 0)"});
  // A dotted key would be a second name for a nested one, so it could repeat it unseen.
  const auto dotted = load_config(write(R"({ "sfu.bytes_per_cycle": 64, "sfu": { "bytes_per_cycle": 32 } })"), {});
  CHECK(has_error(dotted.errors, "key 'sfu.bytes_per_cycle' has a dot: nest it"));
}

TEST_CASE("An empty object is a key only where keys lie below it", "[config]") {
  CHECK(has_error(load_config(write(R"({ "foo": {} })"), {}).errors, "unknown key 'foo'"));
  CHECK(has_error(load_config(write(R"({ "sfu": { "clas": {} } })"), {}).errors, "unknown key 'sfu.clas'"));
  // A key given an object is a type error, empty or not.
  CHECK(has_error(load_config(write(R"({ "clock": { "period_ps": {} } })"), {}).errors,
                  "clock.period_ps: expected a whole number in [1, 1000000] (ps), got {}"));
  CHECK(has_error(load_config(write(R"({ "clock": { "period_ps": { "x": 1 } } })"), {}).errors,
                  R"(clock.period_ps: expected a whole number in [1, 1000000] (ps), got {"x":1})"));
  // An empty group changes nothing.
  CHECK(load_config(write(R"({ "sfu": {}, "sfu_x": 1 })"), {}).errors.size() == 1);
  CHECK(load_config(write(R"({ "sfu": { "class": { "row_reduce": {} } } })"), {}).errors.empty());
}

TEST_CASE("An unknown key gets the closest known key as a suggestion, or none", "[config]") {
  auto suggestion = [](const std::string& key) {
    const auto r = load_config("", {key + "=1"});
    REQUIRE(r.errors.size() == 1);
    const auto at = r.errors[0].find("(did you mean '");
    return at == std::string::npos ? std::string() : r.errors[0].substr(at + 15, r.errors[0].size() - at - 15 - 3);
  };
  CHECK(suggestion("sfu.bytes_per_cyle") == "sfu.bytes_per_cycle");
  CHECK(suggestion("clock.period") == "clock.period_ps");
  CHECK(suggestion("local_memory.port") == "local_memory.ports");
  CHECK(suggestion("local_memory.bankz") == "local_memory.banks");
  CHECK(suggestion("dispatcher.decode_cycles") == "dispatch.decode_cycles");
  CHECK(suggestion("foo") == "");
  CHECK(suggestion("cube.warp_drive") == "");
  CHECK(suggestion("x.cycles") == "");  // a last component matches only a whole component
  // A known key it begins, up to a '_': the shortest.
  CHECK(suggestion("cube.fill") == "cube.fill_cycles");
  CHECK(suggestion("sfu.read") == "sfu.read_bytes_per_cycle");
  // A known key under a prefix (a statistics file's "configuration", given as a configuration).
  CHECK(suggestion("configuration.local_memory.bytes_per_cycle") == "local_memory.bytes_per_cycle");
  CHECK(suggestion("configuration.shared_memory.ports") == "shared_memory.ports");
  CHECK(suggestion("configuration.cube.burst_bytes") == "cube.burst_bytes");
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
