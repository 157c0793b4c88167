// SPDX-License-Identifier: BSD-3-Clause
// SfuEngine: the SFU (TEPL reductions, expansions, generation) around model::sfu_execute, timed by
// model::sfu_compute_cycles.
#pragma once

#include "engines/common/tile_engine.h"
#include "model/params/platform_params.h"

namespace ptosim::engines {

class SfuEngine : public TileEngine {
 public:
  SfuEngine(sc_core::sc_module_name name, const model::SfuParams& params, const model::ClockParams& clock,
             const model::SimParams& sim);

 private:
  model::Cycles compute_cycles(const model::ExecPlan& plan, bool from_idle) const override;
  model::NumericFlags run_core(const model::ExecPlan& plan, const model::PePayloads& io) const override;

  model::SfuParams m_params;
};

}  // namespace ptosim::engines
