// SPDX-License-Identifier: BSD-3-Clause
// EngineCommand: the generic-payload extension the dispatcher sends to an engine's command socket —
// one preflighted, allocated bundle to execute — and the engine's reply.
#pragma once

#include <cstdint>
#include <memory>

#include <tlm>

#include "model/numeric/flags.h"
#include "model/plan/exec_plan.h"

namespace ptosim::engines {

struct EngineCommand : tlm::tlm_extension<EngineCommand> {
  std::shared_ptr<const model::ExecPlan> plan;
  std::uint64_t bundle_id = 0;
  bool timing_only = false;  ///< move data for timing, compute nothing

  // Reply, filled by the engine.
  model::NumericFlags flags = 0;

  tlm::tlm_extension_base* clone() const override { return new EngineCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const EngineCommand&>(other);
  }
};

}  // namespace ptosim::engines
