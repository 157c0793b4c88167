// SPDX-License-Identifier: BSD-3-Clause
// The ptosim program end to end: run (values, VCD), exec (scenario contract), and bad input.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/platforms/run_helpers.h"
#include "tests/platforms/waves.h"

namespace {

using ptosim::test::dumped_encodings;
using ptosim::test::fst_round_trip_problem;
using ptosim::test::scratch;
using ptosim::test::slurp;
using ptosim::test::Waves;
using ptosim::test::write_file;

struct Outcome {
  int status;
  std::string out;
  std::string err;
};

/// Runs `ptosim ARGS` through the shell, with `environment` ("NAME=value ...") set for it.
Outcome run(const std::string& args, const std::string& environment = "") {
  const std::string out = scratch("stdout.txt"), err = scratch("stderr.txt");
  const std::string cmd = environment + " " + PTOSIM_EXE + " " + args + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  return Outcome{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}


std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

nlohmann::json exec_json(const std::string& scenario) {
  const Outcome r = run("exec " + write_file("scenario.json", scenario));
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

/// The GEMM example with its TMATMUL.ACC step repeated `steps` times: seconds of simulation for
/// a few thousand (run it with --allocation queue:4).
std::string gemm_chain(int steps) {
  const std::string gemm = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/gemm.pto");
  const std::size_t acc = gemm.find("BSTART.TMATMUL.ACC");
  const std::string step = gemm.substr(acc, gemm.find("BSTOP", acc) + 6 - acc);
  std::string program = gemm.substr(0, acc);
  for (int i = 0; i < steps; ++i) program += step;
  return program;
}

}  // namespace

TEST_CASE("ptosim run: the row-sum example prints sums folded in increasing column order", "[cli]") {
  const Outcome r = run(std::string("run ") + PTOSIM_SOURCE_DIR + "/examples/rowsum.pto --hex");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("1 committed") != std::string::npos);
  // Independent reference: host IEEE single precision, one rounding per step, left to right.
  const std::vector<std::vector<float>> rows = {
      {1, 2, 3, 4, 5, 6, 7, 8},
      {0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f},
      {1e8f, 1, -1e8f, 1, 0, 0, 0, 0},
      {-1.5f, -2.5f, 3, 4, -0.0f, 0, 1e-3f, -1e-3f}};
  std::vector<std::vector<std::uint32_t>> expected;
  for (const auto& row : rows) {
    volatile float acc = 0.0f;
    for (float v : row) acc = acc + v;
    expected.push_back({bits_of(acc)});
  }
  CHECK(dumped_encodings(r.out, "U#1") == expected);
  CHECK(expected[2][0] == bits_of(1.0f));  // a reassociated sum would give 2
  // 1e8 + 1 rounds: the run ends with the inexact flag set, in the summary and the statistics.
  CHECK(r.out.find("\n  status      NX\n") != std::string::npos);
}

TEST_CASE("ptosim run's summary splits an engine's busy cycles into compute and memory stall", "[cli]") {
  // A 64x64 FP32 TROWSUM with the SFU made very wide: its 16 KiB operand stream outlasts compute.
  const std::string prog = write_file("split.pto", ".tile T#1 FP32 cols=64 capacity=16384 valid=64x64\n.random T#1 seed=3\n"
                                                   "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\n"
                                                   "B.IOT T#1, mask=1111, last, ->U<2>\nBSTOP\n");
  const std::string stats = scratch("split.json");
  const Outcome r = run("run " + prog + " --set sfu.bytes_per_cycle=65536 --stats " + stats);
  REQUIRE(r.status == 0);
  const auto sfu = nlohmann::json::parse(slurp(stats))["engines"]["sfu"];
  const auto compute = sfu["compute_cycles"].get<std::uint64_t>(), stall = sfu["stall_cycles"]["memory_contention"].get<std::uint64_t>();
  CHECK(stall > compute);
  CHECK(compute + stall == sfu["busy_cycles"].get<std::uint64_t>());
  CHECK(r.out.find(" busy cycles (") != std::string::npos);
  CHECK(r.out.find("): " + std::to_string(compute) + " compute, " + std::to_string(stall) + " memory stall\n") != std::string::npos);
  CHECK(r.out.find("\n  CUBE        0 busy cycles (0.0%)\n") != std::string::npos);  // nothing to split
}

TEST_CASE("ptosim run reports the sticky status flags it ends with, which .status sets first", "[cli]") {
  const std::string exact = write_file("exact.pto", ".tile T#1 FP32 valid=1x2\n.data T#1 1 2\n"
                                                    "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 1, ->LB1\n"
                                                    "B.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n");
  const std::string stats = scratch("flags.json");
  const Outcome clear = run("run " + exact + " --stats " + stats);
  CHECK(clear.out.find("\n  status      none\n") != std::string::npos);
  CHECK(nlohmann::json::parse(slurp(stats))["status_flags"] == nlohmann::json::array());
  const std::string preset = write_file("preset.pto", ".status DZ UF\n" + slurp(exact));
  const Outcome set = run("run " + preset + " --stats " + stats);
  CHECK(set.out.find("\n  status      DZ UF\n") != std::string::npos);
  CHECK(nlohmann::json::parse(slurp(stats))["status_flags"] == nlohmann::json::array({"DZ", "UF"}));
  // A timing-only run computes no values, so it has no flags to report.
  const Outcome timing = run("run " + preset + " --timing-only --stats " + stats);
  CHECK(timing.out.find("status") == std::string::npos);
  CHECK(nlohmann::json::parse(slurp(stats))["status_flags"].is_null());
}

TEST_CASE("ptosim run: the VCD converts with vcd2fst and comes with a GTKWave layout", "[cli]") {
  const std::string vcd = scratch("rowsum.vcd");
  const Outcome r = run(std::string("run ") + PTOSIM_SOURCE_DIR + "/examples/rowsum.pto --quiet --vcd " + vcd);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string text = slurp(vcd);
  CHECK(text.find("$var wire 1") != std::string::npos);
  CHECK(text.find("busy") != std::string::npos);
  CHECK(fst_round_trip_problem(vcd) == "");
  CHECK(slurp(vcd + ".gtkw").find("[dumpfile]") != std::string::npos);
}

TEST_CASE("ptosim run writes the same trace with its writer in line and on a thread of its own (--trace-thread)", "[cli]") {
  // A timing-only chain of 2000 GEMM bundles reports some 40 000 changes: written in line a block
  // at a time, or handed a block at a time to the writer's thread. The file cannot tell which
  // wrote it (that is the point); the thread's own work is tested in the recorder's tests.
  const std::string dims = "B.FPATR\nB.DIM zero, 32, ->LB0\nB.DIM zero, 64, ->LB1\nB.DIM zero, 256, ->LB2\n";
  std::string program =
      ".tile T#1 FP16 valid=32x256 layout=CUBE_M32 location=Matrix capacity=16KiB\n.random T#1 seed=1\n"
      ".tile U#1 FP16 valid=256x64 layout=CUBE_N8 location=Matrix capacity=32KiB\n.random U#1 seed=2\n"
      "BSTART.TMATMUL FP16\n" + dims + "B.IOT T#1, U#1, mask=1111, last, ->M<8KiB>\nBSTOP\n";
  for (int i = 1; i < 2000; ++i)
    program += "BSTART.TMATMUL.ACC FP16\n" + dims + "B.IOT M#1, T#1, mask=1111\nB.IOT U#1, mask=1111, last, ->M<8KiB>\nBSTOP\n";
  const std::string prog = ptosim::test::write_file("long_chain.pto", program);
  const std::string own = scratch("own_thread.vcd"), in_line = scratch("in_line.vcd");
  const Outcome threaded = run("run " + prog + " --quiet --timing-only --trace-thread --vcd " + own);
  const Outcome plain = run("run " + prog + " --quiet --timing-only --vcd " + in_line);
  INFO(threaded.err << plain.err);
  REQUIRE(threaded.status == 0);
  REQUIRE(plain.status == 0);
  const auto body = [](const std::string& vcd) { return vcd.substr(vcd.find("$enddefinitions")); };
  const std::string a = slurp(own), b = slurp(in_line);
  CHECK(a.size() > 300'000);  // about 190 bytes a bundle (the four Local memories' port counts one signal)
  CHECK(body(a) == body(b));
}

TEST_CASE("ptosim run --trace-modules traces the named modules only, with the same run", "[cli]") {
  const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/attention.pto";
  const std::string all = scratch("modules_all.vcd"), some = scratch("modules_some.vcd");
  const Outcome whole = run("run " + prog + " --quiet --vcd " + all);
  const Outcome part = run("run " + prog + " --quiet --vcd " + some + " --trace-modules cube,local_memory");
  INFO(whole.err << part.err);
  REQUIRE(whole.status == 0);
  REQUIRE(part.status == 0);
  const auto without_wall_time = [](const std::string& summary) {
    const std::size_t at = summary.find("  wall time");
    return summary.substr(0, at) + summary.substr(summary.find('\n', at) + 1);
  };
  CHECK(without_wall_time(part.out) == without_wall_time(whole.out));  // tracing less changes no cycle
  const std::string text = slurp(some), layout = slurp(some + ".gtkw");
  for (const char* scope : {"cube", "local_memory_pe0", "local_memory_pe3"}) {
    CHECK(text.find(std::string("$scope module ") + scope + " $end") != std::string::npos);
    CHECK(layout.find(std::string("top.") + scope + ".") != std::string::npos);
  }
  for (const char* scope : {"dispatcher", "sfu", "shared_memory", "control"}) {
    CHECK(text.find(std::string("$scope module ") + scope + " $end") == std::string::npos);
    CHECK(layout.find(std::string("top.") + scope + ".") == std::string::npos);
  }
  // The signals traced in both show the same changes.
  const Waves whole_waves(all), part_waves(some);
  CHECK(part_waves.changes.size() == 7);  // the CUBE's busy, opcode and bundle id, four port counts
  for (const auto& [signal, changes] : part_waves.changes) {
    INFO(signal);
    CHECK(changes == whole_waves.changes.at(signal));
  }
  CHECK(part_waves.end == whole_waves.end);
  CHECK(fst_round_trip_problem(some) == "");
}

TEST_CASE("ptosim exec: TROWSUM FP32 keeps the architectural fold order and flags", "[cli]") {
  const auto out = exec_json(R"({
    "tiles": [ { "reg": "T#1", "dtype": "FP32", "capacity": 128, "cols": 4, "valid_rows": 1, "valid_cols": 4,
                 "data": ["4cbebc20", "3f800000", "ccbebc20", "3f800000"] } ],
    "program": "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 4, ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n" })");
  REQUIRE(out["bundles"].size() == 1);
  CHECK(out["bundles"][0]["outcome"] == "committed");
  CHECK(out["bundles"][0]["op"] == "TROWSUM");
  const auto& result = out["tiles"][1];
  CHECK(result["reg"] == "T#2");
  CHECK(result["valid_rows"] == 1);
  CHECK(result["valid_cols"] == 1);
  CHECK(result["cols"] == 1);
  CHECK(result["rows"] == 32);
  // ((1e8 + 1) - 1e8) + 1 = 1 with a rounding at each step; inexact on the first.
  CHECK(result["data_per_pe"]["PE0"][0] == "3f800000");
  CHECK(result["data_per_pe"]["PE3"][0] == "3f800000");
  CHECK(result["data_per_pe"]["PE0"][1].is_null());  // Null padding: undefined
  CHECK(out["status"] == nlohmann::json::array({"NX"}));
}

