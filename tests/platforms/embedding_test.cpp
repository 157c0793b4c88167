// SPDX-License-Identifier: BSD-3-Clause
// ptosim inside someone else's SystemC platform: a user's sc_main builds TileTop, loads inputs and
// a program through its C++ interface, and a host model of theirs reads the results over TLM-2.0
// through the router's target socket (docs/user-guide.md, "Embedding ptosim"). Each test case
// elaborates its own design (one per process).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "engines/common/address_map.h"
#include "model/bundle/assembler.h"
#include "model/exec/program_front_end.h"
#include "platforms/config/config_loader.h"
#include "platforms/ptosim/program_file.h"
#include "platforms/run_report.h"
#include "platforms/tile_top.h"
#include "traces/vcd_recorder.h"

using namespace ptosim;

namespace {

// A host of the user's platform: once the accelerator is done, it reads a word of each row of a
// result tile with blocking transport, and the same bytes through a direct memory pointer.
struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> socket;
  const sc_core::sc_event* done = nullptr;
  const model::TileState* state = nullptr;  ///< where the result tile's register lives (known once written)
  model::TileRef tile;
  int pe = 0;
  unsigned rows = 0;
  std::vector<std::uint32_t> words;      // read by b_transport
  std::vector<std::uint32_t> dmi_words;  // read through DMI
  sc_core::sc_time read_at;

