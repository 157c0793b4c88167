// SPDX-License-Identifier: BSD-3-Clause
// Timing behaviour of the platform, measured through whole runs: calibration to the public A2/A3
// figures, linear scaling, bandwidth scaling, determinism, timing-only runs, and the rule that
// timing parameters never change a result.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "tests/platforms/run_helpers.h"
#include "tests/platforms/waves.h"

using ptosim::test::dumps_of;
using ptosim::test::fst_round_trip_problem;
using ptosim::test::run_program;
using ptosim::test::scratch;
using ptosim::test::slurp;
using ptosim::test::Waves;

namespace {

unsigned size_code(std::uint64_t bytes) {
  unsigned code = 1;
  while ((128ULL << (code - 1)) < bytes) ++code;
  return code;
}

std::uint64_t bytes_of(const std::string& dtype) { return dtype == "FP32" ? 4 : dtype == "FP16" ? 2 : 1; }

// One SFU bundle on a rows x cols source (reductions) or destination (expansions), run from idle.
std::string sfu_program(const std::string& op, const std::string& dtype, unsigned rows, unsigned cols) {
  const std::uint64_t tile = rows * cols * bytes_of(dtype), column = rows * bytes_of(dtype);
  std::ostringstream p;
  const bool expand = op.find("EXPAND") != std::string::npos;
  const bool copy = op == "TROWEXPAND";
  p << ".tile T#1 " << dtype << " cols=" << cols << " capacity=" << std::max<std::uint64_t>(tile, 128) << " valid=" << rows
    << "x" << cols << "\n.random T#1 seed=3 min=1 max=2\n";
  p << ".tile T#2 " << dtype << " cols=1 capacity=" << std::max<std::uint64_t>(column, 128) << " valid=" << rows
    << "x1\n.random T#2 seed=4 min=1 max=2\n";
  p << "BSTART.SFU " << op << ", " << dtype << "\nB.DIM zero, " << cols << ", ->LB0\nB.DIM zero, " << rows << ", ->LB1\n";
  if (copy)
    p << "B.IOT T#2, mask=1111, last, ->U<" << size_code(tile) << ">\n";
  else if (expand)
    p << "B.IOT T#1, T#2, mask=1111, last, ->U<" << size_code(tile) << ">\n";
  else
    p << "B.IOT T#1, mask=1111, last, ->U<" << size_code(op.rfind("TROW", 0) == 0 ? column : cols * bytes_of(dtype)) << ">\n";
  p << "BSTOP\n";
  return p.str();
}

std::uint64_t op_cycles(const ptosim::test::RunResult& r, const std::string& engine, const std::string& op) {
  return r.stats["engines"][engine]["per_opcode"][op]["cycles"].get<std::uint64_t>();
}

/// Each memory's traced port count adds up over time to its ports' busy cycles in the statistics.
void check_port_activity(const Waves& waves, const ptosim::test::RunResult& r) {
  const std::uint64_t period = r.stats["clock_period_ps"].get<std::uint64_t>();
  for (const auto& [memory, counts] : r.stats["memories"].items()) {
    INFO(memory);
    std::uint64_t busy = 0;
    for (const auto& port : counts["ports"]) busy += port["busy_cycles"].get<std::uint64_t>();
    CHECK(waves.integral("top." + memory + ".active_ports") == busy * period);
  }
}

}  // namespace

TEST_CASE("The default configuration reproduces the A2/A3 per-operation figures within 5%", "[timing]") {
  struct Anchor {
    const char* op;
    const char* dtype;
    unsigned rows, cols;
    double cycles;
    const char* source;
  };
  // timing-anchors.md: per-tile fitted formulas (64-row tiles) and the vector laws per 256-byte repeat.
  const Anchor anchors[] = {
      {"TROWSUM", "FP32", 64, 64, 492, "per-tile fit"},
      {"TROWSUM", "FP16", 64, 128, 495, "per-tile fit"},
      {"TROWMAX", "FP32", 64, 64, 480, "per-tile fit"},
      {"TCOLSUM", "FP32", 64, 64, 1263, "per-tile fit"},
      {"TCOLMAX", "FP32", 64, 64, 1137, "per-tile fit"},
      {"TCOLMAX", "FP16", 64, 64, 1120, "per-tile fit"},
      {"TROWEXPAND", "FP32", 64, 64, 933, "per-tile fit"},
      {"TROWEXPANDADD", "FP16", 64, 128, 5.9 + 2.07 * 64, "vector add law, 64 repeats"},
      {"TROWEXPANDDIV", "FP32", 64, 64, 13 + 4 * 64, "vector div law FP32, 64 repeats"},
      {"TROWEXPANDDIV", "FP16", 64, 128, 13 + 8 * 64, "vector div law FP16, 64 repeats"},
      // Not measured: the subtract's add law and the exp law chained (the startups added).
      {"TROWEXPANDEXPDIF", "FP32", 64, 64, 5.9 + 12 + (2.07 + 2) * 64, "add + exp laws FP32 (assumption)"},
      {"TROWEXPANDEXPDIF", "FP16", 64, 128, 5.9 + 12 + (2.07 + 4) * 64, "add + exp laws FP16 (assumption)"},
  };
  std::printf("%-16s %-5s %-8s %8s %8s %7s  %s\n", "op", "type", "shape", "anchor", "ptosim", "error", "source");
  for (const Anchor& a : anchors) {
    const auto r = run_program(std::string("anchor_") + a.op + a.dtype, sfu_program(a.op, a.dtype, a.rows, a.cols), "--quiet");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    const double got = static_cast<double>(op_cycles(r, "sfu", a.op));
    const double error = (got - a.cycles) / a.cycles;
    std::printf("%-16s %-5s %3ux%-4u %8.0f %8.0f %+6.1f%%  %s\n", a.op, a.dtype, a.rows, a.cols, a.cycles, got,
                100 * error, a.source);
    CHECK(std::abs(error) <= 0.05);
  }
}

TEST_CASE("An EXPDIF that widens FP16 to FP32 pays the FP32 per-element cost of the repeats it computes", "[timing]") {
  // The same 64x64 FP32 result from FP32 and from FP16 sources: 64 FP32 repeats either way, each
  // at the FP32 exp cost (an FP16 repeat would hold twice the lanes and cost twice the exp part).
  auto program = [](const std::string& src) {
    const std::uint64_t bytes = bytes_of(src);
    return ".tile T#1 " + src + " cols=64 capacity=" + std::to_string(64 * 64 * bytes) + " valid=64x64\n" +
           ".tile U#1 " + src + " cols=1 capacity=" + std::to_string(std::max<std::uint64_t>(64 * bytes, 128)) +
           " valid=64x1\n.random T#1 seed=1 min=-4 max=4\n.random U#1 seed=2 min=-4 max=4\n" +
           "BSTART.SFU TROWEXPANDEXPDIF, " + src + "\n" + (src == "FP32" ? "" : "B.DATR dtype=FP32\n") +
           "B.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\nB.IOT T#1, U#1, mask=1111, last, ->T<8>\nBSTOP\n";
  };
  const auto same = run_program("expdif_fp32", program("FP32"), "--quiet");
  const auto widening = run_program("expdif_fp16_fp32", program("FP16"), "--quiet");
  INFO(same.out << same.err << widening.out << widening.err);
  REQUIRE(same.status == 0);
  REQUIRE(widening.status == 0);
  const std::uint64_t expected = 279;  // 18 + (2.07 + 2) x 64, rounded up
  CHECK(op_cycles(same, "sfu", "TROWEXPANDEXPDIF") == expected);
  CHECK(op_cycles(widening, "sfu", "TROWEXPANDEXPDIF") == expected);
}