TEST_CASE("ptosim exec: TROWSUM FP32 with NaN and infinities", "[cli]") {
  const auto out = exec_json(R"({
    "tiles": [ { "reg": "T#1", "dtype": "FP32", "capacity": 128, "cols": 4, "valid_rows": 3, "valid_cols": 3,
                 "data": ["7f800000", "3f800000", "ff800000", null,
                          "7f800000", "3f800000", "7f800000", null,
                          "7fa00000", "3f800000", "00000000", null] } ],
    "status": ["DZ"],
    "program": "BSTART.SFU TROWSUM, FP32\nB.DATR pad=max\nB.DIM zero, 3, ->LB0\nB.DIM zero, 3, ->LB1\nB.DIM zero, 4, ->LB2\nB.IOT T#1, mask=1000, last, ->U<1>\nBSTOP\n" })");
  REQUIRE(out["bundles"][0]["outcome"] == "committed");
  const auto& pe0 = out["tiles"][1]["data_per_pe"]["PE0"];
  CHECK(out["tiles"][1]["reg"] == "U#1");
  CHECK(out["tiles"][1]["pe_mask"] == "1000");
  CHECK(pe0[0] == "7fc00000");  // inf + -inf: canonical NaN
  CHECK(pe0[1] == "7f800000");  // inf stays inf
  CHECK(pe0[2] == "7fc00000");  // signalling NaN input: canonical NaN
  CHECK(pe0[3] == "7f7fffff");  // B.DATR pad=max: largest finite FP32
  CHECK(out["status"] == nlohmann::json::array({"NV", "DZ"}));  // DZ was set on entry and is sticky
}

TEST_CASE("ptosim exec: a fault changes nothing and stops the program", "[cli]") {
  const auto out = exec_json(R"({
    "tiles": [ { "reg": "T#1", "dtype": "FP32", "capacity": 128, "cols": 4, "valid_rows": 1, "valid_cols": 4,
                 "data": ["3f800000", "3f800000", null, "3f800000"] } ],
    "program": "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 4, ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\nBSTART.SFU TROWSUM, FP32\nB.DIM zero, 3, ->LB0\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n" })");
  REQUIRE(out["bundles"].size() == 1);
  CHECK(out["bundles"][0]["outcome"] == "fault");
  CHECK(out["bundles"][0]["fault"]["code"] == "TileLegality");
  CHECK_FALSE(out["bundles"][0]["fault"]["rule"].get<std::string>().empty());
  CHECK(out["tiles"].size() == 1);
  CHECK(out["status"].empty());
}

