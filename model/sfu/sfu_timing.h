// SPDX-License-Identifier: BSD-3-Clause
// SFU compute latency: startup + cost per 256-byte repeat, per operation class (docs/timing-model.md).
#pragma once

#include "model/common/cycles.h"
#include "model/params/platform_params.h"
#include "model/plan/exec_plan.h"

namespace ptosim::model {

SfuOpClass sfu_op_class(Operation op);

/// Repeats one PE streams for `plan`: rows x ceil(row bytes / repeat bytes) of the tile that sets
/// the work (the source of a reduction, the destination otherwise).
std::uint64_t sfu_repeats(const ExecPlan& plan, const SfuParams& p);

/// How far above a whole number a compute time may come out and still cost only that number of
/// cycles (relative to the time, at least 1): binary rounding of decimal parameters.
constexpr double kCeilingSlack = 1e-9;

/// Compute cycles of one command; `from_idle` adds the class startup (a back-to-back stream pays it once).
Cycles sfu_compute_cycles(const ExecPlan& plan, const SfuParams& p, bool from_idle);

}  // namespace ptosim::model
