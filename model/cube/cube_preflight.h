// SPDX-License-Identifier: BSD-3-Clause
// CUBE operation preflight: the TMATMUL/TGEMV dispatch contract, producing the CUBE ExecPlan.
#pragma once

#include "model/bundle/bundle.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

/// Preflight of a CUBE bundle into `plan` (default-constructed; left partly filled on a fault).
Status cube_preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan);

}  // namespace ptosim::model