TEST_CASE("ptosim exec: a zero-mask bundle is a strict no-op even on unallocated registers", "[cli]") {
  const auto out = exec_json(R"({ "program": "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 4, ->LB0\nB.IOT T#9, mask=0000, last, ->T<1>\nBSTOP\n" })");
  REQUIRE(out["bundles"].size() == 1);
  CHECK(out["bundles"][0]["outcome"] == "noop");
  CHECK(out["tiles"].empty());
}

TEST_CASE("ptosim run: every retired bundle is counted and the one that faulted is named", "[cli]") {
  // 150 bundles; the last one faults.
  std::ostringstream p;
  p << ".tile T#1 FP32 cols=8 capacity=256 valid=4x8\n.random T#1 seed=1\n";
  for (int i = 0; i < 149; ++i)
    p << "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\nB.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n";
  p << "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\nB.IOT N#5, mask=1111, last, ->U<1>\nBSTOP\n";
  const ptosim::test::RunResult r =
      ptosim::test::run_program("long_program", p.str(), "--timing-only --set sfu.bytes_per_cycle=64");
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  CHECK(r.out.find("149 committed, 0 no-op, 1 faulted") != std::string::npos);
  CHECK(r.out.find(":748:1: TROWSUM: Fault_TileLegality: source N#5 is not allocated") != std::string::npos);
  CHECK(r.stats["bundles"]["total"] == 150);
  CHECK(r.stats["bundles"]["committed"] == 149);
  // The statistics say what ran, how it ended and with which configuration.
  const std::string program = r.stats["program"];
  CHECK(program == scratch("long_program.pto"));
  CHECK(r.stats["timing_only"] == true);
  CHECK(r.stats["allocation"] == "queue:16");
  CHECK(r.stats["fault"] == nlohmann::json{{"bundle", 149},
                                           {"op", "TROWSUM"},
                                           {"class", "Fault_TileLegality"},
                                           {"rule", "source N#5 is not allocated"},
                                           {"location", program + ":748:1"}});
  CHECK(r.stats["configuration"]["sfu"]["bytes_per_cycle"] == 64);
  CHECK(r.stats["configuration"] == nlohmann::json::parse(run("config --set sfu.bytes_per_cycle=64").out));
}

TEST_CASE("ptosim: bad input gives a precise message and a non-zero exit, never a crash", "[cli]") {
  SECTION("malformed program text: file:line:column") {
    const std::string prog = write_file("bad.pto", "; comment\n.tile T#1 FP32 cols=4 valid=1x4\nBSTART.SFU TROWSUM, FP32\nB.DIM zero, 4, ->LB7\nBSTOP\n");
    const Outcome r = run("run " + prog);
    CHECK(r.status == 2);
    CHECK(r.err.find(prog + ":4:") != std::string::npos);
  }
  SECTION("malformed directive: file:line:column") {
    const std::string prog = write_file("bad2.pto", ".tile T#1 FP32 cols=4 valid=1x4\n.data T#1 1 2 three 4\n");
    const Outcome r = run("run " + prog);
    CHECK(r.status == 2);
    CHECK(r.err.find(prog + ":2:15:") != std::string::npos);
  }
  SECTION("missing program file") {
    const Outcome r = run("run /nonexistent/prog.pto");
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot read '/nonexistent/prog.pto': No such file or directory") != std::string::npos);
  }
  SECTION("missing scenario file, or a directory") {
    const Outcome r = run("exec /nonexistent/s.json");
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot read '/nonexistent/s.json': No such file or directory") != std::string::npos);
    const Outcome dir = run("exec /tmp");
    CHECK(dir.status == 2);
    CHECK(dir.err.find("cannot read '/tmp': is a directory") != std::string::npos);
    // ptosim run names itself too when its program cannot be read.
    CHECK(run("run /tmp").err == "ptosim run: cannot read '/tmp': is a directory\n");
    CHECK(run("run /nonexistent/p.pto").err == "ptosim run: cannot read '/nonexistent/p.pto': No such file or directory\n");
  }
  SECTION("a key given twice in a scenario") {
    const Outcome r = run("exec " + write_file("twice.json", R"({ "tiles": [], "program": "", "program": "BSTOP" })"));
    CHECK(r.status == 2);
    CHECK(r.err.find("key 'program' given twice") != std::string::npos);
    const Outcome nested =
        run("exec " + write_file("twice2.json", R"({ "tiles": [ {}, { "reg": "T#1", "reg": "T#2" } ], "program": "" })"));
    CHECK(nested.err.find("key 'tiles[1].reg' given twice") != std::string::npos);
  }
  SECTION("exec's usage errors say what is wrong") {
    CHECK(run("exec").err == "ptosim exec: no scenario file given\nusage: ptosim exec SCENARIO.json\n");
    CHECK(run("exec a.json b.json").err.find("more than one input file ('a.json', 'b.json')") != std::string::npos);
    CHECK(run("exec --bogus").err.find("unknown option '--bogus'") != std::string::npos);
    CHECK(run("exec a.json --bogus").err.find("unknown option '--bogus'") != std::string::npos);
    CHECK(run("exec a.json --help").status == 0);
    // A key given twice is found at the top level too, whatever its name.
    CHECK(run("exec " + write_file("empty_key.json", R"({ "": 1, "": 2 })")).err.find("key '' given twice") != std::string::npos);
  }
  SECTION("numbers a scenario cannot hold, and nesting no field reaches") {
    const Outcome r = run("exec " + write_file("huge.json", R"({ "program": "", "status": 1e400 })"));
    CHECK(r.status == 2);
    CHECK(r.err.find("huge.json: status: invalid JSON") != std::string::npos);
    CHECK(r.err.find("number overflow") != std::string::npos);
    // Too small, it would read as 0; too deep, no field is.
    const Outcome tiny = run("exec " + write_file("tiny.json", R"({ "program": "", "tiles": [ { "valid_rows": 1e-999 } ] })"));
    CHECK(tiny.err.find("tiny.json: tiles[0].valid_rows: '1e-999' is too small to hold (it would read as 0)") != std::string::npos);
    const Outcome deep = run("exec " + write_file("deep.json", std::string(100000, '[')));
    CHECK(deep.status == 2);
    CHECK(deep.err.find("deep.json: the scenario nests deeper than 16 levels; no scenario field is that deep") != std::string::npos);
  }
  SECTION("invalid JSON") {
    const Outcome r = run("exec " + write_file("bad.json", "{ \"program\": "));
    CHECK(r.status == 2);
    CHECK(r.err.find("invalid JSON") != std::string::npos);
  }
  SECTION("schema error names the field") {
    const Outcome r = run("exec " + write_file("bad_schema.json", R"({ "tiles": [ { "reg": "T#1", "dtype": "FP33" } ], "program": "" })"));
    CHECK(r.status == 2);
    CHECK(r.err.find("tiles[0].dtype") != std::string::npos);
  }
  SECTION("syntax error in a scenario program") {
    const Outcome r = run("exec " + write_file("bad_prog.json", R"({ "program": "BSTART.SFU TROWSUM, FP32\nB.IOT T#1 mask=1111\n" })"));
    CHECK(r.status == 2);
    CHECK(r.err.find("program:2:") != std::string::npos);
  }
  SECTION("a Shared tile's per-PE data must agree") {
    const Outcome r = run("exec " + write_file("shared_pe.json", R"({ "tiles": [ { "reg": "S0", "dtype": "U8",
      "capacity": 128, "cols": 2, "valid_rows": 1, "valid_cols": 2, "pe_mask": "1111", "data": ["01", "02"],
      "data_per_pe": { "PE2": ["01", "03"] } } ], "program": "" })"));
    CHECK(r.status == 2);
    CHECK(r.err.find("tiles[0].data_per_pe: a Shared tile holds one payload for every PE of its mask; PE2 differs from PE0") !=
          std::string::npos);
  }
  SECTION("a Shared tile's per-PE data must agree only among the PEs of its mask") {
    const Outcome r = run("exec " + write_file("shared_pe_mask.json", R"({ "tiles": [ { "reg": "S0", "dtype": "U8",
      "capacity": 128, "cols": 2, "valid_rows": 1, "valid_cols": 2, "pe_mask": "0110", "data": ["01", "02"],
      "data_per_pe": { "PE1": ["01", "03"], "PE2": ["01", "03"] } } ], "program": "" })"));
    CHECK(r.status == 0);
    CHECK(r.out.find(R"("PE1":["01","03",null)") != std::string::npos);
    CHECK(r.out.find(R"("PE2":["01","03",null)") != std::string::npos);
  }
  SECTION("bad trace window or unwritable output") {
    const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
    const std::string vcd = scratch("window.vcd");
    CHECK(run("run " + prog + " --vcd " + vcd + " --trace-window -1:").err.find("expected BEGIN:END") != std::string::npos);
    const Outcome backwards = run("run " + prog + " --vcd " + vcd + " --trace-window 9:3");
    CHECK(backwards.status == 2);
    CHECK(backwards.err.find("--trace-window: the end (3) is before the beginning (9)") != std::string::npos);
    CHECK(run("run " + prog + " --trace-window 1:5").err.find("needs --vcd or --fst") != std::string::npos);
    const Outcome r = run("run " + prog + " --stats /nonexistent/dir/s.json");
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot write '/nonexistent/dir/s.json'") != std::string::npos);
    const Outcome untraced = run("run " + prog + " --trace-modules cube");
    CHECK(untraced.status == 2);
    CHECK(untraced.err.find("--trace-modules needs --vcd or --fst") != std::string::npos);
    const Outcome unthreaded = run("run " + prog + " --trace-thread");
    CHECK(unthreaded.status == 2);
    CHECK(unthreaded.err.find("--trace-thread needs --vcd or --fst") != std::string::npos);
    CHECK(run("run " + prog + " --vcd " + vcd + " --trace-thread --trace-thread").err.find("--trace-thread given twice") !=
          std::string::npos);
    const Outcome trailing = run("run " + prog + " --vcd " + vcd + " --trace-modules cube,");
    CHECK(trailing.status == 2);
    CHECK(trailing.err.find("unknown module '' in 'cube,'") != std::string::npos);
    CHECK(run("run " + prog + " --vcd " + vcd + " --trace-modules cube,gpu").err.find("unknown module 'gpu'") != std::string::npos);
    const Outcome unknown = run("run " + prog + " --vcd " + vcd + " --trace-modules cube,,sfu");
    CHECK(unknown.status == 2);
    CHECK(unknown.err.find("--trace-modules: unknown module '' in 'cube,,sfu' (expected dispatcher, sfu, cube, "
                           "local_memory, shared_memory, control)") != std::string::npos);
    // The trace opens, but every write fails: the run still reports and writes its statistics.
    const std::string stats = scratch("trace_full.json");
    std::remove(stats.c_str());
    const Outcome full = run("run " + prog + " --vcd /dev/full --stats " + stats);
    CHECK(full.status == 3);
    CHECK(full.err.find("writing trace '/dev/full' failed") != std::string::npos);
    CHECK(full.out.find("bundles     1 committed") != std::string::npos);
    CHECK(slurp(stats).find("\"simulated_cycles\"") != std::string::npos);
  }
  SECTION("unknown command") {
    CHECK(run("frobnicate").status == 2);
  }
}

TEST_CASE("ptosim --version names the version, which the statistics record", "[cli]") {
  const Outcome v = run("--version");
  CHECK(v.status == 0);
  REQUIRE(v.out.rfind("ptosim 0.", 0) == 0);
  CHECK(run("--version now").status == 2);
  const std::string version = v.out.substr(7, v.out.size() - 8);  // without "ptosim " and the newline
  const std::string stats = scratch("version.json");
  REQUIRE(run("run " + std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto --quiet --stats " + stats).status == 0);
  CHECK(slurp(stats).find("\"ptosim_version\": \"" + version + "\"") != std::string::npos);
}

TEST_CASE("ptosim run: options given once, outputs distinct from inputs and each other, written in full", "[cli]") {
  const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  const std::string stats = scratch("once.json"), vcd = scratch("once.vcd");
  const Outcome twice = run("run " + prog + " --vcd " + vcd + " --vcd " + scratch("other.vcd"));
  CHECK(twice.status == 2);
  CHECK(twice.err.find("--vcd given twice") != std::string::npos);
  for (const char* flag : {"--quiet", "--hex", "--timing-only"}) {
    const Outcome repeated = run("run " + prog + " " + flag + " " + flag);
    CHECK(repeated.status == 2);
    CHECK(repeated.err.find(std::string(flag) + " given twice") != std::string::npos);
  }
  const Outcome empty = run("run " + prog + " --stats ''");
  CHECK(empty.status == 2);
  CHECK(empty.err.find("--stats needs a value") != std::string::npos);
  const Outcome clash = run("run " + prog + " --stats " + stats + " --vcd " + stats);
  CHECK(clash.status == 2);
  CHECK(clash.err.find("--stats and --vcd name the same file") != std::string::npos);
  const Outcome layout = run("run " + prog + " --stats " + vcd + ".gtkw --vcd " + vcd);
  CHECK(layout.status == 2);
  CHECK(layout.err.find("--stats and --vcd name the same file '" + vcd + ".gtkw'") != std::string::npos);
  const Outcome input = run("run " + prog + " --stats " + prog);
  CHECK(input.status == 2);
  CHECK(input.err.find("the program and --stats name the same file") != std::string::npos);
  // A value file the program reads is an input too, and two tiles may read the same one.
  const std::string values = write_file("once_values.txt", "1 2 3 4\n");
  const std::string reader = write_file(
      "once_reader.pto", ".tile T#1 S8 valid=1x4 cols=4\n.file T#1 " + values + "\n.tile T#2 S8 valid=1x4 cols=4\n.file T#2 " +
                             values + "\n");
  CHECK(run("run " + reader + " --quiet").status == 0);
  const Outcome value_file = run("run " + reader + " --stats " + values);
  CHECK(value_file.status == 2);
  CHECK(value_file.err.find("a .file of the program and --stats name the same file") != std::string::npos);
  CHECK(slurp(values) == "1 2 3 4\n");
  const Outcome dotted = run("run " + prog + " --stats " + stats + " --vcd ./" + stats);  // neither exists yet
  CHECK(dotted.status == 2);
  CHECK(dotted.err.find("--stats and --vcd name the same file") != std::string::npos);
  // A value may follow its option after '=', as GNU tools take it.
  const Outcome joined = run("run " + prog + " --quiet --stats=" + stats + " --set=clock.period_ps=500");
  CHECK(joined.status == 0);
  CHECK(slurp(stats).find("\"period_ps\": 500") != std::string::npos);
  CHECK(run("config --set=clock.period_ps=500").out.find("\"period_ps\": 500") != std::string::npos);
  // Only an option that takes a value takes it joined: a flag's would-be value is no program.
  const Outcome flag = run("run --quiet=" + prog);
  CHECK(flag.status == 2);
  CHECK(flag.err.find("--quiet takes no value") != std::string::npos);
  const Outcome list = run("config --list=yes");
  CHECK(list.status == 2);
  CHECK(list.err.find("--list takes no value") != std::string::npos);
  CHECK(run("run " + prog + " --stats=").err.find("--stats needs a value") != std::string::npos);
  const Outcome full = run("run " + prog + " --quiet --stats /dev/full");
  CHECK(full.status == 3);
  CHECK(full.err.find("--stats: cannot write '/dev/full': No space left on device") != std::string::npos);
  // A run that stops before writing its statistics leaves an existing file as it was, and no new one.
  const std::string kept = scratch("kept.json"), fresh = scratch("fresh.json");
  std::ofstream(kept) << "{\"old\": 1}\n";
  std::remove(fresh.c_str());
  const std::string too_late = " --vcd " + vcd + " --trace-window 40000000000000000:";  // beyond the time range
  CHECK(run("run " + prog + " --stats " + kept + too_late).status == 2);
  CHECK(slurp(kept) == "{\"old\": 1}\n");
  CHECK(run("run " + prog + " --stats " + fresh + too_late).status == 2);
  CHECK(!std::ifstream(fresh).good());
  const Outcome to_stdout = run("run " + prog + " --quiet --stats /dev/stdout");
  CHECK(to_stdout.status == 0);
  CHECK(to_stdout.out.rfind("ptosim run ", 0) == 0);  // the summary, then the statistics
  CHECK(to_stdout.out.find("\"simulated_cycles\": 49") != std::string::npos);
  const Outcome config_twice = run("config --config a.json --config b.json");
  CHECK(config_twice.status == 2);
  CHECK(config_twice.err.find("--config given twice") != std::string::npos);
  const Outcome list_twice = run("config --list --list");
  CHECK(list_twice.status == 2);
  CHECK(list_twice.err.find("--list given twice") != std::string::npos);
  // An option is never another option's value: `--stats --hex` misses its file.
  const Outcome swallowed = run("run " + prog + " --stats --hex");
  CHECK(swallowed.status == 2);
  CHECK(swallowed.err.find("--stats needs a value, not the option --hex") != std::string::npos);
  CHECK(run("config --config --set clock.period_ps=500").err.find("--config needs a value") != std::string::npos);
  // A trace window without a trace is an error even when it is the whole run.
  CHECK(run("run " + prog + " --trace-window :").err.find("--trace-window needs --vcd or --fst") != std::string::npos);
  // The files beside a trace are checked before the run: nothing is simulated or written.
  const std::string blocked = scratch("blocked.vcd");
  std::filesystem::create_directory(blocked + ".gtkw");
  const Outcome side = run("run " + prog + " --vcd " + blocked + " --stats " + fresh);
  CHECK(side.status == 2);
  CHECK(side.err.find("--vcd: cannot write '" + blocked + ".gtkw': Is a directory (written beside '" + blocked + "')") !=
        std::string::npos);
  CHECK(side.out.empty());
  CHECK(!std::filesystem::exists(blocked));
  CHECK(!std::filesystem::exists(blocked + ".opcodes.txt"));
  CHECK(!std::filesystem::exists(fresh));
  std::filesystem::remove(blocked + ".gtkw");
}

TEST_CASE("ptosim run --timing-only names the value checks it skipped", "[cli]") {
  const std::string prog = write_file("skip.pto", ".tile U#1 S32 valid=2x2\n.data U#1 1 2 3 4\n"
                                                  ".tile U#2 S32 cols=1 valid=2x1\n.data U#2 1 0\n"
                                                  "BSTART.SFU TROWEXPANDDIV, S32\nB.DIM zero, 2, ->LB0\n"
                                                  "B.DIM zero, 2, ->LB1\nB.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n");
  const Outcome full = run("run " + prog);
  CHECK(full.status == 1);
  CHECK(full.out.find("integer zero divisor in broadcast row 1") != std::string::npos);
  const std::string stats = scratch("skip.json");
  const Outcome timing = run("run " + prog + " --timing-only --stats " + stats);
  CHECK(timing.status == 0);
  CHECK(timing.out.find("  skipped     value-dependent legality checks of 1 bundle:\n"
                        "                integer zero divisor in broadcast source U#2\n") != std::string::npos);
  // The statistics say so too, for a sweep that reads only them.
  const auto report = nlohmann::json::parse(slurp(stats));
  CHECK(report["skipped_value_checks"]["bundles"] == 1);
  CHECK(report["skipped_value_checks"]["checks"] ==
        nlohmann::json::array({"integer zero divisor in broadcast source U#2"}));
}

TEST_CASE("ptosim run --fst: any path is a file name (never shell text) and nothing of the user's is overwritten", "[cli]") {
  const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  const std::string marker = scratch("injected");
  const std::string fst = scratch("it's $(touch " + marker + ").fst");
  std::remove(marker.c_str());
  std::ofstream(fst + ".vcd") << "mine\n";  // where an earlier version put its temporary VCD
  // The path goes through the test's /bin/sh once, quoted for it: ptosim must see it verbatim.
  std::string quoted = "'";
  for (char c : fst) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  const Outcome r = run("run " + prog + " --quiet --fst " + quoted + "'");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(!slurp(fst).empty());
  // The layout names its trace by absolute path: GTKWave resolves it from its working directory.
  const std::string absolute = std::filesystem::absolute(fst).lexically_normal().string();
  CHECK(slurp(fst + ".gtkw").find("[dumpfile] \"" + absolute + "\"") != std::string::npos);
  CHECK(slurp(fst + ".vcd") == "mine\n");
  CHECK(!std::ifstream(marker).good());
  // The temporary VCD and FST beside the target are gone.
  const std::string stem = std::filesystem::path(fst).filename().string() + ".";
  for (const auto& entry : std::filesystem::directory_iterator("."))
    if (const std::string name = entry.path().filename().string(); name.rfind(stem, 0) == 0)
      CHECK((name == stem + "vcd" || name == stem + "gtkw" || name == stem + "opcodes.txt" || name == stem + "states.txt"));
  // A name that starts with '-' is a file name too.
  const std::string dash = "-" + scratch("dash.fst");
  const Outcome dashed = run("run " + prog + " --quiet --fst " + dash);
  INFO(dashed.err);
  CHECK(dashed.status == 0);
  CHECK(!slurp(dash).empty());
  const Outcome device = run("run " + prog + " --quiet --fst /tmp");
  CHECK(device.status == 2);
  CHECK(device.err.find("--fst: '/tmp' exists and is not a regular file") != std::string::npos);
}

TEST_CASE("ptosim run: an interrupted run stops cleanly, its trace valid so far and its other outputs untouched", "[cli]") {
  // A GEMM chain that takes seconds, interrupted (SIGINT, as Ctrl-C sends).
  const std::string prog = write_file("interrupted.pto", gemm_chain(3000)), vcd = scratch("interrupted.vcd");
  const std::string stats = write_file("interrupted.json", "earlier\n"), fresh = scratch("interrupted_new.json");
  // Signalled once it simulates, however long loading takes on a busy machine: the trace is
  // opened after the program is loaded. (A signal while it loads ends it at once; test below.)
  // SIGINT at its default: a background job of a script starts with it ignored.
  std::remove(vcd.c_str());
  const std::string err = scratch("interrupted_err.txt");
  const int raw = std::system(("env --default-signal=INT " + std::string(PTOSIM_EXE) + " run " + prog +
                               " --allocation queue:4 --quiet --vcd " + vcd + " --stats " + stats + " >/dev/null 2>" + err +
                               " & p=$!; for i in $(seq 600); do [ -e " + vcd + " ] && break; sleep 0.05; done; " +
                               "sleep 0.5; kill -INT $p; wait $p")
                                  .c_str());
  INFO(slurp(err));
  CHECK((WIFEXITED(raw) ? WEXITSTATUS(raw) : -1) == 130);
  CHECK(slurp(err).find("ptosim run: interrupted at cycle") != std::string::npos);
  CHECK(slurp(stats) == "earlier\n");
  CHECK(fst_round_trip_problem(vcd) == "");
  CHECK(Waves(vcd).end > 0);
  CHECK_FALSE(std::filesystem::exists(vcd + ".gtkw"));
  // SIGTERM too; the process ends by the signal it got (a plain exit would report 130 here).
  const Outcome again = run("run " + prog + " --allocation queue:4 --quiet --stats " + fresh, "timeout --preserve-status -s TERM 1");
  CHECK(again.status == 143);
  CHECK_FALSE(std::filesystem::exists(fresh));  // the probe's new file is removed again
}

TEST_CASE("ptosim run: the progress of a long run reaches a log as lines of their own", "[cli]") {
  // stderr is a file here, not a terminal: no line rewritten in place with '\r'.
  const Outcome r = run("run " + write_file("progress.pto", gemm_chain(3000)) + " --allocation queue:4 --quiet");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find('\r') == std::string::npos);
  const std::size_t at = r.out.find("wall time");
  REQUIRE(at != std::string::npos);
  if (std::stod(r.out.substr(at + 9)) > 3500) {  // ms: a run that lasted long enough to report
    CHECK(r.err.rfind("ptosim run: simulated ", 0) == 0);
    std::istringstream lines(r.err);
    const std::string tail = "% of the program read";
    for (std::string line; std::getline(lines, line);)
      CHECK((line.rfind("ptosim run: simulated ", 0) == 0 && line.find(" bundles retired (") != std::string::npos &&
             line.find(" bundles/s), ") != std::string::npos && line.size() > tail.size() &&
             line.compare(line.size() - tail.size(), tail.size(), tail) == 0));
  }
}

TEST_CASE("ptosim run: an interruption while the program loads ends the process at once", "[cli]") {
  // A program read from a pipe whose writer never comes (a generator feeding ptosim, say):
  // loading waits in open(). Nothing is written yet, so Ctrl-C ends the process there; were the
  // signal caught, the open would carry on waiting and the kill would come 5 s later (137).
  const std::string fifo = scratch("loading.fifo"), stats = scratch("loading.json");
  std::remove(fifo.c_str());
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string rowsum = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  // The program, or the configuration, from the pipe.
  for (const std::string& args : {fifo + " --quiet", rowsum + " --quiet --config " + fifo}) {
    const Outcome r = run("run " + args + " --stats " + stats, "timeout -k 5 --preserve-status -s INT 1");
    INFO(args);
    CHECK(r.status == 130);
    CHECK(r.err.empty());
    CHECK_FALSE(std::filesystem::exists(stats));
  }
  std::remove(fifo.c_str());
}

TEST_CASE("ptosim run --fst: vcd2fst missing is found before the run", "[cli]") {
  const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  const std::string stats = scratch("no_vcd2fst.json");
  const Outcome r = run("run " + prog + " --fst " + scratch("no_vcd2fst.fst") + " --stats " + stats, "PATH=/nonexistent");
  CHECK(r.status == 3);
  CHECK(r.err.find("vcd2fst is not on the PATH") != std::string::npos);
  CHECK(r.out.empty());  // before the run: no summary
  CHECK_FALSE(std::filesystem::exists(stats));
}

TEST_CASE("ptosim run --fst: a failed conversion leaves the FST target as it was and keeps the VCD", "[cli]") {
  const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  // A vcd2fst that writes junk to its output and fails, found first on the PATH.
  const std::string bin = scratch("fakebin");
  std::filesystem::create_directories(bin);
  const std::string fake = bin + "/vcd2fst";
  std::ofstream(fake) << "#!/bin/sh\nfor a; do case \"$a\" in --fstname=*) echo junk > \"${a#--fstname=}\";; esac; done\n"
                         "echo 'vcd2fst: cannot parse the VCD' >&2\nexit 1\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const std::string fst = scratch("precious.fst");
  std::ofstream(fst) << "precious\n";
  const std::string stats = scratch("failed_fst.json");
  std::remove(stats.c_str());
  const Outcome r = run("run " + prog + " --quiet --fst " + fst + " --stats " + stats, "PATH=" + bin + ":\"$PATH\"");
  CHECK(r.status == 3);
  CHECK(r.err.find("vcd2fst failed (exit status 1: vcd2fst: cannot parse the VCD)") != std::string::npos);  // what it said
  CHECK(slurp(fst) == "precious\n");
  CHECK(slurp(stats).find("\"simulated_cycles\"") != std::string::npos);  // the run's results are not lost
  const auto at = r.err.find("the VCD is at ");
  REQUIRE(at != std::string::npos);
  const std::string vcd = r.err.substr(at + 14, r.err.find('\n', at) - at - 14);
  CHECK(slurp(vcd).find("$enddefinitions") != std::string::npos);
  // Kept for the user: readable as any new file of theirs, not private like a temporary one.
  const mode_t mask = umask(0);
  umask(mask);
  CHECK((static_cast<unsigned>(std::filesystem::status(vcd).permissions()) & 0777u) == (0666u & ~mask));
  std::remove(vcd.c_str());
}

TEST_CASE("ptosim run --fst: an interruption while converting stops vcd2fst and leaves nothing behind", "[cli]") {
  const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  // Whether a process whose command line is `words` (NUL-separated, as /proc has it) is running.
  const auto running = [](const std::string& words) {
    for (const auto& entry : std::filesystem::directory_iterator("/proc"))
      if (slurp((entry.path() / "cmdline").string()) == words) return true;
    return false;
  };
  // A vcd2fst that starts writing, says so, and goes on for far longer than the test waits: through
  // a child of its own (a wrapper), and then one that ignores SIGTERM too. Each child's command line
  // is unique to this process, so the test can see that it was stopped.
  const std::string started = scratch("slow_started");
  const std::string tag = std::to_string(getpid() % 1000);
  for (const std::string& seconds : {"60." + tag, "61." + tag}) {
    const bool ignores_term = seconds[1] == '1';
    const std::string bin = scratch("slowbin");
    std::filesystem::create_directories(bin);
    std::remove(started.c_str());
    std::ofstream(bin + "/vcd2fst") << "#!/bin/sh\nfor a; do case \"$a\" in --fstname=*) f=\"${a#--fstname=}\";; esac; done\n"
                                    << "echo partial > \"$f\"; echo scratch > \"$f.hier\"\n"
                                    << (ignores_term ? "trap '' TERM\n" : "") << "touch " << started << "\nsleep " << seconds
                                    << "\n";
    std::filesystem::permissions(bin + "/vcd2fst", std::filesystem::perms::owner_all);
    const std::string dir = scratch("converting");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string err = scratch("converting_err.txt");
    const auto t0 = std::chrono::steady_clock::now();
    const int raw = std::system(("PATH=" + bin + ":\"$PATH\" env --default-signal=INT " + PTOSIM_EXE + " run " + prog +
                                 " --quiet --fst " + dir + "/t.fst --stats " + dir + "/t.json >/dev/null 2>" + err +
                                 " & p=$!; for i in $(seq 600); do [ -e " + started + " ] && break; sleep 0.05; done; " +
                                 "kill -INT $p; wait $p")
                                    .c_str());
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(seconds << "\n" << slurp(err));
    CHECK((WIFEXITED(raw) ? WEXITSTATUS(raw) : -1) == 130);
    CHECK(slurp(err).find("ptosim run: interrupted before the FST was written") != std::string::npos);
    CHECK(took < 30);  // a converter that ignores SIGTERM is killed two seconds on
    // No FST, temporary VCD or FST, vcd2fst scratch file, layout or statistics.
    for (const auto& entry : std::filesystem::directory_iterator(dir)) FAIL_CHECK("left behind: " << entry.path());
    // Nor the converter's child, which the whole process group's signal stopped.
    bool left = running(std::string("sleep") + '\0' + seconds + '\0');
    for (int i = 0; i < 20 && left; ++i) {  // a killed process may linger a moment until reaped
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      left = running(std::string("sleep") + '\0' + seconds + '\0');
    }
    CHECK_FALSE(left);
  }
}

TEST_CASE("ptosim run: a Local input tile larger than any B.IOT destination (128 KiB) simulates", "[cli]") {
  // 128 x 256 FP32 rows of 1..256: every row sums to 32896 exactly.
  std::string values;
  for (int r = 0; r < 128; ++r)
    for (int c = 1; c <= 256; ++c) values += " " + std::to_string(c);
  const std::string prog = write_file("big.pto", ".tile T#1 FP32 cols=256 valid=128x256\n.data T#1" + values +
                                                     "\n.dump U#1\nBSTART.SFU TROWSUM, FP32\nB.DIM zero, 256, ->LB0\n"
                                                     "B.DIM zero, 128, ->LB1\nB.IOT T#1, mask=1111, last, ->U<512B>\nBSTOP\n");
  const Outcome r = run("run " + prog);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("row 127:  32896") != std::string::npos);
}

TEST_CASE("ptosim run with the shipped A5-like configuration gives the same values", "[cli]") {
  const std::string prog = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  const Outcome a = run("run " + prog + " --hex");
  const Outcome b = run("run " + prog + " --hex --config " + PTOSIM_SOURCE_DIR + "/platforms/configs/a5-like.json");
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(dumped_encodings(a.out, "U#1") == dumped_encodings(b.out, "U#1"));
  CHECK(b.out.find("1.65 GHz") != std::string::npos);
  // Clocks below 1 GHz show in MHz; simulated times from 10 us on in us (then ms, s).
  CHECK(run("run " + prog + " --quiet --set clock.period_ps=1000000").out.find("(49.000 us at 1.00 MHz)") != std::string::npos);
  CHECK(run("run " + prog + " --quiet --set clock.period_ps=1250").out.find("(61.3 ns at 800.00 MHz)") != std::string::npos);
  // The unit follows the rounded value: 9999.97 ns shows as 10.000 us, not 10000.0 ns.
  CHECK(run("run " + prog + " --quiet --set clock.period_ps=204081").out.find("(10.000 us at 4.90 MHz)") != std::string::npos);
  // The wall time says how much of it loading the program took.
  CHECK(a.out.find(" ms (program loaded in ") != std::string::npos);
}

TEST_CASE("ptosim config prints the effective configuration and rejects bad keys", "[cli]") {
  const Outcome r = run("config --set sfu.bytes_per_cycle=64");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["sfu"]["bytes_per_cycle"] == 64);
  CHECK(j["clock"]["period_ps"] == 541);
  const Outcome list = run("config --list");
  REQUIRE(list.status == 0);
  CHECK(list.out.find("local_memory.ports") != std::string::npos);
  CHECK(list.out.find("[1, 64]") != std::string::npos);  // each key's range
  // Columns two blanks apart at least, whatever a cell's width: every line splits into five.
  std::istringstream lines(list.out);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    std::size_t cells = 1;
    for (std::size_t at = line.find("  "); at != std::string::npos; at = line.find("  ", at)) {
      ++cells;
      at = line.find_first_not_of(' ', at);
    }
    CHECK(cells == 5);
  }
  // Each value as it is in effect: every digit a double needs, no exponent for large integers.
  const Outcome exact = run("config --list --set sfu.class.row_reduce.cycles_per_repeat=0.30000000000000004"
                            " --set sim.lookahead_cycles=1000000000");
  REQUIRE(exact.status == 0);
  CHECK(exact.out.find("  0.30000000000000004  ") != std::string::npos);
  CHECK(exact.out.find("  1000000000  ") != std::string::npos);
  const Outcome bad = run("config --set sfu.nope=1");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("unknown key 'sfu.nope'") != std::string::npos);
  const Outcome run_bad = run(std::string("run ") + PTOSIM_SOURCE_DIR + "/examples/rowsum.pto --set local_memory.ports=0");
  CHECK(run_bad.status == 2);
  CHECK(run_bad.err.find("local_memory.ports") != std::string::npos);
}

