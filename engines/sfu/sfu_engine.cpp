// SPDX-License-Identifier: BSD-3-Clause
#include "engines/sfu/sfu_engine.h"

#include "model/sfu/sfu_core.h"
#include "model/sfu/sfu_timing.h"

namespace ptosim::engines {

SfuEngine::SfuEngine(sc_core::sc_module_name name, const model::SfuParams& params, const model::ClockParams& clock,
                     const model::SimParams& sim)
    : TileEngine(name, clock, {params.burst_bytes, params.read_bytes_per_cycle, params.write_bytes_per_cycle,
                              params.outstanding_requests, sim.lookahead_cycles}),
      m_params(params) {}

model::Cycles SfuEngine::compute_cycles(const model::ExecPlan& plan, bool from_idle) const {
  return model::sfu_compute_cycles(plan, m_params, from_idle);
}

model::NumericFlags SfuEngine::run_core(const model::ExecPlan& plan, const model::PePayloads& io) const {
  return model::sfu_execute(plan, io);
}

}  // namespace ptosim::engines
