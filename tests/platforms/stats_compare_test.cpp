// SPDX-License-Identifier: BSD-3-Clause
// ptosim compare's reading and layout of statistics files: what differs, side by side, with its
// ratio to the first run.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platforms/stats_compare.h"
#include "tests/platforms/run_helpers.h"

using ptosim::platforms::compare_stats;
using ptosim::platforms::read_stats;
using ptosim::platforms::StatsRun;
using Json = nlohmann::ordered_json;

namespace {

/// A small statistics document, as ptosim run writes them (its members in that order).
Json stats(const char* allocation, int cycles, int sfu_busy, const Json& cube_ops, int port0_bytes, int bytes_per_cycle,
           const Json& flags) {
  Json s;
  s["ptosim_version"] = "0.1.0";
  s["program"] = "p.pto";
  s["timing_only"] = false;
  s["allocation"] = allocation;
  s["simulated_cycles"] = cycles;
  s["engines"]["sfu"]["busy_cycles"] = sfu_busy;
  s["engines"]["sfu"]["utilisation"] = 0.5;
  s["engines"]["sfu"]["per_opcode"]["TROWSUM"] = {{"count", 1}, {"cycles", sfu_busy}};
  s["engines"]["cube"]["per_opcode"] = cube_ops;
  s["memories"]["shared_memory"]["ports"] = Json::array({{{"bytes", port0_bytes}}, {{"bytes", 64}}});
  s["status_flags"] = flags;
  s["configuration"]["clock"]["period_ps"] = 541;
  s["configuration"]["sfu"]["bytes_per_cycle"] = bytes_per_cycle;
  s["configuration"]["sfu"]["class"]["row_reduce"]["cycles_per_repeat"] = 7.5;
  return s;
}

}  // namespace

TEST_CASE("ptosim compare lists what differs between runs, each value beside its ratio to the first run's", "[compare]") {
  const Json a = stats("asl", 200, 100, Json::object(), 0, 128, {"NX"});
  const Json b = stats("queue:2", 100, 50, {{"TMATMUL", {{"count", 2}, {"cycles", 30}}}}, 32, 256, Json::array());
  CHECK(compare_stats({{"a.json", a}, {"b.json", b}}, false) ==
        "A  a.json: p.pto, full run, allocation asl, ptosim 0.1.0\n"
        "B  b.json: p.pto, full run, allocation queue:2, ptosim 0.1.0\n"
        "note: the runs differ in allocation\n"
        "\n"
        "configuration: 1 of 3 keys differs\n"
        "  key                    A    B    B/A\n"
        "  sfu.bytes_per_cycle  128  256  2.000\n"
        "\n"
        "figures: 7 of 10 values differ\n"
        "  key                                          A    B    B/A\n"
        "  simulated_cycles                           200  100  0.500\n"
        "  engines.sfu.busy_cycles                    100   50  0.500\n"
        "  engines.sfu.per_opcode.TROWSUM.cycles      100   50  0.500\n"
        "  engines.cube.per_opcode.TMATMUL.count        -    2      -\n"
        "  engines.cube.per_opcode.TMATMUL.cycles       -   30      -\n"
        "  memories.shared_memory.ports[0].bytes        0   32      -\n"
        "  status_flags                            [\"NX\"]   []      -\n");
}

TEST_CASE("ptosim compare says when runs are the same, and with --all lists every value", "[compare]") {
  const Json a = stats("asl", 200, 100, Json::object(), 0, 128, {"NX"});
  const std::string same = compare_stats({{"a.json", a}, {"again.json", a}}, false);
  CHECK(same ==
        "A  a.json: p.pto, full run, allocation asl, ptosim 0.1.0\n"
        "B  again.json: p.pto, full run, allocation asl, ptosim 0.1.0\n"
        "\n"
        "configuration: the same in every run (3 keys)\n"
        "\n"
        "figures: the same in every run (8 values)\n");
  const std::string all = compare_stats({{"a.json", a}, {"again.json", a}}, true);
  CHECK(all.find("configuration: the same in every run (3 keys)\n"
                 "  key                                       A    B    B/A\n"
                 "  clock.period_ps                         541  541  1.000\n"
                 "  sfu.bytes_per_cycle                     128  128  1.000\n"
                 "  sfu.class.row_reduce.cycles_per_repeat  7.5  7.5  1.000\n") != std::string::npos);
  // A ratio to zero, and one of text, is none.
  CHECK(all.find("  memories.shared_memory.ports[0].bytes       0       0      -\n") != std::string::npos);
  CHECK(all.find("  engines.sfu.utilisation                   0.5     0.5  1.000\n") != std::string::npos);
  CHECK(all.find("  status_flags                           [\"NX\"]  [\"NX\"]      -\n") != std::string::npos);
}