TEST_CASE("ptosim compare shows what a parameter changed between two runs' statistics", "[cli]") {
  const std::string program = std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto";
  const std::string narrow = scratch("narrow.json"), wide = scratch("wide.json");
  REQUIRE(run("run " + program + " --quiet --stats " + narrow).status == 0);
  REQUIRE(run("run " + program + " --quiet --set sfu.bytes_per_cycle=256 --stats " + wide).status == 0);
  const auto a = nlohmann::json::parse(slurp(narrow)), b = nlohmann::json::parse(slurp(wide));
  const Outcome r = run("compare " + narrow + " " + wide);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("A  " + narrow + ": " + program + ", full run, allocation queue:16, ptosim ", 0) == 0);
  CHECK(r.out.find("note:") == std::string::npos);
  CHECK(r.out.find("configuration: 1 of ") != std::string::npos);
  CHECK(r.out.find("  sfu.bytes_per_cycle  128  256  2.000\n") != std::string::npos);
  // The wider SFU shortens the run; the figure and its ratio are the statistics files'.
  const std::uint64_t before = a["simulated_cycles"], after = b["simulated_cycles"];
  REQUIRE(after < before);
  char ratio[16];
  std::snprintf(ratio, sizeof ratio, "%.3f", static_cast<double>(after) / static_cast<double>(before));
  const std::size_t row = r.out.find("  simulated_cycles ");
  REQUIRE(row != std::string::npos);
  const std::string line = r.out.substr(row, r.out.find('\n', row) - row);
  CHECK(line.find(" " + std::to_string(before) + " ") != std::string::npos);
  CHECK(line.find(" " + std::to_string(after) + " ") != std::string::npos);
  CHECK(line.substr(line.size() - std::strlen(ratio)) == ratio);
  CHECK(r.out.find("memories.local_memory_pe0.bytes_read") == std::string::npos);  // the same in both runs
  const Outcome all = run("compare --all " + narrow + " " + wide);
  REQUIRE(all.status == 0);
  CHECK(all.out.find("  memories.local_memory_pe0.bytes_read ") != std::string::npos);
  CHECK(all.out.find("  local_memory.ports ") != std::string::npos);

  const Outcome help = run("compare --help");
  CHECK(help.status == 0);
  CHECK(help.out.rfind("usage: ptosim compare [--all] [--] STATS.json STATS.json...\n", 0) == 0);
  const Outcome one = run("compare " + narrow);
  CHECK(one.status == 2);
  CHECK(one.err.find("ptosim compare: at least two statistics files, 1 given") != std::string::npos);
  const Outcome option = run("compare --every " + narrow + " " + wide);
  CHECK(option.status == 2);
  CHECK(option.err.find("unknown option '--every'") != std::string::npos);
  // Every file's problem is named before the command gives up.
  const std::string config = write_file("config.json", R"({"sfu": {"bytes_per_cycle": 256}})");
  const Outcome wrong = run("compare " + narrow + " " + config + " " + scratch("absent.json"));
  CHECK(wrong.status == 2);
  CHECK(wrong.out.empty());
  CHECK(wrong.err.find("ptosim compare: " + config + ": not a statistics file") != std::string::npos);
  CHECK(wrong.err.find("ptosim compare: cannot read '" + scratch("absent.json") + "'") != std::string::npos);
  // After --, a path may begin with '-'.
  const std::string dashed = scratch("-dashed.json");
  REQUIRE(std::system(("cp " + narrow + " " + dashed).c_str()) == 0);
  const Outcome terminated = run("compare -- " + dashed + " " + wide);
  INFO(terminated.err);
  CHECK(terminated.status == 0);
  CHECK(terminated.out.rfind("A  " + dashed + ": ", 0) == 0);
}

