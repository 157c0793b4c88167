// SPDX-License-Identifier: BSD-3-Clause
#include "model/cube/cube_preflight.h"

namespace ptosim::model {

Result<ExecPlan> cube_preflight(const Bundle& b, const TileState&, const IPayloadReader*) {
  return fault(FaultCode::IllegalInstruction, b.mnemonic + " is not yet modelled by ptosim");
}

}  // namespace ptosim::model
