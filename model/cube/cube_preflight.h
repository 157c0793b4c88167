// SPDX-License-Identifier: BSD-3-Clause
// CUBE operation preflight: the TMATMUL/TGEMV dispatch contract, producing the CUBE ExecPlan.
#pragma once

#include "model/bundle/bundle.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

Result<ExecPlan> cube_preflight(const Bundle& b, const TileState& s, const IPayloadReader* values);

}  // namespace ptosim::model
