// SPDX-License-Identifier: BSD-3-Clause
// TileEngine's operand traffic against a memory target that does not book burst trains: the run
// stops with a precise error instead of spinning on a stream that never advances.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "engines/common/tile_engine.h"
#include "tests/engines/plain_target.h"

using namespace ptosim;

namespace {

// An engine whose compute takes one cycle and does nothing.
struct IdleEngine : engines::TileEngine {
  using TileEngine::TileEngine;

 protected:
  model::Cycles compute_cycles(const model::ExecPlan&, bool) const override { return model::Cycles(1); }
  model::NumericFlags run_core(const model::ExecPlan&, const model::PePayloads&) const override { return 0; }
};

// Sends one timing-only command reading a 4 KiB operand and keeps the error it raises.
struct Commander : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Commander> socket{"socket"};
  std::string error;
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
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    try {
      socket->b_transport(gp, delay);
    } catch (const sc_core::sc_report& r) {
      error = r.get_msg();
    }
    gp.clear_extension(&cmd);
  }
};

}  // namespace

TEST_CASE("TileEngine: a memory that ignores burst trains stops the run with an error", "[engines]") {
  const engines::TileEngine::StreamParams stream{1024, 256, 256, 4, 256};
  IdleEngine engine("engine", model::ClockParams{1000}, stream);
  test::PlainTarget memory("memory");  // answers OK, knows nothing of BurstTrain
  Commander commander("commander");
  commander.socket.bind(engine.cmd_target_socket);
  engine.mem_initiator_socket.bind(memory.socket);
  sc_core::sc_start();
  CHECK(commander.error.find("BurstTrain unsupported") != std::string::npos);
}