  SC_HAS_PROCESS(Host);
  explicit Host(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") { SC_THREAD(run); }

  void run() {
    sc_core::wait(*done);
    // The register's physical slot is picked when the result is allocated, so it is looked up now.
    const std::uint64_t base = engines::address_map::fragment_address(tile.space, state->physical_slot(tile), pe);
    tlm::tlm_generic_payload gp;
    for (unsigned r = 0; r < rows; ++r) {
      std::uint32_t word = 0;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(base + 4 * r);
      gp.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
      gp.set_data_length(4);
      gp.set_streaming_width(4);
      gp.set_byte_enable_ptr(nullptr);
      gp.set_dmi_allowed(false);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(gp, delay);
      REQUIRE(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
      CHECK(gp.is_dmi_allowed());  // the hint to ask for a direct pointer
      CHECK(delay > sc_core::SC_ZERO_TIME);  // the router's hop and the memory's access are timed
      sc_core::wait(delay);
      words.push_back(word);
    }
    tlm::tlm_dmi dmi;
    gp.set_address(base);
    gp.set_data_length(4 * rows);
    REQUIRE(socket->get_direct_mem_ptr(gp, dmi));
    REQUIRE(dmi.get_start_address() <= base);
    REQUIRE(dmi.get_end_address() >= base + 4 * rows - 1);
    for (unsigned r = 0; r < rows; ++r) {
      std::uint32_t word = 0;
      std::memcpy(&word, dmi.get_dmi_ptr() + (base - dmi.get_start_address()) + 4 * r, 4);
      dmi_words.push_back(word);
    }
    read_at = sc_core::sc_time_stamp();
  }
};

/// examples/rowsum.pto, read and assembled as a user's sc_main would.
struct RowSumExample {
  platforms::ProgramFile program;
  model::Assembly assembly;
};
RowSumExample row_sum_example() {
  const std::string path = std::string(PTOSIM_SOURCE_DIR) + "/examples/rowsum.pto";
  RowSumExample e;
  std::string error;
  REQUIRE(platforms::parse_program_file(path, e.program, error));
  e.assembly = model::assemble(e.program.assembly, path);
  REQUIRE(e.assembly.ok());
  return e;
}

}  // namespace

TEST_CASE("Embedding: a user's sc_main runs a program on TileTop and its host reads the results over TLM",
          "[embedding]") {
  const auto [program, assembly] = row_sum_example();
  const platforms::ConfigResult config = platforms::load_config("", {});  // the embedded default
  REQUIRE(config.errors.empty());

  platforms::TileTop top("accelerator", config.params, model::AllocationSpec{model::AllocationPolicy::Queue, 16},
                         false);
  Host host("host");
  host.socket.bind(top.router.target_socket);  // beside the engines: the router takes any number
  for (const platforms::ProgramTile& t : program.tiles) top.load_local(t.ref.index, t.desc, t.data);
  model::ProgramFrontEnd front_end(assembly.instructions);
  top.dispatcher.set_program(&front_end);
  const model::TileRef result = program.dumps.at(1);  // U#1: the row sums, FP32 4x1 on each PE
  host.done = &top.dispatcher.finished_event();
  host.state = &top.dispatcher.state();
  host.tile = result;
  host.pe = 2;
  host.rows = 4;

  sc_core::sc_start();

  REQUIRE(top.dispatcher.finished());
  const std::vector<std::uint32_t> sums{0x42100000, 0x3f7f0000, 0x3f800000, 0x40400000};  // 36, 0.99609375, 1, 3
  CHECK(host.words == sums);
  CHECK(host.dmi_words == sums);
  CHECK(host.read_at > top.dispatcher.finish_cycle() * engines::Clocked(config.params.clock).period());
  const model::FragmentData fragment = top.read_local(result.index, 2);
  for (unsigned r = 0; r < 4; ++r) CHECK(fragment[r] == sums[r]);
}

TEST_CASE("Embedding: an input, a GPR or the flags given after the simulation started is an error", "[embedding]") {
  const platforms::ConfigResult config = platforms::load_config("", {});
  platforms::TileTop top("accelerator", config.params, model::AllocationSpec{model::AllocationPolicy::Queue, 16},
                         false);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  model::TileDescriptor desc;
  std::array<model::FragmentData, model::kPeCount> data;
  REQUIRE_THROWS_WITH(top.load_local(0, desc, data), Catch::Contains("load_local after the simulation started"));
  REQUIRE_THROWS_WITH(top.load_shared(0, desc, desc.pe_mask, data[0]),
                      Catch::Contains("load_shared after the simulation started"));
  REQUIRE_THROWS_WITH(top.set_gpr(0, 1, 7), Catch::Contains("set_gpr after the simulation started"));
  REQUIRE_THROWS_WITH(top.set_status(model::kFlagNX), Catch::Contains("set_status after the simulation started"));
  CHECK(top.dispatcher.state().gpr(0, 1) == 0);
  CHECK(top.dispatcher.state().status() == 0);
}

namespace {

// A host that runs a second program once the first has retired, on the registers it left.
struct Launcher : sc_core::sc_module {
  engines::BundleDispatcher* dispatcher = nullptr;
  model::ProgramFrontEnd* second = nullptr;
  model::ProgramFrontEnd* third = nullptr;  ///< set while the second runs: refused
  std::uint64_t first_finish = 0, first_retired = 0, second_finish = 0;
  bool finished_once_launched = true;
  bool third_untaken = false;
  std::string refusal;

  SC_HAS_PROCESS(Launcher);
  explicit Launcher(sc_core::sc_module_name n) : sc_core::sc_module(n) { SC_THREAD(run); }

  void run() {
    sc_core::wait(dispatcher->finished_event());
    first_finish = dispatcher->finish_cycle();
    first_retired = dispatcher->retired().total;
    sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));  // the platform idles meanwhile
    dispatcher->set_program(second);
    finished_once_launched = dispatcher->finished();
    try {
      dispatcher->set_program(third);
    } catch (const sc_core::sc_report& r) {
      refusal = r.what();
    }
    // An error that only displays changes nothing either.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY);
    dispatcher->set_program(third);
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DEFAULT_ERROR_ACTIONS);
    third_untaken = third->claim();
    sc_core::wait(dispatcher->finished_event());
    second_finish = dispatcher->finish_cycle();
  }
};

}  // namespace