TEST_CASE("ptosim compare takes up to 26 runs, each later one with its ratio to the first", "[compare]") {
  const Json a = stats("asl", 200, 100, Json::object(), 0, 128, {"NX"});
  Json c = a;
  c["simulated_cycles"] = 300;
  c["timing_only"] = true;
  c["status_flags"] = nullptr;
  c["configuration"]["sfu"]["extra"] = 1;
  const std::string text = compare_stats({{"a", a}, {"b", a}, {"c", c}}, false);
  CHECK(text.find("C  c: p.pto, timing-only run, allocation asl, ptosim 0.1.0\nnote: the runs differ in timing_only\n") !=
        std::string::npos);
  // A key only a later run has comes after the one before it in that run.
  CHECK(text.find("configuration: 1 of 4 keys differs\n"
                  "  key        A  B  C  B/A  C/A\n"
                  "  sfu.extra  -  -  1    -    -\n") != std::string::npos);
  CHECK(text.find("  simulated_cycles     200     200   300  1.000  1.500\n") != std::string::npos);
  CHECK(text.find("  status_flags      [\"NX\"]  [\"NX\"]  null      -      -\n") != std::string::npos);
  CHECK_THROWS_AS(compare_stats({{"a", a}}, false), std::invalid_argument);
  CHECK_THROWS_AS(compare_stats(std::vector<StatsRun>(27, StatsRun{"a", a}), false), std::invalid_argument);
  CHECK_NOTHROW(compare_stats(std::vector<StatsRun>(26, StatsRun{"a", a}), false));
}

TEST_CASE("ptosim compare reads statistics files strictly and refuses other documents", "[compare]") {
  using ptosim::test::scratch;
  using ptosim::test::write_file;
  const auto problems_of = [](const std::string& path) {
    std::vector<std::string> problems;
    const auto doc = read_stats(path, problems);
    CHECK_FALSE(doc);
    return problems;
  };
  const Json good = stats("asl", 200, 100, Json::object(), 0, 128, {"NX"});
  std::vector<std::string> none;
  const auto doc = read_stats(write_file("good.json", good.dump(2)), none);
  REQUIRE(doc);
  CHECK(none.empty());
  CHECK(doc->dump() == good.dump());  // the members in the file's order

  CHECK(problems_of(scratch("missing.json")).front().find("cannot read") != std::string::npos);
  CHECK(problems_of(write_file("broken.json", "{\"simulated_cycles\": 1,")).front().find("invalid JSON") != std::string::npos);
  const std::string twice = write_file("twice.json", R"({"simulated_cycles": 1, "simulated_cycles": 2, "configuration": {}})");
  CHECK(problems_of(twice) == std::vector<std::string>{twice + ": key 'simulated_cycles' given twice"});
  const std::string not_stats =
      ": not a statistics file of ptosim run --stats (it needs a number simulated_cycles and an object configuration)";
  for (const char* text : {"[]", R"({"sfu": {"bytes_per_cycle": 128}})", R"({"simulated_cycles": "1", "configuration": {}})",
                           R"({"simulated_cycles": 1, "configuration": 5})", R"({"simulated_cycles": 1})"}) {
    const std::string other = write_file("other.json", text);
    CHECK(problems_of(other) == std::vector<std::string>{other + not_stats});
  }
  // A key with a dot may name an operation (TMATMUL.ACC), not the path of another value.
  const std::string dotted =
      write_file("dotted.json", R"({"simulated_cycles": 1, "a.b": 1, "a": {"b": 2, "c.d": 3}, "configuration": {}})");
  CHECK(problems_of(dotted) == std::vector<std::string>{dotted + ": two values have the path 'a.b'"});
}

TEST_CASE("ptosim compare shows ratios at every scale, values exactly where six digits hide a difference, and a description only one run has", "[compare]") {
  Json a = stats("asl", 200, 100, Json::object(), 0, 128, {"NX"});
  Json b = a;
  a["engines"]["sfu"]["utilisation"] = 0.948412698412;
  b["engines"]["sfu"]["utilisation"] = 0.948412698413;  // the same to six digits
  b["engines"]["sfu"]["busy_cycles"] = 1e10;             // a ratio of 10^8
  b["simulated_cycles"] = 0.01;                          // of 5 x 10^-5
  b.erase("ptosim_version");
  const std::string text = compare_stats({{"a", a}, {"b", b}}, false);
  INFO(text);
  CHECK(text.find("note: the runs differ in ptosim_version\n") != std::string::npos);
  CHECK(text.find("  engines.sfu.utilisation  0.948412698412  0.948412698413  1.000\n") != std::string::npos);
  CHECK(text.find("  engines.sfu.busy_cycles             100           1e+10  1e+08\n") != std::string::npos);
  CHECK(text.find("  simulated_cycles                    200            0.01  5e-05\n") != std::string::npos);
}
