// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/preflight.h"

#include "model/sfu/sfu_preflight.h"

namespace ptosim::model {

Status preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan,
                 PreflightMemo* memo) {
  if (!b.op)
    return fault(FaultCode::IllegalInstruction,
                 b.mnemonic + " (an assigned TEPL selector) is not an operation ptosim models");
  if (operation_engine(*b.op) == Engine::Cube) return cube_preflight(b, s, values, plan, memo ? &memo->cube : nullptr);
  return sfu_preflight(b, s, values, plan);
}

Result<ExecPlan> preflight(const Bundle& b, const TileState& s, const IPayloadReader* values) {
  ExecPlan plan;
  if (Status f = preflight(b, s, values, plan)) return *f;
  return plan;
}

}  // namespace ptosim::model