TEST_CASE("Embedding: programs run one after another in one simulation, each on the registers the last left",
          "[embedding]") {
  const auto [program, first] = row_sum_example();
  // The column sum of the first program's row sums (U#1 then; U#2 once this result is U#1).
  const model::Assembly second = model::assemble(
      "BSTART.SFU TCOLSUM, FP32\nB.DIM zero, 1, ->LB0\nB.DIM zero, 4, ->LB1\nB.IOT U#1, mask=1111, last, ->U<1>\nBSTOP\n",
      "second");
  REQUIRE(second.ok());
  const platforms::ConfigResult config = platforms::load_config("", {});
  platforms::TileTop top("accelerator", config.params, model::AllocationSpec{model::AllocationPolicy::Queue, 16},
                         false);
  for (const platforms::ProgramTile& t : program.tiles) top.load_local(t.ref.index, t.desc, t.data);
  model::ProgramFrontEnd first_fe(first.instructions), second_fe(second.instructions), third_fe(second.instructions);
  top.dispatcher.set_program(&first_fe);
  Launcher launcher("launcher");
  launcher.dispatcher = &top.dispatcher;
  launcher.second = &second_fe;
  launcher.third = &third_fe;

  sc_core::sc_start();

  REQUIRE(top.dispatcher.finished());
  CHECK(launcher.first_retired == 1);
  CHECK_FALSE(launcher.finished_once_launched);
  CHECK(launcher.refusal.find("set_program while a program runs") != std::string::npos);
  CHECK(launcher.third_untaken);
  const std::uint64_t period_ps = config.params.clock.period_ps;
  CHECK(launcher.second_finish > launcher.first_finish + 100'000 / period_ps);  // it started after the idle time
  CHECK(top.dispatcher.finish_cycle() == launcher.second_finish);
  CHECK(top.dispatcher.retired().total == 2);
  CHECK(top.dispatcher.retired().committed == 2);
  const model::TileRef sum = *model::TileRef::parse("U#1"), rows = *model::TileRef::parse("U#2");
  const std::vector<std::uint64_t> row_sums{0x42100000, 0x3f7f0000, 0x3f800000, 0x40400000};  // 36, 0.99609375, 1, 3
  for (int pe = 0; pe < model::kPeCount; ++pe) {
    const model::FragmentData total = top.read_local(sum.index, pe), by_row = top.read_local(rows.index, pe);
    REQUIRE(total.size() >= 1);
    REQUIRE(by_row.size() >= 4);
    CHECK(total[0] == std::uint64_t{0x4223fc00});  // 40.99609375
    for (unsigned r = 0; r < 4; ++r) CHECK(by_row[r] == row_sums[r]);
  }
  // The statistics count both programs.
  const auto report = platforms::run_report(top, config.params, top.dispatcher.finish_cycle());
  CHECK(report["engines"]["sfu"]["commands"] == 2);
}

TEST_CASE("Embedding: a tile that cannot be stored, or a register or PE that does not exist, is an error", "[embedding]") {
  const platforms::ConfigResult config = platforms::load_config("", {});
  platforms::TileTop top("accelerator", config.params, model::AllocationSpec{model::AllocationPolicy::Queue, 16},
                         false);
  model::TileDescriptor desc;  // 8 x 8 FP32: 256 bytes
  desc.dtype = model::DataType::FP32;
  desc.rows = desc.cols = 8;
  desc.valid_rows = desc.valid_cols = 8;
  desc.capacity_bytes = 256;
  std::array<model::FragmentData, model::kPeCount> data;
  data.fill(model::FragmentData(64, 0x3F800000));
  REQUIRE_THROWS_WITH(top.load_local(64, desc, data), Catch::Contains("Local register index 64 is past the 64 registers"));
  REQUIRE_THROWS_WITH(top.load_shared(256, desc, desc.pe_mask, data[0]),
                      Catch::Contains("Shared register index 256 is past the 256 registers"));
  model::TileDescriptor small = desc;
  small.capacity_bytes = 64;  // the elements would be written past the payload
  REQUIRE_THROWS_WITH(top.load_local(0, small, data),
                      Catch::Contains("8x8 FP32 elements need more than the capacity of 64 B"));
  model::TileDescriptor huge = desc;
  huge.capacity_bytes = 1U << 20;
  REQUIRE_THROWS_WITH(top.load_local(0, huge, data), Catch::Contains("capacity 1048576 B exceeds the largest tile"));
  // Nothing was installed by the refused loads.
  CHECK_FALSE(top.dispatcher.state().local(0).allocated);
  top.load_local(0, desc, data);
  REQUIRE_THROWS_WITH(top.read_local(0, 7), Catch::Contains("PE 7 is not one of the four"));
  REQUIRE_THROWS_WITH(top.read_local(99, 0), Catch::Contains("Local register index 99"));
  REQUIRE_THROWS_WITH(top.read_shared(300), Catch::Contains("Shared register index 300"));
  REQUIRE_THROWS_WITH(platforms::run_report(top, config.params, 0), Catch::Contains("run_report: the run has not finished"));
  REQUIRE_THROWS_WITH(top.set_gpr(4, 1, 7), Catch::Contains("PE 4 GPR 1 does not exist (PEs 0..3, GPRs 1..23)"));
  REQUIRE_THROWS_WITH(top.set_gpr(0, 24, 7), Catch::Contains("PE 0 GPR 24 does not exist"));
  REQUIRE_THROWS_WITH(top.set_gpr(0, 0, 7), Catch::Contains("PE 0 GPR 0 does not exist"));
  top.set_gpr(3, 23, 7);
  CHECK(top.dispatcher.state().gpr(3, 23) == 7);

  // One front end feeds one dispatcher: a second accelerator given the same one is told so. Set
  // again on its own dispatcher it is still that one's; replaced, it is free for another.
  platforms::TileTop other("other", config.params, model::AllocationSpec{}, false);
  model::ProgramFrontEnd front_end({}), replacement({});
  top.dispatcher.set_program(&front_end);
  top.dispatcher.set_program(&front_end);
  REQUIRE_THROWS_WITH(other.dispatcher.set_program(&front_end), Catch::Contains("already feeds a dispatcher"));
  top.dispatcher.set_program(&replacement);
  other.dispatcher.set_program(&front_end);
  // Should the report not throw, a front end another dispatcher holds is not taken, and the one
  // set stays.
  model::ProgramFrontEnd own({});
  other.dispatcher.set_program(&own);
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY);
  other.dispatcher.set_program(&replacement);  // top's
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DEFAULT_ERROR_ACTIONS);
  CHECK_FALSE(own.claim());  // still other's
}

