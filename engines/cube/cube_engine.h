// SPDX-License-Identifier: BSD-3-Clause
// CubeEngine: the matrix engine (TMATMUL/TGEMV family) around model::cube_execute, timed by
// model::cube_compute_cycles.
#pragma once

#include "engines/common/tile_engine.h"
#include "model/params/platform_params.h"

namespace ptosim::engines {

class CubeEngine : public TileEngine {
 public:
  CubeEngine(sc_core::sc_module_name name, const model::CubeParams& params, const model::ClockParams& clock,
             const model::SimParams& sim);

 private:
  model::Cycles compute_cycles(const model::ExecPlan& plan, bool from_idle) const override;
  model::NumericFlags run_core(const model::ExecPlan& plan, const model::PePayloads& io) const override;

  model::CubeParams m_params;
};

}  // namespace ptosim::engines
