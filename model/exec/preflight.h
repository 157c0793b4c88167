// SPDX-License-Identifier: BSD-3-Clause
// Operation preflight for any modelled bundle: routes to the SFU or CUBE contract.
#pragma once

#include <optional>

#include "model/bundle/bundle.h"
#include "model/cube/cube_preflight.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

/// What preflight found in one bundle alone, kept where the bundle is kept (a front end's decoded
/// block) and filled by its first preflight, so the bundle's later preflights skip those checks.
/// CUBE bundles only: their bundle-only checks are the long ones.
struct PreflightMemo {
  std::optional<CubeBundleFacts> cube;
};

/// Complete preflight of a non-no-op bundle: every fault the operation can raise before allocation.
/// `values` == nullptr skips value-dependent checks (listed in the plan).
Result<ExecPlan> preflight(const Bundle& b, const TileState& s, const IPayloadReader* values);
/// The same into `plan` (default-constructed; left partly filled on a fault): the dispatcher
/// preflights straight into the plan its engines read, with no move of it. `memo`, when given,
/// belongs to `b` alone (see PreflightMemo).
Status preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan,
                 PreflightMemo* memo = nullptr);

}  // namespace ptosim::model
