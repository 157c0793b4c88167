// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/preflight.h"

#include "model/cube/cube_preflight.h"
#include "model/sfu/sfu_preflight.h"

namespace ptosim::model {

Result<ExecPlan> preflight(const Bundle& b, const TileState& s, const IPayloadReader* values) {
  if (!b.op)
    return fault(FaultCode::IllegalInstruction,
                 b.mnemonic + " (an assigned TEPL selector) is not an operation ptosim models");
  if (operation_engine(*b.op) == Engine::Cube) return cube_preflight(b, s, values);
  return sfu_preflight(b, s, values);
}

}  // namespace ptosim::model