TEST_CASE("ptosim asm --hex prints each encoding with its canonical text", "[cli]") {
  const std::string src = write_file("prog.s", "BSTART.SFU TROWSUM, FP32\nB.DIM LB0=16\nB.IOT T#1, mask=1111, last, ->T<1>\nC.BSTOP\n");
  const Outcome r = run("asm " + src + " --hex");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("0c019181  BSTART.SFU TROWSUM, FP32") != std::string::npos);
  CHECK(r.out.find("01000043  B.DIM zero, 16, ->LB0") != std::string::npos);
  CHECK(r.out.find("0008de13  B.IOT T#1, mask=1111, last, ->T<1>") != std::string::npos);
  CHECK(r.out.find("0000  C.BSTOP") != std::string::npos);
}

TEST_CASE("ptosim asm -o and ptosim disasm round-trip a program bit for bit", "[cli]") {
  const std::string src = write_file("round.s",
                                "BSTART.TMATMUL.ACC FP16\nB.DATR dtype=FP16\nB.FPATR\nB.DIM zero, 32, ->LB0\n"
                                "B.IOT M#1, T#2, mask=1111\nB.IOT U#2, mask=1111, last, ->M<8>\nL.BSTOP\n");
  const std::string bin = scratch("round.bin"), bin2 = scratch("round2.bin");
  REQUIRE(run("asm " + src + " -o " + bin).status == 0);
  const std::string bytes = slurp(bin);
  CHECK(bytes.size() == 6 * 4 + 8);  // six 32-bit words and one 64-bit L.BSTOP
  CHECK(static_cast<unsigned char>(bytes[0]) == 0x81);  // little-endian: BSTART.TMATMUL.ACC FP16 = 0x20231181
  const Outcome dis = run("disasm " + bin);
  INFO(dis.err);
  REQUIRE(dis.status == 0);
  CHECK(dis.out.find("BSTART.TMATMUL.ACC FP16") != std::string::npos);
  const std::string again = write_file("round_again.s", dis.out);
  REQUIRE(run("asm " + again + " -o " + bin2).status == 0);
  CHECK(slurp(bin2) == bytes);
}

