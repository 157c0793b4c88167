// SPDX-License-Identifier: BSD-3-Clause
// Operation preflight for any modelled bundle: routes to the SFU or CUBE contract.
#pragma once

#include "model/bundle/bundle.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

/// Complete preflight of a non-no-op bundle: every fault the operation can raise before allocation.
/// `values` == nullptr skips value-dependent checks (listed in the plan).
Result<ExecPlan> preflight(const Bundle& b, const TileState& s, const IPayloadReader* values);
/// The same into `plan` (default-constructed; left partly filled on a fault): the dispatcher
/// preflights straight into the plan its engines read, with no move of it.
Status preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan);

}  // namespace ptosim::model
