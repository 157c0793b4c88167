// SPDX-License-Identifier: BSD-3-Clause
#include "engines/cube/cube_engine.h"

#include "model/cube/cube_core.h"
#include "model/cube/cube_timing.h"

namespace ptosim::engines {

CubeEngine::CubeEngine(sc_core::sc_module_name name, const model::CubeParams& params, const model::ClockParams& clock,
                     const model::SimParams& sim)
    : TileEngine(name, clock, {params.burst_bytes, params.read_bytes_per_cycle, params.write_bytes_per_cycle,
                              params.outstanding_requests, sim.lookahead_cycles}),
      m_params(params) {}

model::Cycles CubeEngine::compute_cycles(const model::ExecPlan& plan, bool) const {
  return model::cube_compute_cycles(plan, m_params);
}

model::NumericFlags CubeEngine::run_core(const model::ExecPlan& plan, const model::PePayloads& io) const {
  return model::cube_execute(plan, io);
}

}  // namespace ptosim::engines