TEST_CASE("ptosim asm and disasm report bad input precisely", "[cli]") {
  const Outcome bad = run("asm " + write_file("bad.s", "BSTART.SFU TROWSUM, FP32\nB.IOT T#1, mask=11x1, last\n") + " --hex");
  CHECK(bad.status != 0);
  CHECK(bad.err.find("bad.s:2:") != std::string::npos);
  CHECK(run("asm /nonexistent.s --hex").status != 0);
  const Outcome dir = run("asm /tmp --hex");
  CHECK(dir.status == 1);
  CHECK(dir.err.find("cannot read '/tmp': is a directory") != std::string::npos);
  CHECK(run("disasm /tmp").err.find("cannot read '/tmp': is a directory") != std::string::npos);
  const std::string src = write_file("full.s", "BSTART.SFU TROWSUM, FP32\nBSTOP\n");
  const Outcome full = run("asm " + src + " -o /dev/full");
  CHECK(full.status == 1);
  CHECK(full.err.find("cannot write '/dev/full': No space left on device") != std::string::npos);
  CHECK(run("asm " + src + " -o a.bin -o b.bin").err.find("-o given twice") != std::string::npos);
  const Outcome self = run("asm " + src + " -o ./" + src);
  CHECK(self.status == 2);
  CHECK(self.err.find("is the input file") != std::string::npos);
  CHECK(slurp(src) == "BSTART.SFU TROWSUM, FP32\nBSTOP\n");
  CHECK(run("disasm " + write_file("odd.bin", "\x81\x91\x01")).status != 0);  // a truncated word
}

