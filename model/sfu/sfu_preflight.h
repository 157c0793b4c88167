// SPDX-License-Identifier: BSD-3-Clause
// SFU operation preflight: every schema, type, shape, definedness and value rule of a TEPL/SFU
// bundle, checked before any effect, producing the ExecPlan the SFU core executes.
#pragma once

#include "model/bundle/bundle.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

/// Preflight of a bundle whose op is an SFU operation into `plan` (default-constructed; left partly
/// filled on a fault). `values` gives payload access for the value-dependent checks; when null
/// those checks are skipped and listed in plan.skipped_checks.
Status sfu_preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan);

}  // namespace ptosim::model
