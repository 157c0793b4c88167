// SPDX-License-Identifier: BSD-3-Clause
// TileEngine as a loosely-timed target: it returns once its traffic is booked, with the time left
// as the annotated delay, traced or not (traced, its busy signal falls when done); and against a
// memory target that
// does not book burst trains the run stops with a precise error instead of spinning on a stream
// that never advances.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "engines/common/address_map.h"
#include "engines/common/tile_engine.h"
#include "engines/memory/tile_memory.h"
#include "tests/engines/plain_target.h"
#include "traces/vcd_recorder.h"

using namespace ptosim;

namespace {

// An engine whose compute takes one cycle and does nothing.
struct IdleEngine : engines::TileEngine {
  using TileEngine::TileEngine;

 protected:
  model::Cycles compute_cycles(const model::ExecPlan&, bool) const override { return model::Cycles(1); }
  model::NumericFlags run_core(const model::ExecPlan&, const model::PePayloads&) const override { return 0; }
};

// Sends one timing-only command reading a 4 KiB operand and keeps when the call returned, the
// delay it annotated and the error it raised.
struct Commander : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Commander> socket{"socket"};
  std::string error;
  sc_core::sc_time returned_at;
  sc_core::sc_time delay;
  SC_HAS_PROCESS(Commander);
  explicit Commander(sc_core::sc_module_name n) : sc_core::sc_module(n) { SC_THREAD(run); }
  void run() {
    auto plan = std::make_shared<model::ExecPlan>();
    plan->mask = model::PeMask(0b0001);
    model::SourceOperand src;
    src.desc.rows = 32;
    src.desc.cols = 32;
    src.desc.capacity_bytes = 4096;
    plan->sources.push_back(src);
    engines::EngineCommand cmd;
    cmd.plan = plan;
    cmd.timing_only = true;
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_IGNORE_COMMAND);
    gp.set_extension(&cmd);
    delay = sc_core::SC_ZERO_TIME;
    try {
      socket->b_transport(gp, delay);
    } catch (const sc_core::sc_report& r) {
      error = r.get_msg();
    }
    returned_at = sc_core::sc_time_stamp();
    gp.clear_extension(&cmd);
  }
};

const engines::TileEngine::StreamParams kStream{1024, 256, 256, 4, 256};

}  // namespace

TEST_CASE("TileEngine: it returns once booked with the rest as annotated delay, and traced its busy signal falls when done", "[engines]") {
  // Two engines run the same command against memories of their own; only the second is traced.
  const model::ClockParams clock{1000};
  IdleEngine plain("plain", clock, kStream), traced("traced", clock, kStream);
  const auto local_memory = [&](const char* name) {
    return std::make_unique<engines::TileMemory>(name, model::kPeCount, model::kLocalTileCount,
                                                 engines::address_map::kLocalSlotStride, model::MemoryParams{}, clock);
  };
  const auto plain_mem = local_memory("plain_mem"), traced_mem = local_memory("traced_mem");
  Commander to_plain("to_plain"), to_traced("to_traced");
  to_plain.socket.bind(plain.cmd_target_socket);
  to_traced.socket.bind(traced.cmd_target_socket);
  plain.mem_initiator_socket.bind(plain_mem->target_socket);
  traced.mem_initiator_socket.bind(traced_mem->target_socket);
  traces::VcdRecorder rec;
  traced.trace_to(rec, "top.traced");
  const std::string path = "ptosim_" + std::to_string(getpid()) + "_engine.vcd";
  REQUIRE(rec.open(path, "test", 0, ~std::uint64_t{0}));
  sc_core::sc_start();
  const std::uint64_t ps = sc_core::sc_time(1, sc_core::SC_PS).value();
  REQUIRE(rec.close(sc_core::sc_time_stamp().value() / ps + 100'000));
  // The busy signal's changes, as (time, value).
  std::string busy_code;
  for (const auto& sig : rec.signals())
    if (sig.name == "busy") busy_code = sig.code;
  std::vector<std::pair<std::uint64_t, char>> busy;
  std::ifstream in(path);
  std::uint64_t time = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.size() > 1 && line[0] == '#') time = std::stoull(line.substr(1));
    if (line.size() == 1 + busy_code.size() && line.substr(1) == busy_code) busy.emplace_back(time, line[0]);
  }
  in.close();
  std::remove(path.c_str());
  INFO(to_plain.error);
  REQUIRE(to_plain.error.empty());
  REQUIRE(to_traced.error.empty());
  // 4 KiB at 256 bytes per cycle: 16 cycles of traffic, longer than the 1-cycle compute.
  CHECK(to_plain.returned_at == sc_core::SC_ZERO_TIME);
  CHECK(to_plain.delay >= sc_core::sc_time(16, sc_core::SC_NS));
  CHECK(to_traced.returned_at == to_plain.returned_at);
  CHECK(to_traced.delay == to_plain.delay);
  CHECK(plain.stats().busy_cycles == traced.stats().busy_cycles);
  CHECK(plain.stats().busy_cycles == to_plain.delay.value() / sc_core::sc_time(1, sc_core::SC_NS).value());
  // The value at 0, as the command raised it (one value an instant), and the fall when it is done.
  const std::vector<std::pair<std::uint64_t, char>> expected{{0, '1'}, {to_plain.delay.value() / ps, '0'}};
  CHECK(busy == expected);
}

TEST_CASE("TileEngine: a memory that ignores burst trains stops the run with an error", "[engines]") {
  IdleEngine engine("engine", model::ClockParams{1000}, kStream);
  test::PlainTarget memory("memory");  // answers OK, knows nothing of BurstTrain
  Commander commander("commander");
  commander.socket.bind(engine.cmd_target_socket);
  engine.mem_initiator_socket.bind(memory.socket);
  sc_core::sc_start();
  CHECK(commander.error.find("BurstTrain unsupported") != std::string::npos);
}

TEST_CASE("TileEngine: a read or write instead of a command is a command error", "[engines]") {
  IdleEngine engine("engine", model::ClockParams{1000}, kStream);
  test::PlainTarget memory("memory");
  engine.mem_initiator_socket.bind(memory.socket);
  struct Host : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Host> socket{"socket"};
    explicit Host(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
  } host("host");
  host.socket.bind(engine.cmd_target_socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::uint8_t byte = 0;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_data_ptr(&byte);
  gp.set_data_length(1);
  gp.set_streaming_width(1);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  host.socket->b_transport(gp, delay);  // refused at once: no process needed
  CHECK(gp.get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE);
}

TEST_CASE("Clocked: a time resolution coarser than 1 ps is an error, not a silently rounded clock", "[engines]") {
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
  REQUIRE_THROWS_WITH(engines::Clocked(model::ClockParams{}),
                      Catch::Contains("the SystemC time resolution is 1 ns; ptosim needs 1 ps or finer"));
}