TEST_CASE("ptosim run: a tile-capacity fault comes with a hint on the allocation policy", "[cli]") {
  // 64 KiB results on every PE: the default queue keeps them until capacity runs out.
  std::string program = ".tile N#1 FP32 cols=128 valid=128x128 capacity=64KiB\n.random N#1 seed=3\n"
                        ".tile N#2 FP32 cols=1 valid=128x1 capacity=512\n.random N#2 seed=4\n";
  for (int i = 0; i < 6; ++i)
    program += "BSTART.SFU TROWEXPANDMUL, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\n"
               "B.IOT N#1, N#2, mask=1111, last, ->T<64KiB>\nBSTOP\n";
  const std::string prog = write_file("capacity.pto", program);
  const Outcome queue = run("run " + prog + " --timing-only");
  INFO(queue.out);
  CHECK(queue.status == 1);
  CHECK(queue.out.find("Fault_TileAllocation: tile capacity exhausted") != std::string::npos);
  CHECK(queue.out.find("  hint        --allocation queue:16 keeps each hand's last 16 results allocated; if results "
                       "hold the capacity, a shorter queue releases them sooner\n") != std::string::npos);
  const Outcome asl = run("run " + prog + " --timing-only --allocation asl");
  CHECK(asl.out.find("  hint        --allocation asl never releases a result; queue releases each hand's oldest\n") !=
        std::string::npos);
  const Outcome short_queue = run("run " + prog + " --timing-only --allocation queue:2");
  CHECK(short_queue.status == 0);  // as the hint says
  CHECK(short_queue.out.find("hint") == std::string::npos);
}

