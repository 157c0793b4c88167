// SPDX-License-Identifier: BSD-3-Clause
// Platform throughput: simulated cycles and bundles per wall-clock second of a program on the
// SystemC platform (full or timing-only, traced or not), or of the same bundles on the functional
// machine alone, or the program's loading alone (parsing the program text and assembling it); or
// the program's text, for timing `ptosim run` on it end to end.
// One simulation per process (SystemC elaborates once); scripts/bench.sh runs the combinations
// and prints the ratios.
// Usage: kUsage below (--help).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <systemc>

#include "model/bundle/assembler.h"
#include "model/exec/program_front_end.h"
#include "platforms/config/config_loader.h"
#include "platforms/ptosim/program_file.h"
#include "platforms/tile_top.h"
#include "traces/vcd_recorder.h"

namespace {

using namespace ptosim;
using Clock = std::chrono::steady_clock;

const char* const kUsage =
    "usage: ptosim_bench_platform (PROGRAM.pto | --workload gemm:N | --workload sfu128:N)\n"
    "                             [--mode platform|timing-only|functional|load|text] [--vcd FILE [--trace-modules LIST] [--trace-thread]]\n"
    "                             [--set KEY=VALUE]...\n"
    "Prints the simulated cycles and bundles per wall-clock second (see docs/performance.md). A named\n"
    "workload runs under --allocation queue:2, a program file under queue:16 (ptosim run's default).\n";

// What a workload's text says first: the allocation it runs under here, which ptosim run needs too.
const char* const kWorkloadHeader = "; a workload of ptosim_bench_platform: run it with --allocation queue:2, as the bench does\n";

// N chained TMATMUL.ACC steps of 128 x 256 x 64 (32 rows on each PE), FP16 -> FP32.
std::string gemm_workload(int n) {
  std::ostringstream p;
  p << kWorkloadHeader << ".tile T#1 FP16 valid=32x256 layout=CUBE_M32 location=Matrix capacity=16KiB\n.random T#1 seed=1\n"
       ".tile U#1 FP16 valid=256x64 layout=CUBE_N8 location=Matrix capacity=32KiB\n.random U#1 seed=2\n";
  const char* dims = "B.FPATR\nB.DIM zero, 32, ->LB0\nB.DIM zero, 64, ->LB1\nB.DIM zero, 256, ->LB2\n";
  p << "BSTART.TMATMUL FP16\n" << dims << "B.IOT T#1, U#1, mask=1111, last, ->M<8KiB>\nBSTOP\n";
  for (int i = 1; i < n; ++i)
    p << "BSTART.TMATMUL.ACC FP16\n" << dims << "B.IOT M#1, T#1, mask=1111\nB.IOT U#1, mask=1111, last, ->M<8KiB>\nBSTOP\n";
  return p.str();
}

// N rounds of TROWSUM, TCOLSUM and TROWEXPANDMUL over a 128 x 128 FP32 tile (64 KiB per PE).
std::string sfu_workload(int n) {
  std::ostringstream p;
  p << kWorkloadHeader << ".tile N#1 FP32 cols=128 valid=128x128 capacity=64KiB\n.random N#1 seed=3\n"
       ".tile N#2 FP32 cols=1 valid=128x1 capacity=512\n.random N#2 seed=4\n";
  for (int i = 0; i < n; ++i)
    p << "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\nB.IOT N#1, mask=1111, last, ->U<512B>\nBSTOP\n"
         "BSTART.SFU TCOLSUM, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\nB.IOT N#1, mask=1111, last, ->U<512B>\nBSTOP\n"
         "BSTART.SFU TROWEXPANDMUL, FP32\nB.DIM zero, 128, ->LB0\nB.DIM zero, 128, ->LB1\n"
         "B.IOT N#1, N#2, mask=1111, last, ->T<64KiB>\nBSTOP\n";
  return p.str();
}

int fail(const std::string& message) {
  std::cerr << "ptosim_bench_platform: " << message << "\n";
  return 2;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  std::string source, mode = "platform", vcd, name;
  bool trace_thread = false;
  bool workload = false;
  std::vector<std::string> sets, modules = platforms::TileTop::traceable_modules();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--workload" && i + 1 < argc) {
      const std::string w = argv[++i];
      const auto colon = w.find(':');
      const int n = colon == std::string::npos ? 0 : std::atoi(w.c_str() + colon + 1);
      if (n <= 0) return fail("--workload gemm:N or sfu128:N");
      source = w.rfind("gemm", 0) == 0 ? gemm_workload(n) : sfu_workload(n);
      name = w;
      workload = true;
    } else if (a == "--mode" && i + 1 < argc) {
      mode = argv[++i];
      if (mode != "platform" && mode != "timing-only" && mode != "functional" && mode != "load" && mode != "text")
        return fail("--mode platform, timing-only, functional, load or text");
    } else if (a == "--vcd" && i + 1 < argc) {
      vcd = argv[++i];
    } else if (a == "--trace-modules" && i + 1 < argc) {  // as for ptosim run
      std::string error;
      if (!platforms::TileTop::parse_modules(argv[++i], modules, error)) return fail("--trace-modules: " + error);
    } else if (a == "--trace-thread") {  // as for ptosim run
      trace_thread = true;
    } else if (a == "--set" && i + 1 < argc) {
      sets.push_back(argv[++i]);
    } else if (a == "--workload" || a == "--mode" || a == "--vcd" || a == "--trace-modules" || a == "--set") {
      return fail(a + " needs a value\n" + kUsage);
    } else if (a.rfind("-", 0) == 0) {
      return fail("unknown option " + a + "\n" + kUsage);
    } else {
      std::ifstream in(a);
      if (!in) return fail("cannot open " + a);
      std::stringstream s;
      s << in.rdbuf();
      source = s.str();
      name = a;
    }
  }
  if (source.empty()) return fail(std::string("no program\n") + kUsage);
  if (mode == "text") {
    std::cout << source;
    return std::cout ? 0 : 1;
  }
  if (mode == "load" && (!vcd.empty() || !sets.empty())) return fail("--mode load simulates nothing: no --vcd or --set");
  const auto load_start = Clock::now();
  platforms::ProgramFile program;
  std::string error;
  if (!platforms::parse_program_text(source, name, program, error)) return fail(error);
  const model::Assembly assembly = model::assemble(program.assembly, name);
  if (!assembly.ok()) return fail(model::format_error(assembly.errors.front()));
  const double load_seconds = std::chrono::duration<double>(Clock::now() - load_start).count();
  // A named workload's large tiles keep two results per hand alive (its text says so).
  const model::AllocationSpec allocation{model::AllocationPolicy::Queue, workload ? 2u : 16u};

  std::uint64_t bundles = 0, cycles = 0;
  double seconds = 0;
  if (mode == "load") {
    seconds = load_seconds;
    for (const model::Instruction& i : assembly.instructions) bundles += model::is_bstart(i.body);
  } else if (mode == "functional") {
    model::FunctionalMachine m(allocation.policy, allocation.queue_depth);
    for (const auto& t : program.tiles) m.load_local(t.ref.index, t.desc, t.data);
    model::ProgramFrontEnd fe(assembly.instructions);
    const auto t0 = Clock::now();
    while (auto item = fe.next()) {
      if (item->fault || m.execute(*item->bundle).kind == model::BundleOutcome::Kind::Faulted) return fail("bundle faulted");
      ++bundles;
    }
    seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  } else {
    const auto config = platforms::load_config("", sets);
    if (!config.errors.empty()) return fail(config.errors.front());
    platforms::TileTop top("top", config.params, allocation, mode == "timing-only");
    for (const auto& t : program.tiles) top.load_local(t.ref.index, t.desc, t.data);
    model::ProgramFrontEnd fe(assembly.instructions);
    top.dispatcher.set_program(&fe);
    traces::VcdRecorder rec(trace_thread ? traces::VcdRecorder::Threading::OwnThread : traces::VcdRecorder::Threading::InLine);
    if (!vcd.empty()) {
      top.trace_to(rec, modules);
      if (!rec.open(vcd, "bench", 0, ~std::uint64_t{0})) return fail("cannot write " + vcd);
    }
    const auto t0 = Clock::now();
    sc_core::sc_start();
    cycles = top.dispatcher.finish_cycle();
    if (!rec.close(cycles * config.params.clock.period_ps)) return fail("writing " + vcd + " failed");  // timed
    seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!top.dispatcher.finished()) return fail("simulation did not finish");
    if (const auto& fault = top.dispatcher.retired().fault) return fail("bundle faulted: " + fault->fault->rule);
    bundles = top.dispatcher.retired().total;
  }
  std::printf("%-24s %-12s %8llu bundles %12llu cycles %9.4f s %14.0f cycles/s %12.0f bundles/s\n", name.c_str(),
              mode.c_str(), static_cast<unsigned long long>(bundles), static_cast<unsigned long long>(cycles), seconds,
              seconds > 0 ? static_cast<double>(cycles) / seconds : 0.0,
              seconds > 0 ? static_cast<double>(bundles) / seconds : 0.0);
  return 0;
}
