// SPDX-License-Identifier: BSD-3-Clause
// CUBE compute latency: fill + cpr * ceil(m/16) * ceil(k/kt) * ceil(n/16) (docs/timing-model.md),
// with m the rows of all participating PEs together.
#pragma once

#include "model/common/cycles.h"
#include "model/params/platform_params.h"
#include "model/plan/exec_plan.h"

namespace ptosim::model {

/// Multiply-accumulates of one command (all PEs).
std::uint64_t cube_macs(const ExecPlan& plan);
Cycles cube_compute_cycles(const ExecPlan& plan, const CubeParams& p);
/// Peak MACs per cycle the parameters give for an A-operand type (16 x kt x 16 / cpr).
double cube_peak_macs_per_cycle(DataType a_type, const CubeParams& p);

}  // namespace ptosim::model