TEST_CASE("An SFU command that starts as the previous one ends pays no startup", "[timing]") {
  // Two independent 64x64 FP32 reductions: the second starts the cycle the first ends, so it costs
  // its per-repeat work only (TROWMAX: 7.3 x 64 rounded up, against 480 with its startup of 12).
  const std::string program = ".tile T#1 FP32 cols=64 capacity=16384 valid=64x64\n.random T#1 seed=3 min=1 max=2\n"
                              "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->U<2>\nBSTOP\n"
                              "BSTART.SFU TROWMAX, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\n"
                              "B.IOT T#1, mask=1111, last, ->U<2>\nBSTOP\n";
  const auto r = run_program("back_to_back", program, "--quiet");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(op_cycles(r, "sfu", "TROWSUM") == 492);
  CHECK(op_cycles(r, "sfu", "TROWMAX") == 480 - 12);
}

TEST_CASE("SFU-bound cycles grow linearly with the element count", "[timing]") {
  std::vector<double> cycles;
  for (unsigned rows : {16u, 32u, 64u, 128u, 256u}) {
    const auto r = run_program("linear_" + std::to_string(rows), sfu_program("TROWSUM", "FP32", rows, 64), "--quiet");
    REQUIRE(r.status == 0);
    cycles.push_back(static_cast<double>(op_cycles(r, "sfu", "TROWSUM")));
  }
  // Equal steps in element count give equal steps in cycles (a + b * rows).
  const double slope = (cycles.back() - cycles.front()) / (256 - 16);
  const unsigned rows[] = {16, 32, 64, 128, 256};
  for (std::size_t i = 0; i < cycles.size(); ++i)
    CHECK(cycles[i] == Approx(cycles.front() + slope * (rows[i] - 16)).epsilon(0.01));
  CHECK(slope > 0);
}

TEST_CASE("An engine's stream rate bounds a fragment moved in a single request", "[timing]") {
  // A 64x64 FP32 TROWSUM reads 16 KiB per PE, one 32 KiB-burst request, with compute made nearly
  // free: at the default 256 B/cycle its busy time is the memory's; at a lower rate, the rate's.
  const std::string program = sfu_program("TROWSUM", "FP32", 64, 64);
  const std::string fast = "--quiet --set sfu.bytes_per_cycle=65536 --set sfu.read_bytes_per_cycle=";
  const auto port = run_program("rate_port", program, fast + "256");
  const auto slow = run_program("rate_slow", program, fast + "64");
  const auto crawl = run_program("rate_crawl", program, fast + "1");
  REQUIRE(port.status == 0);
  REQUIRE(slow.status == 0);
  REQUIRE(crawl.status == 0);
  CHECK(op_cycles(port, "sfu", "TROWSUM") < 16384 / 128);
  CHECK(op_cycles(slow, "sfu", "TROWSUM") == 16384 / 64);
  CHECK(op_cycles(crawl, "sfu", "TROWSUM") == 16384);
}

TEST_CASE("Doubling the SFU bytes per cycle halves SFU-bound time (within 10%)", "[timing]") {
  const std::string program = sfu_program("TCOLSUM", "FP32", 256, 64);
  const auto base = run_program("width_base", program, "--quiet");
  const auto wide = run_program("width_double", program, "--quiet --set sfu.bytes_per_cycle=256");
  REQUIRE(base.status == 0);
  REQUIRE(wide.status == 0);
  const double t1 = static_cast<double>(op_cycles(base, "sfu", "TCOLSUM"));
  const double t2 = static_cast<double>(op_cycles(wide, "sfu", "TCOLSUM"));
  INFO("base " << t1 << " cycles, double width " << t2 << " cycles");
  CHECK(std::abs(t2 - t1 / 2) <= 0.1 * (t1 / 2));
}

namespace {

/// The spans in which a 1-bit signal is 1.
std::size_t busy_spans(const Waves& waves, const std::string& signal) {
  std::size_t spans = 0;
  std::uint64_t previous = 0;
  const auto steps = waves.steps();
  for (const auto& [time, value] : steps.at(signal)) {
    spans += previous == 0 && value == 1 ? 1 : 0;
    previous = value;
  }
  return spans;
}

}  // namespace