TEST_CASE("ptosim run says before the run where a fault in the program's text will stop it", "[cli]") {
  const std::string rowsum = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto");
  const std::string prog = write_file("unclosed.pto", rowsum + "BSTART.SFU TROWSUM, FP32\n");
  const Outcome r = run("run " + prog + " --quiet");
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  const std::size_t lines = static_cast<std::size_t>(std::count(rowsum.begin(), rowsum.end(), '\n'));
  const std::string at = prog + ":" + std::to_string(lines + 1) + ":1: ";
  CHECK(r.err.rfind("ptosim run: note: " + at + "TROWSUM: Fault_BundleControl: ", 0) == 0);  // as the summary names it
  CHECK(r.err.find(": the run stops there at the latest, after the bundles before it\n") != std::string::npos);
  CHECK(r.out.find("1 committed, 0 no-op, 1 faulted") != std::string::npos);  // and so it does
  CHECK(r.out.find("fault       " + at) != std::string::npos);
}

TEST_CASE("ptosim run and config list the first 20 configuration errors, then how many more", "[cli]") {
  std::string config = "{";
  for (int i = 10; i < 33; ++i) config += std::string(i > 10 ? "," : "") + "\"key" + std::to_string(i) + "\": 1";
  const std::string file = write_file("many_errors.json", config + "}");
  const std::string prog = write_file("ok.pto", "BSTOP\n");
  for (const std::string& command : {"run " + prog + " --config " + file, "config --config " + file}) {
    const Outcome r = run(command);
    INFO(command << "\n" << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("unknown key 'key29'") != std::string::npos);
    CHECK(r.err.find("unknown key 'key30'") == std::string::npos);
    CHECK(r.err.find(": ... and 3 more errors\n") != std::string::npos);
  }
}

TEST_CASE("ptosim run and asm list the first 20 assembly errors, then how many more", "[cli]") {
  std::string program;
  for (int i = 0; i < 25; ++i) program += "B.DIMX zero, 1, ->LB0\n";
  const std::string prog = write_file("typos.pto", program);
  for (const std::string& command : {"run " + prog, "asm " + prog + " --hex"}) {
    const Outcome r = run(command);
    INFO(command << "\n" << r.err);
    CHECK(r.status != 0);
    CHECK(r.err.find("typos.pto:20:1: error: unknown mnemonic 'B.DIMX'") != std::string::npos);
    CHECK(r.err.find("typos.pto:21:") == std::string::npos);
    CHECK(r.err.find("\n... and 5 more errors\n") != std::string::npos);
  }
}