TEST_CASE("Embedding: a tile reads as loaded before the simulation starts and after it, and the platform is traced once "
          "and before the recorder opens, and an error that only displays changes nothing",
          "[embedding]") {
  const platforms::ConfigResult config = platforms::load_config("", {});
  platforms::TileTop top("accelerator", config.params, model::AllocationSpec{}, false);
  model::TileDescriptor desc;  // 8 x 8 FP32
  desc.dtype = model::DataType::FP32;
  desc.rows = desc.cols = 8;
  desc.valid_rows = desc.valid_cols = 8;
  desc.capacity_bytes = 256;
  desc.pe_mask = model::PeMask::all();
  std::array<model::FragmentData, model::kPeCount> data;
  for (int pe = 0; pe < model::kPeCount; ++pe) data[pe].assign(64, 0x3F800000u + pe);
  top.load_local(3, desc, data);
  top.load_shared(7, desc, desc.pe_mask, data[1]);
  // The payloads reach the memories when the simulation starts; before, they read as loaded.
  CHECK(top.read_local(3, 2) == data[2]);
  CHECK(top.read_shared(7) == data[1]);
  CHECK(top.read_local(4, 0).empty());  // no tile there
  // A platform whose errors do not throw (a VP that only displays them) loads no tile it cannot
  // hold.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY);
  model::TileDescriptor too_small = desc;
  too_small.capacity_bytes = 128;
  top.load_local(4, too_small, data);
  top.load_shared(8, too_small, desc.pe_mask, data[0]);
  CHECK(top.read_local(4, 0).empty());
  CHECK(top.read_shared(8).empty());
  CHECK_FALSE(top.dispatcher.state().local(4).allocated);
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DEFAULT_ERROR_ACTIONS);

  traces::VcdRecorder rec(traces::VcdRecorder::Threading::InLine);
  top.trace_to(rec);
  REQUIRE_THROWS_WITH(top.trace_to(rec), Catch::Contains("trace_to: the platform is traced already"));
  platforms::TileTop other("other", config.params, model::AllocationSpec{}, false);
  REQUIRE(rec.open("/dev/null", "test", 0, ~std::uint64_t{0}));
  REQUIRE_THROWS_WITH(other.trace_to(rec), Catch::Contains("trace_to: the recorder was opened already"));

  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  CHECK(top.read_local(3, 2) == data[2]);
  CHECK(top.read_shared(7) == data[1]);
  CHECK(rec.close(0));

  // Nor, once simulating, does it read from a PE that does not exist or change its inputs.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY);
  CHECK(top.read_local(3, 9).empty());
  CHECK(top.read_shared(999).empty());
  top.load_local(5, desc, data);
  top.load_shared(8, desc, desc.pe_mask, data[0]);
  top.set_gpr(0, 1, 42);
  top.set_status(model::kFlagNX);
  const model::TileState& state = top.dispatcher.state();
  CHECK_FALSE(state.local(5).allocated);
  CHECK_FALSE(state.shared(8).allocated);
  CHECK(state.gpr(0, 1) == 0);
  CHECK(state.status() == 0);
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DEFAULT_ERROR_ACTIONS);
}