TEST_CASE("A dependent chain serialises: each bundle waits for its producer", "[timing]") {
  // Softmax's four SFU bundles each read the result before: the SFU sits idle between them while
  // the next is preflighted, four busy spans. Four independent bundles of one shape are dispatched
  // while the SFU works and run back to back, one busy span.
  const std::string chain_vcd = scratch("chain.vcd"), free_vcd = scratch("chain_free.vcd");
  const auto chain =
      run_program("chain", slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto"), "--quiet --vcd " + chain_vcd);
  REQUIRE(chain.status == 0);
  CHECK(chain.stats["engines"]["sfu"]["commands"] == 4);
  CHECK(chain.stats["dispatcher"]["dependency_stall_cycles"].get<std::uint64_t>() > 0);
  CHECK(busy_spans(Waves(chain_vcd), "top.sfu.busy") == 4);
  std::string independent = ".tile T#1 FP32 cols=64 capacity=16KiB valid=64x64\n.random T#1 seed=5\n";
  for (int i = 0; i < 4; ++i)
    independent += "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\n"
                   "B.IOT T#1, mask=1111, last, ->U<2>\nBSTOP\n";
  const auto free = run_program("chain_free", independent, "--quiet --vcd " + free_vcd);
  REQUIRE(free.status == 0);
  CHECK(free.stats["dispatcher"]["dependency_stall_cycles"] == 0);
  CHECK(busy_spans(Waves(free_vcd), "top.sfu.busy") == 1);

  // Across engines: an SFU bundle that reads the CUBE's row maxima starts only once the CUBE is
  // done (the run lasts at least both engines' busy time); reading an input instead, it overlaps.
  const std::string inputs =
      ".tile U#1 FP16 valid=32x64 layout=CUBE_M32 location=Matrix capacity=4KiB\n"
      ".tile U#2 FP16 valid=64x64 layout=CUBE_N8 location=Matrix capacity=8KiB\n"
      ".tile N#1 FP32 cols=1 valid=32x1 capacity=128\n.tile N#2 FP32 cols=1 valid=32x1 capacity=128\n"
      ".random U#1 seed=1\n.random U#2 seed=2\n.fill N#1 0\n.fill N#2 1\n"
      "BSTART.TMATMUL FP16\nB.FPATR rowmaxen=1\nB.DIM zero, 32, ->LB0\nB.DIM zero, 64, ->LB1\n"
      "B.DIM zero, 64, ->LB2\nB.IOT U#1, U#2, mask=1111, ->M<7>\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n";
  auto sfu_reading = [](const std::string& reg) {
    return "BSTART.SFU TROWEXPANDMAX, FP32\nB.DIM zero, 1, ->LB0\nB.DIM zero, 32, ->LB1\n"
           "B.IOT N#1, " + reg + ", mask=1111, last, ->N<1>\nBSTOP\n";
  };
  const auto dependent = run_program("chain_cube_sfu", inputs + sfu_reading("T#1"), "--quiet");
  const auto overlapping = run_program("chain_cube_free", inputs + sfu_reading("N#2"), "--quiet");
  REQUIRE(dependent.status == 0);
  REQUIRE(overlapping.status == 0);
  for (const auto* r : {&dependent, &overlapping}) {
    const std::uint64_t total = r->stats["simulated_cycles"];
    const std::uint64_t busy = r->stats["engines"]["sfu"]["busy_cycles"].get<std::uint64_t>() +
                               r->stats["engines"]["cube"]["busy_cycles"].get<std::uint64_t>();
    INFO("total " << total << ", SFU + CUBE busy " << busy);
    CHECK((total >= busy) == (r == &dependent));
  }
}

TEST_CASE("Timing parameters never change a functional result", "[timing]") {
  // Every configuration changes the timing of every example (the SFU-only softmax, the CUBE GEMM,
  // the mixed attention block), and none changes a value.
  const char* configs[] = {
      "--set sfu.bytes_per_cycle=16 --set sfu.burst_bytes=64 --set cube.burst_bytes=64",
      "--set local_memory.ports=1 --set local_memory.bytes_per_cycle=8 --set local_memory.access_latency_cycles=40",
      "--set clock.period_ps=1000 --set dispatch.issue_queue_depth=1 --set dispatch.reorder_depth=1"
      " --set dispatch.preflight_cycles=7",
      "--set sfu.class.expand_expdif.cycles_per_repeat=100 --set sfu.class.row_reduce.startup_cycles=0"
      " --set sfu.class.expand_arith.startup_cycles=40 --set cube.fill_cycles=300",
      "--set interconnect.hop_cycles=17 --set dispatch.decode_cycles=9 --set local_memory.banks=1"
      " --set cube.cycles_per_fractal_16bit=5 --set cube.k_tile_bytes=8",
      "--set cube.read_bytes_per_cycle=4 --set cube.write_bytes_per_cycle=2 --set cube.outstanding_requests=1"
      " --set sfu.outstanding_requests=1 --set sfu.read_bytes_per_cycle=4 --set sim.lookahead_cycles=3",
  };
  for (const char* example : {"softmax", "gemm", "attention"}) {
    const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/" + example + ".pto");
    const auto reference = run_program(std::string("invariance_") + example, program, "--hex");
    REQUIRE(reference.status == 0);
    const std::string expected = dumps_of(reference.out);
    REQUIRE(expected.find("#1") != std::string::npos);
    for (std::size_t i = 0; i < std::size(configs); ++i) {
      const auto r = run_program(std::string("invariance_") + example + std::to_string(i), program,
                                 std::string("--hex ") + configs[i]);
      INFO(example << ": " << configs[i] << "\n" << r.err);
      REQUIRE(r.status == 0);
      CHECK(dumps_of(r.out) == expected);
      CHECK(r.stats["simulated_cycles"] != reference.stats["simulated_cycles"]);
    }
  }
}

TEST_CASE("Two runs of the same input give identical statistics and VCD, and tracing changes no statistic",
          "[timing]") {
  const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto");
  const auto a = run_program("determinism_a", program, "--quiet --vcd " + scratch("determinism_a.vcd"));
  const auto b = run_program("determinism_b", program, "--quiet --vcd " + scratch("determinism_b.vcd"));
  const auto untraced = run_program("determinism_untraced", program, "--quiet");
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  REQUIRE(untraced.status == 0);
  CHECK(a.stats_without_program() == b.stats_without_program());
  CHECK(untraced.stats_without_program() == a.stats_without_program());
  // The same on a program whose bundles mostly find their sources ready (the dispatcher then
  // decodes and preflights in one step when nothing is traced).
  const std::string attention = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/attention.pto");
  const auto traced = run_program("determinism_attention_traced", attention, "--quiet --vcd " + scratch("determinism_attention.vcd"));
  const auto plain = run_program("determinism_attention", attention, "--quiet");
  REQUIRE(traced.status == 0);
  REQUIRE(plain.status == 0);
  CHECK(plain.stats_without_program() == traced.stats_without_program());
  auto body = [](const std::string& vcd) { return vcd.substr(vcd.find("$enddefinitions")); };
  const std::string va = slurp(scratch("determinism_a.vcd")), vb = slurp(scratch("determinism_b.vcd"));
  REQUIRE(va.size() > 200);
  CHECK(body(va) == body(vb));
}

TEST_CASE("Tracing changes no statistic whether a dependency resolves before, during or after decode", "[timing]") {
  // The dispatcher waits for a bundle's sources and its preflight in one step, woken by the
  // completion that readies them; traced, only when that completion is known as the wait begins,
  // else stage by stage. Longer decodes move that completion from after decode to during it.
  const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/attention.pto");
  std::set<std::uint64_t> stalls;
  for (int decode : {1, 4, 16, 64, 256}) {
    const std::string set = " --set dispatch.decode_cycles=" + std::to_string(decode);
    const std::string name = "decode_sweep_" + std::to_string(decode);
    const auto traced = run_program(name + "_traced", program, "--quiet --vcd " + scratch(name + ".vcd") + set);
    const auto plain = run_program(name, program, "--quiet" + set);
    REQUIRE(traced.status == 0);
    REQUIRE(plain.status == 0);
    CHECK(plain.stats_without_program() == traced.stats_without_program());
    stalls.insert(plain.stats["dispatcher"]["dependency_stall_cycles"].get<std::uint64_t>());
  }
  CHECK(stalls.size() > 1);  // the sweep moves the dependency waits
}

TEST_CASE("Tracing changes no statistic of a dependent CUBE chain, full or timing-only", "[timing]") {
  // A chained command issued to idle engines runs on the dispatcher's own thread while the next
  // bundle waits for it, its completion made ahead; traced, the signals it changes are scheduled.
  const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/gemm.pto");
  for (const std::string mode : {"", " --timing-only"}) {
    const std::string name = mode.empty() ? "gemm_chain" : "gemm_chain_timing_only";
    const auto traced = run_program(name + "_traced", program, "--quiet --vcd " + scratch(name + ".vcd") + mode);
    const auto plain = run_program(name, program, "--quiet" + mode);
    INFO(mode);
    REQUIRE(traced.status == 0);
    REQUIRE(plain.status == 0);
    CHECK(plain.stats_without_program() == traced.stats_without_program());
    CHECK(plain.stats["dispatcher"]["dependency_stall_cycles"].get<std::uint64_t>() > 0);
  }
}

TEST_CASE("The VCD shows what the statistics count: busy engines, dispatcher stalls and port activity", "[timing]") {
  // Traced signals are recorded at change points, some of them ahead (an engine's end, the
  // dispatcher's wait states) or once time has passed them (memory port activity): over whole
  // runs, each signal's time must add up to its statistic.
  const std::string examples = std::string(PTOSIM_SOURCE_DIR) + "/examples/";
  struct Run {
    const char* example;
    const char* args;
  };
  const Run runs[] = {{"attention", ""},
                      {"attention", " --set dispatch.decode_cycles=64"},
                      {"attention", " --set dispatch.issue_queue_depth=1"},
                      {"attention", " --set dispatch.reorder_depth=2"},
                      {"attention", " --allocation queue:4"},
                      {"gemm", ""},
                      {"gemm", " --timing-only"},
                      // Stream rates that take fragments a fraction of a cycle past an edge.
                      {"gemm", " --set cube.read_bytes_per_cycle=96"},
                      {"softmax", " --set sfu.read_bytes_per_cycle=3 --set sfu.burst_bytes=100"},
                      {"softmax", " --set dispatch.preflight_cycles=0"}};
  std::set<std::string> stalls_seen;
  for (const Run& run : runs) {
    const std::string name = std::string("waves_") + run.example;
    INFO(run.example << run.args);
    const auto r = run_program(name, slurp(examples + run.example + ".pto"), "--quiet --vcd " + scratch(name + ".vcd") + run.args);
    REQUIRE(r.status == 0);
    const Waves waves(scratch(name + ".vcd"));
    const std::uint64_t period = r.stats["clock_period_ps"].get<std::uint64_t>();
    CHECK(waves.end == r.stats["simulated_cycles"].get<std::uint64_t>() * period);
    for (const char* engine : {"sfu", "cube"})
      CHECK(waves.integral(std::string("top.") + engine + ".busy") ==
            r.stats["engines"][engine]["busy_cycles"].get<std::uint64_t>() * period);
    // The dispatcher's states, numbered as in the user guide.
    const std::pair<std::uint64_t, const char*> stalls[] = {
        {2, "dependency_stall_cycles"}, {4, "queue_full_stall_cycles"}, {5, "reorder_full_stall_cycles"},
        {8, "destination_stall_cycles"}};
    for (const auto& [state, counter] : stalls) {
      const std::uint64_t cycles = r.stats["dispatcher"][counter].get<std::uint64_t>();
      CHECK(waves.integral("top.dispatcher.state", state) == cycles * period);
      if (cycles > 0) stalls_seen.insert(counter);
    }
    check_port_activity(waves, r);
  }
  CHECK(stalls_seen.size() == 4);  // every kind of stall was traced
}

TEST_CASE("The four Local memories' port counts are one VCD signal while they book alike and part exactly", "[timing]") {
  const auto local_codes = [](const std::string& vcd) {
    std::set<std::string> codes;
    std::istringstream lines(slurp(vcd));
    for (std::string line, scope; std::getline(lines, line);) {
      if (line.rfind("$scope module ", 0) == 0) scope = line.substr(14, line.find(' ', 14) - 14);
      if (line.rfind("$var wire 2 ", 0) == 0 && scope.rfind("local_memory_pe", 0) == 0) codes.insert(line.substr(12, line.find(' ', 12) - 12));
      if (line == "$enddefinitions $end") break;
    }
    return codes;
  };
  // Every bundle on every PE: the four are one from start to end.
  const std::string gemm = scratch("one_signal.vcd");
  const auto all = run_program("one_signal", slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/gemm.pto"), "--quiet --vcd " + gemm);
  REQUIRE(all.status == 0);
  CHECK(local_codes(gemm).size() == 1);
  const Waves one(gemm);
  CHECK(one.changes.at("top.local_memory_pe0.active_ports").size() > 4);
  for (const char* pe : {"pe1", "pe2", "pe3"})
    CHECK(one.changes.at(std::string("top.local_memory_") + pe + ".active_ports") == one.changes.at("top.local_memory_pe0.active_ports"));
  check_port_activity(one, all);
  CHECK(fst_round_trip_problem(gemm) == "");

  // A bundle on PE0 and PE1 only, between bundles on every PE: the four part there, the lines
  // written before copied for each.
  const std::string bundle = "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\n";
  const std::string program = ".tile T#1 FP32 cols=8 capacity=256 valid=4x8\n.random T#1 seed=3\n" + bundle +
                              "B.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n" + bundle + "B.IOT T#1, mask=1100, last, ->U<1>\nBSTOP\n" +
                              bundle + "B.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n";
  const std::string parted = scratch("parted.vcd");
  const auto r = run_program("parted", program, "--quiet --vcd " + parted);
  REQUIRE(r.status == 0);
  CHECK(local_codes(parted).size() == 4);
  const Waves waves(parted);
  const auto& pe0 = waves.changes.at("top.local_memory_pe0.active_ports");
  const auto& pe3 = waves.changes.at("top.local_memory_pe3.active_ports");
  CHECK(waves.changes.at("top.local_memory_pe1.active_ports") == pe0);
  CHECK(waves.changes.at("top.local_memory_pe2.active_ports") == pe3);
  CHECK(pe3 != pe0);
  // The first bundle's activity, written before they parted, shows on PE3 as on PE0.
  REQUIRE(pe3.size() >= 4);
  CHECK(std::equal(pe3.begin(), pe3.begin() + 2, pe0.begin()));
  CHECK(r.stats["memories"]["local_memory_pe0"]["accesses"] > r.stats["memories"]["local_memory_pe3"]["accesses"]);
  check_port_activity(waves, r);
  CHECK(fst_round_trip_problem(parted) == "");
}

TEST_CASE("A traced bundle id is unknown (x) until its first bundle, so bundle 0 shows", "[timing]") {
  const std::string vcd = scratch("bundle_ids.vcd");
  const auto r = run_program("bundle_ids", slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/gemm.pto"), "--quiet --vcd " + vcd);
  REQUIRE(r.status == 0);
  const auto steps = Waves(vcd).steps();
  const auto& dispatched = steps.at("top.dispatcher.bundle_id");
  const auto& cube = steps.at("top.cube.bundle_id");
  const auto& cube_busy = steps.at("top.cube.busy");
  REQUIRE(dispatched.size() == 5);  // x, then the example's four bundles
  REQUIRE(cube.size() == 5);
  REQUIRE(cube_busy.size() >= 2);
  for (const auto* s : {&dispatched, &cube}) CHECK(s->front() == std::make_pair(std::uint64_t{0}, Waves::kUnknown));
  CHECK(dispatched[1].second == 0);
  CHECK(dispatched[1].first > 0);  // once decoded
  CHECK(cube[1] == std::make_pair(cube_busy[1].first, std::uint64_t{0}));  // as the CUBE starts bundle 0
  CHECK(cube.back().second == 3);
  // The SFU ran nothing: its bundle id stays unknown.
  CHECK(steps.at("top.sfu.bundle_id") == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, Waves::kUnknown}});
}

TEST_CASE("A dependency stall is charged to the engines idle during it, not to its producer", "[timing]") {
  // The SFU bundle waits for the CUBE's row maxima: the SFU sits idle for the whole wait, the CUBE
  // is busy until the wait ends (and idle only from then on).
  const std::string program =
      ".tile U#1 FP16 valid=32x64 layout=CUBE_M32 location=Matrix capacity=4KiB\n"
      ".tile U#2 FP16 valid=64x64 layout=CUBE_N8 location=Matrix capacity=8KiB\n"
      ".tile N#1 FP32 cols=1 valid=32x1 capacity=128\n"
      ".random U#1 seed=1\n.random U#2 seed=2\n.fill N#1 0\n"
      "BSTART.TMATMUL FP16\nB.FPATR rowmaxen=1\nB.DIM zero, 32, ->LB0\nB.DIM zero, 64, ->LB1\n"
      "B.DIM zero, 64, ->LB2\nB.IOT U#1, U#2, mask=1111, ->M<7>\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n"
      "BSTART.SFU TROWEXPANDMAX, FP32\nB.DIM zero, 1, ->LB0\nB.DIM zero, 32, ->LB1\n"
      "B.IOT N#1, T#1, mask=1111, last, ->N<1>\nBSTOP\n";
  for (const std::string& args : {std::string("--quiet"), "--quiet --vcd " + scratch("idle_charge.vcd")}) {
    INFO(args);
    const auto r = run_program("idle_charge", program, args);
    REQUIRE(r.status == 0);
    const auto wait = r.stats["dispatcher"]["dependency_stall_cycles"].get<std::uint64_t>();
    CHECK(wait > 0);
    CHECK(r.stats["engines"]["sfu"]["stall_cycles"]["dependency"] == wait);
    CHECK(r.stats["engines"]["cube"]["stall_cycles"]["dependency"] == 0);
  }
}

TEST_CASE("An engine's idle time before its last command is all charged to a reason", "[timing]") {
  // The softmax chain runs on the SFU alone, which then ends the run: every idle cycle of it came
  // before a command, held back by the front end (decode, preflight) or by a stall.
  const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto");
  for (const std::string args : {"", " --set dispatch.preflight_cycles=0", " --set dispatch.preflight_cycles=100",
                                 " --set dispatch.decode_cycles=64", " --set dispatch.issue_queue_depth=1",
                                 " --set dispatch.reorder_depth=1", " --set sfu.read_bytes_per_cycle=3"}) {
    INFO(args);
    const auto r = run_program("idle_reasons", program, "--quiet" + args);
    REQUIRE(r.status == 0);
    const auto& sfu = r.stats["engines"]["sfu"];
    std::uint64_t charged = 0;
    for (const char* reason : {"dependency", "queue_full", "reorder_full", "destination", "front_end"})
      charged += sfu["stall_cycles"][reason].get<std::uint64_t>();
    CHECK(charged == sfu["idle_cycles"].get<std::uint64_t>());
    CHECK(sfu["stall_cycles"]["front_end"].get<std::uint64_t>() > 0);
  }
}

TEST_CASE("A wait for a destination slot still in use is counted apart from dependencies", "[timing]") {
  // Six independent TROWSUMs of one tile. The queue:2 policy cycles their results through two
  // slots, so the third waits for the first's write to its slot: no source is waited for.
  std::string program = ".tile T#1 FP32 cols=64 capacity=16384 valid=64x64\n.random T#1 seed=3\n";
  for (int i = 0; i < 6; ++i)
    program += "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\nB.IOT T#1, mask=1111, last, ->U<2>\nBSTOP\n";
  const std::string deep = "--quiet --set dispatch.issue_queue_depth=8 --set dispatch.reorder_depth=8 --allocation ";
  const auto cycled = run_program("dest_cycled", program, deep + "queue:2");
  const auto spread = run_program("dest_spread", program, deep + "queue");
  REQUIRE(cycled.status == 0);
  REQUIRE(spread.status == 0);
  CHECK(cycled.stats["dispatcher"]["dependency_stall_cycles"] == 0);
  CHECK(cycled.stats["dispatcher"]["destination_stall_cycles"].get<std::uint64_t>() > 0);
  CHECK(spread.stats["dispatcher"]["destination_stall_cycles"] == 0);
  // The SFU is the bottleneck either way: the waits cost no time.
  CHECK(cycled.stats["simulated_cycles"] == spread.stats["simulated_cycles"]);
}

TEST_CASE("An engine that runs out of work during a dependency stall is charged the rest of it", "[timing]") {
  // A short TMATMUL and a long TCOLSUM start together; the TROWSUM after them waits for the
  // TCOLSUM's sums. The CUBE finishes early in that wait and idles through the rest of it, which
  // holds back the second TMATMUL: that part is its dependency stall.
  const std::string matmul = "BSTART.TMATMUL FP16\nB.FPATR\nB.DIM zero, 32, ->LB0\nB.DIM zero, 64, ->LB1\n"
                             "B.DIM zero, 64, ->LB2\nB.IOT U#1, U#2, mask=1111, last, ->M<7>\nBSTOP\n";
  const std::string program =
      ".tile U#1 FP16 valid=32x64 layout=CUBE_M32 location=Matrix capacity=4KiB\n"
      ".tile U#2 FP16 valid=64x64 layout=CUBE_N8 location=Matrix capacity=8KiB\n"
      ".tile T#1 FP32 cols=64 capacity=16384 valid=64x64\n"
      ".random U#1 seed=1\n.random U#2 seed=2\n.random T#1 seed=3 min=1 max=2\n" +
      matmul +
      "BSTART.SFU TCOLSUM, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\nB.IOT T#1, mask=1111, last, ->N<2>\nBSTOP\n"
      "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 1, ->LB1\nB.IOT N#1, mask=1111, last, ->N<1>\nBSTOP\n" +
      matmul;
  const auto r = run_program("idle_midway", program, "--quiet");
  REQUIRE(r.status == 0);
  const auto wait = r.stats["dispatcher"]["dependency_stall_cycles"].get<std::uint64_t>();
  const auto& cube = r.stats["engines"]["cube"];
  const auto matmul_cycles = op_cycles(r, "cube", "TMATMUL") / 2;
  INFO("wait " << wait << ", one TMATMUL " << matmul_cycles);
  // The CUBE worked through at most the first TMATMUL's cycles of the wait, and idled the rest.
  CHECK(cube["stall_cycles"]["dependency"].get<std::uint64_t>() >= wait - matmul_cycles);
  CHECK(cube["stall_cycles"]["dependency"].get<std::uint64_t>() < wait);
  CHECK(cube["stall_cycles"]["dependency"].get<std::uint64_t>() <= cube["idle_cycles"].get<std::uint64_t>());
  CHECK(r.stats["engines"]["sfu"]["stall_cycles"]["dependency"] == 0);  // the producer, busy throughout
}

TEST_CASE("Timing-only runs keep the same timing and say that no values were computed", "[timing]") {
  const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto");
  const auto full = run_program("timing_full", program, "--quiet");
  const auto fast = run_program("timing_only", program, "--timing-only");
  REQUIRE(full.status == 0);
  REQUIRE(fast.status == 0);
  CHECK(fast.out.find("timing only: no values computed") != std::string::npos);
  CHECK(fast.out.find("M#1  FP32") == std::string::npos);  // nothing to dump
  CHECK(fast.stats["simulated_cycles"] == full.stats["simulated_cycles"]);
  CHECK(fast.stats["engines"] == full.stats["engines"]);
}

TEST_CASE("The trace window limits the VCD to the cycles asked for", "[timing]") {
  const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto");
  const std::string whole_vcd = scratch("window_whole.vcd"), part_vcd = scratch("window_part.vcd");
  const auto whole = run_program("window_whole", program, "--quiet --vcd " + whole_vcd);
  const auto part = run_program("window_part", program, "--quiet --vcd " + part_vcd + " --trace-window 100:150");
  REQUIRE(whole.status == 0);
  REQUIRE(part.status == 0);
  const std::string w = slurp(whole_vcd), p = slurp(part_vcd);
  CHECK(p.size() < w.size());
  CHECK(p.find("#54100") != std::string::npos);  // the window opens at cycle 100 (541 ps cycles)
  CHECK(p.find("#0\n") == std::string::npos);
  CHECK(fst_round_trip_problem(part_vcd) == "");
  // GTKWave opens each at its start.
  CHECK(slurp(part_vcd + ".gtkw").find("[timestart] 54100\n") != std::string::npos);
  CHECK(slurp(whole_vcd + ".gtkw").find("[timestart] 0\n") != std::string::npos);
  // A window that opens after the run ended is allowed, and said so.
  const auto late = run_program("window_late", program, "--quiet --vcd " + scratch("window_late.vcd") + " --trace-window 5000:");
  REQUIRE(late.status == 0);
  CHECK(late.err.find("--trace-window starts at cycle 5000, after the run ended (cycle 252)") != std::string::npos);
}

TEST_CASE("The GTKWave save file loads in GTKWave with every traced signal, opcodes and states by name", "[timing][gtkwave]") {
  const std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto");
  const std::string fst = scratch("gtkw.fst"), log = scratch("gtkw_check.out");
  const auto r = run_program("gtkw", program, "--quiet --fst " + fst);
  REQUIRE(r.status == 0);
  // GTKWave reads the values through the layout's filters: at 0 no engine has had a command; at
  // 5000 ps (cycle 9) the SFU runs the first bundle, TROWMAX, while the dispatcher decodes the next.
  const std::string tcl = ptosim::test::write_file("gtkw_check.tcl", R"(set n [gtkwave::getDisplayedSignals]
puts "DISPLAYED [llength $n]"
foreach t {0 5000} {
  gtkwave::setMarker $t
  foreach s {top.dispatcher.state[3:0] top.sfu.opcode[7:0] top.cube.opcode[7:0]} {
    puts "AT $t $s [gtkwave::getTraceValueAtMarkerFromName $s]"
  }
}
gtkwave::/File/Quit
)");
  const int status = std::system(("timeout 120 xvfb-run -a gtkwave -S " + tcl + " " + fst + ".gtkw >" + log + " 2>&1").c_str());
  const std::string out = slurp(log);
  INFO(out);
  CHECK(status == 0);
  CHECK(out.find("DISPLAYED 19") != std::string::npos);  // 5 dispatcher, 3 per engine, 5 memory, 3 control signals
  for (const char* line : {"AT 0 top.sfu.opcode[7:0] none", "AT 0 top.cube.opcode[7:0] none",
                           "AT 5000 top.dispatcher.state[3:0] Decode", "AT 5000 top.sfu.opcode[7:0] TROWMAX",
                           "AT 5000 top.cube.opcode[7:0] none"})
    CHECK(out.find(line) != std::string::npos);
}

TEST_CASE("The SFU law's parameters also express the other published fits", "[timing]") {
  // Third-party fits from timing-anchors.md: TROWSUM 45*(cols/64) + 6, TCOLSUM 16*(rows-1) + 30*log2(rows).
  const std::string row = "--quiet --set sfu.class.row_reduce.startup_cycles=6 --set sfu.class.row_reduce.cycles_per_repeat=0"
                          " --set sfu.class.row_reduce.cycles_per_column_block=45";
  const auto r = run_program("fit_rowsum", sfu_program("TROWSUM", "FP32", 32, 128), row);
  REQUIRE(r.status == 0);
  CHECK(op_cycles(r, "sfu", "TROWSUM") == 45 * 2 + 6);
  const std::string col = "--quiet --set sfu.class.col_reduce.startup_cycles=-16 --set sfu.class.col_reduce.cycles_per_repeat=0"
                          " --set sfu.class.col_reduce.cycles_per_row=16 --set sfu.class.col_reduce.cycles_per_log2_row=30";
  const auto c = run_program("fit_colsum", sfu_program("TCOLSUM", "FP32", 64, 64), col);
  REQUIRE(c.status == 0);
  CHECK(op_cycles(c, "sfu", "TCOLSUM") == 16 * 63 + 30 * 6);
  // Off the anchors' shapes: 8 rows (log2 exactly 3) and 12 (log2 12 = 3.585, the sum rounded up
  // once, at the end); 80 valid columns of 256 (ceil(80 / 64) = 2 column blocks, of the valid region;
  // 8 rows, so that streaming the 8 KiB tile stays under the compute time).
  const auto c8 = run_program("fit_colsum_8", sfu_program("TCOLSUM", "FP32", 8, 64), col);
  REQUIRE(c8.status == 0);
  CHECK(op_cycles(c8, "sfu", "TCOLSUM") == 16 * 7 + 30 * 3);
  const auto c12 = run_program("fit_colsum_12", sfu_program("TCOLSUM", "FP32", 12, 64), col);
  REQUIRE(c12.status == 0);
  CHECK(op_cycles(c12, "sfu", "TCOLSUM") == 284);  // -16 + 16 x 12 + 30 x 3.585 = 283.55
  const auto r80 = run_program("fit_rowsum_80",
                               ".tile T#1 FP32 cols=256 valid=8x80\n.random T#1 seed=3 min=1 max=2\n"
                               "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 80, ->LB0\nB.DIM zero, 8, ->LB1\nB.DIM zero, 256, ->LB2\n"
                               "B.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n",
                               row);
  REQUIRE(r80.status == 0);
  CHECK(op_cycles(r80, "sfu", "TROWSUM") == 45 * 2 + 6);
  // The other Huawei model: latency + 2 * repeats - 1 (row-sum latency 20).
  const auto h = run_program("fit_latency", sfu_program("TROWSUM", "FP32", 64, 64),
                             "--quiet --set sfu.class.row_reduce.startup_cycles=19 --set sfu.class.row_reduce.cycles_per_repeat=2");
  REQUIRE(h.status == 0);
  CHECK(op_cycles(h, "sfu", "TROWSUM") == 20 + 2 * 64 - 1);
  // A decimal per-repeat cost whose binary value (4.07000000000000028...) takes a whole sum a few
  // ulps over costs no extra cycle: 45 rows of 256 bytes in 13-byte repeats are 900 repeats, and
  // 18 + 4.07 x 900 = 3681.
  const auto d = run_program("fit_decimal", sfu_program("TROWSUM", "FP32", 45, 64),
                             "--quiet --set sfu.repeat_bytes=13 --set sfu.class.row_reduce.startup_cycles=18"
                             " --set sfu.class.row_reduce.cycles_per_repeat=4.07");
  REQUIRE(d.status == 0);
  CHECK(op_cycles(d, "sfu", "TROWSUM") == 3681);
}

namespace {

// A CUBE_M32 FP16 A tile (M rows per PE x K) and a CUBE_N8 FP16 B tile (K x N) in T#1 and U#1.
std::string gemm_inputs(unsigned m, unsigned n, unsigned k) {
  std::ostringstream p;
  p << ".tile T#1 FP16 valid=" << m << "x" << k << " layout=CUBE_M32 location=Matrix capacity=" << 2 * 32 * k << "\n"
    << ".random T#1 seed=5\n"
    << ".tile U#1 FP16 valid=" << k << "x" << n << " layout=CUBE_N8 location=Matrix capacity=" << 2 * k * n << "\n"
    << ".random U#1 seed=6\n";
  return p.str();
}

std::string gemm_bundle(const std::string& op, unsigned m, unsigned n, unsigned k, const std::string& bindings) {
  std::ostringstream p;
  p << "BSTART." << op << " FP16\nB.FPATR\nB.DIM zero, " << m << ", ->LB0\nB.DIM zero, " << n << ", ->LB1\nB.DIM zero, "
    << k << ", ->LB2\n" << bindings << "BSTOP\n";
  return p.str();
}

// SizeCode of an M x N FP32 CUBE_M32 result (32 storage rows).
std::string size_of_result(unsigned n) { return std::to_string(size_code(4ULL * 32 * n)); }

}  // namespace

TEST_CASE("The default CUBE reproduces the matrix law: 128x64x256 FP16 in 518 cycles", "[timing]") {
  // M = 32 rows on each of the four PEs (m = 128), K = 64, N = 256: 6 + 1 * 8 * 4 * 16.
  const std::string program =
      gemm_inputs(32, 256, 64) + gemm_bundle("TMATMUL", 32, 256, 64, "B.IOT T#1, U#1, mask=1111, last, ->M<" + size_of_result(256) + ">\n");
  const auto r = run_program("anchor_matmul", program, "--quiet");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const double got = static_cast<double>(op_cycles(r, "cube", "TMATMUL"));
  std::printf("%-15s %-5s %-8s %8d %8.0f %+6.1f%%  %s\n", "TMATMUL", "FP16", "128x64x256", 518, got,
              100 * (got - 518) / 518, "matrix law 6 + cpr*ceil(m/16)*ceil(k/kt)*ceil(n/16)");
  CHECK(std::abs(got - 518) / 518 <= 0.05);
}

TEST_CASE("The default CUBE reaches the anchored MACs per cycle for FP16, INT8, FP32 and INT4 at the anchored clock", "[timing]") {
  // timing-anchors.md: 16x16x16 FP16 = 4096, 16x32x16 INT8 = 8192, FP32 a quarter of FP16, INT4
  // 16x64x16 = 16384 MACs per cycle, at 1.8-1.85 GHz. One TMATMUL of m = 128 (32 rows on each PE)
  // by N = 256 and a K of 2048 fractal cycles each (16 KiB A and 128 KiB B per PE): compute-bound,
  // its fill a fraction of a percent.
  struct MacAnchor {
    const char* dtype;
    unsigned bits, k;
    double macs_per_cycle;
  };
  const MacAnchor anchors[] = {{"FP16", 16, 256, 4096}, {"S8", 8, 512, 8192}, {"FP32", 32, 128, 1024}, {"S4X2", 4, 1024, 16384}};
  const unsigned m = 32, n = 256;
  std::uint64_t period_ps = 0;
  for (const MacAnchor& a : anchors) {
    std::ostringstream p;
    p << ".tile T#1 " << a.dtype << " valid=" << m << "x" << a.k << " layout=CUBE_M32 location=Matrix capacity="
      << m * a.k * a.bits / 8 << "\n.random T#1 seed=5 min=-7 max=7\n"
      << ".tile U#1 " << a.dtype << " valid=" << a.k << "x" << n << " layout=CUBE_N8 location=Matrix capacity="
      << a.k * n * a.bits / 8 << "\n.random U#1 seed=6 min=-7 max=7\n"
      << "BSTART.TMATMUL " << a.dtype << "\nB.FPATR\nB.DIM zero, " << m << ", ->LB0\nB.DIM zero, " << n
      << ", ->LB1\nB.DIM zero, " << a.k << ", ->LB2\nB.IOT T#1, U#1, mask=1111, last, ->M<" << size_of_result(n) << ">\nBSTOP\n";
    const auto r = run_program(std::string("anchor_macs_") + a.dtype, p.str(), "--quiet");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    period_ps = r.stats["clock_period_ps"];
    const double macs = r.stats["engines"]["cube"]["macs"];
    CHECK(macs == 4.0 * m * n * a.k);
    const double got = macs / static_cast<double>(op_cycles(r, "cube", "TMATMUL"));
    std::printf("%-15s %-5s %-10s %8.0f %8.0f %+6.1f%%  %s\n", "TMATMUL", a.dtype, "MACs/cycle", a.macs_per_cycle, got,
                100 * (got - a.macs_per_cycle) / a.macs_per_cycle, "cube MACs per cycle");
    CHECK(std::abs(got - a.macs_per_cycle) / a.macs_per_cycle <= 0.05);
  }
  const double ghz = 1000.0 / static_cast<double>(period_ps);
  std::printf("%-15s %-5s %-10s %8s %8.3f %7s  %s\n", "clock", "", "GHz", "1.8-1.85", ghz, "", "cube clock");
  CHECK(ghz >= 1.8);
  CHECK(ghz <= 1.85);
}

TEST_CASE("A large GEMM reaches at least 90% of the configured CUBE peak in steady state", "[timing]") {
  // 24 chained TMATMUL.ACC steps of 128 x 256 x 64 (M x K x N over four PEs). The queue policy
  // keeps the last 16 results of hand M alive, so the results are kept small enough to fit.
  const unsigned m = 32, n = 64, k = 256;
  std::string program = gemm_inputs(m, n, k);
  const std::string result = "->M<" + size_of_result(n) + ">\n";
  program += gemm_bundle("TMATMUL", m, n, k, "B.IOT T#1, U#1, mask=1111, last, " + result);
  for (int i = 0; i < 24; ++i)
    program += gemm_bundle("TMATMUL.ACC", m, n, k, "B.IOT M#1, T#1, mask=1111\nB.IOT U#1, mask=1111, last, " + result);
  const auto r = run_program("gemm_peak", program, "--quiet");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const double utilisation = r.stats["engines"]["cube"]["mac_utilisation_vs_fp16_peak"];
  INFO("MAC utilisation " << utilisation);
  CHECK(utilisation >= 0.90);
  // Timing-only mode runs the same timing.
  const auto t = run_program("gemm_peak_timing_only", program, "--timing-only");
  REQUIRE(t.status == 0);
  CHECK(t.stats["simulated_cycles"] == r.stats["simulated_cycles"]);
}

TEST_CASE("Independent SFU and CUBE bundles overlap in time", "[timing]") {
  const auto r = run_program("overlap", slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/attention.pto"), "--quiet");
  REQUIRE(r.status == 0);
  const std::uint64_t total = r.stats["simulated_cycles"];
  const std::uint64_t sfu = r.stats["engines"]["sfu"]["busy_cycles"], cube = r.stats["engines"]["cube"]["busy_cycles"];
  INFO("total " << total << ", SFU busy " << sfu << ", CUBE busy " << cube);
  CHECK(total < sfu + cube);
}

TEST_CASE("Two engines streaming from the same memories contend: both take longer than alone", "[timing]") {
  // A memory-bound SFU stream and a memory-bound CUBE stream on the same PE memories (one slow
  // port, small requests so the two engines' requests interleave).
  const std::string slow = "--quiet --set local_memory.ports=1 --set local_memory.bytes_per_cycle=32"
                           " --set sfu.burst_bytes=256 --set cube.burst_bytes=256"
                           " --set sfu.class.expand.cycles_per_repeat=0 --set sfu.class.expand.startup_cycles=0";
  const std::string sfu_input = ".tile N#1 FP32 cols=1 capacity=512 valid=128x1\n.random N#1 seed=9\n";
  const std::string sfu_bundle = "BSTART.SFU TROWEXPAND, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 128, ->LB1\n"
                                 "B.IOT N#1, mask=1111, last, ->N<9>\nBSTOP\n";
  const std::string cube = gemm_inputs(32, 64, 64) +
                           gemm_bundle("TMATMUL", 32, 64, 64, "B.IOT T#1, U#1, mask=1111, last, ->M<" + size_of_result(64) + ">\n");
  const auto sfu_alone = run_program("contend_sfu", sfu_input + sfu_bundle, slow);
  const auto cube_alone = run_program("contend_cube", cube, slow);
  const auto both = run_program("contend_both", sfu_input + cube + sfu_bundle, slow);
  REQUIRE(sfu_alone.status == 0);
  REQUIRE(cube_alone.status == 0);
  REQUIRE(both.status == 0);
  const std::uint64_t sfu1 = sfu_alone.stats["engines"]["sfu"]["busy_cycles"], sfu2 = both.stats["engines"]["sfu"]["busy_cycles"];
  const std::uint64_t cube1 = cube_alone.stats["engines"]["cube"]["busy_cycles"], cube2 = both.stats["engines"]["cube"]["busy_cycles"];
  INFO("SFU " << sfu1 << " -> " << sfu2 << ", CUBE " << cube1 << " -> " << cube2);
  CHECK(sfu2 > sfu1);
  CHECK(cube2 > cube1);
  CHECK(both.stats["memories"]["local_memory_pe0"]["wait_cycles"].get<std::uint64_t>() > 0);
  CHECK(both.stats["engines"]["sfu"]["stall_cycles"]["memory_contention"].get<std::uint64_t>() +
            both.stats["engines"]["cube"]["stall_cycles"]["memory_contention"].get<std::uint64_t>() >
        0);
}

TEST_CASE("The statistics count what the bundles did: bytes, accesses, conflicts, operations, idle time", "[timing]") {
  // One TROWSUM of a 64x64 FP32 tile on four PEs: each PE reads its 16 KiB fragment in one request
  // (bursts are 32 KiB) and writes its 64 sums in another.
  const auto r = run_program("stats_rowsum", sfu_program("TROWSUM", "FP32", 64, 64), "--quiet");
  REQUIRE(r.status == 0);
  const std::uint64_t total = r.stats["simulated_cycles"];
  const auto& sfu = r.stats["engines"]["sfu"];
  const std::uint64_t busy = sfu["busy_cycles"];
  CHECK(sfu["commands"] == 1);
  CHECK(sfu["per_opcode"]["TROWSUM"]["count"] == 1);
  CHECK(sfu["bytes_read"] == 4 * 64 * 64 * 4);
  CHECK(sfu["bytes_written"] == 4 * 64 * 4);
  CHECK(sfu["idle_cycles"].get<std::uint64_t>() == total - busy);
  CHECK(sfu["utilisation"].get<double>() == Approx(static_cast<double>(busy) / static_cast<double>(total)));
  const auto& cube = r.stats["engines"]["cube"];
  CHECK(cube["commands"] == 0);
  CHECK(cube["idle_cycles"] == total);
  CHECK(cube["utilisation"].get<double>() == 0.0);
  for (int pe = 0; pe < 4; ++pe) {
    const auto& m = r.stats["memories"]["local_memory_pe" + std::to_string(pe)];
    INFO("PE" << pe);
    CHECK(m["bytes_read"] == 64 * 64 * 4);
    CHECK(m["bytes_written"] == 64 * 4);
    CHECK(m["accesses"] == 2);
    std::uint64_t port_bytes = 0;
    for (const auto& port : m["ports"]) port_bytes += port["bytes"].get<std::uint64_t>();
    CHECK(port_bytes == 64 * 64 * 4 + 64 * 4);
  }
  CHECK(r.stats["memories"]["shared_memory"]["accesses"] == 0);

  // Two sources read from the start: their first requests arrive together, so with one bank they
  // start in the same bank and one waits a cycle; with one port nothing is concurrent to conflict.
  const std::string two_sources = sfu_program("TROWEXPANDADD", "FP32", 64, 64);
  const auto one_bank = run_program("stats_one_bank", two_sources, "--quiet --set local_memory.banks=1");
  const auto one_port = run_program("stats_one_port", two_sources, "--quiet --set local_memory.ports=1");
  REQUIRE(one_bank.status == 0);
  REQUIRE(one_port.status == 0);
  for (int pe = 0; pe < 4; ++pe) {
    const std::string memory = "local_memory_pe" + std::to_string(pe);
    INFO(memory);
    CHECK(one_bank.stats["memories"][memory]["bank_conflicts"].get<std::uint64_t>() >= 1);
    CHECK(one_port.stats["memories"][memory]["bank_conflicts"] == 0);
    CHECK(one_port.stats["memories"][memory]["wait_cycles"].get<std::uint64_t>() > 0);
  }
  // The shipped attention example conflicts on the default platform too.
  const auto attention = run_program("stats_attention", slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/attention.pto"), "--quiet");
  REQUIRE(attention.status == 0);
  CHECK(attention.stats["memories"]["local_memory_pe0"]["bank_conflicts"].get<std::uint64_t>() > 0);
  std::uint64_t operations = 0;
  for (const char* engine : {"sfu", "cube"})
    for (const auto& [op, counts] : attention.stats["engines"][engine]["per_opcode"].items())
      operations += counts["count"].get<std::uint64_t>();
  CHECK(operations == attention.stats["bundles"]["committed"]);
  CHECK(attention.stats["engines"]["cube"]["per_opcode"]["TMATMUL"]["count"] == 4);
}

TEST_CASE("An engine idle while the dispatcher waits for room in the other engine's queue is charged a queue-full stall",
          "[timing]") {
  // Five independent GEMMs fill the CUBE's one-deep queue; the SFU bundle behind them waits in the
  // dispatcher while the SFU has nothing to do.
  std::string program = gemm_inputs(32, 64, 64) + ".tile T#2 FP32 cols=64 capacity=16KiB valid=64x64\n.random T#2 seed=3\n";
  for (int i = 0; i < 5; ++i)
    program += gemm_bundle("TMATMUL", 32, 64, 64, "B.IOT T#1, U#1, mask=1111, last, ->M<" + size_of_result(64) + ">\n");
  program += "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 64, ->LB0\nB.DIM zero, 64, ->LB1\nB.IOT T#2, mask=1111, last, ->N<2>\nBSTOP\n";
  const auto r = run_program("queue_full_charge", program, "--quiet --set dispatch.issue_queue_depth=1");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::uint64_t waited = r.stats["dispatcher"]["queue_full_stall_cycles"];
  CHECK(waited > 0);
  CHECK(r.stats["engines"]["sfu"]["stall_cycles"]["queue_full"] == waited);
  CHECK(r.stats["engines"]["cube"]["stall_cycles"]["queue_full"] == 0);
  // Without the SFU bundle the SFU has no work at all: idle, never held back.
  const auto cube_only = run_program("queue_full_cube_only", program.substr(0, program.rfind("BSTART.SFU")),
                                     "--quiet --set dispatch.issue_queue_depth=1");
  REQUIRE(cube_only.status == 0);
  CHECK(cube_only.stats["dispatcher"]["queue_full_stall_cycles"] > 0);
  CHECK(cube_only.stats["engines"]["sfu"]["stall_cycles"]["queue_full"] == 0);
  CHECK(cube_only.stats["engines"]["sfu"]["idle_cycles"] == cube_only.stats["simulated_cycles"]);
}
