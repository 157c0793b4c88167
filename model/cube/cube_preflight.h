// SPDX-License-Identifier: BSD-3-Clause
// CUBE operation preflight: the TMATMUL/TGEMV dispatch contract, producing the CUBE ExecPlan.
#pragma once

#include <cstdint>
#include <optional>

#include "model/bundle/bundle.h"
#include "model/common/bounded_vector.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

/// What CUBE preflight finds in a bundle alone, before it reads any tile state: B.FPATR, the input
/// types, the binding schema and B.DATR, all legal. It holds for that bundle only (and names its
/// bindings by index, so it holds for the bundle wherever it is kept).
struct CubeBundleFacts {
  CubeArgs args;  ///< the fields those checks set
  bool gemv = false;
  bool left_scaled = false, right_scaled = false;
  bool left_shared = false, right_shared = false;
  PeMask mask;
  BoundedVector<unsigned, 2 * kMaxTileBindings> local;    ///< Local source selectors in stream order
  BoundedVector<std::uint8_t, kMaxTileBindings> dests;    ///< B.IOT bindings with a destination, by index
  unsigned scalar_slots = 0;
};

/// Preflight of a CUBE bundle into `plan` (default-constructed; left partly filled on a fault).
/// With `memo`: facts found earlier of this very bundle stand in for the bundle-only checks, and
/// a bundle whose bundle-only checks pass leaves its facts there.
Status cube_preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan,
                      std::optional<CubeBundleFacts>* memo = nullptr);

}  // namespace ptosim::model