TEST_CASE("Embedding: parameters out of range are an error when the platform is built", "[embedding]") {
  platforms::ConfigResult config = platforms::load_config("", {});
  config.params.clock.period_ps = 0;  // would divide by zero once simulating
  config.params.dispatch.issue_queue_depth = 0;
  REQUIRE_THROWS_WITH(platforms::TileTop("accelerator", config.params, model::AllocationSpec{}, false),
                      Catch::Contains("clock.period_ps") && Catch::Contains("dispatch.issue_queue_depth"));
}

namespace {

// A module that sets the program in the first delta and waits for its end.
struct FirstDeltaLauncher : sc_core::sc_module {
  engines::BundleDispatcher* dispatcher = nullptr;
  model::ProgramFrontEnd* program = nullptr;
  bool idle_before = false, finished_on_wake = false;
  std::uint64_t woke_cycle = 0;

  SC_HAS_PROCESS(FirstDeltaLauncher);
  explicit FirstDeltaLauncher(sc_core::sc_module_name n) : sc_core::sc_module(n) { SC_THREAD(run); }

  void run() {
    idle_before = dispatcher->finished();
    dispatcher->set_program(program);
    sc_core::wait(dispatcher->finished_event());
    finished_on_wake = dispatcher->finished();
    woke_cycle = sc_core::sc_time_stamp().value() / sc_core::sc_time(541, sc_core::SC_PS).value();
  }
};

}  // namespace

TEST_CASE("Embedding: without a program the dispatcher idles, and finished_event() reports only a program's end",
          "[embedding]") {
  const auto [program, assembly] = row_sum_example();
  const platforms::ConfigResult config = platforms::load_config("", {});
  REQUIRE(config.params.clock.period_ps == 541);
  FirstDeltaLauncher launcher("launcher");  // elaborated first: its thread runs before the dispatcher's
  platforms::TileTop top("accelerator", config.params, model::AllocationSpec{model::AllocationPolicy::Queue, 16},
                         false);
  for (const platforms::ProgramTile& t : program.tiles) top.load_local(t.ref.index, t.desc, t.data);
  model::ProgramFrontEnd front_end(assembly.instructions);
  launcher.dispatcher = &top.dispatcher;
  launcher.program = &front_end;
  CHECK(top.dispatcher.finished());  // nothing to run yet

  sc_core::sc_start();

  CHECK(launcher.idle_before);
  CHECK(launcher.finished_on_wake);
  CHECK(launcher.woke_cycle == top.dispatcher.finish_cycle());
  CHECK(top.dispatcher.finish_cycle() > 0);
  CHECK(top.dispatcher.retired().total == 1);
}
