// SPDX-License-Identifier: BSD-3-Clause
// RunReport: the statistics of a finished platform run as JSON (the --stats file) — cycles,
// per-engine busy/idle/stall by reason, utilisation, per-opcode counts and cycles, bytes per
// memory and port, bank conflicts, host control accesses. Deterministic: the same input gives the
// same document.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "model/params/platform_params.h"
#include "platforms/tile_top.h"

namespace ptosim::platforms {

/// An error (SC_REPORT_ERROR) before the run has finished: before the simulation, or while a
/// program runs (BundleDispatcher::finished()).
nlohmann::ordered_json run_report(TileTop& top, const model::PlatformParams& params, std::uint64_t total_cycles);

}  // namespace ptosim::platforms
